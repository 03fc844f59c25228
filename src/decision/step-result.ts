/**
 * Whether the step passes, for the gate and validate mode alike: the line it
 * ends with, and whether it fails. The run's own result (pass, fail,
 * incomplete, error) is decided first (see decide); here the inputs that
 * bend it (fail_on_incomplete) and the rule that a cancelled job never
 * passes.
 */
import type { GateResult } from './result-words.js'

export interface StepResult {
  /** pass: logged; warn: logged as a warning, the step still passes; fail: the step fails. */
  outcome: 'pass' | 'warn' | 'fail'
  /** The step's last line. */
  line: string
  /** Set when the result output changes: a step cancelled after its result was decided ends in error. */
  resultOutput?: 'error'
}

/** The gate step, from the run's decided result. `cancelled`: the job was cancelled, at any point until now. */
export function gateStepResult(
  decision: { result: GateResult; reason: string; incompleteWhy?: 'coverage' | 'evidence' },
  opts: { failOnIncomplete: boolean; cancelled: boolean }
): StepResult {
  if (opts.cancelled && decision.result !== 'error') {
    return {
      outcome: 'fail',
      resultOutput: 'error',
      line: `Result: error: the step was cancelled before it finished (the assessment read ${decision.result}: ${decision.reason})`
    }
  }
  const line = `Result: ${decision.result}: ${decision.reason}`
  if (decision.result === 'pass') return { outcome: 'pass', line }
  // fail_on_incomplete waves incomplete coverage only: an evidence gap or a confirmation cut short could hide a fail.
  // Only a gap said to be coverage is waved: an incomplete that does not say why is taken as missing evidence.
  if (decision.result === 'incomplete' && !opts.failOnIncomplete && decision.incompleteWhy === 'coverage')
    return { outcome: 'warn', line: `${line} (fail_on_incomplete is false: not failing the step)` }
  if (decision.result === 'incomplete' && !opts.failOnIncomplete)
    return { outcome: 'fail', line: `${line} (fail_on_incomplete waves incomplete coverage only, not missing evidence)` }
  return { outcome: 'fail', line }
}

/** The validate step, from the result of the replays (whose `failed` already weighs fail_on_incomplete). */
export function validationStepResult(result: { failed: boolean; reason: string }, opts: { cancelled: boolean }): StepResult {
  if (opts.cancelled && !result.failed)
    return { outcome: 'fail', resultOutput: 'error', line: 'Validation: error: the step was cancelled before it finished' }
  return { outcome: result.failed ? 'fail' : 'pass', line: `Validation: ${result.reason}` }
}

/**
 * The overview step, from its page's status: clear passes; an agent that
 * would fail the gate, or one stale, never assessed or not read, fails it
 * (missing evidence is never evidence of safety), as the command line exits.
 */
export function overviewStepResult(
  page: { status: 'clear' | 'attention' | 'incomplete'; headline: string },
  opts: { cancelled: boolean }
): StepResult {
  if (opts.cancelled) return { outcome: 'fail', resultOutput: 'error', line: 'Overview: error: the step was cancelled before it finished' }
  return { outcome: page.status === 'clear' ? 'pass' : 'fail', line: `Overview: ${page.headline}` }
}
