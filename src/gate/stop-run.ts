/**
 * Stopping a run this step started: POST /run/{id}/cancel, then watch the
 * status (bounded) until it is terminal. Used on timeout, on SIGINT and by
 * the post step. Stopping a run is the same authority as starting it.
 */
import { Deadline, type Clock } from '../util/clock.js'
import { isTerminal, type RunStatusResponse, type Severity } from '../service/contract/index.js'
import { ServiceError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import type { Log } from '../util/log.js'
import type { ServiceApi } from '../service/service-api.js'
import type { Claim, TriggerIntent } from './run-ownership.js'
import { findOurRun } from './trigger.js'

export interface StopDeps {
  api: ServiceApi
  clock: Clock
  log: Log
}

export interface StopResult {
  /** The cancel request was recorded (202, whatever its body) or the run was already not running (409). */
  requested: boolean
  /** The last status seen after the cancel; null when none could be read. */
  last: RunStatusResponse | null
  /** The run is seen in a terminal status. */
  settled: boolean
  /** The cancel answered 409: the service said the run was not running, so nothing was cancelled (the log said what the status read). */
  notRunning: boolean
}

/** How often the status is read while waiting for the cancel to take effect. */
const SETTLE_POLL_MS = 1_000

/**
 * Cancel, then read the status until it is terminal or `settleMs` passes.
 * - 202 (any body: the description does not show it, and the contract's
 *   CancelRunResponse accepts anything): the cancel is recorded.
 * - 409 (run not running): the cancel was sent and nothing was cancelled;
 *   the log says so with the status the run reads (terminal, or still
 *   non-terminal at the end of the wait).
 * - any other failure: a warning, nothing more is read.
 */
export async function stopRun(
  deps: StopDeps,
  runId: string,
  opts: { settleMs: number; minSeverity?: Severity; why: string }
): Promise<StopResult> {
  const { api, clock, log } = deps
  const settleBy = Deadline.after(clock, opts.settleMs)
  const seconds = Math.round(opts.settleMs / 1000)
  let notRunning = false
  try {
    await api.cancelRun(runId)
    log.info(`Cancelling run ${runId} (${opts.why}); waiting up to ${seconds} s for it to stop.`)
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    if (err.status === 409) {
      notRunning = true
    } else {
      log.warning(`Could not cancel run ${runId}: ${err.describe()}`)
      return { requested: false, last: null, settled: false, notRunning: false }
    }
  }
  let last: RunStatusResponse | null = null
  for (;;) {
    try {
      last = await api.getRun(runId, opts.minSeverity ? { min_severity: opts.minSeverity } : {})
      if (isTerminal(last.status)) {
        if (notRunning)
          log.info(
            `Sent a cancel for run ${runId} (${opts.why}): the service answered that it was not running; its status reads ${oneLine(last.status, 40)}, so nothing was cancelled.`
          )
        return { requested: true, last, settled: true, notRunning }
      }
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err
      log.debug(`Reading run ${runId} after cancel failed: ${err.describe()}`)
    }
    if (settleBy.remainingMs() < SETTLE_POLL_MS) {
      const reads = last === null ? 'its status could not be read' : `its status still reads ${oneLine(last.status, 40)}`
      log.warning(
        notRunning
          ? `Sent a cancel for run ${runId} (${opts.why}): the service answered that it was not running, but ${reads} after ${seconds} s.`
          : `Run ${runId} had not stopped ${seconds} s after the cancel request (${reads}).`
      )
      return { requested: true, last, settled: false, notRunning }
    }
    await clock.sleep(SETTLE_POLL_MS)
  }
}

/** How often the run list is read for a run an interrupted trigger may have created, and how many times. */
const ABANDONED_LIST_POLL_MS = 1_000
const ABANDONED_LIST_READS = 3

export interface AbandonedTriggerResult {
  /** The run found and judged ours (cancelled or found ended), or null. */
  runId: string | null
  stopped: StopResult | null
}

/**
 * The trigger was interrupted (the step cancelled while POST /run was
 * pending or between its retries, or the main step killed before it learnt
 * the run id): find the run it may have created, by the recorded intent and
 * the one rule of run-ownership.ts, and cancel it only if it is provably ours.
 * The run list is read a few times (the read side may lag the create), all
 * within `settleBy`; the cancel's wait for the run to stop gets what is left.
 */
export async function stopAbandonedTrigger(
  deps: StopDeps,
  intent: TriggerIntent,
  opts: { settleBy: Deadline; why: string; minSeverity?: Severity }
): Promise<AbandonedTriggerResult> {
  const { clock, log } = deps
  for (let read = 1; ; read++) {
    let claim: Claim
    try {
      claim = await findOurRun(deps.api, intent)
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err
      log.warning(`Could not look for the run the interrupted trigger may have created: ${err.describe()}`)
      return { runId: null, stopped: null }
    }
    if (claim.kind === 'ours') {
      const runId = claim.run.run_id
      log.info(
        `The interrupted trigger created run ${oneLine(runId, 80)} (the only new run, planning what this step asked for): stopping it.`
      )
      const stopped = await stopRun(deps, runId, {
        settleMs: Math.max(0, opts.settleBy.remainingMs()),
        minSeverity: opts.minSeverity,
        why: opts.why
      })
      return { runId, stopped }
    }
    if (claim.kind === 'unprovable') {
      log.warning(`The trigger was interrupted and ${claim.why}: not cancelling a run this step cannot show it started.`)
      return { runId: null, stopped: null }
    }
    if (read >= ABANDONED_LIST_READS || opts.settleBy.remainingMs() < 2 * ABANDONED_LIST_POLL_MS) {
      log.info(`The trigger was interrupted and no run of model ${intent.modelId} appeared after it: nothing to stop.`)
      return { runId: null, stopped: null }
    }
    await clock.sleep(ABANDONED_LIST_POLL_MS)
  }
}
