/**
 * The pull-request gate: trigger a run, wait for it, stop it on timeout or
 * cancellation, read what it produced, and decide. Everything it touches is
 * passed in; the shell (main.ts) turns the outcome into outputs and reports.
 */
import { Deadline, type Clock } from '../util/clock.js'
import { collectResults, type CollectedResults } from './collect-results.js'
import { isTerminal, type RunStatusResponse, type Severity } from '../service/contract/index.js'
import { decide, type Decision } from './decide.js'
import type { Log } from '../util/log.js'
import type { RetryPolicy } from '../util/retry-policy.js'
import type { ServiceApi } from '../service/service-api.js'
import { stopRun } from './stop-run.js'
import { triggerRun, type Triggered } from './trigger.js'
import { waitForRun, type WaitEnd } from './wait-for-run.js'
import { applyPolicy, type FailOn, type PolicyOutcome } from './policy.js'
import type { Baseline } from '../baseline/baseline.js'
import type { AcceptedEntry } from '../accepted/accepted-file.js'
import { describeEntry } from '../accepted/accepted-file.js'

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
  const triggered = await triggerRun(
    { api, clock, deadline, signal: deps.signal, log, random: deps.random, policy: deps.policy },
    { modelId: args.modelId, categories: args.categories }
  )
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
      why: aborted ? 'the step was cancelled' : timedOut ? `timeout_minutes (${args.timeoutMs / 60_000}) ran out` : 'its status could not be read'
    })
    if (stopped.last) run = stopped.last
    if (stopped.settled) deps.onRunSettled(triggered.runId)
  } else {
    deps.onRunSettled(triggered.runId)
  }

  let results: CollectedResults = { coverage: null, findings: null, runListItem: null, model: null, notes: [] }
  if (run && isTerminal(run.status) && !aborted) {
    log.info(`Run ${triggered.runId} ended with status ${run.status}; reading coverage and findings.`)
    const readBy = Deadline.after(clock, Math.max(deadline.remainingMs(), COLLECT_MIN_MS))
    results = await collectResults(deps.makeApi(readBy), triggered.runId, args.modelId, { clock, log })
  }

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
  const expired = args.policy ? args.policy.accepted.filter((e) => e.expires < args.policy!.today) : []
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
    statusReadError: unreadable ? (waited.readError ?? 'no answer') : null,
    waived: policy?.waived,
    baselineUncovered: policy?.diff.uncovered,
    expiredAcceptances: expired.map((e) => `${describeEntry(e)} expired on ${e.expires}`)
  })
  return { triggered, run, end: waited.end, results, decision, policy, startedAtMs, elapsedMs: clock.now() - startedAtMs }
}
