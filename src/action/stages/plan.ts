/**
 * Stage plan: assess, carry a result over, or fail closed
 * (docs/pr-pipelines.md). The identity of the assessment (the model or
 * target, the profile's digest, the digest of the inputs that decide the
 * verdict) is taken here, and the pure decisions of src/pipeline/ are fed
 * what GitHub says:
 * - a pull request's push, or a deployment of its commit: the newest record
 *   of this action's sticky comment, then the files changed since the
 *   assessed commit (agent_paths);
 * - a merge queue: each queued pull request's head and record (merge_group).
 * Whenever GitHub cannot tell, the step assesses: it never carries a result
 * it could not check.
 */
import { findAssessmentRecords, tokenLogin, type FoundRecord } from '../../github/assessment-record.js'
import type { GitHubClient } from '../../github/github-client.js'
import type { PullRequestRef } from '../../github/sticky-comment.js'
import { decideCarryOver, planCarryOver, type CarriedResult } from '../../pipeline/carry-over.js'
import { assessmentIdentityOf, policyDigest, recordsOfAgent, textDigest, type AssessmentIdentity } from '../../pipeline/identity.js'
import { decideMergeQueue, type QueuedPull, type QueueTarget } from '../../pipeline/merge-queue.js'
import type { AssessmentRecord } from '../../report/comment.js'
import { verdictInputs } from '../../decision/carried-result.js'
import { splitRepository } from '../../github/event-target.js'
import { AbortedError, ConfigError, describeFailure } from '../../util/errors.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import { readProfileText } from '../prepare-target.js'
import type { StepContext } from './stage-context.js'
import { githubReads } from './github-reads.js'
import type { GatePolicy } from './load-baseline-and-risks.js'
import type { PlannedEvent } from './plan-event.js'

export interface AssessPlan {
  kind: 'assess'
  /** Why this step assesses (the budget line says it). */
  reason: string
  identity: AssessmentIdentity
}

export interface CarryOverPlan {
  kind: 'carry_over'
  result: CarriedResult
  /** "carried over: pass as assessed at abc1234 (...)". */
  reason: string
  /** The commit the result was assessed at. */
  assessedSha: string
  /** Files changed since (none under agent_paths). */
  changedFiles: string[]
  identity: AssessmentIdentity
  /** The record written again, standing for this commit; null on a merge queue (nothing is written to the pull request). */
  record: AssessmentRecord | null
  /** The comment that holds the record: the report replaces it. */
  from: FoundRecord | null
  /** What changed since the assessed commit (see carry-over.ts); null on a merge queue. */
  since: string | null
  /** What decided the carried result ("1 open critical"), as the recorded comment says; null when unknown. */
  cause: string | null
}

export type AssessmentPlan = AssessPlan | CarryOverPlan | { kind: 'fail_closed'; error: ConfigError }

/** sha256 of the profile file's text as the workspace holds it; null without profile_file or when it is missing. */
async function profileDigestOf(env: NodeJS.ProcessEnv, path: string): Promise<string | null> {
  const text = await readProfileText(env, path)
  return text === null ? null : textDigest(text)
}

/** What makes this run's assessment "the same" as a recorded one: the subject, the profile, the verdict inputs. */
export async function assessmentIdentity(
  ctx: StepContext,
  inputs: ActionInputs,
  policy: GatePolicy,
  planned: PlannedEvent
): Promise<AssessmentIdentity> {
  const parts = verdictInputs({
    minSeverity: inputs.minSeverity,
    categories: inputs.categories,
    failOn: inputs.failOn,
    failOnIncomplete: inputs.failOnIncomplete,
    acceptedText: policy.accepted?.text ?? null,
    baselineRunId: policy.baseline.baseline?.run_id ?? null,
    evidenceRuns: inputs.evidenceRuns,
    evidenceMaxAgeDays: inputs.evidenceMaxAgeDays,
    confidence: inputs.confidence,
    confirmationRunsMax: inputs.confirmationRunsMax,
    runsPerChange: inputs.runsPerChange
  })
  return assessmentIdentityOf(planned.agent, {
    profileDigest: inputs.profile === null ? null : await profileDigestOf(ctx.io.env, inputs.profile.path),
    policyDigest: policyDigest(parts)
  })
}

export async function plan(ctx: StepContext, inputs: ActionInputs, policy: GatePolicy, planned: PlannedEvent): Promise<AssessmentPlan> {
  const identity = await assessmentIdentity(ctx, inputs, policy, planned)
  const decided =
    planned.event.kind === 'merge_group' ? await planQueue(ctx, inputs, planned, identity) : await planPush(ctx, inputs, planned, identity)
  // Nothing can assess a preview this event has no deployment of.
  if (decided.kind === 'assess' && inputs.target.kind === 'preview') {
    return { kind: 'fail_closed', error: new ConfigError('endpoint_url', `is empty and ${inputs.target.reason}: ${decided.reason}`) }
  }
  if (decided.kind === 'assess') ctx.io.log.info(`Assessing: ${decided.reason}.`)
  if (decided.kind === 'carry_over') ctx.io.log.info(`Not assessing: ${decided.reason}.`)
  return decided
}

/** What GitHub holds about earlier assessments, read with the token's own login; null without a token or repository. */
interface Reads {
  gh: GitHubClient
  repo: { owner: string; repo: string }
  login: string | null
}

async function reads(ctx: StepContext, inputs: ActionInputs): Promise<Reads | null> {
  const repo = splitRepository(ctx.io.env.GITHUB_REPOSITORY)
  const gh = repo === undefined ? null : await githubReads(ctx, inputs.githubToken)
  if (gh === null || repo === undefined) return null
  return { gh, repo, login: await tokenLogin(gh, gh, ctx.io.log) }
}

function readFailure(ctx: StepContext, err: unknown): string {
  if (err instanceof AbortedError) throw err
  ctx.io.log.warning(`Could not read the earlier assessment from GitHub, so this step assesses: ${describeFailure(err)}`)
  return `the earlier assessment could not be read from GitHub (${describeFailure(err)})`
}

/** A pull request's push, or a deployment of its commit: agent_paths decides. */
async function planPush(
  ctx: StepContext,
  inputs: ActionInputs,
  planned: PlannedEvent,
  identity: AssessmentIdentity
): Promise<AssessmentPlan> {
  const assess = (reason: string): AssessPlan => ({ kind: 'assess', reason, identity })
  const context = { agentPaths: inputs.agentPaths, onDefaultBranch: planned.onDefaultBranch, headSha: planned.commit ?? '', identity }
  const without = planCarryOver({ ...context, record: null })
  if (inputs.agentPaths.length === 0 || planned.onDefaultBranch) return assess(without.kind === 'assess' ? without.reason : 'assessing')
  if (planned.commit === null) return assess('the event names no commit, so no earlier result can stand for it')
  if (planned.pull === null) return assess('no pull request holds this commit, so no earlier assessment of it is recorded')
  try {
    const r = await reads(ctx, inputs)
    if (r === null) return assess('github_token is empty (or GITHUB_REPOSITORY unset): earlier assessments cannot be read')
    const found = recordsOfAgent(await findAssessmentRecords(r.gh, planned.pull, r.login, ctx.io.log), identity).at(0) ?? null
    const first = planCarryOver({ ...context, headSha: planned.commit, record: found?.record ?? null })
    const decided =
      first.kind === 'compare' ? decideCarryOver(first, await r.gh.changedFiles(r.repo, first.base, first.head), inputs.agentPaths) : first
    if (decided.kind === 'assess') return assess(decided.reason)
    return { ...decided, identity, from: found, cause: found?.cause ?? null }
  } catch (err) {
    return assess(readFailure(ctx, err))
  }
}

/** Each queued pull request's head now, and the newest record of its sticky comment. */
async function queuedPulls(ctx: StepContext, inputs: ActionInputs, numbers: number[], identity: AssessmentIdentity): Promise<QueuedPull[]> {
  const unread = numbers.map((number) => ({ number, headSha: null, records: [] }))
  try {
    const r = await reads(ctx, inputs)
    if (r === null) return unread
    const out: QueuedPull[] = []
    for (const number of numbers) {
      const pr: PullRequestRef = { ...r.repo, number }
      const pull = await r.gh.getPull(r.repo, number)
      const found = recordsOfAgent(await findAssessmentRecords(r.gh, pr, r.login, ctx.io.log), identity)
      out.push({ number, headSha: pull?.headSha ?? null, records: found.map((f) => f.record) })
    }
    return out
  } catch (err) {
    readFailure(ctx, err)
    return unread
  }
}

/** A merge queue: merge_group decides (carry the queued pull requests' passes over, or assess). */
async function planQueue(
  ctx: StepContext,
  inputs: ActionInputs,
  planned: PlannedEvent,
  identity: AssessmentIdentity
): Promise<AssessmentPlan> {
  const event = planned.event
  if (event.kind !== 'merge_group') throw new Error('planQueue: not a merge_group event')
  const target: QueueTarget = inputs.target.kind === 'model' ? 'model' : inputs.target.kind === 'endpoint' ? 'endpoint' : 'preview'
  const pulls = inputs.mergeGroup === 'assess' ? [] : await queuedPulls(ctx, inputs, event.prNumbers, identity)
  const decided = decideMergeQueue({
    mode: inputs.mergeGroup,
    pulls,
    eventReason: event.reason,
    identity,
    target,
    queueSha: planned.commit
  })
  switch (decided.kind) {
    case 'carry_over': {
      const first = decided.pulls[0]
      return {
        kind: 'carry_over',
        result: 'pass',
        reason: decided.reason,
        assessedSha: first.assessedSha,
        changedFiles: [],
        identity,
        record: null,
        from: null,
        since: null,
        cause: null
      }
    }
    case 'assess':
      return { kind: 'assess', reason: decided.reason, identity }
    case 'fail_closed':
      // Not merge_group's fault: a preview has no deployment of the queue's commit to assess instead.
      return { kind: 'fail_closed', error: new ConfigError('endpoint_url', decided.reason, decided.summary) }
  }
}
