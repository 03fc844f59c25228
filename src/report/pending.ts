/**
 * The sticky comment's "assessing" state (wait: detached): the comment a
 * detached step leaves while its run goes on, with the hidden record of the
 * pending run that the collector (mode: collect) reads back. Pure.
 *
 *   <!-- asas-gate:model=m_123 -->
 *   <!-- asas-gate:pending=2;run=<id|->;commit=<sha>;at=<ISO minute|->;cats=<a,b|*>;deadline=<ISO minute|->;mac=<64 hex> -->
 *
 * What the collector trusts of it: the record's MAC (pending-seal.ts, keyed
 * from api_key) over the model, the pull request, the run, the commit, the
 * trigger time, the categories and the deadline, and where it was found (an owned comment of an
 * open pull request whose head is `commit`). A record without a MAC, or whose
 * MAC fails, is refused. The status, the findings and the policy it derives
 * again from the service and the default branch
 * (docs/pr-pipelines.md#detached-waiting). A pending comment holds no
 * assessment record, so a carry-over never reads a result from it.
 *
 * A version 1 line (no categories, deadline nor MAC) is read, so the collector
 * can refuse it and say why, never trust it.
 */
import { gateTitle, metaLine } from './markdown-headline.js'
import { codeSpan, proseText } from './markdown-safe.js'
import { formatWhen } from '../util/text.js'

export interface PendingRecord {
  /** The run; null: queued (the model was busy with another assessment: the collector triggers it). */
  runId: string | null
  /** The commit assessed (full hex SHA, lower case). */
  commit: string
  /** ISO minute the run was triggered (the service's start of the run, floored); null when not known. */
  at: string | null
  /** The categories the step asked for, sorted; empty: the full taxonomy. */
  categories: string[]
  /** ISO minute after which the collector cancels the run; null when not recorded (version 1). */
  deadline: string | null
  /** The record's MAC (pending-seal.ts); null: none written (version 1, or not this action's). */
  mac: string | null
}

const RUN_ID = /^[A-Za-z0-9_-]{1,100}$/
const CATEGORY = /^[a-z0-9_]{1,64}$/
const MINUTE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ'
const SHA = '(?:[0-9a-f]{40}|[0-9a-f]{64})'
const V1_LINE = new RegExp(`^<!-- asas-gate:pending=1;run=([A-Za-z0-9_-]{1,100});commit=(${SHA});at=(${MINUTE}|-) -->$`)
const V2_LINE = new RegExp(
  `^<!-- asas-gate:pending=2;run=([A-Za-z0-9_-]{1,100});commit=(${SHA});at=(${MINUTE}|-);cats=((?:[a-z0-9_]{1,64})(?:,[a-z0-9_]{1,64}){0,99}|\\*);deadline=(${MINUTE}|-);mac=([0-9a-f]{64}) -->$`
)
const dash = (v: string): string | null => (v === '-' ? null : v)

/** The hidden pending line. Throws on a value it cannot hold exactly (a bug of the caller). */
export function pendingMarker(p: PendingRecord): string {
  if (p.runId !== null && (p.runId === '-' || !RUN_ID.test(p.runId))) throw new Error('pending record: runId is not of the recorded shape')
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(p.commit)) throw new Error('pending record: commit is not a full SHA')
  for (const t of [p.at, p.deadline])
    if (t !== null && !/^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/.test(t)) throw new Error('pending record: at or deadline is not an ISO minute')
  if (p.categories.length > 100 || !p.categories.every((c) => CATEGORY.test(c)))
    throw new Error('pending record: a category is not of the recorded shape')
  if (p.mac === null || !/^[0-9a-f]{64}$/.test(p.mac)) throw new Error('pending record: not sealed')
  const cats = p.categories.length === 0 ? '*' : [...p.categories].sort().join(',')
  return `<!-- asas-gate:pending=2;run=${p.runId ?? '-'};commit=${p.commit};at=${p.at ?? '-'};cats=${cats};deadline=${p.deadline ?? '-'};mac=${p.mac} -->`
}

/** The pending record of a comment body: only its second line, only under `marker`, in the exact shape; else null. */
export function readPendingRecord(body: string | null | undefined, marker: string): PendingRecord | null {
  if (!body) return null
  const lines = body.split('\n', 3).map((l) => l.replace(/\r$/, ''))
  if (lines[0] !== marker) return null
  const v2 = V2_LINE.exec(lines[1] ?? '')
  if (v2) {
    const categories = v2[4] === '*' ? [] : v2[4].split(',')
    return { runId: dash(v2[1]), commit: v2[2], at: dash(v2[3]), categories, deadline: dash(v2[5]), mac: v2[6] }
  }
  const m = V1_LINE.exec(lines[1] ?? '')
  if (!m) return null
  return { runId: dash(m[1]), commit: m[2], at: dash(m[3]), categories: [], deadline: null, mac: null }
}

/** Whether two records are the same record (what a collector read is still what the comment holds). */
/**
 * A record's ISO minute (its `at` or `deadline`) as epoch milliseconds; null
 * when not recorded, or when the minute is no date (the pattern holds, the
 * calendar does not): the collector then bounds the run by its own clock and
 * timeout_minutes alone.
 */
export function recordMinuteMs(minute: string | null): number | null {
  if (minute === null) return null
  const ms = Date.parse(minute.replace(/Z$/, ':00Z'))
  return Number.isFinite(ms) ? ms : null
}

/** Whether two reads hold the same record (the collector's compare before every comment write: a record that changed since it was read, a newer push's, is never overwritten); null: no record. */
export function samePending(a: PendingRecord | null, b: PendingRecord | null): boolean {
  if (a === null || b === null) return a === b
  return (
    a.runId === b.runId &&
    a.commit === b.commit &&
    a.at === b.at &&
    a.mac === b.mac &&
    a.deadline === b.deadline &&
    a.categories.join(',') === b.categories.join(',')
  )
}

export interface AssessingComment {
  marker: string
  pending: PendingRecord
  /** The agent as titles name it. */
  subject: string
  /** The commit status context that will carry the result. */
  context: string
  /** ISO time by which the collector cancels a run still going. */
  deadline: string
  runUrl: string | null
  /** "Assessments spent by this step: 1 (...)." */
  budgetLine: string
}

/** The comment while the run goes on (or waits for the model): the pending record, what happens next, and that nothing passes meanwhile. */
export function renderAssessingComment(c: AssessingComment): string {
  const { runId, commit } = c.pending
  const title = gateTitle('pending', runId === null ? 'queued' : `assessing run ${runId}`, c.subject)
  // A code span of its own: prose would escape the backticks and show them.
  const context = codeSpan(c.context, { max: 200 })
  const what =
    runId === null
      ? `**Queued** (wait: detached): the model is busy with another assessment, so commit \`${commit.slice(0, 7)}\` waits for the collector (a scheduled workflow, \`mode: collect\`) to trigger its run when the model is free. `
      : `**Assessing** (wait: detached): run \`${runId}\` of commit \`${commit.slice(0, 7)}\` goes on in the service; no runner waits for it. `
  return [
    c.marker,
    pendingMarker(c.pending),
    `### ⏳ ${proseText(title, 400)}`,
    '',
    metaLine({ commitSha: commit, assessedAt: null, threshold: null, runUrl: c.runUrl }),
    '',
    what +
      `The collector posts the result here and sets the commit status ${context} after the run ends, and cancels it (status error) if it is still going at ${formatWhen(c.deadline) ?? c.deadline}. ` +
      'Until then the status is pending and the merge waits.',
    '',
    proseText(c.budgetLine, 600)
  ].join('\n')
}

/** The status's description while pending, e.g. "Assessing: run r_1, result by 14:03 UTC at the latest (...)". */
/** The run a pending status of pendingDescription names: its id; null when it names none (queued, or another's). */
export function pendingStatusRun(description: string | null | undefined): string | null {
  return /^Assessing: run ([A-Za-z0-9_-]{1,100}), result by /.exec(description ?? '')?.[1] ?? null
}

export function pendingDescription(runId: string | null, deadline: string): string {
  const by = `${deadline.slice(11, 16)} UTC`
  return runId === null
    ? `Queued: the model is busy; the collector triggers the run (result by ${by} at the latest)`
    : `Assessing: run ${runId}, result by ${by} at the latest (the collector sets it)`
}
