/**
 * The main step, as a pipeline of named stages (src/action/stages/), each a
 * function from a typed input to a typed output:
 *
 *   gate:      prepare → load policy → assess → record → report → publish → conclude
 *   validate:  prepare → validate fixes → report → publish → conclude
 *   no result: report (not assessed) → publish → conclude
 *
 * The run's result (pass, fail, incomplete, error) is decided inside assess,
 * the step's pass or fail just before conclude, both by src/decision/. Every
 * stage writes through the scrubbing edge (stepContext), so none scrubs an
 * output itself.
 */
import type { BaselineStore } from '../baseline/store.js'
import { gateStepResult, validationStepResult } from '../decision/step-result.js'
import type { ServiceApi } from '../service/service-api.js'
import type { Clock, Deadline } from '../util/clock.js'
import { describeFailure } from '../util/errors.js'
import type { Log } from '../util/log.js'
import type { ActionInputs } from './inputs.js'
import type { ActionIO } from './io.js'
import { assess } from './stages/assess.js'
import { conclude, stepFailure } from './stages/conclude.js'
import { stepContext, type StepContext } from './stages/context.js'
import { loadPolicy } from './stages/load-policy.js'
import { prepare, readStepInputs, type PreparedStep } from './stages/prepare.js'
import { publish } from './stages/publish.js'
import { record } from './stages/record.js'
import { reportGate } from './stages/report.js'
import { reportNotAssessed } from './stages/report-not-assessed.js'
import { reportValidation } from './stages/report-validation.js'
import { validateFixes } from './stages/validate-fixes.js'

/** The edges of the main step (the runner's I/O, HTTP, clock, signals), passed in so tests run it in-process. */
export interface MainDeps {
  io: ActionIO
  clock: Clock
  signal: AbortSignal
  random?: () => number
  /**
   * requestTimeoutMs: per request, when a call needs longer than the client's default (the registration probe);
   * log: where the client logs its retries (the step's scrubbed log).
   */
  makeApi(inputs: ActionInputs, deadline: Deadline, opts?: { requestTimeoutMs?: number; log?: Log }): ServiceApi
  /** Where baselines are kept (default: the Actions cache). */
  baselineStore?: BaselineStore
}

/** Run the main step. Never throws: every failure fails the step with a line of its kind. */
export async function runMain(deps: MainDeps): Promise<void> {
  const ctx = stepContext(deps)
  let inputs: ActionInputs | null = null
  try {
    inputs = readStepInputs(ctx)
    const prepared = await prepare(ctx, inputs)
    inputs = prepared.inputs
    if (inputs.mode === 'validate') await validateStep(ctx, prepared)
    else await gateStep(ctx, prepared)
  } catch (err) {
    await failStep(ctx, inputs, err)
  }
}

async function gateStep(ctx: StepContext, prepared: PreparedStep): Promise<void> {
  const { inputs } = prepared
  const policy = await loadPolicy(ctx, inputs)
  const outcome = await assess(ctx, inputs, policy)
  const recorded = await record(ctx, inputs, policy, outcome)
  const report = await reportGate(ctx, { prepared, policy, outcome, recorded })
  await publish(ctx, inputs, report)
  conclude(ctx, gateStepResult(outcome.decision, { failOnIncomplete: inputs.failOnIncomplete, cancelled: ctx.signal.aborted }))
}

async function validateStep(ctx: StepContext, { inputs }: PreparedStep): Promise<void> {
  const result = await validateFixes(ctx, inputs)
  const report = await reportValidation(ctx, inputs, result)
  await publish(ctx, inputs, report)
  conclude(ctx, validationStepResult(result, { cancelled: ctx.signal.aborted }))
}

/** No result: the result output is error first, then the not-assessed report (best effort), then the failure. */
async function failStep(ctx: StepContext, inputs: ActionInputs | null, err: unknown): Promise<void> {
  const failure = stepFailure(err)
  ctx.io.setOutput('result', 'error')
  try {
    await publish(ctx, inputs, await reportNotAssessed(ctx, inputs, failure))
  } catch (publishErr) {
    ctx.io.log.warning(`Could not write the not-assessed report: ${describeFailure(publishErr)}`)
  }
  conclude(ctx, { outcome: 'fail', line: failure.line })
}
