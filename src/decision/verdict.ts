/**
 * Which findings count against the gate, and the verdict a result rests on:
 * the service's, reconciled with the findings (fail closed), or computed from
 * them when the service gave none.
 */
import {
  atOrAbove,
  isClosedFindingStatus,
  isKnownFindingStatus,
  SEVERITIES,
  type Finding,
  type Severity,
  type Verdict
} from '../service/contract/index.js'
import { plural } from '../util/text.js'

/** Why a finding does not block: accepted in the accepted-risks file, or known since the baseline with fail_on new. */
export type Waiver = 'accepted' | 'known'

/**
 * Which findings count against the gate: the complete set of finding statuses
 * is not shown, so any status that is not one of the known closed ones (fixed,
 * dismissed, FIXED_VERIFIED) counts as open, whoever decided the verdict. A
 * service pass beside a finding at or above the threshold in an unknown status
 * ("reopened", "OPEN", "open ") is a contradiction: fail closed.
 */
export function countsAsOpen(f: Finding): boolean {
  return !isClosedFindingStatus(f.status)
}

/**
 * The verdict computed locally when the service gave none (see API
 * assumptions): fail iff a finding at or above the threshold is open, where
 * any status other than fixed, dismissed and FIXED_VERIFIED counts as open
 * (an unknown status fails closed; decide() notes it).
 */
export function computeVerdict(findings: readonly Finding[], minSeverity: Severity): Verdict {
  return findings.some((f) => atOrAbove(f.severity, minSeverity) && countsAsOpen(f)) ? 'fail' : 'pass'
}

/** "1 critical, 2 high" for the findings at or above the threshold that count as open. */
export function describeOpen(findings: readonly Finding[], minSeverity: Severity): string {
  // (callers pass only the findings that can block: waived ones are left out)
  const parts: string[] = []
  for (const s of SEVERITIES) {
    if (!atOrAbove(s, minSeverity)) continue
    const n = findings.filter((f) => countsAsOpen(f) && f.severity === s).length
    if (n > 0) parts.push(`${n} ${s}`)
  }
  return parts.join(', ')
}

/** A service string quoted for a reason or a note: JSON-escaped, clipped. */
export function quote(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text)
}

/** Notes on findings at or above the threshold whose status this action does not know. */
export function unknownStatusNotes(findings: readonly Finding[], minSeverity: Severity): string[] {
  const unknown = findings.filter((f) => atOrAbove(f.severity, minSeverity) && !isKnownFindingStatus(f.status))
  if (unknown.length === 0) return []
  const shown = unknown.slice(0, 5).map((f) => `${quote(f.finding_id, 40)} (${quote(f.status, 40)})`)
  const more = unknown.length > shown.length ? ` and ${unknown.length - shown.length} more` : ''
  const what = `${plural(unknown.length, 'finding')} at or above ${minSeverity} ${unknown.length === 1 ? 'has' : 'have'} a status this action does not know: ${shown.join(', ')}${more}`
  return [`${what}; counted as open (fail closed), since only fixed, dismissed and FIXED_VERIFIED close a finding.`]
}

export interface SettledVerdict {
  /** null: the service gave none and the findings could not be read, so none can be trusted. */
  verdict: Verdict | null
  /** True when the verdict is not the service's as given. */
  verdictComputed: boolean
  notes: string[]
}

export interface VerdictInput {
  /** The service's verdict, when it gave one. */
  given: Verdict | null | undefined
  /** Every finding of the run; null when unreadable. */
  allFindings: readonly Finding[] | null
  /** The findings that can block (every one but the waived); null when unreadable. */
  blocking: readonly Finding[] | null
  waived: ReadonlyMap<string, Waiver>
  minSeverity: Severity
}

/**
 * The verdict the result rests on. The service's stands unless the findings
 * say otherwise: a fail that rests only on waived findings becomes a pass; a
 * pass beside an open finding at or above the threshold becomes a fail.
 */
export function settleVerdict(v: VerdictInput): SettledVerdict {
  const { blocking, minSeverity } = v
  const openAtOrAbove = (f: Finding): boolean => atOrAbove(f.severity, minSeverity) && countsAsOpen(f)
  if (v.given === null || v.given === undefined) {
    if (blocking === null) return { verdict: null, verdictComputed: false, notes: [] }
    const note = `The service gave no verdict; it was computed from the findings: fail if a finding at or above ${minSeverity} is not fixed, dismissed or FIXED_VERIFIED.`
    return { verdict: computeVerdict(blocking, minSeverity), verdictComputed: true, notes: [note] }
  }
  if (v.given === 'fail' && blocking !== null && v.allFindings !== null && v.waived.size > 0 && !blocking.some(openAtOrAbove)) {
    const waivedOpen = v.allFindings.filter((f) => v.waived.has(f.finding_id) && openAtOrAbove(f))
    if (waivedOpen.length > 0) return { verdict: 'pass', verdictComputed: true, notes: [waivedFailNote(waivedOpen, v)] }
  }
  if (v.given === 'pass' && blocking?.some(openAtOrAbove)) {
    // Fail closed: the findings contradict the service's pass (see countsAsOpen).
    const note = `The service's verdict was pass, but its findings hold open findings at or above ${minSeverity}; the gate fails closed.`
    return { verdict: 'fail', verdictComputed: true, notes: [note] }
  }
  return { verdict: v.given, verdictComputed: false, notes: [] }
}

/** Why a waived finding does not block, per waiver: a new waiver without its words does not compile. */
export const WAIVER_REASON: Record<Waiver, string> = {
  known: 'known since the baseline (fail_on: new)',
  accepted: 'accepted in the accepted-risks file'
}

/** The service's fail rests only on findings that do not block (accepted, or known with fail_on new), counted per waiver. */
function waivedFailNote(waivedOpen: readonly Finding[], v: VerdictInput): string {
  const count = {} as Record<Waiver, number>
  for (const w of Object.keys(WAIVER_REASON) as Waiver[]) count[w] = 0
  for (const f of waivedOpen) {
    const w = v.waived.get(f.finding_id)
    if (w !== undefined) count[w] += 1
  }
  const why = (Object.keys(WAIVER_REASON) as Waiver[])
    .filter((w) => count[w] > 0)
    .map((w) => `${count[w]} ${WAIVER_REASON[w]}`)
    .join(' and ')
  // Of those findings only: a weakness this run did not reproduce may still fail the gate (the report's blockers say so).
  return `The service's verdict is fail at ${v.minSeverity} on findings that do not block here: ${why}.`
}
