/**
 * The main step, as a pipeline of named stages (src/action/stages/), each a
 * function from a typed input to a typed output:
 *
 *   gate:      plan event → load policy → plan → prepare → assess → record → report → publish → conclude
 *                                          └→ carry over: report (carried over) → publish → conclude (nothing registered)
 *              a deployment not ready: report (skipped) → publish → conclude
 *   validate:  prepare → validate fixes → report → publish → conclude
 *   no result: report (not assessed) → publish → conclude
 *
 * plan event reads what the event is (a deployment and the pull request of
 * its commit, a merge queue, a push); before prepare, the target's secrets are
 * refused to code from outside this repository (stages/outside-code.ts); plan decides to assess, carry an
 * earlier result over, or fail closed (docs/pr-pipelines.md). On deployment
 * events the commit status is set pending once the event is planned and
 * final at conclude. The run's result (pass, fail, incomplete, error) is
 * decided inside assess, the step's pass or fail just before conclude, both
 * by src/decision/. The step's outcome is one typed value (outcome.ts) that
 * the stages produce and runMain renders as the action's outputs. Every stage
 * writes through the scrubbing edge (stepContext), so none scrubs an output
 * itself.
 */
import { carriedStepResult, skippedStepResult } from '../decision/carried-result.js'
import { gateStepResult, overviewStepResult, validationStepResult } from '../decision/step-result.js'
import type { PipelineEvent } from '../pipeline/event.js'
import { ConfigError, describeFailure } from '../util/errors.js'
import { envInputReader, isOverviewMode, type ActionInputs } from './inputs/read-inputs.js'
import { gateStatus, type EndOutcome, type PreparedOutcome, type StepOutcome } from './outcome.js'
import { collectStep } from './stages/collect.js'
import { assess } from './stages/assess.js'
import { detach, detachedAt } from './stages/detach.js'
import { statusLine } from './output-table.js'
import { finishStatus, startStatus, statusEdge, type StatusEdge } from './stages/set-commit-status.js'
import { failureStatus } from '../github/commit-status.js'
import { conclude, concludeAction, stepFailure } from './stages/conclude.js'
import { stepContext, type MainDeps, type StepContext } from './stages/stage-context.js'

export type { MainDeps }
import { loadPolicy, withEvidence } from './stages/load-baseline-and-risks.js'
import { guardSecrets } from './stages/outside-code.js'
import { assessmentIdentity, plan, type CarryOverPlan } from './stages/plan.js'
import { planEvent, type PlannedEvent } from './stages/plan-event.js'
import { prepare, readOverviewStepInputs, readStepInputs, type PreparedStep } from './stages/prepare.js'
import { publish } from './stages/publish-report.js'
import { record } from './stages/record.js'
import { reportGate } from './stages/report.js'
import { reportCarried, reportSkipped } from './stages/report-carried.js'
import { reportNotAssessed } from './stages/report-not-assessed.js'
import { reportValidation } from './stages/report-validation.js'
import { readWorkspace, reportOverview } from './stages/report-overview.js'
import { validateFixes } from './stages/validate-fixes.js'

/** What the step knew when it failed: its inputs, its model, its event, the commit status it set pending. */
interface StepTrail {
  inputs: ActionInputs | null
  prepared: PreparedOutcome | null
  planned: PlannedEvent | null
  status: StatusEdge | null
}

/** Run the main step, then set its outputs and end it. Never throws: every failure fails the step with a line of its kind. */
export async function runMain(deps: MainDeps): Promise<StepOutcome> {
  const ctx = stepContext(deps)
  const outcome = await runStep(ctx)
  concludeAction(ctx.io, outcome)
  return outcome
}

/** The main step's stages, to its outcome (which every shell renders its way). Never throws. */
export async function runStep(ctx: StepContext): Promise<StepOutcome> {
  const trail: StepTrail = { inputs: null, prepared: null, planned: null, status: null }
  try {
    if (isOverviewMode(envInputReader(ctx.io.env))) return await overviewStep(ctx)
    const { inputs, event } = await readStepInputs(ctx)
    trail.inputs = inputs
    if (inputs.mode === 'validate' && event.kind === 'unreadable') throw unreadable(event)
    if (inputs.mode === 'validate') {
      await guardSecrets(ctx, inputs, event)
      return await validateStep(ctx, await prepare(ctx, inputs), trail)
    }
    if (inputs.mode === 'collect') return await collectStep(ctx, inputs, event)
    return await gateStep(ctx, inputs, event, trail)
  } catch (err) {
    return failStep(ctx, trail, err)
  }
}

async function gateStep(ctx: StepContext, given: ActionInputs, event: PipelineEvent, trail: StepTrail): Promise<StepOutcome> {
  const planned = (trail.planned = await planEvent(ctx, given, event))
  if (event.kind === 'unreadable') {
    // Nothing is known of the event but its name (and, where GitHub says, its commit): fail closed, the status in error.
    trail.status = statusEdge(ctx, given, planned)
    throw unreadable(event)
  }
  if (planned.skipped !== null) return skipStep(ctx, given, planned, planned.skipped)
  trail.status = statusEdge(ctx, given, planned)
  const statusSet = await startStatus(ctx, trail.status, given)
  await guardSecrets(ctx, given, event)
  // The plan comes before prepare: a carried-over push needs no assessment, so it finds or registers no target.
  const early = await loadPolicy(ctx, given, planned.agent, given.target.kind === 'endpoint' ? 'later' : 'now', statusSet)
  const decided = await plan(ctx, given, early, planned)
  if (decided.kind === 'fail_closed') throw decided.error
  if (decided.kind === 'carry_over') {
    trail.prepared = given.target.kind === 'model' ? { modelId: given.modelId, target: null, profileVersion: null } : null
    return carryOverStep(ctx, given, planned, decided, trail)
  }
  const prepared = await prepare(ctx, given, planned)
  const inputs = (trail.inputs = prepared.inputs)
  trail.prepared = prepared.outcome
  const policy = early.evidence === 'later' ? await withEvidence(ctx, inputs, early) : early
  // The record names the verdict inputs this assessment is decided with, the baseline read now included.
  const assessing = policy === early ? decided : { ...decided, identity: await assessmentIdentity(ctx, inputs, policy, planned) }
  const handOver = detachedAt(inputs, planned, trail.status, ctx.io.env)
  if (handOver !== null && trail.status !== null) {
    const { end, line } = await detach(ctx, { inputs, policy, planned: handOver, reason: assessing.reason, status: trail.status })
    return conclude({ outcome: 'pass', line }, end, trail.prepared)
  }
  const outcome = await assess(ctx, inputs, policy)
  const recorded = await record(ctx, inputs, policy, outcome)
  const report = await reportGate(ctx, { prepared, policy, outcome, recorded, planned, plan: assessing })
  const end = await publish(ctx, inputs, report)
  const step = gateStepResult(outcome.decision, { failOnIncomplete: inputs.failOnIncomplete, cancelled: ctx.signal.aborted })
  const named = end.kind === 'assessed' && step.resultOutput === undefined ? gateStatus(end) : undefined
  const status = named === undefined ? undefined : statusLine('fail', named, true)
  return conclude(await finishStatus(ctx, trail.status, outcome.decision.result, step, status), end, trail.prepared)
}

function unreadable(event: Extract<PipelineEvent, { kind: 'unreadable' }>): ConfigError {
  return new ConfigError(
    'GITHUB_EVENT_PATH',
    `${event.reason}. Nothing is assessed and nothing passes: re-run the job, and check what sent the event if it fails again`
  )
}

/** The result recorded for this agent stands: nothing is assessed. */
async function carryOverStep(
  ctx: StepContext,
  inputs: ActionInputs,
  planned: PlannedEvent,
  carried: CarryOverPlan,
  trail: StepTrail
): Promise<StepOutcome> {
  const end = await publish(ctx, inputs, await reportCarried(ctx, inputs, planned, carried))
  const step = carriedStepResult(carried, { cancelled: ctx.signal.aborted })
  return conclude(await finishStatus(ctx, trail.status, carried.result, step), end, trail.prepared)
}

/** A deployment not ready: nothing to assess yet, and no failure. */
async function skipStep(ctx: StepContext, inputs: ActionInputs, planned: PlannedEvent, reason: string): Promise<StepOutcome> {
  const end = await publish(ctx, inputs, await reportSkipped(ctx, inputs, planned, reason))
  return conclude(skippedStepResult(reason, { cancelled: ctx.signal.aborted }), end, null)
}

/** mode: overview: the workspace read (reads only), its page as the summary and the tracking issue; fails unless clear. */
async function overviewStep(ctx: StepContext): Promise<StepOutcome> {
  const inputs = readOverviewStepInputs(ctx)
  const page = await readWorkspace(ctx, inputs)
  const end = await publish(ctx, { ...inputs, comment: 'off' }, await reportOverview(ctx, page))
  return conclude(overviewStepResult(page.verdict, { cancelled: ctx.signal.aborted }), end, null)
}

async function validateStep(ctx: StepContext, prepared: PreparedStep, trail: StepTrail): Promise<StepOutcome> {
  const { inputs } = prepared
  trail.prepared = prepared.outcome
  const result = await validateFixes(ctx, inputs)
  const report = await reportValidation(ctx, inputs, result)
  const end = await publish(ctx, inputs, report)
  return conclude(validationStepResult(result, { cancelled: ctx.signal.aborted }), end, trail.prepared)
}

/**
 * No result: the result is error, the not-assessed report is published (best
 * effort), the commit status it set pending ends in error, then the failure.
 */
async function failStep(ctx: StepContext, trail: StepTrail, err: unknown): Promise<StepOutcome> {
  const failure = stepFailure(err, ctx.nameInput)
  const { inputs, planned } = trail
  let end: EndOutcome = { kind: 'not_assessed', result: 'error', assessmentsSpent: null }
  try {
    const at = {
      commit: planned?.commit ?? null,
      pullRequest: planned?.event.kind === 'deployment' ? planned.pull : null,
      agent: planned?.agent ?? null
    }
    end = await publish(ctx, inputs, await reportNotAssessed(ctx, inputs, failure, at))
  } catch (publishErr) {
    ctx.io.log.warning(`Could not write the not-assessed report: ${describeFailure(publishErr)}`)
  }
  const step = { outcome: 'fail' as const, line: failure.line }
  return conclude(await finishStatus(ctx, trail.status, 'error', step, failureStatus(err, failure.line)), end, trail.prepared)
}
