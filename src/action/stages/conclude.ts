/**
 * Stage conclude: the step's last line, and its pass or fail (the rules are
 * in src/decision/step-result.ts); on a failure without a result, the line of
 * its kind (see describeFailure).
 */
import type { StepResult } from '../../decision/step-result.js'
import { failureCause } from '../../report/not-assessed.js'
import { describeFailure, failureKind, type FailureKind } from '../../util/errors.js'
import type { StepContext } from './context.js'

export function conclude(ctx: StepContext, result: StepResult): void {
  const { io } = ctx
  if (result.resultOutput !== undefined) io.setOutput('result', result.resultOutput)
  if (result.outcome === 'pass') io.log.info(result.line)
  else if (result.outcome === 'warn') io.log.warning(result.line)
  else io.setFailed(result.line)
}

/** A step that ended without a result: why, in a line of its kind and in a few words. */
export interface StepFailure {
  kind: FailureKind
  /** The failure in one line (configuration, service, cancellation; a bug with its stack). */
  line: string
  /** The failure in a few words, for the report's title. */
  cause: string
}

export function stepFailure(err: unknown): StepFailure {
  const kind = failureKind(err)
  return { kind, line: describeFailure(err), cause: failureCause(err, kind) }
}
