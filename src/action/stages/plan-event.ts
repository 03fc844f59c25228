/**
 * Stage plan event: what the triggering event is for the gate
 * (docs/pr-pipelines.md), read before anything is prepared.
 * - A deployment event that is not ready is skipped: nothing assessed, no
 *   failure, the summary says why.
 * - One that says ready but names no usable URL or commit fails closed,
 *   unless endpoint_url is given.
 * - A deployment runs on the default branch, so the pull request of the
 *   deployed commit is found here: its sticky comment gets the report. None
 *   found: the summary and the commit status only, and the report says so.
 * - Every event: the commit it is about, the pull request whose comment
 *   holds the records of earlier assessments, and the model or target.
 */
import { splitRepository } from '../../github/event-target.js'
import { pullForCommit, type PullSummary } from '../../github/pulls.js'
import type { PullRequestRef } from '../../github/sticky-comment.js'
import { eventCommit, type PipelineEvent } from '../../pipeline/event.js'
import { agentIdentity, type AgentIdentity } from '../../pipeline/identity.js'
import { AbortedError, ConfigError, describeFailure } from '../../util/errors.js'
import { nonEmpty, oneLine, shortSha } from '../../util/text.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { DeploymentContext } from '../prepare-target.js'
import type { StepContext } from './stage-context.js'
import { githubReads } from './github-reads.js'

export interface PlannedEvent {
  event: PipelineEvent
  /** The commit the run is about (deployed, the PR's head, the queue's, pushed), full SHA; null when the event does not say. */
  commit: string | null
  /** Set when nothing is to be assessed on this event (a deployment not ready): why. */
  skipped: string | null
  /** The pull request whose sticky comment holds the records and gets the report: the event's, or the deployed commit's. */
  pull: PullRequestRef | null
  /** A deployment's pull request and ref, which name its preview (prepareTarget); null on other events. */
  deployment: DeploymentContext | null
  onDefaultBranch: boolean
  /** The agent (agentIdentity): what registration, the records, the comment and the commit status are keyed on. */
  agent: AgentIdentity
  /** What the event is and where its result goes, for the report. */
  lines: string[]
}

/**
 * The agent this run is about, from the inputs and the event: the one call of
 * agentIdentity for the step. `prNumber`, `ref`: what names a preview by
 * default; `site`: the deployed project, when the event says.
 */
export function agentOf(
  inputs: ActionInputs,
  env: NodeJS.ProcessEnv,
  on: { prNumber: number | null; ref?: string | null; site?: string | null }
): AgentIdentity {
  return agentIdentity(inputs.target, {
    repository: env.GITHUB_REPOSITORY ?? '',
    prNumber: on.prNumber,
    ref: on.ref ?? nonEmpty(env.GITHUB_HEAD_REF) ?? env.GITHUB_REF_NAME ?? '',
    site: on.site ?? null
  })
}

export async function planEvent(ctx: StepContext, inputs: ActionInputs, event: PipelineEvent): Promise<PlannedEvent> {
  const { env } = ctx.io
  const repo = splitRepository(env.GITHUB_REPOSITORY) ?? null
  const commit = eventCommit(event)
  const plain = (prNumber: number | null, pull: PullRequestRef | null, lines: string[] = []): PlannedEvent => ({
    event,
    commit,
    skipped: null,
    pull,
    deployment: null,
    onDefaultBranch: event.kind === 'push' || event.kind === 'other' ? event.onDefaultBranch : false,
    agent: agentOf(inputs, env, { prNumber }),
    lines
  })
  switch (event.kind) {
    case 'deployment_skipped':
      return { ...plain(null, null), skipped: event.reason }
    case 'deployment_invalid':
      if (inputs.target.kind === 'preview') {
        throw new ConfigError(
          'endpoint_url',
          `is empty and the deployment event cannot be used: ${event.reason}. Give endpoint_url for this event`
        )
      }
      return plain(null, null, [`The deployment event cannot be used (${event.reason}): assessing endpoint_url as given.`])
    case 'deployment':
      return planDeployment(ctx, inputs, event, repo)
    case 'pull_request':
      return plain(event.number, repo === null ? null : { ...repo, number: event.number })
    case 'merge_group': {
      const pr = event.prNumbers.at(0) ?? null
      const queue = commit === null ? "the merge queue's commit" : `the merge queue's commit ${shortSha(commit)}`
      return plain(pr, null, [`Merge queue: ${queue}${pr === null ? '' : ` (pull request #${pr})`}.`])
    }
    default:
      return plain(null, null)
  }
}

type Deployment = Extract<PipelineEvent, { kind: 'deployment' }>

/** A ready deployment: its pull request (open, the deployed commit its head first), found by the commit. */
async function planDeployment(
  ctx: StepContext,
  inputs: ActionInputs,
  event: Deployment,
  repo: { owner: string; repo: string } | null
): Promise<PlannedEvent> {
  const at = shortSha(event.sha)
  const where = event.environment === null ? '' : ` to ${oneLine(event.environment, 60)}`
  const found = await pullOfCommit(ctx, inputs, repo, event.sha)
  const pull = typeof found === 'string' ? null : found
  const prNumber = pull?.number ?? null
  const why = typeof found === 'string' ? found : 'no open pull request holds this commit'
  const lines = [
    pull === null
      ? `Deployment of ${at}${where}: ${why}, so the result is in this summary and the commit status only.`
      : `Deployment of ${at}${where}, the commit of pull request #${pull.number}: the result goes to its comment and the commit status.`
  ]
  return {
    event,
    commit: event.sha,
    skipped: null,
    pull: prNumber === null || repo === null ? null : { ...repo, number: prNumber },
    deployment: { prNumber, ref: event.ref },
    onDefaultBranch: false,
    agent: agentOf(inputs, ctx.io.env, { prNumber, ref: event.ref, site: event.project ?? event.environment }),
    lines
  }
}

/** The open pull request holding `sha`, null when none does, or why it could not be looked up. */
async function pullOfCommit(
  ctx: StepContext,
  inputs: ActionInputs,
  repo: { owner: string; repo: string } | null,
  sha: string
): Promise<PullSummary | null | string> {
  if (repo === null) return 'GITHUB_REPOSITORY is not set, so its pull request cannot be looked up'
  const gh = await githubReads(ctx, inputs.githubToken)
  if (gh === null) return 'github_token is empty, so its pull request cannot be looked up'
  try {
    return pullForCommit(await gh.pullsOfCommit(repo, sha), sha)
  } catch (err) {
    if (err instanceof AbortedError) throw err
    ctx.io.log.warning(`Could not look up the pull request of the deployed commit ${shortSha(sha)}: ${describeFailure(err)}`)
    return `its pull request could not be looked up (${describeFailure(err)})`
  }
}
