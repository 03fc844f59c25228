/**
 * "Assess only when the agent changed": whether this run assesses, or
 * carries over the result of the last assessment of this pull request.
 * Pure, in two steps so the shell makes the one GitHub call in between:
 *
 *   planCarryOver(ctx)          -> assess | carry over | compare base...head
 *   decideCarryOver(plan, diff) -> assess | carry over
 *
 * What a carry-over trusts: the record of the bot's own sticky comment
 * (result, commit assessed, model/target, profile and verdict inputs), and
 * GitHub's list of files changed since that commit. It carries over only
 * - a full verdict (pass or fail: an incomplete or errored assessment is
 *   assessed again), never turned into something else: a carried-over result
 *   is never a pass when the assessed one was not;
 * - of the same model/target, profile digest and verdict inputs, at any
 *   host: a preview that moved to another host (a per-deployment URL) is the
 *   same agent (agentIdentity: the name, the configuration, the deployed
 *   project), and the line names the host that was assessed;
 * - when the assessed commit is an ancestor of the head (history rewritten:
 *   assess) and no changed file matches agent_paths.
 * On the default branch, and when agent_paths is empty, every run assesses.
 */
import { decodeRecordKey, type AssessmentRecord } from '../report/comment.js'
import { agentFilesAmong, listPaths, type ChangedFiles } from './changed-paths.js'
import { identityMismatch, movedFrom, type AssessmentIdentity } from './identity.js'
import { shortSha } from '../util/text.js'

export interface CarryOverContext {
  /** The agent_paths patterns (parsed); empty: every run assesses. */
  agentPaths: readonly string[]
  /** The run is on the default branch (a push, schedule or manual run there). */
  onDefaultBranch: boolean
  /** The commit this run would assess (the PR's head, or the deployed commit). */
  headSha: string
  identity: AssessmentIdentity
  /** The newest record of this agent (recordsOfAgent) written by this action's token; null when none. */
  record: AssessmentRecord | null
}

export type CarriedResult = 'pass' | 'fail'

export interface CarryOver {
  kind: 'carry_over'
  result: CarriedResult
  /** The record to write again, now standing for the head too (assessedSha unchanged). */
  record: AssessmentRecord
  /** The commit the result was assessed at. */
  assessedSha: string
  /** Files changed since then (none of them under agent_paths). */
  changedFiles: string[]
  /** One line for the summary and the comment, e.g. "carried over: pass as assessed at abc1234 (the same commit)". */
  reason: string
  /**
   * What changed since the assessed commit, e.g. "the same commit", "1 file changed since, none under agent_paths: a.md",
   * and, when the agent moved, the host assessed ("; assessed at old.example.com, now at new.example.com").
   */
  since: string
  /** The host the result was assessed at, when the agent has moved since; null when it did not. */
  assessedHost: string | null
}

export interface Assess {
  kind: 'assess'
  reason: string
  /** Agent files changed since the last assessment (when that is why). */
  agentFiles?: string[]
}

export type CarryOverPlan =
  Assess | CarryOver | { kind: 'compare'; base: string; head: string; record: AssessmentRecord; identity: AssessmentIdentity }
export type CarryOverDecision = Assess | CarryOver

const isCarried = (result: string): result is CarriedResult => result === 'pass' || result === 'fail'

/** The first step: decide without GitHub when possible, else name the comparison to make. */
export function planCarryOver(ctx: CarryOverContext): CarryOverPlan {
  if (ctx.agentPaths.length === 0) return { kind: 'assess', reason: 'agent_paths is empty: every run assesses' }
  if (ctx.onDefaultBranch) return { kind: 'assess', reason: 'on the default branch every run assesses' }
  if (ctx.identity.partial) return { kind: 'assess', reason: "the target's configuration is not known on this event" }
  const rec = ctx.record
  if (rec === null) return { kind: 'assess', reason: 'no earlier assessment of this pull request is recorded by this action' }
  const at = shortSha(rec.assessedSha)
  const mismatch = identityMismatch(rec, ctx.identity)
  if (mismatch !== null) return { kind: 'assess', reason: `the last assessment (at ${at}) is not carried over: ${mismatch}` }
  if (!isCarried(rec.result)) {
    return { kind: 'assess', reason: `the last assessment (at ${at}) ended ${rec.result}, not a verdict to carry over` }
  }
  if (rec.assessedSha === ctx.headSha) return carried(rec, rec.result, ctx.headSha, [], ctx.identity)
  return { kind: 'compare', base: rec.assessedSha, head: ctx.headSha, record: rec, identity: ctx.identity }
}

/** The second step: the files changed between the assessed commit and the head decide. */
export function decideCarryOver(plan: CarryOverPlan, changed: ChangedFiles, agentPaths: readonly string[]): CarryOverDecision {
  if (plan.kind !== 'compare') return plan
  const at = shortSha(plan.base)
  if (changed.kind === 'everything') {
    return { kind: 'assess', reason: `the files changed since the last assessment (at ${at}) cannot be listed: ${changed.reason}` }
  }
  const agentFiles = agentFilesAmong(agentPaths, changed.files)
  if (agentFiles.length > 0) {
    return {
      kind: 'assess',
      reason: `agent paths changed since the last assessment (at ${at}): ${listPaths(agentFiles)}`,
      agentFiles
    }
  }
  const result = plan.record.result
  // planCarryOver only compares for a verdict; anything else is assessed again.
  if (!isCarried(result)) return { kind: 'assess', reason: `the last assessment (at ${at}) ended ${result}, not a verdict to carry over` }
  return carried(plan.record, result, plan.head, changed.files, plan.identity)
}

function carried(
  record: AssessmentRecord,
  result: CarriedResult,
  head: string,
  changedFiles: string[],
  identity: AssessmentIdentity
): CarryOver {
  const at = shortSha(record.assessedSha)
  const files =
    changedFiles.length === 0
      ? `the same commit`
      : `${changedFiles.length === 1 ? '1 file' : `${changedFiles.length} files`} changed since, none under agent_paths: ${listPaths(changedFiles)}`
  const assessedHost = movedFrom(record, identity)
  const now = identity.host === null ? null : decodeRecordKey(identity.host)
  const since = assessedHost === null || now === null ? files : `${files}; assessed at ${assessedHost}, the agent is now at ${now}`
  return {
    kind: 'carry_over',
    result,
    record: { ...record, headSha: head },
    assessedSha: record.assessedSha,
    changedFiles,
    reason: `carried over: ${result} as assessed at ${at} (${since})`,
    since,
    assessedHost
  }
}
