/**
 * The service's own list of the model's runs, as the default branch's
 * evidence of last resort.
 *
 * The default branch's records live in the Actions cache, and GitHub deletes
 * an entry not read for 7 days and evicts the oldest when the repository's
 * cache is full (any workflow, a pull request's included, can fill it). A
 * record gone is evidence gone, never evidence of safety: when a run on the
 * default branch finds no record of it listed, it reads the runs the service
 * lists for the model (`GET /model/{model_id}/run?status=completed`, newest
 * first) that completed within the age bound and hold findings, each again
 * like a recorded run. Whose runs they were cannot be told (the default
 * branch's, a pull request's, a person's), so they only add observations:
 * what they saw and the service has not closed is presumed present (of
 * another agent) until a confirmation shows it gone.
 *
 * Only the default branch reads it. A pull request's run with no record of the
 * default branch listed is judged on its own runs, as without a baseline: in a
 * repository whose default branch never runs the gate (the quick start), that
 * is every pull request, and holding each to every other pull request's
 * findings would spend confirmation runs on weaknesses of other agents. The
 * default branch's next run reads the list and records again.
 *
 * The list cannot be paged (its only bound is `limit`, at most 100): the gate
 * reads every run of the page that may hold a weakness (a run holding only
 * findings below the threshold cannot be told from the list, so the newest
 * few could push out an older run's weakness the records would hold), and
 * what lies beyond the page is said, not a gap.
 * A gap would keep the default branch's run from recording, so a busy model
 * (over 100 runs within the age bound) would never record again.
 */
import type { RunList, RunListItem } from '../service/contract/index.js'
import { plural } from '../util/text.js'
import { withinAge, type WindowBounds } from './window.js'
import type { RunEvidence } from './pool.js'

export interface LedgerSelection {
  /** Run ids to read, newest first. */
  toRead: string[]
  /** What lies beyond the page (said in the report's notes); empty when the page holds every run within the bound. */
  unread: string[]
}

/** A completion time within the age bound; one that cannot be read is not aged out. */
function notAgedOut(completedAt: string | null | undefined, bounds: WindowBounds): boolean {
  const t = completedAt ?? ''
  return !Number.isFinite(Date.parse(t)) || withinAge(t, bounds)
}

/** A listed run speaks for the window: completed, and not aged out. */
function inWindow(run: RunListItem, bounds: WindowBounds): boolean {
  return run.status === 'completed' && notAgedOut(run.completed_at, bounds)
}

/** It may hold a weakness: it holds findings, or its ingest was incomplete (so its count proves nothing). */
function mayHoldWeakness(run: RunListItem): boolean {
  return run.findings_count > 0 || run.ingest_incomplete
}

/**
 * The runs of the model's list to read as evidence: every one within the
 * window that may hold a weakness, newest first, each once; and what lies
 * beyond: runs past the listed page while its oldest run is still within the
 * age bound.
 */
export function ledgerRunsToRead(list: RunList, bounds: WindowBounds): LedgerSelection {
  const toRead = [...new Set(list.runs.filter((r) => inWindow(r, bounds) && mayHoldWeakness(r)).map((r) => r.run_id))]
  const oldest = list.runs.at(-1)
  const beyond = list.total > list.runs.length && notAgedOut(oldest?.completed_at, bounds)
  const unread = beyond
    ? [
        `the model has ${list.total} completed runs and the service lists only the newest ${list.runs.length}, all within the last ${bounds.maxAgeDays} days, so older ones could not be read`
      ]
    : []
  return { toRead, unread }
}

/**
 * The listed runs within the window that hold no finding, as evidence without
 * reading them: each is a run of the model that missed every weakness. With
 * them the whole page is the sample a rate is taken from, so the runs read for
 * their findings are not chosen for their sightings (a rate taken from those
 * alone would be 1 of 1 for every weakness).
 */
export function cleanListedRuns(list: RunList, bounds: WindowBounds): RunEvidence[] {
  const clean = new Map<string, RunEvidence>()
  for (const run of list.runs)
    if (inWindow(run, bounds) && !mayHoldWeakness(run) && !clean.has(run.run_id))
      clean.set(run.run_id, {
        runId: run.run_id,
        completedAt: run.completed_at ?? '',
        categoriesCompleted: run.categories_planned,
        findings: [],
        sameAgent: false,
        provenance: 'service-list'
      })
  return [...clean.values()]
}

/** The note that says why the service's list was read. */
export function ledgerNote(read: number, why: string): string {
  return `${why}: the model's ${plural(read, 'most recent completed run')} holding findings ${read === 1 ? 'was' : 'were'} read from the service instead; what ${read === 1 ? 'it' : 'they'} saw and the service has not closed is presumed present until a confirmation shows it gone.`
}

/** Why there is no baseline when the service lists runs main's records would have named: they were gone (deleted or evicted), not never saved. */
export function recordsGoneWhy(branch: string): string {
  return `${branch}'s records were gone: no cache entry is listed on it (GitHub deletes one unread for 7 days or evicts it), so the model's runs the service lists were read instead`
}
