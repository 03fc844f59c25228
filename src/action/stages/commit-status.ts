/**
 * The commit status edge: deployment runs happen on the default branch and
 * do not show as checks on the pull request, so the result is set on the
 * commit as `agent-security/<name>`, the agent's statusName (src/pipeline/identity.ts): pending when the step
 * starts on it, then success, failure or error with the step's last line as
 * description and the workflow run as target. commit_status: auto sets it on
 * deployment_status and repository_dispatch runs, always on every run with a
 * commit, off never. A status that cannot be set is a warning: it never
 * changes the result.
 */
import { statusContext, statusStateFor, type CommitState } from '../../github/commit-status.js'
import { splitRepository } from '../../github/context.js'
import type { RepoRef } from '../../github/transport.js'
import type { GateResult } from '../../report/report-model.js'
import type { StepResult } from '../../decision/step-result.js'
import type { ActionInputs } from '../inputs.js'
import type { StepContext } from './context.js'
import type { PlannedEvent } from './plan-event.js'
import { runUrl } from './report.js'

/** The events whose runs set the status with commit_status auto. */
const DEPLOYMENT_EVENTS: ReadonlySet<string> = new Set(['deployment_status', 'repository_dispatch'])

/** Where the status goes: set pending at the start, its final state at the end. */
export interface StatusEdge {
  token: string
  repo: RepoRef
  sha: string
  context: string
  targetUrl: string | null
}

/** The edge of this run, or null when no status is to be set (commit_status, the event, no commit, no token). */
export function statusEdge(ctx: StepContext, inputs: ActionInputs, planned: PlannedEvent): StatusEdge | null {
  const { env } = ctx.io
  const wanted = inputs.commitStatus === 'always' || (inputs.commitStatus === 'auto' && DEPLOYMENT_EVENTS.has(planned.event.eventName))
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
    targetUrl: runUrl(env)
  }
}

async function setStatus(ctx: StepContext, edge: StatusEdge, state: CommitState, description: string): Promise<void> {
  const set = await ctx.io.setCommitStatus({
    githubToken: edge.token,
    repo: edge.repo,
    status: { sha: edge.sha, state, context: edge.context, description, targetUrl: edge.targetUrl }
  })
  if (set) ctx.io.log.info(`Commit status ${edge.context} on ${edge.sha.slice(0, 7)}: ${state}.`)
}

/** Pending: the step has started on the commit. */
export async function startStatus(ctx: StepContext, edge: StatusEdge | null): Promise<void> {
  if (edge !== null) await setStatus(ctx, edge, 'pending', 'Assessing the agent (or carrying its last result over)…')
}

/** The final state, from the result and the step's pass or fail; its last line is the description. */
export async function finishStatus(ctx: StepContext, edge: StatusEdge | null, result: GateResult, step: StepResult): Promise<void> {
  if (edge === null) return
  const state = statusStateFor(step.resultOutput ?? result, step.outcome === 'fail')
  await setStatus(ctx, edge, state, step.line.replace(/^Result: /, ''))
}
