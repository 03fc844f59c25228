/**
 * The main step, as a pipeline of named stages (src/action/stages/), each a
 * function from a typed input to a typed output:
 *
 *   gate:      plan event → prepare → load policy → plan → assess → record → report → publish → conclude
 *                                                        └→ carry over: report (carried over) → publish → conclude
 *              a deployment not ready: report (skipped) → publish → conclude
 *   validate:  prepare → validate fixes → report → publish → conclude
 *   no result: report (not assessed) → publish → conclude
 *
 * plan event reads what the event is (a deployment and the pull request of
 * its commit, a merge queue, a push); plan decides to assess, carry an
 * earlier result over, or fail closed (docs/pr-pipelines.md). On deployment
 * events the commit status is set pending once the event is planned and
 * final at conclude. The run's result (pass, fail, incomplete, error) is
 * decided inside assess, the step's pass or fail just before conclude, both
 * by src/decision/. Every stage writes through the scrubbing edge
 * (stepContext), so none scrubs an output itself.
 */
import type { BaselineStore } from '../baseline/store.js'
import { carriedStepResult, skippedStepResult } from '../decision/carried-result.js'
import { gateStepResult, validationStepResult } from '../decision/step-result.js'
import type { PipelineEvent } from '../pipeline/event.js'
import type { ServiceApi } from '../service/service-api.js'
import type { Clock, Deadline } from '../util/clock.js'
import { describeFailure } from '../util/errors.js'
import type { Log } from '../util/log.js'
import type { ActionInputs } from './inputs.js'
import type { ActionIO } from './io.js'
import { assess } from './stages/assess.js'
import { finishStatus, startStatus, statusEdge, type StatusEdge } from './stages/commit-status.js'
import { conclude, stepFailure } from './stages/conclude.js'
import { stepContext, type StepContext } from './stages/context.js'
import { loadPolicy } from './stages/load-policy.js'
import { plan, type CarryOverPlan } from './stages/plan.js'
import { planEvent, type PlannedEvent } from './stages/plan-event.js'
import { prepare, readStepInputs, type PreparedStep } from './stages/prepare.js'
import { publish } from './stages/publish.js'
import { record } from './stages/record.js'
import { reportGate } from './stages/report.js'
import { reportCarried, reportSkipped } from './stages/report-carried.js'
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

/** What the step knew when it failed: its inputs, its event, the commit status it set pending. */
interface StepTrail {
  inputs: ActionInputs | null
  planned: PlannedEvent | null
  status: StatusEdge | null
}

/** Run the main step. Never throws: every failure fails the step with a line of its kind. */
export async function runMain(deps: MainDeps): Promise<void> {
  const ctx = stepContext(deps)
  const trail: StepTrail = { inputs: null, planned: null, status: null }
  try {
    const { inputs, event } = await readStepInputs(ctx)
    trail.inputs = inputs
    if (inputs.mode === 'validate') await validateStep(ctx, await prepare(ctx, inputs))
    else await gateStep(ctx, inputs, event, trail)
  } catch (err) {
    await failStep(ctx, trail, err)
  }
}

async function gateStep(ctx: StepContext, given: ActionInputs, event: PipelineEvent, trail: StepTrail): Promise<void> {
  const planned = (trail.planned = await planEvent(ctx, given, event))
  if (planned.skipped !== null) return skipStep(ctx, given, planned, planned.skipped)
  trail.status = statusEdge(ctx, given, planned)
  await startStatus(ctx, trail.status)
  const prepared = await prepare(ctx, given, planned)
  const inputs = (trail.inputs = prepared.inputs)
  const policy = await loadPolicy(ctx, inputs, planned.acceptedAt)
  const decided = await plan(ctx, inputs, policy, planned)
  if (decided.kind === 'fail_closed') throw decided.error
  if (decided.kind === 'carry_over') return carryOverStep(ctx, inputs, planned, decided, trail.status)
  const outcome = await assess(ctx, inputs, policy)
  const recorded = await record(ctx, inputs, policy, outcome)
  const report = await reportGate(ctx, { prepared, policy, outcome, recorded, planned, plan: decided })
  await publish(ctx, inputs, report)
  const step = gateStepResult(outcome.decision, { failOnIncomplete: inputs.failOnIncomplete, cancelled: ctx.signal.aborted })
  await finishStatus(ctx, trail.status, outcome.decision.result, step)
  conclude(ctx, step)
}

/** The result recorded for this agent stands: nothing is assessed. */
async function carryOverStep(
  ctx: StepContext,
  inputs: ActionInputs,
  planned: PlannedEvent,
  carried: CarryOverPlan,
  status: StatusEdge | null
): Promise<void> {
  await publish(ctx, inputs, await reportCarried(ctx, inputs, planned, carried))
  const step = carriedStepResult(carried, { cancelled: ctx.signal.aborted })
  await finishStatus(ctx, status, carried.result, step)
  conclude(ctx, step)
}

/** A deployment not ready: nothing to assess yet, and no failure. */
async function skipStep(ctx: StepContext, inputs: ActionInputs, planned: PlannedEvent, reason: string): Promise<void> {
  await publish(ctx, inputs, await reportSkipped(ctx, inputs, planned, reason))
  conclude(ctx, skippedStepResult(reason, { cancelled: ctx.signal.aborted }))
}

async function validateStep(ctx: StepContext, { inputs }: PreparedStep): Promise<void> {
  const result = await validateFixes(ctx, inputs)
  const report = await reportValidation(ctx, inputs, result)
  await publish(ctx, inputs, report)
  conclude(ctx, validationStepResult(result, { cancelled: ctx.signal.aborted }))
}

/**
 * No result: the result output is error first, then the not-assessed report
 * (best effort), the commit status it set pending ends in error, then the failure.
 */
async function failStep(ctx: StepContext, trail: StepTrail, err: unknown): Promise<void> {
  const failure = stepFailure(err)
  const { inputs, planned } = trail
  ctx.io.setOutput('result', 'error')
  try {
    const at = {
      commit: planned?.commit ?? null,
      pullRequest: planned?.event.kind === 'deployment' ? planned.pull : null,
      agent: planned?.agent ?? null
    }
    await publish(ctx, inputs, await reportNotAssessed(ctx, inputs, failure, at))
  } catch (publishErr) {
    ctx.io.log.warning(`Could not write the not-assessed report: ${describeFailure(publishErr)}`)
  }
  const step = { outcome: 'fail' as const, line: failure.line }
  await finishStatus(ctx, trail.status, 'error', step)
  conclude(ctx, step)
}
