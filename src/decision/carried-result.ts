/**
 * The step of a run that assessed nothing because of its event
 * (docs/pr-pipelines.md), and what makes two verdicts comparable:
 * - a carried-over result is the recorded one: a pass only when the
 *   assessment it carries passed, a fail stays a fail, and nothing else is
 *   carried (an incomplete or errored assessment is assessed again);
 * - a deployment event that is not ready is skipped: not a failure, and not a
 *   pass of the agent either (the result output says skipped);
 * - a cancelled step never passes.
 */
import type { RecordedResult } from './result-words.js'
import type { StepResult } from './step-result.js'

/**
 * The inputs that decide a verdict. A result decided under other values is
 * never carried over (src/pipeline/identity.ts digests them): a rule added to
 * the verdict that reads another input adds it here (src/action/policy-use.ts
 * names, for each policy input, its field here or none).
 */
export interface VerdictValues {
  minSeverity: string
  categories: readonly string[]
  failOn: string
  failOnIncomplete: boolean
  /** The accepted-risks file in force, as text; null: none. */
  acceptedText: string | null
  /** With fail_on new: the baseline's run id (null: no baseline). */
  baselineRunId: string | null
  /** The evidence window's bounds (evidence_runs, evidence_max_age_days): they decide which earlier runs count. */
  evidenceRuns: number
  evidenceMaxAgeDays: number
  /**
   * How a presumed weakness is shown gone (confidence, confirmation_runs_max) and how many runs a change gets
   * (runs_per_change): a pass decided with a laxer confirmation is not the default branch's pass.
   */
  confidence: number
  confirmationRunsMax: number
  runsPerChange: number
}

/** The inputs that decide a verdict, by name. */
export function verdictInputs(v: VerdictValues): Record<string, string> {
  // A Record over VerdictValues: a value added there without its name and text does not compile.
  const named: Record<keyof VerdictValues, [name: string, value: string]> = {
    minSeverity: ['min_severity', v.minSeverity],
    categories: ['categories', v.categories.join(',')],
    failOn: ['fail_on', v.failOn],
    failOnIncomplete: ['fail_on_incomplete', String(v.failOnIncomplete)],
    acceptedText: ['accepted_risks', v.acceptedText ?? '-'],
    baselineRunId: ['baseline', v.failOn === 'new' ? (v.baselineRunId ?? '-') : '-'],
    evidenceRuns: ['evidence_runs', String(v.evidenceRuns)],
    evidenceMaxAgeDays: ['evidence_max_age_days', String(v.evidenceMaxAgeDays)],
    confidence: ['confidence', String(v.confidence)],
    confirmationRunsMax: ['confirmation_runs_max', String(v.confirmationRunsMax)],
    runsPerChange: ['runs_per_change', String(v.runsPerChange)]
  }
  return Object.fromEntries(Object.values(named))
}

/** A carried-over result, as the step's line tells it. */
export interface CarriedForLine {
  result: RecordedResult
  /** The line of the carry-over (what was assessed where, what changed since). */
  reason: string
  /** The commit assessed, what changed since and what decided the result: the line leads with the cause when known. */
  assessedSha?: string
  since?: string | null
  cause?: string | null
}

/**
 * The step of a carried-over result. Its line (the commit status's
 * description too) says first what decided the result, then that it was
 * carried: "Result: fail: 1 open critical, as assessed at abc1234, carried
 * over (the same commit)".
 */
export function carriedStepResult(carried: CarriedForLine, opts: { cancelled: boolean }): StepResult {
  if (opts.cancelled) {
    return { outcome: 'fail', resultOutput: 'error', line: `Result: error: the step was cancelled before it finished (${carried.reason})` }
  }
  const said =
    carried.since == null || carried.assessedSha === undefined
      ? carried.reason
      : `${carried.cause == null ? '' : `${carried.cause}, `}as assessed at ${carried.assessedSha.slice(0, 7)}, carried over (${carried.since})`
  const line = `Result: ${carried.result}: ${said}`
  if (carried.result === 'pass') return { outcome: 'pass', line }
  if (carried.result === 'fail') return { outcome: 'fail', line }
  // Only a verdict is carried; anything else reaching here is not a result to stand on.
  return {
    outcome: 'fail',
    resultOutput: 'error',
    line: `Result: error: ${carried.result} is not a verdict to carry over (${carried.reason})`
  }
}

/** The step of a deployment event with nothing to assess yet. */
export function skippedStepResult(reason: string, opts: { cancelled: boolean }): StepResult {
  if (opts.cancelled) return { outcome: 'fail', resultOutput: 'error', line: 'Result: error: the step was cancelled before it finished' }
  return { outcome: 'pass', line: `Result: skipped: ${reason} (0 assessments spent; not a pass of the agent)` }
}
