/**
 * Stopping a run this step started: POST /run/{id}/cancel, then watch the
 * status (bounded) until it leaves running. Used on timeout, on SIGINT and by
 * the post step. Stopping a run is the same authority as starting it.
 */
import { Deadline, type Clock } from './clock.js'
import { isTerminal, type RunStatusResponse, type Severity } from './contract.js'
import { ServiceError } from './errors.js'
import type { Log } from './log.js'
import type { ServiceApi } from './service-api.js'

export interface StopDeps {
  api: ServiceApi
  clock: Clock
  log: Log
}

export interface StopResult {
  /** The cancel request was recorded (202) or the run was already not running (409). */
  requested: boolean
  /** The last status seen after the cancel; null when none could be read. */
  last: RunStatusResponse | null
  /** The run is seen in a terminal status. */
  settled: boolean
}

/** How often the status is read while waiting for the cancel to take effect. */
const SETTLE_POLL_MS = 1_000

export async function stopRun(
  deps: StopDeps,
  runId: string,
  opts: { settleMs: number; minSeverity?: Severity; why: string }
): Promise<StopResult> {
  const { api, clock, log } = deps
  const settleBy = Deadline.after(clock, opts.settleMs)
  let requested = false
  try {
    await api.cancelRun(runId)
    requested = true
    log.info(`Cancelling run ${runId} (${opts.why}); waiting up to ${Math.round(opts.settleMs / 1000)} s for it to stop.`)
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    if (err.status === 409) {
      requested = true
      log.info(`Run ${runId} was no longer running when cancelled (${opts.why}).`)
    } else {
      log.warning(`Could not cancel run ${runId}: ${err.describe()}`)
      return { requested: false, last: null, settled: false }
    }
  }
  let last: RunStatusResponse | null = null
  for (;;) {
    try {
      last = await api.getRun(runId, opts.minSeverity ? { min_severity: opts.minSeverity } : {})
      if (isTerminal(last.status)) return { requested, last, settled: true }
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err
      log.debug(`Reading run ${runId} after cancel failed: ${err.describe()}`)
    }
    if (settleBy.remainingMs() < SETTLE_POLL_MS) {
      log.warning(`Run ${runId} had not stopped ${Math.round(opts.settleMs / 1000)} s after the cancel request.`)
      return { requested, last, settled: false }
    }
    await clock.sleep(SETTLE_POLL_MS)
  }
}
