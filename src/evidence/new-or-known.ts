/**
 * The baseline diff: this run's findings against the baseline's, by
 * fingerprint. Pure.
 * - new: a fingerprint the baseline does not hold;
 * - known: a fingerprint the baseline holds (still present);
 * - gone: a baseline fingerprint this run did not find, in a category this run
 *   completed (a category it did not complete cannot say a finding is gone).
 */
import type { Finding } from '../service/contract/index.js'
import type { Baseline, BaselineFinding } from './baseline.js'
import { fingerprint } from './fingerprint.js'

export type DiffState = 'new' | 'known'

export interface BaselineDiff {
  /** finding_id -> new/known (every finding of the run). */
  stateById: Map<string, DiffState>
  /** finding_id -> fingerprint. */
  fingerprintById: Map<string, string>
  newIds: string[]
  knownIds: string[]
  gone: BaselineFinding[]
  /** Categories the baseline completed that this run did not. */
  uncovered: string[]
}

export function fingerprintsOf(findings: readonly Finding[], runId: string | null): Map<string, string> {
  return new Map(findings.map((f) => [f.finding_id, fingerprint(f, runId)]))
}

export function diffAgainstBaseline(
  findings: readonly Finding[],
  runId: string | null,
  baseline: Baseline | null,
  categoriesCompleted: readonly string[]
): BaselineDiff {
  const fingerprintById = fingerprintsOf(findings, runId)
  const stateById = new Map<string, DiffState>()
  const newIds: string[] = []
  const knownIds: string[] = []
  const held = new Set(baseline?.findings.map((b) => b.fingerprint) ?? [])
  for (const f of findings) {
    const fp = fingerprintById.get(f.finding_id)
    const known = baseline !== null && fp !== undefined && held.has(fp)
    stateById.set(f.finding_id, known ? 'known' : 'new')
    ;(known ? knownIds : newIds).push(f.finding_id)
  }
  const found = new Set(fingerprintById.values())
  const completed = new Set(categoriesCompleted)
  const gone = baseline ? baseline.findings.filter((b) => !found.has(b.fingerprint) && completed.has(b.category)) : []
  const uncovered = baseline ? baseline.categories_completed.filter((c) => !completed.has(c)) : []
  return { stateById, fingerprintById, newIds, knownIds, gone, uncovered }
}
