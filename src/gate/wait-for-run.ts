/**
 * Waiting for the run: poll GET /run/{id}?min_severity= on the schedule of
 * poll-schedule.ts, one request in flight at a time, logging progress a
 * person can follow, until the status is terminal, the deadline passes or
 * the step is cancelled.
 */
import { isTerminal, type RunStatusResponse, type Severity } from '../service/contract/index.js'
import { AbortedError, DeadlineExceededError, ServiceError } from '../util/errors.js'
import { formatDuration } from '../util/text.js'
import { estimateEndMs, nextPollDelayMs, type ScheduleState } from './poll-schedule.js'
import type { ServiceCallDeps } from '../service/service-api.js'

export type WaitDeps = Omit<ServiceCallDeps, 'random'> & {
  /** Told every status read: a shell's live view of the run, which then shows the progress instead of the log. */
  onProgress?: (progress: RunProgress) => void
}

/** The run as last read, for a live view. */
export interface RunProgress {
  runId: string
  status: RunStatusResponse['status']
  planned: number
  completed: number
  elapsedMs: number
  /** When the run should end (poll-schedule's estimate, epoch ms); null before there is one. */
  estimatedEndMs: number | null
}

/**
 * How the wait ended: a terminal status, timeout_minutes, the job's
 * cancellation, or a status that could no longer be read (a failure the
 * retry policy gave up on: the run's fate is unknown).
 */
export type WaitEnd = 'terminal' | 'timeout' | 'aborted' | 'unreadable'

export interface WaitResult {
  end: WaitEnd
  /** Last status seen; null if none was ever read. */
  last: RunStatusResponse | null
  polls: number
  /** With `timeout` or `unreadable`: the failure of the last read, one line. */
  readError?: string
}

/**
 * A run the service has just created may not be readable at once (its read
 * side lags the write): a 404 before the first successful read is tried again
 * after these waits before it counts.
 */
export const NOT_FOUND_YET_WAITS_MS = [1_000, 2_000, 4_000] as const

/** Log a progress line at least this often, even when nothing changed. */
const HEARTBEAT_MS = 60_000

export async function waitForRun(deps: WaitDeps, runId: string, minSeverity: Severity): Promise<WaitResult> {
  const { clock, log } = deps
  const state: ScheduleState = { startedAtMs: clock.now(), observations: [] }
  let last: RunStatusResponse | null = null
  let polls = 0
  let lastLogged = { at: -Infinity, completed: -1, status: '' }

  let notFoundYet = 0

  for (;;) {
    try {
      last = await deps.api.getRun(runId, { min_severity: minSeverity }, { signal: deps.signal })
    } catch (err) {
      if (err instanceof DeadlineExceededError) return { end: 'timeout', last, polls, readError: err.describe() }
      if (err instanceof AbortedError) return { end: 'aborted', last, polls }
      if (!(err instanceof ServiceError)) throw err
      const wait = polls === 0 && err.status === 404 ? NOT_FOUND_YET_WAITS_MS[notFoundYet] : undefined
      if (wait === undefined || wait >= deps.deadline.remainingMs()) return { end: 'unreadable', last, polls, readError: err.describe() }
      notFoundYet += 1
      log.info(`Run ${runId} is not readable yet (HTTP 404 just after the trigger); trying again in ${wait / 1000} s.`)
      try {
        await clock.sleep(wait, deps.signal)
      } catch (e) {
        if (e instanceof AbortedError) return { end: 'aborted', last, polls }
        throw e
      }
      continue
    }
    polls += 1
    const now = clock.now()
    const planned = last.categories_planned.length
    const completed = last.categories_completed.length
    state.observations.push({ atMs: now, status: last.status, planned, completed })
    if (deps.onProgress)
      deps.onProgress({
        runId,
        status: last.status,
        planned,
        completed,
        elapsedMs: now - state.startedAtMs,
        estimatedEndMs: estimateEndMs(state)
      })
    else if (completed !== lastLogged.completed || last.status !== lastLogged.status || now - lastLogged.at >= HEARTBEAT_MS) {
      const progress = planned > 0 ? `${completed}/${planned} categories done` : 'progress not reported'
      log.info(`Run ${runId}: ${last.status}, ${progress}, ${formatDuration(now - state.startedAtMs)} elapsed.`)
      lastLogged = { at: now, completed, status: last.status }
    }
    if (isTerminal(last.status)) return { end: 'terminal', last, polls }

    const remaining = deps.deadline.remainingMs()
    if (remaining <= 0) return { end: 'timeout', last, polls }
    // Never sleep past the deadline: the last poll lands on it.
    const delay = Math.min(nextPollDelayMs(state, now), remaining)
    try {
      await clock.sleep(delay, deps.signal)
    } catch (err) {
      if (err instanceof AbortedError) return { end: 'aborted', last, polls }
      throw err
    }
  }
}
