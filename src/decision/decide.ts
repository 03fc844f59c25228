/**
 * Deciding a run's result: a pure function of what was read. Fail closed:
 * anything that cannot be trusted is `incomplete` or `error`, never `pass`.
 * The rules, in order: a run that never ended is an error; the verdict is
 * settled (verdict.ts); a fail stands whatever else is wrong; otherwise every
 * gap (coverage, ingest, baseline) makes it incomplete, every contradiction
 * an error, and an expired acceptance a fail. Whether the step then passes is
 * step-result.ts's.
 */
import {
  atOrAbove,
  isTerminal,
  type CoverageResponse,
  type Finding,
  type RunStatus,
  type Severity,
  type Verdict
} from '../service/contract/index.js'
import type { GateResult } from './result-words.js'
import { plural } from '../util/text.js'
import { coverageChecks, type CoverageCheck } from './coverage-checks.js'
import { countsAsOpen, describeOpen, quote, settleVerdict, unknownStatusNotes, type Waiver } from './verdict.js'
import { notReproducedPhrases, type UnreproducedLine } from '../evidence/seen-rate.js'

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
  waived?: ReadonlyMap<string, Waiver>
  /** Categories the baseline covered that this run did not complete: incomplete, whatever fail_on says. */
  baselineUncovered?: readonly string[]
  /** Expired accepted-risks entries, one line each: each fails the gate. */
  expiredAcceptances?: readonly string[]
  /**
   * Findings an earlier run of this same agent saw, still open on the service,
   * at or above min_severity and not accepted, that this run did not
   * reproduce: present all the same, so they fail the gate.
   */
  unreproduced?: readonly UnreproducedLine[]
  /**
   * Evidence of this agent's lineage that could not be read, or a
   * confirmation that could not finish (one line each): what is missing may
   * hold a weakness, so a pass becomes incomplete with these reasons.
   */
  evidenceGaps?: readonly string[]
  /** Presumed weaknesses a confirmation run reproduced (one line each): still present, they fail the gate. */
  confirmedPresent?: readonly string[]
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
  /**
   * Why an incomplete result is incomplete: coverage alone (fail_on_incomplete
   * may wave it), or evidence (a read of held evidence failed, a confirmation
   * cut short: full evidence could fail, so it is never waved through).
   */
  incompleteWhy?: 'coverage' | 'evidence'
}

/** What every branch of the decision shares, read once from the input. */
interface Reading {
  minSeverity: Severity
  waived: ReadonlyMap<string, Waiver>
  /** The findings that can block: every one but the waived (null: unreadable). */
  blocking: Finding[] | null
  planned: readonly string[]
  /** "2 of 3 categories reached". */
  reached: string
  /** ": <why>" when the status could no longer be read, else "". */
  readError: string
  /** The counts and missing categories every decision carries. */
  base: Pick<Decision, 'findingsAtOrAbove' | 'openAtOrAbove' | 'missingCategories'>
}

function read(input: DecideInput): Reading {
  const { minSeverity } = input
  const waived = input.waived ?? new Map<string, Waiver>()
  const all = input.findings
  const blocking = all ? all.filter((f) => !waived.has(f.finding_id)) : null
  const planned = input.categoriesPlanned
  const completed = new Set(input.categoriesCompleted)
  const missingCategories = planned.filter((c) => !completed.has(c))
  const atAbove = (fs: readonly Finding[]): Finding[] => fs.filter((f) => atOrAbove(f.severity, minSeverity))
  return {
    minSeverity,
    waived,
    blocking,
    planned,
    reached: `${planned.length - missingCategories.length} of ${plural(planned.length, 'category', 'categories')} reached`,
    readError: input.statusReadError ? `: ${input.statusReadError}` : '',
    base: {
      findingsAtOrAbove: all ? atAbove(all).length : null,
      openAtOrAbove: blocking ? atAbove(blocking).filter(countsAsOpen).length : null,
      missingCategories
    }
  }
}

export function decide(input: DecideInput): Decision {
  const r = read(input)
  const status = input.status
  if (status === null) {
    return {
      ...r.base,
      result: 'error',
      reason: `the run status could not be read${r.readError}`,
      verdict: null,
      verdictComputed: false,
      notes: []
    }
  }
  // isTerminal is the one place that says which statuses end a run: running, and
  // any status the description does not name, have not ended (fail closed).
  if (!isTerminal(status)) return notEnded(input, r, status)

  const settled = settleVerdict({
    given: input.verdict,
    allFindings: input.findings,
    blocking: r.blocking,
    waived: r.waived,
    minSeverity: r.minSeverity
  })
  const unreproduced = [...(input.confirmedPresent ?? []), ...notReproducedPhrases(input.unreproduced ?? [])]
  // A weakness of this agent that this run did not reproduce is still present: a pass becomes a fail.
  const verdict = settled.verdict === 'pass' && unreproduced.length > 0 ? 'fail' : settled.verdict
  const verdictComputed = settled.verdictComputed || verdict !== settled.verdict
  const notes = [...settled.notes]
  if (verdict === null) {
    const reason = 'the service gave no verdict and the findings could not be read, so the result cannot be trusted'
    return { ...r.base, result: 'error', reason, verdict: null, verdictComputed: false, notes }
  }
  if (r.blocking !== null) notes.push(...unknownStatusNotes(r.blocking, r.minSeverity))
  // Coverage against the run and the findings (only when the caller gave it).
  const check: CoverageCheck =
    input.coverage === undefined || input.coverage === null
      ? { errors: [], gaps: [], notes: [] }
      : coverageChecks(input.coverage, status, r.planned, input.categoriesCompleted, input.findings, r.minSeverity)
  notes.push(...check.notes)
  const decided = { ...r.base, verdict, verdictComputed, notes }
  const ended: Ended = { check, stopped: stopReasons(input, r.readError), expired: expiredLine(input.expiredAcceptances ?? []) }
  return verdict === 'fail' ? failed(r, decided, ended, unreproduced) : notFailed(input, r, status, decided, ended)
}

/** The run had not ended when the step stopped waiting: whatever it found, the result is an error. */
function notEnded(input: DecideInput, r: Reading, status: string): Decision {
  const still = status === 'running' ? 'still running' : `still ${quote(status, 40)} (not a terminal status)`
  const why = input.aborted
    ? `the step was cancelled while the run was ${still}`
    : input.timedOut
      ? `timeout_minutes ran out while the run was ${still}`
      : input.statusReadError
        ? `the run status could no longer be read while the run was ${still}${r.readError}`
        : status === 'running'
          ? 'the run had not ended'
          : `the run had not ended: its status is ${quote(status, 40)}, not a terminal status`
  return { ...r.base, result: 'error', reason: `${why}; ${r.reached}`, verdict: null, verdictComputed: false, notes: [] }
}

/** What else was found once the run ended, beside the verdict. */
interface Ended {
  check: CoverageCheck
  /** Why the step stopped the run before it ended (empty: it ended on its own). */
  stopped: string[]
  /** The expired acceptances, one line; '' when none. */
  expired: string
}

function stopReasons(input: DecideInput, readError: string): string[] {
  const tail: string[] = []
  if (input.timedOut) tail.push('timeout_minutes ran out and the run was cancelled')
  if (input.aborted) tail.push('the step was cancelled and the run with it')
  if (input.abortedAfterRun && !input.aborted) tail.push('the step was cancelled while the results were read')
  if (input.statusReadError) tail.push(`the run status could no longer be read, so the run was cancelled${readError}`)
  return tail
}

function expiredLine(expired: readonly string[]): string {
  return expired.length > 0 ? `expired acceptance${expired.length === 1 ? '' : 's'} (renew or remove): ${expired.join('; ')}` : ''
}

type Decided = Omit<Decision, 'result' | 'reason'>

/** A fail stands whatever else is wrong; the contradictions are still said. */
function failed(r: Reading, decided: Decided, { check, stopped, expired }: Ended, unreproduced: readonly string[]): Decision {
  if (expired) decided.notes.push(`Also: ${expired}.`)
  for (const e of [...check.errors, ...check.gaps]) decided.notes.push(`Also: ${e}.`)
  const blocking = decided.openAtOrAbove
  const detail = r.blocking ? describeOpen(r.blocking, r.minSeverity) : ''
  const count =
    blocking !== null && blocking > 0
      ? `${plural(blocking, 'open finding')} at or above ${r.minSeverity}`
      : unreproduced.length > 0
        ? ''
        : `the service's verdict is fail at ${r.minSeverity}`
  const reason = [count && detail ? `${count} (${detail})` : count, ...unreproduced].filter((x) => x !== '').join('; ')
  // The run did not end on its own: the result is error (the step fails either way),
  // and what it found before it was stopped is said.
  if (stopped.length > 0) return { ...decided, result: 'error', reason: [...stopped, `${reason} in what it reached`].join('; ') }
  return { ...decided, result: 'fail', reason }
}

/** No fail: a pass only when the run ended on its own, fully covered and trusted, with nothing expired. */
function notFailed(input: DecideInput, r: Reading, status: RunStatus, decided: Decided, { check, stopped, expired }: Ended): Decision {
  const gaps = coverageGaps(input, r, status, check)
  const coverageReadable = input.coverageReadable && input.coverage !== null
  if (stopped.length > 0) {
    // Why it stopped first (the time ran out, the job was cancelled); coverage is blamed only where categories were missed.
    const missed = r.base.missingCategories.length > 0
    const rest = gaps.filter((g) => g !== `run ${status}`)
    const reason = [...stopped, missed ? `coverage incomplete: ${r.reached}` : r.reached, ...rest, ...check.errors].join('; ')
    return { ...decided, result: 'error', reason }
  }
  if (r.blocking === null || !coverageReadable) {
    return { ...decided, result: 'error', reason: `the result cannot be trusted: ${gaps.join(', ')}` }
  }
  if (check.errors.length > 0 || expired) {
    for (const g of gaps) decided.notes.push(`Also: ${g}.`)
    return check.errors.length > 0
      ? { ...decided, result: 'error', reason: check.errors.join('; ') }
      : { ...decided, result: 'fail', reason: expired }
  }
  const evidenceGaps = input.evidenceGaps ?? []
  const evidence = evidenceGaps.length > 0 ? `evidence incomplete: ${evidenceGaps.join('; ')}` : ''
  if (gaps.length > 0) {
    const reason = [`coverage incomplete: ${r.reached}, ${gaps.join(', ')}`, ...(evidence ? [evidence] : [])].join('; ')
    return { ...decided, result: 'incomplete', reason, incompleteWhy: evidence ? 'evidence' : 'coverage' }
  }
  if (evidence) return { ...decided, result: 'incomplete', reason: evidence, incompleteWhy: 'evidence' }
  const planned = plural(r.planned.length, 'planned category', 'planned categories')
  return {
    ...decided,
    result: 'pass',
    reason: `no open findings at or above ${r.minSeverity}${r.waived.size > 0 ? ' that block' : ''}; all ${planned} covered`
  }
}

/** Everything that keeps a run from having covered what it had to. */
function coverageGaps(input: DecideInput, r: Reading, status: RunStatus, check: CoverageCheck): string[] {
  const gaps: string[] = []
  if (status !== 'completed') gaps.push(`run ${status}`)
  if (r.planned.length === 0) gaps.push('the run planned no categories')
  if (r.base.missingCategories.length > 0) gaps.push(`missing ${r.base.missingCategories.join(', ')}`)
  gaps.push(...check.gaps)
  const baselineUncovered = input.baselineUncovered ?? []
  if (baselineUncovered.length > 0) gaps.push(`the baseline covered ${baselineUncovered.join(', ')}, this run did not`)
  if (input.ingestIncomplete === true) gaps.push('the service reports ingest incomplete')
  if (input.ingestIncomplete === null) gaps.push('the run list item could not be read to confirm ingest completed')
  if (r.blocking === null) gaps.push('the findings could not be read')
  if (!(input.coverageReadable && input.coverage !== null)) gaps.push('the coverage could not be read')
  return gaps
}
