/** The few phrases of the report model every rendering words the same way: counts, elapsed time, the profile sync. */
import type { ReportProfileSync, ReportSeen, SeverityCounts } from './report-model.js'
import { seenPhrase } from '../evidence/seen-rate.js'
import { SEVERITIES, type Severity } from '../service/contract/index.js'
import { formatDuration } from '../util/text.js'

/** "profile v4: tools +1 (refund_order), system_prompt changed" (the one line a report shows of the sync). */
export function describeProfileSync(p: ReportProfileSync): string {
  if (p.status === 'failed')
    return `profile sync failed${p.version === null ? '' : ` (assessed version ${p.version})`}: ${p.error ?? 'unknown error'}`
  const what = p.changed.length > 0 ? `${p.created ? 'created: ' : ''}${p.changed.join(', ')}` : 'unchanged'
  const confirmed = p.confirmed.length > 0 ? `; confirmed ${p.confirmed.join(', ')}` : ''
  return `profile v${p.version ?? '?'}: ${what}${confirmed}`
}
/** The run's elapsed time in the one duration format (`3 min 12 s`), or null when unknown. */
export function formatElapsed(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null
  return formatDuration(ms)
}

/** "1 critical, 2 high" (zero counts left out; "none" when all are zero). */
export function describeCounts(counts: SeverityCounts, only?: (s: Severity) => boolean): string {
  const parts: string[] = []
  for (const sev of SEVERITIES) {
    if (only && !only(sev)) continue
    if (counts[sev] > 0) parts.push(`${counts[sev].toLocaleString('en-US')} ${sev}`)
  }
  return parts.length > 0 ? parts.join(', ') : 'none'
}

/** "seen in 2 of the last 5 runs (flaky)", "this run only": a rate in the one wording (blockers.ts rateText). */
export function seenText(f: { seen: Pick<ReportSeen, 'label' | 'steadiness'> }): string {
  const phrase = seenPhrase(f.seen.label)
  return f.seen.steadiness === null ? phrase : `${phrase} (${f.seen.steadiness})`
}
