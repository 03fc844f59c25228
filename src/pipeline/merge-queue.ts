/**
 * The merge queue (merge_group events): carry the queued pull requests'
 * results over, or assess the queue's commit. Pure.
 *
 * `merge_group: carry_over` trusts the pull request's own check: its head
 * commit's result, as the bot's own sticky comment records it (assessed
 * there, or carried over there because no agent path changed). It does not
 * assess the queue's commit, which also holds the base branch's newer commits
 * and the entries ahead in the queue: each of those is gated by its own check.
 * Every pull request of the group must have passed for the same model/target,
 * profile and verdict inputs at its current head; otherwise the run falls
 * back to what `assess` does.
 *
 * `merge_group: assess` assesses the queue's commit: possible with model_id
 * (or an endpoint_url the workflow gives for the queue), not with a preview
 * target whose URL comes from deployment events, as nothing deploys the
 * queue's commit: that fails closed, with the reason.
 */
import type { AssessmentRecord } from '../report/comment.js'
import { identityMismatch, type AssessmentIdentity } from './identity.js'
import { shortSha } from '../util/text.js'

export const MERGE_GROUP_MODES = ['carry_over', 'assess'] as const
export type MergeGroupMode = (typeof MERGE_GROUP_MODES)[number]

export interface QueuedPull {
  number: number
  /** The pull request's head commit now (GET /pulls/{n}); null when it could not be read. */
  headSha: string | null
  /**
   * The newest record of the agent written by this action's token
   * (recordsOfAgent): one, or for a preview this run has no deployment of,
   * the newest of each configuration recorded under its name; empty when none.
   */
  records: AssessmentRecord[]
}

/**
 * What this run could assess on the queue's commit: a model (model_id), an
 * endpoint_url the workflow gives, or only a preview that deployment events
 * would name (none for the queue's commit).
 */
export type QueueTarget = 'model' | 'endpoint' | 'preview'

export interface MergeQueueContext {
  mode: MergeGroupMode
  /** The pull requests the event names, each with its head and record. */
  pulls: QueuedPull[]
  /** Why the event names no pull request, when it names none. */
  eventReason?: string
  identity: AssessmentIdentity
  target: QueueTarget
  /** The queue's commit (merge_group.head_sha). */
  queueSha: string | null
}

export type MergeQueueDecision =
  | {
      kind: 'carry_over'
      result: 'pass'
      pulls: CarriedPull[]
      reason: string
    }
  | { kind: 'assess'; reason: string }
  | {
      kind: 'fail_closed'
      reason: string
      /** The refusal in a few words, for a report's title ("nothing to carry over from pull request #12"). */
      summary: string
    }

export interface CarriedPull {
  number: number
  headSha: string
  assessedSha: string
}

/** The queued pull request's passing result at its head, or why it cannot be carried over. */
export function queuedPullResult(pull: QueuedPull, identity: AssessmentIdentity): { pass: CarriedPull } | { problem: string } {
  const n = `#${pull.number}`
  if (pull.headSha === null) return { problem: `${n}: its head commit could not be read` }
  if (pull.records.length === 0) return { problem: `${n}: no assessment of it is recorded by this action` }
  for (const rec of pull.records) {
    const problem = recordProblem(rec, pull.headSha, identity)
    if (problem !== null) return { problem: `${n}: ${problem}` }
  }
  return { pass: { number: pull.number, headSha: pull.headSha, assessedSha: pull.records[0].assessedSha } }
}

function recordProblem(rec: AssessmentRecord, head: string, identity: AssessmentIdentity): string | null {
  const mismatch = identityMismatch(rec, identity)
  if (mismatch !== null) return mismatch
  if (rec.result !== 'pass') return `its last result is ${rec.result}`
  if (rec.headSha !== head) return `its recorded result stands for ${shortSha(rec.headSha)}, not its head ${shortSha(head)}`
  return null
}

function fallback(ctx: MergeQueueContext, why: string): MergeQueueDecision {
  const queue = ctx.queueSha === null ? "the queue's commit" : `the queue's commit ${shortSha(ctx.queueSha)}`
  if (ctx.target === 'preview') {
    return {
      kind: 'fail_closed',
      reason:
        `is empty (the target is a preview), and nothing deploys ${queue} to assess instead; ${why}. ` +
        "Let the pull request's own check succeed at its head first, or give model_id (or an endpoint_url deployed for the queue) to merge_group runs",
      summary: `nothing to carry over from ${ctx.pulls.length === 0 ? 'the queued pull request' : `pull request ${ctx.pulls.map((p) => `#${p.number}`).join(', ')}`}`
    }
  }
  return { kind: 'assess', reason: `${why}: assessing ${queue}` }
}

export function decideMergeQueue(ctx: MergeQueueContext): MergeQueueDecision {
  if (ctx.mode === 'assess') return fallback(ctx, 'merge_group is assess')
  if (ctx.pulls.length === 0) {
    return fallback(ctx, `no result to carry over: ${ctx.eventReason ?? 'the event names no pull request'}`)
  }
  const results = ctx.pulls.map((p) => queuedPullResult(p, ctx.identity))
  const problems = results.flatMap((r) => ('problem' in r ? [r.problem] : []))
  if (problems.length > 0) return fallback(ctx, `not carried over: ${problems.join('; ')}`)
  const pulls = results.flatMap((r) => ('pass' in r ? [r.pass] : []))
  const said = pulls.map((p) =>
    p.assessedSha === p.headSha
      ? `#${p.number} passed at its head ${shortSha(p.headSha)}`
      : `#${p.number} passed at its head ${shortSha(p.headSha)} (assessed at ${shortSha(p.assessedSha)})`
  )
  return { kind: 'carry_over', result: 'pass', pulls, reason: `carried over: ${said.join('; ')}` }
}
