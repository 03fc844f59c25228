/**
 * Stage validate fixes (validate mode's assess): replay the attacks of every
 * finding marked fixed among the model's recent runs, within timeout_minutes.
 */
import { Deadline } from '../../util/clock.js'
import { runValidateMode, type ValidateModeResult } from '../../validate/validate-mode.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { StepContext } from './stage-context.js'

export function validateFixes(ctx: StepContext, inputs: ActionInputs): Promise<ValidateModeResult> {
  const deadline = Deadline.after(ctx.clock, inputs.timeoutMs)
  return runValidateMode(
    { api: ctx.makeApi(inputs, deadline), clock: ctx.clock, deadline, signal: ctx.signal, log: ctx.io.log, random: ctx.random },
    { modelId: inputs.modelId, maxRuns: inputs.maxRuns, failOnIncomplete: inputs.failOnIncomplete }
  )
}
