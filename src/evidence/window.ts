/**
 * Which recorded runs make an agent's window: the same agent (no change under
 * agent_paths since), the newest K, none older than the age bound. Pure.
 */
import type { EvidenceRecord } from './records.js'

export interface WindowBounds {
  /** K: runs of the window, this run included where it is one of them (evidence_runs). */
  runs: number
  /** No run older than this many days counts (evidence_max_age_days). */
  maxAgeDays: number
  /** Now (epoch ms). */
  now: number
}

/** Whether an ISO time is within the age bound; a time that cannot be read is not. */
export function withinAge(iso: string, b: WindowBounds): boolean {
  const t = Date.parse(iso)
  return Number.isFinite(t) && t >= b.now - b.maxAgeDays * 86_400_000
}

/**
 * The records of the same agent, newest first: every record up to the first
 * whose commit the agent changed since (`changedSince` says, per commit, true
 * when files under agent_paths changed between it and the commit judged, or
 * it cannot be told). A commit missing from the map counts as changed; a
 * record without a commit, too.
 */
export function sameAgentRecords(records: readonly EvidenceRecord[], changedSince: ReadonlyMap<string, boolean>): EvidenceRecord[] {
  const kept: EvidenceRecord[] = []
  for (const r of records) {
    if (r.commit === null || changedSince.get(r.commit) !== false) break
    kept.push(r)
  }
  return kept
}

/** The distinct commits of the records, newest first: what must be compared to tell whether the agent changed. */
export function commitsToCompare(records: readonly EvidenceRecord[], limit: number): string[] {
  const commits: string[] = []
  for (const r of records.slice(0, limit)) {
    if (r.commit === null) break
    if (!commits.includes(r.commit)) commits.push(r.commit)
  }
  return commits
}

/** The records to read: the newest `limit` created within the age bound. */
export function recordsToRead(records: readonly EvidenceRecord[], limit: number, b: WindowBounds): EvidenceRecord[] {
  return records.filter((r) => withinAge(r.createdAt, b)).slice(0, Math.max(0, limit))
}

/**
 * The holders to read with a window's records: the runs its records name as
 * holding findings still open (newest record first), not already among the
 * runs read, at most `limit`. Only records of the same agent name holders
 * worth reading: a holder was of the same agent as the record naming it.
 */
export function holdersToRead(records: readonly EvidenceRecord[], read: readonly string[], limit: number): string[] {
  const holders: string[] = []
  for (const r of records)
    for (const h of r.holders) {
      if (holders.length >= limit) return holders
      if (!read.includes(h) && !holders.includes(h)) holders.push(h)
    }
  return holders
}

/** What reading the window cost: requests, never assessments. */
export interface WindowCost {
  /** Requests to the service (GET /run, GET /run/{id}/findings, at most one GET /model/{id}/run). */
  serviceRequests: number
  /** Requests to GitHub (the caches list, comparisons, the sign of adoption.ts). */
  githubRequests: number
  /** Runs read and trusted, holders included. */
  runsRead: number
  /** Of them, holders: runs beyond the last K that hold findings still open. */
  holdersRead: number
  ms: number
}
