/**
 * Deciding the gate's result: a pure function of what was read. Fail closed:
 * anything that cannot be trusted is `incomplete` or `error`, never `pass`.
 */
import {
  atOrAbove,
  isClosedFindingStatus,
  isKnownFindingStatus,
  isKnownRunStatus,
  isTerminal,
  SEVERITIES,
  type CoverageResponse,
  type Finding,
  type RunStatus,
  type Severity,
  type Verdict
} from '../service/contract/index.js'
import type { GateResult } from '../report/report-model.js'
import { plural } from '../util/text.js'

export type { GateResult }

export interface DecideInput {
  /** Last status seen (any string the service sent); null when it could not be read at all. */
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
  /**
   * The coverage response as read (null: unreadable). When given, it is checked
   * against the run status and the findings, and a contradiction fails closed
   * (see coverageChecks). Left out, only coverageReadable counts.
   */
  coverage?: CoverageResponse | null
  /** The wait ran out (timeout_minutes) before the run ended. */
  timedOut?: boolean
  /** The step was cancelled before the run ended. */
  aborted?: boolean
  /** The step was cancelled after the run ended, while its results were read: never a pass. */
  abortedAfterRun?: boolean
  /**
   * The status could no longer be read before the run ended (a failure the
   * retry policy gave up on), so the step stopped the run: the failure, one line.
   */
  statusReadError?: string | null
  /**
   * Findings that do not block, by finding_id (see policy.ts): accepted in the
   * accepted-risks file, or known since the baseline with fail_on new. A fail
   * that rests only on them becomes a pass (said in a note).
   */
  waived?: ReadonlyMap<string, 'accepted' | 'known'>
  /** Categories the baseline covered that this run did not complete: incomplete, whatever fail_on says. */
  baselineUncovered?: readonly string[]
  /** Expired accepted-risks entries, one line each: each fails the gate. */
  expiredAcceptances?: readonly string[]
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
  /**
   * Findings at or above min_severity that fail the gate: status open, or, when
   * the verdict was computed locally, any status that is not a closed one.
   */
  openAtOrAbove: number | null
  /** Planned categories the run never completed. */
  missingCategories: string[]
  /** Facts worth saying in the report. */
  notes: string[]
}

/**
 * Which findings count against the gate: the complete set of finding statuses
 * is not shown, so any status that is not one of the known closed ones (fixed,
 * dismissed, FIXED_VERIFIED) counts as open, whoever decided the verdict. A
 * service pass beside a finding at or above the threshold in an unknown status
 * ("reopened", "OPEN", "open ") is a contradiction: fail closed.
 */
function countsAsOpen(f: Finding): boolean {
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

/** True when the findings hold a finding at or above the threshold that is not closed. */
function holdsOpenAtOrAbove(findings: readonly Finding[], minSeverity: Severity): boolean {
  return findings.some((f) => atOrAbove(f.severity, minSeverity) && countsAsOpen(f))
}

/** "1 critical, 2 high" for the findings at or above the threshold that count as open. */
function describeOpen(findings: readonly Finding[], minSeverity: Severity): string {
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
function quote(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text)
}

/** Notes on findings at or above the threshold whose status this action does not know. */
function unknownStatusNotes(findings: readonly Finding[], minSeverity: Severity): string[] {
  const unknown = findings.filter((f) => atOrAbove(f.severity, minSeverity) && !isKnownFindingStatus(f.status))
  if (unknown.length === 0) return []
  const shown = unknown.slice(0, 5).map((f) => `${quote(f.finding_id, 40)} (${quote(f.status, 40)})`)
  const more = unknown.length > shown.length ? ` and ${unknown.length - shown.length} more` : ''
  const what = `${plural(unknown.length, 'finding')} at or above ${minSeverity} ${unknown.length === 1 ? 'has' : 'have'} a status this action does not know: ${shown.join(', ')}${more}`
  return [`${what}; counted as open (fail closed), since only fixed, dismissed and FIXED_VERIFIED close a finding.`]
}

interface CoverageCheck {
  /** Contradictions that make the result untrusted: error. */
  errors: string[]
  /** Gaps in what the run covered: incomplete. */
  gaps: string[]
  notes: string[]
}

/**
 * Coverage against the run status and the findings. The description: a
 * category the run never probed has no row, so a completed one has one; the
 * coverage reports the run's status as run_status. ASSUMPTION: a row's
 * worst_severity is the severity of a finding of that category.
 */
function coverageChecks(
  coverage: CoverageResponse,
  status: RunStatus,
  planned: readonly string[],
  completed: readonly string[],
  findings: readonly Finding[] | null,
  minSeverity: Severity
): CoverageCheck {
  const out: CoverageCheck = { errors: [], gaps: [], notes: [] }
  const rows = new Set(coverage.categories.map((r) => r.category))
  const noRow = [...new Set(completed)].filter((c) => !rows.has(c))
  if (noRow.length > 0) out.gaps.push(`no coverage row for ${noRow.join(', ')}`)

  const covStatus = coverage.run_status
  if (covStatus !== status) {
    if (isKnownRunStatus(covStatus)) {
      out.gaps.push(`the coverage reports run_status ${covStatus} while the run status is ${status}`)
      out.notes.push(
        `The run status (${status}) and the coverage (run_status ${covStatus}) disagree: the two reads do not describe the same run state, so the coverage may be partial.`
      )
    } else {
      out.notes.push(
        `The coverage reports run_status ${quote(covStatus, 40)}, a status this action does not know, while the run status is ${status}.`
      )
    }
  }

  if (findings !== null) {
    const plannedSet = new Set(planned)
    for (const row of coverage.categories) {
      const worst = row.worst_severity
      if (worst === null || !atOrAbove(worst, minSeverity)) continue
      const held = findings.some((f) => f.category === row.category && atOrAbove(f.severity, minSeverity))
      if (held) continue
      if (plannedSet.has(row.category)) {
        out.errors.push(
          `coverage reports a ${worst} finding in ${row.category} that the findings list does not hold; the result cannot be trusted`
        )
      } else {
        out.notes.push(
          `The coverage reports a ${worst} finding in ${row.category}, a category the run did not plan, that the findings list does not hold.`
        )
      }
    }
  }
  return out
}

export function decide(input: DecideInput): Decision {
  const { minSeverity } = input
  const waived = input.waived ?? new Map<string, 'accepted' | 'known'>()
  const allFindings = input.findings
  /** The findings that can block: every one but the waived. */
  const findings = allFindings ? allFindings.filter((f) => !waived.has(f.finding_id)) : null
  const planned = input.categoriesPlanned
  const completed = new Set(input.categoriesCompleted)
  const missingCategories = planned.filter((c) => !completed.has(c))
  const atAbove = findings ? findings.filter((f) => atOrAbove(f.severity, minSeverity)) : null
  const openAtAbove = atAbove ? atAbove.filter((f) => countsAsOpen(f)) : null
  const base = {
    findingsAtOrAbove: allFindings ? allFindings.filter((f) => atOrAbove(f.severity, minSeverity)).length : null,
    openAtOrAbove: openAtAbove ? openAtAbove.length : null,
    missingCategories
  }
  const reached = `${planned.length - missingCategories.length} of ${plural(planned.length, 'category', 'categories')} reached`

  const readError = input.statusReadError ? `: ${input.statusReadError}` : ''
  if (input.status === null) {
    return {
      ...base,
      result: 'error',
      reason: `the run status could not be read${readError}`,
      verdict: null,
      verdictComputed: false,
      notes: []
    }
  }
  // isTerminal is the one place that says which statuses end a run: running, and
  // any status the description does not name, have not ended (fail closed).
  if (!isTerminal(input.status)) {
    const still = input.status === 'running' ? 'still running' : `still ${quote(input.status, 40)} (not a terminal status)`
    const why = input.aborted
      ? `the step was cancelled while the run was ${still}`
      : input.timedOut
        ? `timeout_minutes ran out while the run was ${still}`
        : input.statusReadError
          ? `the run status could no longer be read while the run was ${still}${readError}`
          : input.status === 'running'
            ? 'the run had not ended'
            : `the run had not ended: its status is ${quote(input.status, 40)}, not a terminal status`
    return { ...base, result: 'error', reason: `${why}; ${reached}`, verdict: null, verdictComputed: false, notes: [] }
  }
  const status = input.status

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
    notes.push(
      `The service gave no verdict; it was computed from the findings: fail if a finding at or above ${minSeverity} is not fixed, dismissed or FIXED_VERIFIED.`
    )
  } else if (
    verdict === 'fail' &&
    findings !== null &&
    allFindings !== null &&
    waived.size > 0 &&
    !findings.some((f) => atOrAbove(f.severity, minSeverity) && countsAsOpen(f)) &&
    allFindings.some((f) => waived.has(f.finding_id) && atOrAbove(f.severity, minSeverity) && countsAsOpen(f))
  ) {
    // The service's fail rests only on findings that do not block (accepted, or known with fail_on new).
    const open = allFindings.filter((f) => waived.has(f.finding_id) && atOrAbove(f.severity, minSeverity) && countsAsOpen(f))
    const accepted = open.filter((f) => waived.get(f.finding_id) === 'accepted').length
    const known = open.length - accepted
    const why = [
      known > 0 ? `${known} known since the baseline (fail_on: new)` : '',
      accepted > 0 ? `${accepted} accepted in the accepted-risks file` : ''
    ]
      .filter((x) => x !== '')
      .join(' and ')
    verdict = 'pass'
    verdictComputed = true
    notes.push(`The service's verdict is fail at ${minSeverity}; the open findings behind it are ${why}, so they do not block.`)
  } else if (verdict === 'pass' && findings !== null && holdsOpenAtOrAbove(findings, minSeverity)) {
    // Fail closed: the findings contradict the service's pass (see countsAsOpen).
    verdict = 'fail'
    verdictComputed = true
    notes.push(`The service's verdict was pass, but its findings hold open findings at or above ${minSeverity}; the gate fails closed.`)
  }
  if (findings !== null) notes.push(...unknownStatusNotes(findings, minSeverity))
  const blocking = atAbove ? atAbove.filter((f) => countsAsOpen(f)).length : null
  const decided = { ...base, openAtOrAbove: blocking }

  // Coverage against the run and the findings (only when the caller gave it).
  const coverage = input.coverage
  const coverageReadable = input.coverageReadable && coverage !== null
  const check: CoverageCheck =
    coverage === undefined || coverage === null
      ? { errors: [], gaps: [], notes: [] }
      : coverageChecks(coverage, status, planned, input.categoriesCompleted, allFindings, minSeverity)
  notes.push(...check.notes)

  const tail: string[] = []
  if (input.timedOut) tail.push('timeout_minutes ran out and the run was cancelled')
  if (input.aborted) tail.push('the step was cancelled and the run with it')
  if (input.abortedAfterRun && !input.aborted) tail.push('the step was cancelled while the results were read')
  if (input.statusReadError) tail.push(`the run status could no longer be read, so the run was cancelled${readError}`)
  /** The step stopped the run before it ended: whatever it found, the result was not reached. */
  const stopped = tail.length > 0

  const expired = input.expiredAcceptances ?? []
  const expiredLine =
    expired.length > 0 ? `expired acceptance${expired.length === 1 ? '' : 's'} (renew or remove): ${expired.join('; ')}` : ''
  if (verdict === 'fail') {
    // A fail stands whatever else is wrong; the contradictions are still said.
    if (expiredLine) notes.push(`Also: ${expiredLine}.`)
    for (const e of [...check.errors, ...check.gaps]) notes.push(`Also: ${e}.`)
    const detail = findings ? describeOpen(findings, minSeverity) : ''
    const count =
      blocking !== null && blocking > 0
        ? `${plural(blocking, 'open finding')} at or above ${minSeverity}`
        : `the service's verdict is fail at ${minSeverity}`
    const reason = detail ? `${count} (${detail})` : count
    if (stopped) {
      // The run did not end on its own: the result is error (the step fails either way),
      // and what it found before it was stopped is said.
      return { ...decided, result: 'error', reason: [...tail, `${reason} in what it reached`].join('; '), verdict, verdictComputed, notes }
    }
    return { ...decided, result: 'fail', reason, verdict, verdictComputed, notes }
  }

  const gaps: string[] = []
  if (status !== 'completed') gaps.push(`run ${status}`)
  if (planned.length === 0) gaps.push('the run planned no categories')
  if (missingCategories.length > 0) gaps.push(`missing ${missingCategories.join(', ')}`)
  gaps.push(...check.gaps)
  const baselineUncovered = input.baselineUncovered ?? []
  if (baselineUncovered.length > 0) gaps.push(`the baseline covered ${baselineUncovered.join(', ')}, this run did not`)
  if (input.ingestIncomplete === true) gaps.push('the service reports ingest incomplete')
  if (input.ingestIncomplete === null) gaps.push('the run list item could not be read to confirm ingest completed')
  if (findings === null) gaps.push('the findings could not be read')
  if (!coverageReadable) gaps.push('the coverage could not be read')
  if (stopped) {
    return {
      ...decided,
      result: 'error',
      reason: [`coverage incomplete: ${reached}`, ...gaps, ...check.errors, ...tail].join('; '),
      verdict,
      verdictComputed,
      notes
    }
  }
  if (findings === null || !coverageReadable) {
    return { ...decided, result: 'error', reason: `the result cannot be trusted: ${gaps.join(', ')}`, verdict, verdictComputed, notes }
  }
  if (check.errors.length > 0) {
    for (const g of gaps) notes.push(`Also: ${g}.`)
    return { ...decided, result: 'error', reason: check.errors.join('; '), verdict, verdictComputed, notes }
  }
  if (expiredLine) {
    for (const g of gaps) notes.push(`Also: ${g}.`)
    return { ...decided, result: 'fail', reason: expiredLine, verdict, verdictComputed, notes }
  }
  if (gaps.length > 0) {
    return {
      ...decided,
      result: 'incomplete',
      reason: `coverage incomplete: ${reached}, ${gaps.join(', ')}`,
      verdict,
      verdictComputed,
      notes
    }
  }
  return {
    ...decided,
    result: 'pass',
    reason: `no open findings at or above ${minSeverity}${waived.size > 0 ? ' that block' : ''}; all ${plural(planned.length, 'planned category', 'planned categories')} covered`,
    verdict,
    verdictComputed,
    notes
  }
}
