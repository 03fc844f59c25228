/**
 * Assessing the model, on every event (pull request, push, schedule...):
 * trigger a run, wait for it, stop it on timeout or cancellation, read what it
 * produced, and decide. Everything it touches is passed in; the shell
 * (main.ts) turns the outcome into outputs and reports.
 */
import { Deadline } from '../util/clock.js'
import { collectResults, type CollectedResults } from './collect-results.js'
import { isTerminal, type RunStatusResponse } from '../service/contract/index.js'
import { decide, type Decision } from '../decision/decide.js'
import type { ServiceApi } from '../service/service-api.js'
import { triggerRun, type Triggered } from './trigger.js'
import type { TriggerIntent } from './run-ownership.js'
import { AbortedError } from '../util/errors.js'
import { applyPolicy, type PolicyOutcome } from '../decision/apply-policy.js'
import { describeEntry } from '../accepted/accepted-file.js'
import { stopAbandonedTrigger, stopRun } from './stop-run.js'
import { waitForRun, type WaitEnd } from './wait-for-run.js'
import { confirmIfItDecides, settledBy, type ConfirmationOutcome, type Settled } from './confirmation-runs.js'
import { categoriesNotPlanned } from './run-covers-policy.js'
import { assessMoreRuns, type MoreRuns } from './runs-per-change-runs.js'
import type { GateArgs, GateDeps, RunEnd, RunOnce } from './gate-types.js'

export type { GateArgs, GateDeps, RunEnd, RunOnce }

export interface GateOutcome {
  triggered: Triggered
  run: RunStatusResponse | null
  end: WaitEnd
  results: CollectedResults
  decision: Decision
  /** null when no policy was given or the findings were not read. */
  policy: PolicyOutcome | null
  /** The confirmation runs of presumed weaknesses and what they showed; null when none was needed. */
  confirmation: ConfirmationOutcome | null
  /** The further full runs of an agent change (runs_per_change); null when none was due. */
  moreRuns: MoreRuns | null
  startedAtMs: number
  elapsedMs: number
}

/** Time allowed for a cancel to take effect after timeout_minutes ran out (the service says about 5 s). */
export const TIMEOUT_SETTLE_MS = 15_000
/** After SIGINT the runner sends SIGTERM 7.5 s later and kills 2.5 s after that: stay well inside. */
export const ABORT_SETTLE_MS = 5_000
/**
 * Time allowed to read results after the run ended: what is left of
 * timeout_minutes, but at least this much, so a run that ends just before the
 * deadline can still be read (and a hanging read cannot hold the step long).
 */
export const COLLECT_MIN_MS = 30_000
/**
 * wait: detached: how long a trigger may wait for another assessment of the
 * model to end (or a rate limit) before the step queues it for the collector,
 * so the runner is held seconds, never for another run's length.
 */
export const DETACHED_TRIGGER_MS = 20_000

/**
 * One assessment of the model, on every event: trigger a run, wait for it to
 * end (stopping it when it cannot), read what it produced, and decide.
 */
export async function assess(deps: GateDeps, args: GateArgs): Promise<GateOutcome> {
  const startedAtMs = deps.clock.now()
  const deadline = Deadline.after(deps.clock, args.timeoutMs)
  const api = deps.makeApi(deadline)
  const triggered = await triggerOurRun(deps, api, deadline, args)
  const ended = await waitForEnd(deps, api, deadline, triggered.runId, args)
  const results = await readResults(deps, deadline, triggered.runId, ended, args.modelId)
  const moreRuns = await assessMoreRuns(deps, runOnceWith(deps, args), args, deadline, { ended, results })
  const held = moreRuns?.args ?? args
  let { decision, policy } = decideOn(deps, held, triggered.runId, ended, results)
  const confirmation = await confirmIfItDecides(
    deps,
    held,
    deadline,
    policy,
    (settled) => decideOn(deps, held, triggered.runId, ended, results, settled),
    runOnceWith(deps, held)
  )
  if (confirmation !== null) ({ decision, policy } = decideOn(deps, held, triggered.runId, ended, results, settledBy(confirmation)))
  return {
    triggered,
    run: ended.run,
    end: ended.end,
    results,
    decision,
    policy,
    confirmation,
    moreRuns,
    startedAtMs,
    elapsedMs: deps.clock.now() - startedAtMs
  }
}

/** One further run of the step triggered, waited for and read with its own trigger, wait and read. */
function runOnceWith(deps: GateDeps, args: GateArgs): RunOnce {
  return async (by, categories) => {
    const triggered = await triggerOurRun(deps, deps.makeApi(by), by, { ...args, categories })
    const ended = await waitForEnd(deps, deps.makeApi(by), by, triggered.runId, args)
    return { runId: triggered.runId, ended, results: await readResults(deps, by, triggered.runId, ended, args.modelId) }
  }
}

/**
 * Detached waiting (wait: detached): trigger the run and return at once; a
 * collector (collectRun) finishes it later, in another job.
 */
export function triggerAssessment(deps: GateDeps, args: GateArgs): Promise<Triggered> {
  const deadline = Deadline.after(deps.clock, args.timeoutMs)
  return triggerOurRun(deps, deps.makeApi(deadline), deadline, args)
}

/**
 * One look at a detached run: of another model (a record that names a run
 * not of this agent: nothing is touched), begun before the record's trigger
 * time (not the record's run: nothing is touched), still running, or ended (or
 * stopped at its deadline) and decided.
 */
export type Collected =
  | { kind: 'foreign'; run: RunStatusResponse }
  | { kind: 'narrow'; run: RunStatusResponse; missing: string[] }
  | { kind: 'earlier'; run: RunStatusResponse }
  | { kind: 'running'; run: RunStatusResponse; deadlineMs: number }
  | { kind: 'ended'; outcome: GateOutcome }

/**
 * The collector's look at a run another job triggered: its status read once
 * and its model checked against `args.modelId` (the default branch's) before
 * anything else. Still running before its deadline (the run's start as the
 * service says, else `startedFallbackMs`, plus args.timeoutMs; or the
 * record's own deadline, `notAfterMs`, when earlier), it is left;
 * past it, it is cancelled and decided as timed out (never a pass); ended,
 * its results are read and decided with the same rules as an attached step.
 * A status that cannot be read throws (a service failure: the record stays
 * pending for the next collector).
 */
export async function collectRun(
  deps: GateDeps,
  args: GateArgs,
  runId: string,
  startedFallbackMs: number,
  bounds: { notBeforeMs: number | null; notAfterMs: number | null } = { notBeforeMs: null, notAfterMs: null }
): Promise<Collected> {
  const { notBeforeMs, notAfterMs } = bounds
  const startedAtMs = deps.clock.now()
  const readBy = Deadline.after(deps.clock, COLLECT_MIN_MS)
  const run = await deps.makeApi(readBy).getRun(runId, { min_severity: args.minSeverity })
  if (run.model_id !== args.modelId) return { kind: 'foreign', run }
  const began = Date.parse(run.started_at ?? '')
  // A run that began before the record's trigger time (or whose start the service does not tell) is not the record's run.
  if (notBeforeMs !== null && !(began >= notBeforeMs)) return { kind: 'earlier', run }
  const deadlineMs = Math.min((Number.isFinite(began) ? began : startedFallbackMs) + args.timeoutMs, notAfterMs ?? Infinity)
  const triggered: Triggered = { runId, startedAt: run.started_at ?? '', recovered: false, waitedFor: [] }
  let ended: RunEnd = { end: 'terminal', run, readError: undefined }
  if (!isTerminal(run.status)) {
    if (startedAtMs < deadlineMs) return { kind: 'running', run, deadlineMs }
    const stopApi = deps.makeApi(Deadline.after(deps.clock, TIMEOUT_SETTLE_MS))
    const why = `timeout_minutes (${args.timeoutMs / 60_000}) ran out`
    const stopped = await stopRun({ api: stopApi, clock: deps.clock, log: deps.log }, runId, {
      settleMs: TIMEOUT_SETTLE_MS,
      minSeverity: args.minSeverity,
      why
    })
    ended = { end: 'timeout', run: stopped.last ?? run, readError: undefined }
  }
  // Checked once the run is over (the category list is read once per run, not per tick).
  const missing = await categoriesNotPlanned(deps.makeApi(readBy), args, run)
  if (missing.length > 0) return { kind: 'narrow', run, missing }
  const results = ended.end === 'terminal' ? await readResults(deps, readBy, runId, ended, args.modelId) : noResults()
  const { decision, policy } = decideOn(deps, args, runId, ended, results)
  const elapsedMs = deps.clock.now() - startedAtMs
  // No confirmation runs from a collector: a presumed weakness it cannot settle stays presumed (stricter, never laxer).
  return {
    kind: 'ended',
    outcome: {
      triggered,
      run: ended.run,
      end: ended.end,
      results,
      decision,
      policy,
      startedAtMs,
      elapsedMs,
      confirmation: null,
      moreRuns: null
    }
  }
}

function noResults(): CollectedResults {
  return { coverage: null, findings: null, runListItem: null, model: null, notes: [] }
}

/** The run this step created; when cancelled while the trigger was pending, the run it may have created is stopped. */
async function triggerOurRun(deps: GateDeps, api: ServiceApi, deadline: Deadline, args: GateArgs): Promise<Triggered> {
  const scope = args.categories.length > 0 ? `categories ${args.categories.join(', ')}` : 'the full taxonomy'
  deps.log.info(`Triggering an assessment of model ${args.modelId} (${scope}; min_severity ${args.minSeverity}).`)
  // Set by the onIntent callback: asserted wide, as flow analysis does not see assignments in callbacks.
  let intent = null as TriggerIntent | null
  let triggered: Triggered
  try {
    triggered = await triggerRun(
      {
        api,
        clock: deps.clock,
        deadline,
        signal: deps.signal,
        log: deps.log,
        random: deps.random,
        policy: deps.policy,
        onIntent: (i) => {
          intent = i
          deps.onTriggerIntent?.(i)
        }
      },
      { modelId: args.modelId, categories: args.categories }
    )
  } catch (err) {
    // Cancelled while a POST /run was pending (or between its retries): the service may have created the run.
    if (err instanceof AbortedError && intent !== null) await stopInterruptedTrigger(deps, intent, args)
    throw err
  }
  deps.onRunStarted(triggered.runId)
  deps.log.info(`Run ${triggered.runId} started at ${triggered.startedAt}.`)
  return triggered
}

/**
 * Wait for the run to end. When it does not (timeout, cancellation, a status
 * that cannot be read), do not leave it going on the service: stop it, within
 * its own short budget, as the main deadline may have passed.
 */
async function waitForEnd(deps: GateDeps, api: ServiceApi, deadline: Deadline, runId: string, args: GateArgs): Promise<RunEnd> {
  const { clock, log } = deps
  const waited = await waitForRun({ api, clock, deadline, signal: deps.signal, log, onProgress: deps.onProgress }, runId, args.minSeverity)
  const ended: RunEnd = { end: waited.end, run: waited.last, readError: waited.readError }
  if (waited.end === 'unreadable') log.warning(`The status of run ${runId} could not be read: ${waited.readError ?? 'no answer'}`)
  if (waited.end === 'terminal') {
    deps.onRunSettled(runId)
    return ended
  }
  const aborted = waited.end === 'aborted'
  const stopApi = deps.makeApi(Deadline.after(clock, aborted ? ABORT_SETTLE_MS : TIMEOUT_SETTLE_MS))
  const stopped = await stopRun({ api: stopApi, clock, log }, runId, {
    settleMs: aborted ? ABORT_SETTLE_MS : TIMEOUT_SETTLE_MS,
    minSeverity: args.minSeverity,
    why: aborted
      ? 'the step was cancelled'
      : waited.end === 'timeout'
        ? `timeout_minutes (${args.timeoutMs / 60_000}) ran out`
        : 'its status could not be read'
  })
  if (stopped.last) ended.run = stopped.last
  if (stopped.requested && !stopped.notRunning) deps.onCancelRequested?.(runId)
  if (stopped.settled) deps.onRunSettled(runId)
  return ended
}

/** Coverage, findings, the run's list item and the model, read only when the run ended and the step goes on. */
async function readResults(deps: GateDeps, deadline: Deadline, runId: string, ended: RunEnd, modelId: string): Promise<CollectedResults> {
  const { run } = ended
  if (!run || !isTerminal(run.status) || ended.end === 'aborted' || deps.signal.aborted) return noResults()
  deps.log.info(`Run ${runId} ended with status ${run.status}; reading coverage and findings.`)
  const readBy = Deadline.after(deps.clock, Math.max(deadline.remainingMs(), COLLECT_MIN_MS))
  return collectResults(deps.makeApi(readBy), runId, modelId, { clock: deps.clock, log: deps.log, signal: deps.signal })
}

/** The baseline and accepted risks applied to the findings, then the decision on all the run left. */
function decideOn(
  deps: GateDeps,
  args: GateArgs,
  runId: string,
  ended: RunEnd,
  results: CollectedResults,
  settled?: Settled
): { decision: Decision; policy: PolicyOutcome | null } {
  const { run } = ended
  const aborted = ended.end === 'aborted'
  // Cancelled while the results were read (or just after the run ended): what was read is kept, the result is not a pass.
  const abortedAfterRun = !aborted && deps.signal.aborted
  const policy =
    args.policy && results.findings !== null
      ? applyPolicy({
          // The whole policy, so a choice added to PolicyChoices has no line here to forget.
          ...args.policy,
          findings: results.findings,
          runId,
          categoriesCompleted: run?.categories_completed ?? [],
          minSeverity: args.minSeverity
        })
      : null
  const today = args.policy?.today
  const expired = args.policy && today !== undefined ? args.policy.accepted.filter((e) => e.expires < today) : []
  const decision = decide({
    status: run?.status ?? null,
    verdict: run?.verdict ?? null,
    minSeverity: args.minSeverity,
    categoriesPlanned: run?.categories_planned ?? [],
    categoriesCompleted: run?.categories_completed ?? [],
    ingestIncomplete: results.runListItem ? results.runListItem.ingest_incomplete : null,
    findings: results.findings,
    coverageReadable: results.coverage !== null,
    coverage: results.coverage,
    timedOut: ended.end === 'timeout',
    aborted,
    abortedAfterRun,
    statusReadError: ended.end === 'unreadable' ? (ended.readError ?? 'no answer') : null,
    waived: policy?.waived,
    baselineUncovered: policy?.diff.uncovered,
    unreproduced: policy?.unreproducedBlocking.filter((n) => settled?.fingerprints.has(n.fingerprint) !== true),
    confirmedPresent: settled?.stillPresent,
    evidenceGaps: [...(args.policy?.evidenceGaps ?? []), ...(settled?.notShown ?? [])],
    expiredAcceptances: expired.map((e) => `${describeEntry(e)} expired on ${e.expires}`)
  })
  // What confirmations showed gone blocks no view either (the comment's lines, the coverage table, the counts).
  const gone = settled?.gone
  if (policy === null || gone === undefined || gone.size === 0) return { decision, policy }
  const unreproducedBlocking = policy.unreproducedBlocking.filter((n) => !gone.has(n.fingerprint))
  return { decision, policy: { ...policy, unreproducedBlocking, confirmedGone: gone } }
}

/**
 * The step was cancelled before the trigger's answer arrived: find the run
 * the trigger created (if it is provably ours) and cancel it, within the
 * runner's grace after SIGINT.
 */
async function stopInterruptedTrigger(deps: GateDeps, intent: TriggerIntent, args: GateArgs): Promise<void> {
  const settleBy = Deadline.after(deps.clock, ABORT_SETTLE_MS)
  const api = deps.makeApi(settleBy)
  try {
    const found = await stopAbandonedTrigger({ api, clock: deps.clock, log: deps.log }, intent, {
      settleBy,
      minSeverity: args.minSeverity,
      why: 'the step was cancelled while the trigger was pending'
    })
    if (found.runId === null || found.stopped === null) return
    deps.onRunStarted(found.runId)
    if (found.stopped.requested && !found.stopped.notRunning) deps.onCancelRequested?.(found.runId)
    if (found.stopped.settled) deps.onRunSettled(found.runId)
  } catch (err) {
    deps.log.warning(`Could not stop the run the interrupted trigger may have created: ${err instanceof Error ? err.message : String(err)}`)
  }
}
