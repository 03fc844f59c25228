/**
 * Stage record: what a run leaves behind on the default branch. The baseline
 * of a complete, trusted run is saved; with sync_dismissals, the accepted
 * findings are dismissed on the service.
 */
import { syncDismissals } from '../../accepted/sync-dismissals.js'
import { buildBaseline } from '../../evidence/baseline.js'
import type { GateOutcome } from '../../gate/assess-run.js'
import { recordHolders } from '../../evidence/records.js'
import { verdictOf } from '../../evidence/confirmation-rule.js'
import { writeRefusal } from '../../github/write-rule.js'
import { Deadline } from '../../util/clock.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { StepContext } from './stage-context.js'
import { SIDE_CALL_BUDGET_MS, type GatePolicy } from './load-baseline-and-risks.js'

export interface Recorded {
  /** Where the baseline was saved; null when it was not. */
  baselineSaved: string | null
  /** Notes for the report (what was dismissed, or why nothing was). */
  notes: string[]
}

export async function record(ctx: StepContext, inputs: ActionInputs, policy: GatePolicy, outcome: GateOutcome): Promise<Recorded> {
  const baselineSaved = await saveBaseline(ctx, inputs, policy, outcome)
  const notes = await dismissAccepted(ctx, inputs, policy, outcome)
  return { baselineSaved, notes }
}

/** The default branch records the baseline of a complete, trusted run. */
async function saveBaseline(ctx: StepContext, inputs: ActionInputs, policy: GatePolicy, outcome: GateOutcome): Promise<string | null> {
  const { scope } = policy
  const { decision, run, results } = outcome
  const own = scope.kind === 'pull_request'
  if (
    writeRefusal(scope, own ? { kind: 'own-record', ref: ctx.io.env.GITHUB_REF ?? '' } : { kind: 'baseline' }) !== null ||
    (decision.result !== 'pass' && decision.result !== 'fail') ||
    run?.status !== 'completed' ||
    results.findings === null ||
    ctx.signal.aborted
  )
    return null
  const saved = await ctx.baselineStore.save(
    buildBaseline({
      modelId: inputs.modelId,
      runId: outcome.triggered.runId,
      createdAt: new Date(ctx.clock.now()).toISOString(),
      // A pull request's own run is recorded at its head (GITHUB_SHA is a merge commit that moves with the base).
      commit: scope.kind === 'pull_request' ? (scope.headSha ?? scope.sha) : scope.sha,
      categoriesCompleted: run.categories_completed,
      findings: results.findings
    }),
    policy.agentKey,
    recordHolders(
      outcome.policy?.evidence.notReproduced ?? [],
      // A weakness a confirmation showed gone is named by no record.
      new Set((outcome.confirmation?.tallies ?? []).filter((t) => verdictOf(t) === 'shown-gone').flatMap((t) => t.plan.fingerprints)),
      // The service's list is not the default branch's own observation: named presumed-only (PRESUMED_MARK), never "known on main".
      new Set(policy.baseline.serviceList ?? [])
    )
  )
  if (!saved.saved) return null
  ctx.io.log.info(
    own
      ? `Run ${outcome.triggered.runId} recorded for this pull request's own window: ${saved.where}.`
      : `Baseline of run ${outcome.triggered.runId} saved: ${saved.where}.`
  )
  // The report's "saved" is the default branch's baseline; a pull request's own record is said in the log.
  return own ? null : saved.where
}

/** Acceptances are written to the service as dismissals where the write rule allows it (src/github/write-rule.ts). */
async function dismissAccepted(ctx: StepContext, inputs: ActionInputs, policy: GatePolicy, outcome: GateOutcome): Promise<string[]> {
  const { results } = outcome
  if (!inputs.syncDismissals || !outcome.policy || results.findings === null) return []
  const synced = await syncDismissals(
    policy.scope,
    () => ctx.makeApi(inputs, Deadline.after(ctx.clock, SIDE_CALL_BUDGET_MS)),
    results.findings,
    outcome.policy.acceptance.acceptedBy
  )
  return synced.notes
}
