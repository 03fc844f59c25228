/**
 * The pull-request gate: trigger a run, wait for it, stop it on timeout or
 * cancellation, read what it produced, and decide. Everything it touches is
 * passed in; the shell (main.ts) turns the outcome into outputs and reports.
 */
import { Deadline, type Clock } from '../util/clock.js'
import { collectResults, type CollectedResults } from './collect-results.js'
import { isTerminal, type RunStatusResponse, type Severity } from '../service/contract/index.js'
import { decide, type Decision } from '../decision/decide.js'
import type { Log } from '../util/log.js'
import type { RetryPolicy } from '../util/retry-policy.js'
import type { ServiceApi } from '../service/service-api.js'
import { triggerRun, type Triggered } from './trigger.js'
import type { TriggerIntent } from './run-ownership.js'
import { AbortedError } from '../util/errors.js'
import { applyPolicy, type FailOn, type PolicyOutcome } from './policy.js'
import type { Baseline } from '../baseline/baseline.js'
import type { AcceptedEntry } from '../accepted/accepted-file.js'
import { describeEntry } from '../accepted/accepted-file.js'
import { stopAbandonedTrigger, stopRun } from './stop-run.js'
import { waitForRun, type WaitEnd } from './wait-for-run.js'
import type { ReportInput } from '../report/report-model.js'

export interface GateDeps {
  /** A client whose retries stop at `deadline`. */
  makeApi(deadline: Deadline): ServiceApi
  clock: Clock
  /** Aborts on SIGINT/SIGTERM. */
  signal: AbortSignal
  log: Log
  random?: () => number
  /** The retry policy of the trigger's own retries (the client has its own copy). */
  policy?: RetryPolicy
  /** Called as soon as the run exists, so the post step can cancel it. */
  onRunStarted(runId: string): void
  /** Called once the run is seen terminal: nothing is left to cancel. */
  onRunSettled(runId: string): void
  /** Called before each POST /run with what finding its run needs (saved so the post step can). */
  onTriggerIntent?(intent: TriggerIntent): void
  /** Called once a cancel of the run was accepted: no second cancel is to be sent. */
  onCancelRequested?(runId: string): void
}

export interface GateArgs {
  modelId: string
  categories: string[]
  minSeverity: Severity
  timeoutMs: number
  /** The baseline and the accepted risks (left out: gate as with fail_on any and no acceptances). */
  policy?: { baseline: Baseline | null; accepted: readonly AcceptedEntry[]; failOn: FailOn; today: string }
}

export interface GateOutcome {
  triggered: Triggered
  run: RunStatusResponse | null
  end: WaitEnd
  results: CollectedResults
  decision: Decision
  /** null when no policy was given or the findings were not read. */
  policy: PolicyOutcome | null
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

export async function runGate(deps: GateDeps, args: GateArgs): Promise<GateOutcome> {
  const { clock, log } = deps
  const startedAtMs = clock.now()
  const deadline = Deadline.after(clock, args.timeoutMs)
  const api = deps.makeApi(deadline)

  const scope = args.categories.length > 0 ? `categories ${args.categories.join(', ')}` : 'the full taxonomy'
  log.info(`Triggering an assessment of model ${args.modelId} (${scope}; min_severity ${args.minSeverity}).`)
  // Set by the onIntent callback: asserted wide, as flow analysis does not see assignments in callbacks.
  let intent = null as TriggerIntent | null
  let triggered: Triggered
  try {
    triggered = await triggerRun(
      {
        api,
        clock,
        deadline,
        signal: deps.signal,
        log,
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
  log.info(`Run ${triggered.runId} started at ${triggered.startedAt}.`)

  const waited = await waitForRun({ api, clock, deadline, signal: deps.signal, log }, triggered.runId, args.minSeverity)
  let run = waited.last
  const timedOut = waited.end === 'timeout'
  const aborted = waited.end === 'aborted'
  const unreadable = waited.end === 'unreadable'
  if (unreadable) log.warning(`The status of run ${triggered.runId} could not be read: ${waited.readError ?? 'no answer'}`)

  if (waited.end !== 'terminal') {
    // Do not leave the run going on the service. The main deadline may have passed
    // (or the step is being cancelled): the stop gets its own short budget.
    const stopApi = deps.makeApi(Deadline.after(clock, aborted ? ABORT_SETTLE_MS : TIMEOUT_SETTLE_MS))
    const stopped = await stopRun({ api: stopApi, clock, log }, triggered.runId, {
      settleMs: aborted ? ABORT_SETTLE_MS : TIMEOUT_SETTLE_MS,
      minSeverity: args.minSeverity,
      why: aborted
        ? 'the step was cancelled'
        : timedOut
          ? `timeout_minutes (${args.timeoutMs / 60_000}) ran out`
          : 'its status could not be read'
    })
    if (stopped.last) run = stopped.last
    if (stopped.requested && !stopped.notRunning) deps.onCancelRequested?.(triggered.runId)
    if (stopped.settled) deps.onRunSettled(triggered.runId)
  } else {
    deps.onRunSettled(triggered.runId)
  }

  let results: CollectedResults = { coverage: null, findings: null, runListItem: null, model: null, notes: [] }
  if (run && isTerminal(run.status) && !aborted && !deps.signal.aborted) {
    log.info(`Run ${triggered.runId} ended with status ${run.status}; reading coverage and findings.`)
    const readBy = Deadline.after(clock, Math.max(deadline.remainingMs(), COLLECT_MIN_MS))
    results = await collectResults(deps.makeApi(readBy), triggered.runId, args.modelId, { clock, log, signal: deps.signal })
  }
  // Cancelled while the results were read (or just after the run ended): what was read is kept, the result is not a pass.
  const abortedAfterRun = !aborted && deps.signal.aborted

  const policy =
    args.policy && results.findings !== null
      ? applyPolicy({
          findings: results.findings,
          runId: triggered.runId,
          categoriesCompleted: run?.categories_completed ?? [],
          baseline: args.policy.baseline,
          accepted: args.policy.accepted,
          failOn: args.policy.failOn,
          today: args.policy.today
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
    timedOut,
    aborted,
    abortedAfterRun,
    statusReadError: unreadable ? (waited.readError ?? 'no answer') : null,
    waived: policy?.waived,
    baselineUncovered: policy?.diff.uncovered,
    expiredAcceptances: expired.map((e) => `${describeEntry(e)} expired on ${e.expires}`)
  })
  return { triggered, run, end: waited.end, results, decision, policy, startedAtMs, elapsedMs: clock.now() - startedAtMs }
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

/** What the gate read and decided, as the input of buildReport (notes on how the run was reached first). */
export function gateReportInput(
  outcome: GateOutcome,
  context: Pick<ReportInput, 'target' | 'profileSync'> & {
    modelId: string
    minSeverity: Severity
    runUrl: string | null
    secrets: string[]
  }
): ReportInput {
  const { decision, run, results, triggered } = outcome
  return {
    ...context,
    model: results.model,
    result: decision.result,
    reason: decision.reason,
    verdict: decision.verdict,
    verdictComputed: decision.verdictComputed,
    run,
    runListItem: results.runListItem,
    coverage: results.coverage,
    findings: results.findings,
    elapsedMs: outcome.elapsedMs,
    notes: [
      ...(triggered.recovered
        ? ['The answer to the trigger was lost; the run was found in the run list (it appeared after our request).']
        : []),
      ...(triggered.waitedFor.length > 0
        ? [`Waited for run(s) ${triggered.waitedFor.join(', ')} of this model to end before triggering.`]
        : []),
      ...decision.notes,
      ...results.notes
    ]
  }
}
