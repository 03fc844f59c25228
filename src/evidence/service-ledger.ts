/**
 * The service's own list of the model's runs, as the evidence of last resort.
 *
 * The default branch's records live in the Actions cache, and GitHub deletes
 * an entry not read for 7 days and evicts the oldest when the repository's
 * cache is full (any workflow, a pull request's included, can fill it). A
 * record gone is evidence gone, never evidence of safety: when no record of
 * the default branch is listed, the gate reads the runs the service lists for
 * the model (`GET /model/{model_id}/run?status=completed`, newest first)
 * that completed within the age bound and hold findings, each again like a
 * recorded run. Whose runs they were cannot be told (the default branch's, a
 * pull request's, a person's), so they only add observations: what they saw
 * and the service has not closed is presumed present (of another agent) until
 * a confirmation shows it gone, and it never makes a finding "known".
 * Selecting them is pure; what could not be listed or read is a gap.
 */
import type { RunList, RunListItem } from '../service/contract/index.js'
import { plural } from '../util/text.js'
import { withinAge, type WindowBounds } from './window.js'

/** The most runs one GET /model/{model_id}/run lists (its limit is 1 to 100). */
export const LEDGER_LIST_LIMIT = 100

export interface LedgerSelection {
  /** Run ids to read, newest first. */
  toRead: string[]
  /** What could not be read and why it keeps a pass out of reach; empty when nothing was left out. */
  gaps: string[]
}

/**
 * A listed run may hold a weakness: it completed within the age bound (a run
 * whose completion time cannot be read is not aged out) and holds findings
 * (or its ingest was incomplete, so its count proves nothing).
 */
function mayHoldWeakness(run: RunListItem, bounds: WindowBounds): boolean {
  if (run.status !== 'completed') return false
  const completed = run.completed_at ?? ''
  if (Number.isFinite(Date.parse(completed)) && !withinAge(completed, bounds)) return false
  return run.findings_count > 0 || run.ingest_incomplete
}

/**
 * The runs of the model's list to read as evidence: those that may hold a
 * weakness, not already read (`exclude`), at most `limit`. Runs beyond the
 * limit, and runs beyond the listed page while its oldest run is still within
 * the age bound, are gaps.
 */
export function ledgerRunsToRead(list: RunList, exclude: ReadonlySet<string>, limit: number, bounds: WindowBounds): LedgerSelection {
  const candidates = list.runs.filter((r) => !exclude.has(r.run_id) && mayHoldWeakness(r, bounds)).map((r) => r.run_id)
  const unique = [...new Set(candidates)]
  const toRead = unique.slice(0, Math.max(0, limit))
  const gaps: string[] = []
  const left = unique.length - toRead.length
  if (left > 0)
    gaps.push(
      `${plural(left, 'more completed run')} of the model within the last ${bounds.maxAgeDays} days ${left === 1 ? 'holds' : 'hold'} findings the gate did not read (it reads at most ${limit}), so what ${left === 1 ? 'it' : 'they'} saw cannot be ruled out`
    )
  const oldest = list.runs.at(-1)
  const beyondPage = list.total > list.runs.length
  if (
    beyondPage &&
    (oldest === undefined || !Number.isFinite(Date.parse(oldest.completed_at ?? '')) || withinAge(oldest.completed_at ?? '', bounds))
  )
    gaps.push(
      `the model has ${list.total} completed runs and the service listed only the newest ${list.runs.length}, still within the last ${bounds.maxAgeDays} days, so a weakness an older one saw cannot be ruled out`
    )
  return { toRead, gaps }
}

/**
 * What the model's recent runs covered, for want of a record to say it: every
 * category a completed run listed within the age bound planned (a run that
 * completes reached every category it planned). A run that does not complete
 * them all cannot speak for what the lost records covered.
 */
export function ledgerCoverage(list: RunList, bounds: WindowBounds): string[] {
  const covered = new Set<string>()
  for (const run of list.runs) {
    const completed = run.completed_at ?? ''
    if (run.status !== 'completed' || (Number.isFinite(Date.parse(completed)) && !withinAge(completed, bounds))) continue
    for (const c of run.categories_planned) covered.add(c)
  }
  return [...covered]
}

/** The note that says why the service's list was read. */
export function ledgerNote(read: number, why: string): string {
  return `${why}: the model's ${plural(read, 'most recent completed run')} holding findings ${read === 1 ? 'was' : 'were'} read from the service instead; what ${read === 1 ? 'it' : 'they'} saw and the service has not closed is presumed present until a confirmation shows it gone.`
}
