/**
 * Stage conclude: the step's whole outcome, with its last line and its pass
 * or fail (the rules are in src/decision/step-result.ts; on a failure without
 * a result, the line of its kind, see describeFailure), for the shell to
 * render (concludeAction: the outputs, then the line).
 */
import type { StepResult } from '../../decision/step-result.js'
import { failureCause } from '../../report/not-assessed.js'
import { describeFailure, failureKind, type FailureKind, type InputNamer } from '../../util/errors.js'
import type { ActionIO } from '../io.js'
import type { EndOutcome, PreparedOutcome, StepOutcome } from '../outcome.js'
import { setActionOutputs } from '../output-table.js'

export function conclude(result: StepResult, end: EndOutcome, prepared: PreparedOutcome | null): StepOutcome {
  return { end, prepared, result: result.resultOutput ?? end.result, conclusion: result }
}

/**
 * The action's rendering of an outcome: its outputs, then its last line (a
 * failure fails the step). A warning line goes through `resultWarning` when
 * the io has it (the scrubbing edge keeps it a place among the warnings
 * GitHub shows).
 */
export function concludeAction(
  io: Pick<ActionIO, 'setOutput' | 'log' | 'setFailed'> & { resultWarning?: (line: string) => void },
  outcome: StepOutcome
): void {
  setActionOutputs(io, outcome)
  const { outcome: kind, line } = outcome.conclusion
  if (kind === 'pass') io.log.info(line)
  else if (kind === 'warn') {
    if (io.resultWarning) io.resultWarning(line)
    else io.log.warning(line)
  } else io.setFailed(line)
}

/** A step that ended without a result: why, in a line of its kind and in a few words. */
export interface StepFailure {
  kind: FailureKind
  /** The failure in one line (configuration, service, cancellation; a bug with its stack). */
  line: string
  /** The failure in a few words, for the report's title. */
  cause: string
}

/** `nameInput`: how the shell names an input (the action: input 'x'; the command line: its flag). */
export function stepFailure(err: unknown, nameInput?: InputNamer): StepFailure {
  const kind = failureKind(err)
  return { kind, line: describeFailure(err, nameInput), cause: failureCause(err, kind) }
}
