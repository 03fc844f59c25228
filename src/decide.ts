/**
 * Deciding the gate's result: a pure function of what was read. Fail closed:
 * anything that cannot be trusted is `incomplete` or `error`, never `pass`.
 */
import { atOrAbove, SEVERITIES, type Finding, type RunStatus, type Severity, type Verdict } from './contract.js'

export type GateResult = 'pass' | 'fail' | 'incomplete' | 'error'

export interface DecideInput {
  /** Last status seen; null when it could not be read at all. */
  status: RunStatus | null
  /** The service's verdict (only given on a terminal status with min_severity). */
  verdict: Verdict | null | undefined
  minSeverity: Severity
  categoriesPlanned: string[]
  categoriesCompleted: string[]
  /** From the run's list item; null when the list item could not be read. */
  ingestIncomplete: boolean | null
  /** Every finding of the run; null when they could not be read. */
  findings: Finding[] | null
  /** Whether the coverage response was read and parsed. */
  coverageReadable: boolean
  /** The wait ran out (timeout_minutes) before the run ended. */
  timedOut?: boolean
  /** The step was cancelled before the run ended. */
  aborted?: boolean
}

export interface Decision {
  result: GateResult
  /** One line a person reads first. */
  reason: string
  /** The verdict the result rests on: the service's, or computed from the findings. */
  verdict: Verdict | null
  verdictComputed: boolean
  /** Findings at or above min_severity, any status (null when findings are unreadable). */
  findingsAtOrAbove: number | null
  /** Open findings at or above min_severity (what fails the gate). */
  openAtOrAbove: number | null
  /** Planned categories the run never completed. */
  missingCategories: string[]
  /** Facts worth saying in the report. */
  notes: string[]
}

/** The service's rule (see API assumptions): fail iff an open finding is at or above the threshold. */
export function computeVerdict(findings: readonly Finding[], minSeverity: Severity): Verdict {
  return findings.some((f) => f.status === 'open' && atOrAbove(f.severity, minSeverity)) ? 'fail' : 'pass'
}

/** "1 critical, 2 high" for the open findings at or above the threshold. */
function describeOpen(findings: readonly Finding[], minSeverity: Severity): string {
  const parts: string[] = []
  for (const s of SEVERITIES) {
    if (!atOrAbove(s, minSeverity)) continue
    const n = findings.filter((f) => f.status === 'open' && f.severity === s).length
    if (n > 0) parts.push(`${n} ${s}`)
  }
  return parts.join(', ')
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

export function decide(input: DecideInput): Decision {
  const { findings, minSeverity } = input
  const planned = input.categoriesPlanned
  const completed = new Set(input.categoriesCompleted)
  const missingCategories = planned.filter((c) => !completed.has(c))
  const atAbove = findings ? findings.filter((f) => atOrAbove(f.severity, minSeverity)) : null
  const openAtAbove = atAbove ? atAbove.filter((f) => f.status === 'open') : null
  const base = {
    findingsAtOrAbove: atAbove ? atAbove.length : null,
    openAtOrAbove: openAtAbove ? openAtAbove.length : null,
    missingCategories
  }
  const reached = `${planned.length - missingCategories.length} of ${plural(planned.length, 'category', 'categories')} reached`

  if (input.status === null) {
    return { ...base, result: 'error', reason: 'the run status could not be read', verdict: null, verdictComputed: false, notes: [] }
  }
  if (input.status === 'running') {
    const why = input.aborted
      ? 'the step was cancelled while the run was still running'
      : input.timedOut
        ? 'timeout_minutes ran out while the run was still running'
        : 'the run had not ended'
    return { ...base, result: 'error', reason: `${why}; ${reached}`, verdict: null, verdictComputed: false, notes: [] }
  }

  const notes: string[] = []
  let verdict: Verdict | null = input.verdict ?? null
  let verdictComputed = false
  if (verdict === null) {
    if (findings === null) {
      return {
        ...base,
        result: 'error',
        reason: 'the service gave no verdict and the findings could not be read, so the result cannot be trusted',
        verdict: null,
        verdictComputed: false,
        notes
      }
    }
    verdict = computeVerdict(findings, minSeverity)
    verdictComputed = true
    notes.push(`The service gave no verdict; it was computed from the findings (open findings at or above ${minSeverity}).`)
  } else if (verdict === 'pass' && findings !== null && computeVerdict(findings, minSeverity) === 'fail') {
    // Fail closed: the findings contradict the service's pass.
    verdict = 'fail'
    verdictComputed = true
    notes.push(`The service's verdict was pass, but its findings hold open findings at or above ${minSeverity}; the gate fails closed.`)
  }

  const tail: string[] = []
  if (input.timedOut) tail.push('timeout_minutes ran out and the run was cancelled')
  if (input.aborted) tail.push('the step was cancelled and the run with it')

  if (verdict === 'fail') {
    const detail = findings ? describeOpen(findings, minSeverity) : ''
    const count = openAtAbove ? `${plural(openAtAbove.length, 'open finding')} at or above ${minSeverity}` : `the service's verdict is fail at ${minSeverity}`
    const reason = detail ? `${count} (${detail})` : count
    return { ...base, result: 'fail', reason: [reason, ...tail].join('; '), verdict, verdictComputed, notes }
  }

  const gaps: string[] = []
  if (input.status !== 'completed') gaps.push(`run ${input.status}`)
  if (planned.length === 0) gaps.push('the run planned no categories')
  if (missingCategories.length > 0) gaps.push(`missing ${missingCategories.join(', ')}`)
  if (input.ingestIncomplete === true) gaps.push('the service reports ingest incomplete')
  if (input.ingestIncomplete === null) gaps.push('the run list item could not be read to confirm ingest completed')
  if (findings === null) gaps.push('the findings could not be read')
  if (!input.coverageReadable) gaps.push('the coverage could not be read')
  if (input.timedOut || input.aborted) {
    return {
      ...base,
      result: 'error',
      reason: [`coverage incomplete: ${reached}`, ...gaps, ...tail].join('; '),
      verdict,
      verdictComputed,
      notes
    }
  }
  if (findings === null || !input.coverageReadable) {
    return { ...base, result: 'error', reason: `the result cannot be trusted: ${gaps.join(', ')}`, verdict, verdictComputed, notes }
  }
  if (gaps.length > 0) {
    return { ...base, result: 'incomplete', reason: `coverage incomplete: ${reached}, ${gaps.join(', ')}`, verdict, verdictComputed, notes }
  }
  return {
    ...base,
    result: 'pass',
    reason: `no open findings at or above ${minSeverity}; all ${plural(planned.length, 'planned category', 'planned categories')} covered`,
    verdict,
    verdictComputed,
    notes
  }
}
