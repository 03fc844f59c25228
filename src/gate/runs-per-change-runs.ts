/**
 * runs_per_change: when the agent may have changed since its evidence
 * (src/evidence/runs-per-change-rule.ts decides, asking the marks load-evidence.ts
 * gave each run), the step assesses with N full runs instead of one. The
 * further runs are triggered, waited for and read with the gate's own
 * trigger, wait and collect (runOnce in assess.ts, never a second polling
 * loop) and pooled as this agent's evidence. A bound that stops them short
 * (timeout_minutes, the budget, cancellation, a run that did not complete) is
 * a gap: incomplete, never a pass the full set would not give.
 */
import type { Deadline } from '../util/clock.js'
import { describeFailure, ServiceError } from '../util/errors.js'
import { explainAssessmentLimit } from '../pipeline/budget.js'
import { observedFindings, type RunEvidence } from '../evidence/pool.js'
import { agentMayHaveChanged, runsCutShort, runsThisStep, withRunsOfThisAgent } from '../evidence/runs-per-change-rule.js'
import type { GateArgs, GateDeps, RunEnd, RunOnce } from './gate-types.js'
import type { CollectedResults } from './collect-results.js'

/** What the further runs of an agent change gave. */
export interface MoreRuns {
  /** Full runs this step was to assess (its own included). */
  planned: number
  /** The further runs it triggered (each counted in the budget line), read or not. */
  runIds: string[]
  /** Of them, the runs read and pooled as this agent's evidence. */
  pooled: number
  /** The step's args with the runs read pooled into the agent's window, and a gap when they were cut short. */
  args: GateArgs
}

/** The step's own run as it ended, for deciding whether more runs are worth their cost. */
interface OwnRun {
  ended: RunEnd
  results: CollectedResults
}

/**
 * The further full runs of an agent change, or null when none is due (one run
 * asked, the agent unchanged since its evidence, or the step's own run
 * already short of a pass: not completed, findings unread, cancelled).
 */
export async function assessMoreRuns(
  deps: GateDeps,
  runOnce: RunOnce,
  args: GateArgs,
  deadline: Deadline,
  own: OwnRun
): Promise<MoreRuns | null> {
  const planned = runsThisStep(args.runsPerChange ?? 1, agentMayHaveChanged(args.policy?.windows))
  const ownDone = own.ended.end === 'terminal' && own.ended.run?.status === 'completed' && own.results.findings !== null
  if (planned <= 1 || !ownDone || args.policy === undefined || deps.signal.aborted) return null
  const wanted = own.ended.run?.categories_completed ?? []
  const runIds: string[] = []
  const read: RunEvidence[] = []
  let stop: string | null = null
  while (runIds.length < planned - 1 && stop === null) {
    stop = boundReached(deps, deadline)
    if (stop !== null) break
    deps.log.info(`The agent may have changed since its evidence: full run ${runIds.length + 2} of ${planned} (runs_per_change).`)
    try {
      const run = await runOnce(deadline, args.categories)
      runIds.push(run.runId)
      const evidence = evidenceOf(run.runId, run.ended, run.results, wanted)
      if (typeof evidence === 'string') stop = evidence
      else read.push(evidence)
    } catch (err) {
      stop = err instanceof ServiceError ? (explainAssessmentLimit(err, deps.clock.now()) ?? describeFailure(err)) : describeFailure(err)
    }
  }
  const gap = runsCutShort(1 + read.length, planned, stop ?? 'stopped')
  if (gap !== null) deps.log.warning(gap)
  const policy = {
    ...args.policy,
    windows: withRunsOfThisAgent(args.policy.windows, read),
    evidenceGaps: [...(args.policy.evidenceGaps ?? []), ...(gap === null ? [] : [gap])]
  }
  return { planned, runIds, pooled: read.length, args: { ...args, policy } }
}

/** What stops the further runs before the next one: cancellation, or timeout_minutes spent; null: neither. */
function boundReached(deps: GateDeps, deadline: Deadline): string | null {
  if (deps.signal.aborted) return 'the step was cancelled'
  return deadline.remainingMs() <= 0 ? 'timeout_minutes ran out' : null
}

/** A further run as evidence of this agent, or why it cannot be: it did not complete every category the step's own run did, or its findings went unread. */
function evidenceOf(runId: string, ended: RunEnd, results: CollectedResults, wanted: readonly string[]): RunEvidence | string {
  const run = ended.run
  if (ended.end !== 'terminal' || run?.status !== 'completed') return `run ${runId} did not complete (${run?.status ?? ended.end})`
  const missing = wanted.filter((c) => !run.categories_completed.includes(c))
  if (missing.length > 0) return `run ${runId} did not complete ${missing.join(', ')}`
  if (results.findings === null) return `the findings of run ${runId} could not be read`
  return {
    runId,
    completedAt: run.completed_at ?? '',
    categoriesCompleted: run.categories_completed,
    findings: observedFindings(results.findings, runId),
    // This step's own further runs: they can block, never let through (knownOnMain reads only the default branch's).
    provenance: 'own-lineage'
  }
}
