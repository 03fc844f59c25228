/**
 * Which findings the accepted-risks entries accept, which entries expired and
 * which match nothing (stale). Pure.
 * - An entry holds through its `expires` day (UTC); from the next day it is
 *   expired: it accepts nothing and fails the gate, naming the entry.
 * - An entry matches a finding of its category whose severity is at most
 *   `severity_at_most` (any: every severity), whose fingerprint is
 *   `fingerprint` and whose description matches `description_pattern` (each
 *   when given; the pattern runs in linear time, see description-pattern.ts).
 * - A live entry that matches no finding, in a category the run completed, is
 *   stale (listed, never failing): the risk it accepted is gone.
 */
import { severityRank, type Finding } from '../service/contract/index.js'
import type { AcceptedEntry } from './accepted-file.js'

export interface AcceptanceResult {
  /** finding_id -> the first live entry that accepts it. */
  acceptedBy: Map<string, AcceptedEntry>
  expired: AcceptedEntry[]
  stale: AcceptedEntry[]
}

export function isExpired(e: AcceptedEntry, today: string): boolean {
  return e.expires < today
}

export function entryMatches(e: AcceptedEntry, f: Pick<Finding, 'category' | 'severity' | 'description'>, fingerprint: string): boolean {
  if (e.category !== f.category) return false
  if (e.fingerprint !== null && e.fingerprint !== fingerprint) return false
  if (e.severityAtMost !== null && severityRank(f.severity) < severityRank(e.severityAtMost)) return false
  if (e.matchesDescription !== null && !e.matchesDescription(f.description)) return false
  return true
}

export function matchAcceptances(
  entries: readonly AcceptedEntry[],
  findings: readonly Finding[],
  fingerprintById: ReadonlyMap<string, string>,
  today: string,
  categoriesCompleted: readonly string[]
): AcceptanceResult {
  const expired = entries.filter((e) => isExpired(e, today))
  const live = entries.filter((e) => !isExpired(e, today))
  const acceptedBy = new Map<string, AcceptedEntry>()
  const used = new Set<AcceptedEntry>()
  for (const f of findings) {
    const fp = fingerprintById.get(f.finding_id) ?? ''
    for (const e of live) {
      if (!entryMatches(e, f, fp)) continue
      used.add(e)
      if (!acceptedBy.has(f.finding_id)) acceptedBy.set(f.finding_id, e)
    }
  }
  const completed = new Set(categoriesCompleted)
  const stale = live.filter((e) => !used.has(e) && completed.has(e.category))
  return { acceptedBy, expired, stale }
}
