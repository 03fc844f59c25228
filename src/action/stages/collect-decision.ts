/**
 * The collector's decisions (mode: collect), pure, so a model of every
 * interleaving of pushes, collectors and run ends can drive them
 * (__tests__/properties/collector-schedules.property.test.ts):
 * - judgeRecord: what one pending record asks before the run is read;
 * - collectorResult: what the collector says it did (its outputs and its
 *   pass or fail), the worst of what it set;
 * - recordCurrent: whether a record names the head's newest assessment.
 */
import type { StepResult } from '../../decision/step-result.js'
import type { GatePolicy } from './load-baseline-and-risks.js'
import type { Collected } from '../../gate/assess-run.js'
import { causeAndFix, ownStatuses, STATUSES_READ, type ListedStatus } from '../../github/commit-status.js'
import { ConfigError } from '../../util/errors.js'
import type { GateResult } from '../../report/report-model.js'
import { pendingStatusRun, type PendingRecord } from '../../report/pending.js'

export type RecordVerdict =
  /** Its commit is no longer the pull request's head: left to the newer push's record. */
  | { kind: 'superseded' }
  /** No MAC, or one that does not hold: an edited record, or another key's; its status ends in error. */
  | { kind: 'refuse'; why: string }
  /** Queued (the model was busy): the collector triggers its run. */
  | { kind: 'trigger' }
  /** A run to look at. */
  | { kind: 'look'; runId: string }

/** What a record asks, before the service is asked anything. The head check comes first: a record of an older commit is not this collector's to judge. */
export function judgeRecord(pending: PendingRecord, head: string | null, sealed: boolean): RecordVerdict {
  if (pending.commit !== head) return { kind: 'superseded' }
  if (pending.mac === null)
    return {
      kind: 'refuse',
      why: 'The pending record carries no MAC (written by another version of this action, or edited): nothing passes; push again to assess'
    }
  if (!sealed)
    return {
      kind: 'refuse',
      why: "The pending record's MAC does not hold (it was edited, or written with another api_key or model_id): nothing passes; push again to assess"
    }
  return pending.runId === null ? { kind: 'trigger' } : { kind: 'look', runId: pending.runId }
}

/** What one record came to. `result`: the final status set on its commit (refused: error). */
export interface Look {
  pull: number
  commit: string
  runId: string | null
  what: 'decided' | 'refused' | 'running' | 'queued' | 'triggered' | 'superseded' | 'failed'
  result: GateResult | null
  /** An incomplete result its own step waved (coverage only, fail_on_incomplete false: gateStepResult's warn); absent: not waved. */
  waved?: boolean
}

const RANK: readonly GateResult[] = ['pass', 'incomplete', 'fail', 'error']

/** The worst of the results (error, then fail, then incomplete, then pass); null when there is none. */
export function worstResult(results: readonly GateResult[]): GateResult | null {
  return results.reduce<GateResult | null>((w, r) => (w === null || RANK.indexOf(r) > RANK.indexOf(w) ? r : w), null)
}

/**
 * The collector's own result: the worst status it set (a record it could not
 * read counts as error); pending when it set none and some record is still
 * pending; pass when there was nothing to do. Its step fails when it set a
 * failure or an error, or an incomplete its record's step did not wave (an
 * evidence gap never is), so it never reads pass while it posted a failure.
 */
export function collectorResult(looks: readonly Look[]): { result: GateResult | 'pending'; step: StepResult } {
  const set = looks.flatMap((l) => (l.result === null ? [] : [l.result]))
  const failed = looks.filter((l) => l.what === 'failed').length
  const worst = worstResult(failed > 0 ? [...set, 'error'] : set)
  const waiting = looks.filter((l) => l.what === 'running' || l.what === 'queued' || l.what === 'triggered').length
  const line = summaryLine(looks)
  if (worst === null) return { result: waiting > 0 ? 'pending' : 'pass', step: { outcome: 'pass', line } }
  if (worst === 'pass') return { result: 'pass', step: { outcome: 'pass', line } }
  if (worst === 'incomplete' && looks.every((l) => l.result !== 'incomplete' || l.waved === true))
    return { result: worst, step: { outcome: 'warn', line } }
  return { result: worst, step: { outcome: 'fail', line } }
}

/** "Collector: 2 decided (1 pass, 1 fail), 1 refused, ...; worst: fail." */
export function summaryLine(looks: readonly Look[]): string {
  const n = (w: Look['what']): number => looks.filter((l) => l.what === w).length
  const decided = looks.filter((l) => l.what === 'decided')
  const by = RANK.map((r) => [r, decided.filter((l) => l.result === r).length] as const).filter(([, k]) => k > 0)
  const results = by.length === 0 ? '' : ` (${by.map(([r, k]) => `${k} ${r}`).join(', ')})`
  const worst = worstResult(looks.flatMap((l) => (l.result === null ? [] : [l.result])))
  return (
    `Collector: ${n('decided')} decided${results}, ${n('refused')} refused, ${n('triggered')} triggered, ${n('running')} still running, ` +
    `${n('queued')} still queued, ${n('superseded')} superseded, ${n('failed')} not readable (left pending)` +
    (worst === null ? '; no status set.' : `; worst status set: ${worst}.`)
  )
}

/**
 * The categories the run must cover: the default branch's policy and the
 * record's (sealed: what the pull request's step asked for), whichever asks
 * more; either asking for the full taxonomy (empty) asks for it all.
 */
export function withRecordScope<A extends { categories: readonly string[] }>(args: A, record: Pick<PendingRecord, 'categories'>): A {
  if (args.categories.length === 0 || record.categories.length === 0) return { ...args, categories: [] }
  return { ...args, categories: [...new Set([...args.categories, ...record.categories])] }
}

/** What a refused record's status tells the reader to do: a new push triggers a new run and writes a new sealed record. */
const RECORD_REFUSED_FIX = 'Push a commit to assess the head again.'

/** A record the collector will not judge: not the user's configuration, so titled as what it is (failureCause reads the summary). */
export const recordRefused = (input: string, cause: string): ConfigError => new ConfigError(input, cause, 'a pending record refused')

/** A refused record's commit status: its cause, then what to do (not "re-run the job": a re-run reads the same record). */
export const refusedStatus = (err: Error): string => causeAndFix(err.message, RECORD_REFUSED_FIX)

const named = (missing: string[]): string => missing.slice(0, 5).join(', ') + (missing.length > 5 ? `, and ${missing.length - 5} more` : '')

/** Why the collector will not judge the run a record names (another model, begun before the record, narrower than asked); null: none. */
export function runRefusal(looked: Collected, runId: string, modelId: string): ConfigError | null {
  if (looked.kind === 'foreign')
    return recordRefused('model_id', `The pending record names run ${runId}, not a run of ${modelId}: nothing passes`)
  if (looked.kind === 'earlier') {
    const began = looked.run.started_at ?? 'at a time the service does not tell'
    return recordRefused(
      'wait',
      `Run ${runId} began (${began}) before the record's trigger time: it is not the run this record's step triggered, nothing passes`
    )
  }
  if (looked.kind === 'narrow')
    return recordRefused(
      'categories',
      `Run ${runId} does not cover the categories the default branch's policy or the record asks for (${named(looked.missing)}): nothing passes`
    )
  return null
}

/**
 * Whether a record names the head's newest assessment, as the statuses of
 * this agent set by this token show it (GitHub keeps every one, and a
 * person's token is another creator): the newest pending one names the
 * record's run (current), another run or none (newer: a later detached step
 * of this head, whose own record this one is an older copy of: restored by
 * an edit, its MAC still valid). None of ours: current when every status of
 * the commit was read, else unknown (the newest STATUSES_READ hold none).
 */
export function recordCurrent(
  listed: readonly ListedStatus[],
  q: { context: string; owner: string; login: string; runId: string }
): 'current' | 'newer' | 'unknown' {
  const pending = ownStatuses(listed, q.context, q.owner).find((s) => s.creator === q.login && s.state === 'pending')
  if (pending === undefined) return listed.length >= STATUSES_READ ? 'unknown' : 'current'
  return pendingStatusRun(pending.description) === q.runId ? 'current' : 'newer'
}

/**
 * The policy a pull request's run is judged with: the default branch's, less
 * the model's run list the default branch reads as its own lineage (it holds
 * the very run being judged, which would count twice: "seen in 2 of the last
 * 2 runs" of one run). A pull request's attached step reads no such list.
 */
export function ofPullRequests(policy: GatePolicy): GatePolicy {
  const { windows } = policy.baseline
  if (windows.agent === null) return policy
  return { ...policy, baseline: { ...policy.baseline, windows: { ...windows, agent: null } } }
}
