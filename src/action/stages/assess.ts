/**
 * Stage assess: trigger a run, wait for it, stop it on timeout or
 * cancellation, read what it produced and decide its result (src/gate/assess-run.ts). Each
 * step of the run's life is saved in the step state, so the post step can
 * cancel a run the main step could not.
 */
import { assess as assessRun, type GateArgs, type GateDeps, type GateOutcome } from '../../gate/assess-run.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import { saveCancelRequested, saveRunSettled, saveRunStarted, saveTriggerIntent } from '../saved-state.js'
import type { StepContext } from './stage-context.js'
import type { GatePolicy } from './load-baseline-and-risks.js'
import { policyChoices } from '../policy-use.js'

export function assess(ctx: StepContext, inputs: ActionInputs, policy: GatePolicy): Promise<GateOutcome> {
  return assessRun(gateDeps(ctx, inputs), gateArgs(inputs, policy))
}

/** The gate's edges for this step: the run's life saved in the step state, so the post step can cancel it. */
export function gateDeps(ctx: StepContext, inputs: ActionInputs): GateDeps {
  const { io } = ctx
  return {
    makeApi: (deadline) => ctx.makeApi(inputs, deadline),
    clock: ctx.clock,
    signal: ctx.signal,
    log: io.log,
    random: ctx.random,
    onRunStarted: (runId) => {
      saveRunStarted(io, runId)
    },
    onRunSettled: () => {
      saveRunSettled(io)
    },
    onTriggerIntent: (intent) => {
      saveTriggerIntent(io, intent)
    },
    onCancelRequested: (runId) => {
      saveCancelRequested(io, runId)
    },
    onProgress: ctx.onProgress
  }
}

/** What the gate is asked: the model, the categories, the threshold, the timeout, and the policy to decide with. */
export function gateArgs(inputs: ActionInputs, policy: GatePolicy): GateArgs {
  return {
    modelId: inputs.modelId,
    categories: inputs.categories,
    minSeverity: inputs.minSeverity,
    timeoutMs: inputs.timeoutMs,
    policy: {
      ...policyChoices(inputs),
      baseline: policy.baseline.baseline,
      windows: policy.baseline.windows,
      accepted: policy.accepted?.entries ?? [],
      today: policy.today,
      evidenceGaps: policy.baseline.gaps
    },
    confirm: { confidence: inputs.confidence, maxRuns: inputs.confirmationRunsMax },
    runsPerChange: inputs.runsPerChange
  }
}
