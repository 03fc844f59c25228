/**
 * The action's inputs: read, validated and typed before any request is sent.
 * Every mistake is a ConfigError naming the input, in one line that says how
 * to fix it. Pure: the reader of raw values (and the event, which may offer
 * the target) is passed in. One file per concern under inputs/: the target,
 * the policy, the pipeline; this one composes them.
 */
import { type CiHost } from '../ci-host.js'
import type { PipelineEvent } from '../../pipeline/event.js'
import type { TargetInput } from '../../target/target-spec.js'
import { ConfigError } from '../../util/errors.js'
import type { InputReader } from './common.js'
import { PIPELINE_INPUTS, type PipelineInputs } from './pipeline.js'
import { POLICY_INPUTS, type PolicyInputs } from './policy-entries.js'
import { readFields, readInput } from './spec.js'
import { checkApiKey, MODE, STEP_INPUTS, type StepInputs } from './step.js'
import { eventEndpoint, readProfileInputs, readTargetInput, type PreviewTarget, type ProfileInputs } from './read-target.js'

/** The base-address rule lives with the transport that uses it too. */
export { parseBaseUrl } from '../../service/base-url.js'
export { envInputReader, isMaskableSecret, type InputReader } from './common.js'
export { INPUT_DEFAULTS } from './defaults.js'
export { COMMIT_STATUS_MODES, queryValues, type CommitStatusMode, type PipelineInputs } from './pipeline.js'
export { parseCategories, type PolicyInputs } from './policy-entries.js'
export { MAX_TIMEOUT_MINUTES, type StepInputs } from './step.js'
export { INPUT_TABLE, type InputName } from './table.js'
export {
  eventEndpoint,
  parseEndpointUrl,
  readTargetInput,
  type EventEndpoint,
  type PreviewTarget,
  type ProfileInputs
} from './read-target.js'

/**
 * Every input, read and validated. The fields of the step, policy and
 * pipeline entries come from the inputs table (each entry's field, typed by
 * its parser); the target and the profile combine several inputs.
 */
export interface ActionInputs extends StepInputs, PolicyInputs, PipelineInputs {
  /** The model_id input; '' when the target is given by endpoint_url (main.ts resolves it first). */
  modelId: string
  /** preview: the target is the preview deployment events name, and this event has none. */
  target: TargetInput | PreviewTarget
  /** null: no profile_file. */
  profile: ProfileInputs | null
}

export type Mode = ActionInputs['mode']
export type IssueMode = ActionInputs['issue']

/** wait: detached and mode: collect work on a model_id, and the commit status is their check. */
function checkDetached(mode: Mode, pipeline: PipelineInputs, target: ActionInputs['target']): void {
  const detached = pipeline.wait === 'detached' || mode === 'collect'
  if (!detached) return
  const name = mode === 'collect' ? 'mode' : 'wait'
  const what = mode === 'collect' ? "'collect'" : "'detached'"
  if (pipeline.wait === 'detached' && mode !== 'gate')
    throw new ConfigError('wait', `'detached' works in gate mode only (mode is '${mode}')`)
  if (target.kind !== 'model') {
    throw new ConfigError(
      name,
      `${what} needs model_id (the collector re-derives the target from it); an endpoint_url or a preview is waited for attached`
    )
  }
  if (pipeline.commitStatus === 'off') {
    throw new ConfigError(
      'commit_status',
      `is off, and with ${name} ${what} the commit status agent-security/<model_id> is the check: leave commit_status at auto`
    )
  }
}

/**
 * Read and validate every input. Throws ConfigError on the first mistake,
 * before any request is made. `event`: the run's pipeline event, which may
 * offer the target when model_id and endpoint_url are both empty.
 */
export function readInputs(get: InputReader, event: PipelineEvent | null = null, host: CiHost = 'github'): ActionInputs {
  const mode = readInput(get, MODE)
  if (mode === 'overview')
    throw new ConfigError('mode', "'overview' reads the workspace, not one target: readOverviewInputs reads its inputs")
  const pipeline = readFields(get, PIPELINE_INPUTS)
  const target = readTargetInput(get, eventEndpoint(event, pipeline.endpointPath))
  if (target.kind === 'preview' && mode === 'validate') {
    throw new ConfigError('model_id', `is required in validate mode: ${target.reason}, so there is no target to validate`)
  }
  checkDetached(mode, pipeline, target)
  // Checked in the order a user fixes them one by one: the key, the profile and the policy, then the rest of the step.
  checkApiKey(get('api_key'), host)
  const profile = readProfileInputs(get)
  const policy = readFields(get, POLICY_INPUTS)
  const step = readFields(get, STEP_INPUTS)
  return {
    ...step,
    modelId: target.kind === 'model' ? target.modelId : '',
    target,
    profile,
    ...policy,
    ...pipeline
  }
}

/** mode: overview: the service, its key, the policy (min_severity, evidence_max_age_days) and where to write; no target. */
export interface OverviewInputs extends StepInputs, PolicyInputs {
  mode: 'overview'
}

/** Whether the step's mode is overview (read first: the workspace has no target to read). */
export function isOverviewMode(get: InputReader): boolean {
  return readInput(get, MODE) === 'overview'
}

/**
 * The inputs of mode: overview, read and validated as readInputs reads
 * them. It reads every model the key can see, so a target is a mistake
 * (ConfigError naming it), never silently ignored.
 */
export function readOverviewInputs(get: InputReader, host: CiHost = 'github'): OverviewInputs {
  for (const name of ['model_id', 'endpoint_url'] as const)
    if (get(name) !== '')
      throw new ConfigError(name, "is not used by mode 'overview', which reads every model the api_key can see: remove it")
  checkApiKey(get('api_key'), host)
  return { ...readFields(get, STEP_INPUTS), ...readFields(get, POLICY_INPUTS), mode: 'overview' }
}
