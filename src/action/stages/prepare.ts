/**
 * Stage prepare: the inputs, read and checked before any request; the model
 * to assess (model_id, or endpoint_url found or registered); its profile
 * synced from profile_file. The model is part of the step's outcome as soon
 * as it is known, so a step that fails later still names it.
 */
import { readEventFile, readEventPayload } from '../../github/publish.js'
import { readPipelineEvent, unreadableEvent, type PipelineEvent } from '../../pipeline/event.js'
import { envInputReader, readInputs, readOverviewInputs, type ActionInputs, type OverviewInputs } from '../inputs/read-inputs.js'
import { ciHost } from '../ci-host.js'
import { prepareTarget, type DeploymentContext, type Prepared } from '../prepare-target.js'
import type { PreparedOutcome } from '../outcome.js'
import type { StepContext } from './stage-context.js'
import { agentOf } from './plan-event.js'
import { targetFromEvent } from '../../github/event-target.js'
import type { AgentIdentity } from '../../pipeline/identity.js'
import { gitlabJobRefusal } from '../../gitlab/fork-rule.js'

/** The pull request of a pull_request event (the default name of its preview); null on other events. */
async function eventPullNumber(env: NodeJS.ProcessEnv): Promise<number | null> {
  const event = targetFromEvent(env.GITHUB_EVENT_NAME ?? '', await readEventPayload(env.GITHUB_EVENT_PATH), env.GITHUB_REPOSITORY ?? '')
  return event.kind === 'pull_request' ? event.number : null
}

export interface PreparedStep {
  /** The inputs, with the model_id resolved. */
  inputs: ActionInputs
  /** What the report says about the target and the profile sync. */
  report: Prepared['report']
  /** The model, as the step's outcome names it; null for a preview this event has no deployment of. */
  outcome: PreparedOutcome | null
}

export interface StepInputs {
  inputs: ActionInputs
  /** The event as the pipeline reads it (a deployment may give the target). */
  event: PipelineEvent
}

/** Every input, read and validated, and the event; a mistake is a ConfigError naming the input. */
export async function readStepInputs(ctx: StepContext): Promise<StepInputs> {
  const { env } = ctx.io
  const eventName = env.GITHUB_EVENT_NAME ?? ''
  const payload = await readEventFile(env.GITHUB_EVENT_PATH)
  const event = payload.ok ? readPipelineEvent(eventName, payload.value, env) : unreadableEvent(eventName, payload.why, env)
  const inputs = readInputs(envInputReader(env), event, ciHost(env))
  refuseForkSecrets(env, inputs.apiKey)
  return { inputs, event }
}

/** mode: overview's inputs (no target, no event to read), checked as every mode's are. */
export function readOverviewStepInputs(ctx: StepContext): OverviewInputs {
  const { env } = ctx.io
  const inputs = readOverviewInputs(envInputReader(env), ciHost(env))
  refuseForkSecrets(env, inputs.apiKey)
  return inputs
}

/** In a GitLab job running a fork's code with this project's variables, no secret is used. */
function refuseForkSecrets(env: NodeJS.ProcessEnv, apiKey: string): void {
  const refusal = gitlabJobRefusal(env, [
    { name: 'api_key', value: apiKey },
    { name: 'target_credential', value: envInputReader(env)('target_credential') },
    { name: 'GITLAB_TOKEN', value: env.GITLAB_TOKEN }
  ])
  if (refusal) throw refusal
}

/**
 * `deployment`: the pull request and ref of a deployed commit (they name its
 * preview). A preview this event has no deployment of is not prepared: the
 * plan carries a result over or fails closed.
 */
export async function prepare(
  ctx: StepContext,
  given: ActionInputs,
  planned: { agent: AgentIdentity; deployment: DeploymentContext | null } | null = null
): Promise<PreparedStep> {
  const { io } = ctx
  if (given.target.kind === 'preview') return { inputs: given, report: { target: null, profileSync: null }, outcome: null }
  const prepared = await prepareTarget(
    {
      io,
      clock: ctx.clock,
      signal: ctx.signal,
      random: ctx.random,
      makeApi: (deadline, requestTimeoutMs) => ctx.makeApi(given, deadline, { requestTimeoutMs })
    },
    given,
    planned?.agent ?? agentOf(given, io.env, { prNumber: await eventPullNumber(io.env) }),
    planned?.deployment ?? null
  )
  const inputs = { ...given, modelId: prepared.target.modelId }
  const outcome: PreparedOutcome = {
    modelId: inputs.modelId,
    target: prepared.target.outcome === 'given' ? null : prepared.target.outcome,
    profileVersion: prepared.report.profileSync?.version ?? null
  }
  return { inputs, report: prepared.report, outcome }
}
