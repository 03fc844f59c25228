/**
 * The action's inputs: read, validated and typed before any request is sent.
 * Every mistake is a ConfigError naming the input, in one line that says how
 * to fix it. Pure: the reader of raw values (and the event, which may offer
 * the target) is passed in. One file per concern under inputs/: the target,
 * the policy, the pipeline; this one composes them.
 */
import { LIMITS } from '../service/contract/index.js'
import type { PublishSettings } from '../github/publish.js'
import { COMMENT_MODES, type CommentMode } from '../github/sticky-comment.js'
import type { PipelineEvent } from '../pipeline/event.js'
import { ConfigError } from '../util/errors.js'
import { parseBaseUrl } from '../service/base-url.js'
import type { TargetInput } from '../target/target-spec.js'
import { clip, oneOf, parseWholeNumber, type InputReader } from './inputs/common.js'
import { INPUT_DEFAULTS } from './inputs/defaults.js'
import { readPipelineInputs, type PipelineInputs } from './inputs/pipeline.js'
import { readPolicyInputs, type PolicyInputs } from './inputs/policy.js'
import { eventEndpoint, readProfileInputs, readTargetInput, type PreviewTarget, type ProfileInputs } from './inputs/target.js'

/** The base-address rule lives with the transport that uses it too. */
export { parseBaseUrl }
export { envInputReader, isMaskableSecret, type InputReader } from './inputs/common.js'
export { INPUT_DEFAULTS } from './inputs/defaults.js'
export { COMMIT_STATUS_MODES, queryValues, type CommitStatusMode, type PipelineInputs } from './inputs/pipeline.js'
export { parseCategories, type PolicyInputs } from './inputs/policy.js'
export {
  eventEndpoint,
  parseEndpointUrl,
  readTargetInput,
  type EventEndpoint,
  type PreviewTarget,
  type ProfileInputs
} from './inputs/target.js'

export type Mode = 'gate' | 'validate' | 'collect'
export type IssueMode = PublishSettings['issue']

export interface ActionInputs extends PolicyInputs, PipelineInputs {
  mode: Mode
  /** The model_id input; '' when the target is given by endpoint_url (main.ts resolves it first). */
  modelId: string
  /** preview: the target is the preview deployment events name, and this event has none. */
  target: TargetInput | PreviewTarget
  /** null: no profile_file. */
  profile: ProfileInputs | null
  apiKey: string
  /** Without a trailing slash and without /api/v1. */
  baseUrl: string
  timeoutMs: number
  githubToken: string
  comment: CommentMode
  issue: IssueMode
  maxRuns: number
}

/** GitHub's longest job on hosted runners is 6 h; a longer wait is a typo. */
export const MAX_TIMEOUT_MINUTES = 360
/** Shorter than a second cannot hold even the trigger: surely a typo. */
const MIN_TIMEOUT_MS = 1_000

/**
 * The service key as sent (`Authorization: Bearer <key>`): at least the
 * service's minimum credential length, visible ASCII only (0x21 to 0x7E; a
 * space, a control or a non-ASCII character cannot be a header's token, and
 * would fail as a network error). The message never shows the key.
 */
function checkApiKey(apiKey: string): string {
  if (apiKey === '') {
    throw new ConfigError(
      'api_key',
      'is empty. Pass the service key from a secret (api_key: ${{ secrets.ASAS_API_KEY }}). Secrets are not given to workflows triggered from forks: this check fails rather than skip, so a change cannot merge unassessed'
    )
  }
  if (apiKey.length < LIMITS.credentialMin) {
    throw new ConfigError(
      'api_key',
      `is shorter than ${LIMITS.credentialMin} characters: not a service key. Pass the key from a secret (api_key: \${{ secrets.ASAS_API_KEY }})`
    )
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError(
      'api_key',
      'holds a space, a control or a non-ASCII character: a service key is visible ASCII only. Check the secret for a stray character (a line break, a typographic quote)'
    )
  }
  return apiKey
}

function parseTimeoutMs(raw: string): number {
  const text = raw === '' ? INPUT_DEFAULTS.timeout_minutes : raw
  if (!/^\d*\.?\d+$/.test(text)) {
    throw new ConfigError('timeout_minutes', `'${clip(text)}' is not a positive number of minutes (decimals allowed, e.g. 0.5 for 30 s)`)
  }
  const minutes = Number(text)
  if (!(minutes > 0)) {
    throw new ConfigError('timeout_minutes', `must be greater than 0 (got '${clip(text)}')`)
  }
  if (minutes * 60_000 < MIN_TIMEOUT_MS) {
    throw new ConfigError('timeout_minutes', `must be at least 1 second (0.0167 minutes); got '${clip(text)}'`)
  }
  if (minutes > MAX_TIMEOUT_MINUTES) {
    throw new ConfigError('timeout_minutes', `must be at most ${MAX_TIMEOUT_MINUTES} (a job on hosted runners lasts 6 h at most)`)
  }
  return Math.round(minutes * 60_000)
}

function parseMaxRuns(raw: string): number {
  return parseWholeNumber('max_runs', raw, INPUT_DEFAULTS.max_runs, 1, 100)
}

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
export function readInputs(get: InputReader, event: PipelineEvent | null = null): ActionInputs {
  const mode = oneOf<Mode>('mode', get('mode'), ['gate', 'validate', 'collect'], INPUT_DEFAULTS.mode)
  const pipeline = readPipelineInputs(get)
  const target = readTargetInput(get, eventEndpoint(event, pipeline.endpointPath))
  if (target.kind === 'preview' && mode === 'validate') {
    throw new ConfigError('model_id', `is required in validate mode: ${target.reason}, so there is no target to validate`)
  }
  checkDetached(mode, pipeline, target)
  const apiKey = checkApiKey(get('api_key'))
  const profile = readProfileInputs(get)
  const policy = readPolicyInputs(get)
  return {
    mode,
    modelId: target.kind === 'model' ? target.modelId : '',
    target,
    profile,
    ...policy,
    apiKey,
    baseUrl: parseBaseUrl(get('base_url')),
    timeoutMs: parseTimeoutMs(get('timeout_minutes')),
    githubToken: get('github_token'),
    comment: oneOf<CommentMode>('comment', get('comment'), COMMENT_MODES, INPUT_DEFAULTS.comment),
    issue: oneOf<IssueMode>('issue', get('issue'), ['off', 'update'], INPUT_DEFAULTS.issue),
    maxRuns: parseMaxRuns(get('max_runs')),
    ...pipeline
  }
}
