/**
 * The commit status edge: deployment runs happen on the default branch and
 * do not show as checks on the pull request, so the result is set on the
 * commit as `agent-security/<name>`, the agent's statusName (src/pipeline/identity.ts): pending when the step
 * starts on it, then success, failure or error with the step's last line as
 * description and the workflow run as target. commit_status: auto sets it on
 * deployment_status and repository_dispatch runs and on the default branch
 * (where it is the durable sign that the gate ran there: adoption.ts), always
 * on every run with a commit, off never. A status that cannot be set is a warning: it never
 * changes the result.
 *
 * Every status names its agent (AgentIdentity.statusOwner, at the
 * description's end). After the final state the commit's statuses are read
 * (one call): a context another agent also sets (two agents given one
 * target_name) ends in failure and fails the step with a configuration error
 * naming target_name; statuses that cannot be read fail that check closed.
 * A state the step could not set (cancelled) is left to the post step.
 */
import { otherStatusOwners, statusContext, type CommitState, type CommitStatus, type ListedStatus } from '../../github/commit-status.js'
import { finalStatusState, statusLine } from '../output-table.js'
import { splitRepository } from '../../github/event-target.js'
import type { RepoRef } from '../../github/transport.js'
import type { GateResult } from '../../report/report-model.js'
import type { StepResult } from '../../decision/step-result.js'
import { AbortedError, ConfigError, describeFailure, GitHubError } from '../../util/errors.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import { saveOwedStatus, type OwedStatus } from '../saved-state.js'
import type { StepContext } from './stage-context.js'
import type { PlannedEvent } from './plan-event.js'
import { runUrl } from './report.js'
import type { SignWrite } from '../../evidence/adoption.js'

/** The events whose runs set the status with commit_status auto. */
const DEPLOYMENT_EVENTS: ReadonlySet<string> = new Set(['deployment_status', 'repository_dispatch'])

/** Where the status goes: set pending at the start, its final state at the end. */
export interface StatusEdge {
  token: string
  repo: RepoRef
  sha: string
  context: string
  targetUrl: string | null
  /** The agent every status of this run names (AgentIdentity.statusOwner). */
  owner: string
}

/** The edge of this run, or null when no status is to be set (commit_status, the event, no commit, no token). */
export function statusEdge(ctx: StepContext, inputs: ActionInputs, planned: PlannedEvent): StatusEdge | null {
  const { env } = ctx.io
  // wait: detached and its collector: the status is the check (the job ends before the result), on every event.
  // The default branch: its status is the sign that it ran the gate (src/evidence/adoption.ts), which GitHub never deletes.
  const auto =
    DEPLOYMENT_EVENTS.has(planned.event.eventName) || planned.onDefaultBranch || inputs.wait === 'detached' || inputs.mode === 'collect'
  const wanted = inputs.commitStatus === 'always' || (inputs.commitStatus === 'auto' && auto)
  const repo = splitRepository(env.GITHUB_REPOSITORY)
  if (!wanted || planned.commit === null || repo === undefined) return null
  if (inputs.githubToken === '') {
    ctx.io.log.warning(
      'github_token is empty, so the commit status cannot be set: leave github_token at its default (${{ github.token }}).'
    )
    return null
  }
  return {
    token: inputs.githubToken,
    repo,
    sha: planned.commit,
    context: statusContext(planned.agent.statusName),
    targetUrl: runUrl(env),
    owner: planned.agent.statusOwner
  }
}

/** What a status left pending ends in when the step never sets its result (the post step sets it). */
export const UNFINISHED_STATUS = 'The step stopped (the job was cancelled?) before its result was set: nothing passed'

/** What a success the step could not set ends in: the post step never sets success (state.ts OWED_STATES). */
export const UNSET_SUCCESS_STATUS = 'The step passed but could not set success, which is never set later: re-run the job'

/**
 * Set a state. Until a final state is set, the post step owes one
 * (saveOwedStatus): this final state, or error after pending, so a cancelled
 * job (whose GitHub calls stop at the signal) never leaves the status pending.
 */
async function setStatus(ctx: StepContext, edge: StatusEdge, state: CommitState, description: string): Promise<boolean> {
  const status = { sha: edge.sha, state, context: edge.context, description, targetUrl: edge.targetUrl, owner: edge.owner }
  saveOwedStatus(ctx.io, { repo: edge.repo, status: owedFor(status) })
  const set = await ctx.io.setCommitStatus({ githubToken: edge.token, repo: edge.repo, status })
  if (!set) return false
  ctx.io.log.info(`Commit status ${edge.context} on ${edge.sha.slice(0, 7)}: ${state}.`)
  if (state !== 'pending') saveOwedStatus(ctx.io, null)
  return true
}

/** What the post step is to set if `status` is not set: a failure as is, error for anything else (state.ts OWED_STATES). */
function owedFor(status: CommitStatus): OwedStatus['status'] {
  if (status.state === 'failure' || status.state === 'error') return { ...status, state: status.state }
  return { ...status, state: 'error', description: status.state === 'pending' ? UNFINISHED_STATUS : UNSET_SUCCESS_STATUS }
}

/** Pending: the step has started on the commit. Whether it was set (the sign's writer works, adoption.ts): said why not. */
export async function startStatus(ctx: StepContext, edge: StatusEdge | null, inputs: ActionInputs): Promise<SignWrite> {
  if (edge === null)
    return {
      set: false,
      why:
        inputs.commitStatus === 'off'
          ? 'commit_status is off'
          : inputs.githubToken === ''
            ? 'github_token is empty'
            : 'this event names no commit or repository'
    }
  const set = await setStatus(ctx, edge, 'pending', 'Assessing the agent (or carrying its last result over)…')
  return set ? { set: true, targetUrl: edge.targetUrl } : { set: false, why: 'GitHub refused it: see the warning above' }
}

/**
 * wait: detached: pending with the run and its deadline, handed over to the
 * collector, so the post step owes nothing (it must not set error on a run
 * that goes on). False when it could not be set.
 */
/** The status set pending with `description`, the step still owing its end (the pending record is not written yet). */
export function pendingStatus(ctx: StepContext, edge: StatusEdge, description: string): Promise<boolean> {
  return setStatus(ctx, edge, 'pending', description)
}

export async function handOverStatus(ctx: StepContext, edge: StatusEdge, description: string): Promise<boolean> {
  const set = await setStatus(ctx, edge, 'pending', description)
  saveOwedStatus(ctx.io, null)
  return set
}

/**
 * The final state, from the result and the step's pass or fail; its last line
 * is the description. Then the context is checked for another agent (see
 * sharedContext): the step to conclude with is `step`, or the failure that
 * refuses the shared context.
 */
export async function finishStatus(
  ctx: StepContext,
  edge: StatusEdge | null,
  result: GateResult,
  step: StepResult,
  description?: string
): Promise<StepResult> {
  return (await finalStatus(ctx, edge, result, step, description)).step
}

/** finishStatus, saying whether the final state was set (`set` false: GitHub did not take it; true when there is no status). */
export async function finalStatus(
  ctx: StepContext,
  edge: StatusEdge | null,
  result: GateResult,
  step: StepResult,
  description?: string
): Promise<{ step: StepResult; set: boolean }> {
  if (edge === null) return { step, set: true }
  const failing = step.outcome === 'fail'
  const state = finalStatusState(step.resultOutput ?? result, failing)
  description ??= statusLine(step.resultOutput ?? result, step.line.replace(/^Result: /, ''), failing)
  if (!(await setStatus(ctx, edge, state, description))) return { step, set: false }
  const refused = await sharedContext(ctx, edge)
  if (refused === null) return { step, set: true }
  await setStatus(ctx, edge, 'failure', refused.status)
  return { step: { outcome: 'fail', resultOutput: 'error', line: describeFailure(refused.error, ctx.nameInput) }, set: true }
}

/**
 * Whether another agent sets this context on the commit, read after this
 * run's final status: every status names its agent, so of two agents sharing
 * a context, whichever writes last sees the other's status (its pending one
 * at least) and ends the context in failure; a run that reads only its own
 * agent's statuses leaves its state. Statuses that cannot be read fail the
 * check closed. Null: the context is this agent's alone.
 */
async function sharedContext(ctx: StepContext, edge: StatusEdge): Promise<{ status: string; error: Error } | null> {
  let listed: ListedStatus[]
  try {
    listed = await ctx.io.listCommitStatuses({ githubToken: edge.token, repo: edge.repo, sha: edge.sha })
  } catch (err) {
    if (err instanceof AbortedError) throw err
    const why = `Could not read the statuses of ${edge.sha.slice(0, 7)} to check that no other agent sets ${edge.context}`
    return {
      status: 'Could not check that no other agent sets this status: failing closed',
      error: new GitHubError({ endpoint: 'GET /repos/{owner}/{repo}/commits/{ref}/statuses', message: `${why}: ${describeFailure(err)}` })
    }
  }
  const others = otherStatusOwners(listed, edge.context, edge.owner)
  if (others.length === 0) return null
  return {
    status: 'Another agent sets this status too: give each agent its own target_name',
    error: new ConfigError(
      'target_name',
      `another agent (${others.join(', ')}) set the commit status ${edge.context} on ${edge.sha.slice(0, 7)}, so the last to finish would win: give each agent its own target_name (this one is agent ${edge.owner})`
    )
  }
}
