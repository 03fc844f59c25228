/** The coverage rows of the report model: one per planned category, then the probed categories not planned. */
import type { CoverageState, ReportCoverageRow } from './report-model.js'
import type { Scrub } from './scrub.js'
import type { CoverageResponse } from '../service/contract/index.js'

export function dedupe(items: readonly string[]): string[] {
  return [...new Set(items)]
}
/** One coverage row per planned category, then the probed categories not planned. */
export function coverageRowsOf(
  planned: readonly string[] | null,
  completed: readonly string[] | null,
  coverage: CoverageResponse | null,
  { s }: Scrub
): ReportCoverageRow[] {
  const completedSet = completed ? new Set(completed) : null
  const coverageByCategory = new Map<string, CoverageResponse['categories'][number]>()
  for (const row of coverage?.categories ?? []) {
    if (!coverageByCategory.has(row.category)) coverageByCategory.set(row.category, row)
  }
  const rowFor = (category: string, isPlanned: boolean): ReportCoverageRow => {
    const cov = coverageByCategory.get(category)
    let state: CoverageState
    if (completedSet === null) state = cov ? 'probed' : 'not reached'
    else if (completedSet.has(category)) state = 'completed'
    else state = cov && cov.attacks_blocked + cov.attacks_succeeded > 0 ? 'partial' : 'not reached'
    return {
      category: s(category),
      planned: isPlanned,
      state,
      blocked: cov ? cov.attacks_blocked : null,
      succeeded: cov ? cov.attacks_succeeded : null,
      owasp: cov ? s(cov.owasp) : null,
      atlas: cov ? s(cov.atlas) : null,
      worstSeverity: cov ? cov.worst_severity : null
    }
  }
  const rows: ReportCoverageRow[] = []
  const plannedSet = new Set(planned ?? [])
  for (const c of planned ?? []) rows.push(rowFor(c, true))
  for (const c of coverageByCategory.keys()) if (!plannedSet.has(c)) rows.push(rowFor(c, false))
  return rows
}
