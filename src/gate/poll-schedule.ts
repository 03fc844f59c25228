/**
 * The poll schedule: when to ask GET /run/{id} again.
 *
 * Pure: a function of the run's history (what each poll saw and when) and the
 * current time; it reads no clock and draws no random numbers.
 *
 * Method. The service has no webhook, so the end of a run is learned by
 * polling, and each poll trades requests against promptness. The run reports
 * progress (categories_completed against categories_planned); from it we
 * model the time still to go as a probability distribution and space polls
 * by its hazard rate h(t), the probability per second that the run ends at t
 * given that it has not ended yet. Polling at intervals w(t) costs about
 * w/2 of detection latency per end and 1/w requests per second; minimising
 * latency + LAMBDA * requests gives w(t) = sqrt(2 * LAMBDA / h(t)). So:
 *  - long before the likely end, h is tiny and polls are sparse (maxDelayMs);
 *  - around the estimated end, h peaks and polls are dense (about 1 s on
 *    short runs, 1-3 s on hour-long ones);
 *  - once the run is overdue, h falls slowly (a stall stays possible) and the
 *    interval widens gently, up to maxDelayMs.
 * The distribution: the time from the last category completion to the end is
 * lognormal around R * d (R categories left, d a per-category duration from
 * the overall and the recent completion rates), with a spread that shrinks
 * as more categories are seen and more remain (sums of several even out),
 * mixed with a small, much broader "stall" component.
 *
 * Without usable progress (nothing planned, or nothing completed yet) the
 * interval grows gently from 2 s with the elapsed time, up to
 * noProgressMaxDelayMs. When every planned category is done but the status
 * is still running, the end is due: poll at minDelayMs, then back off gently.
 *
 * A Retry-After on a poll is honoured by the client's retry policy
 * (src/util/retry-policy.ts), inside the poll: the schedule never sees it.
 */
import type { RunStatus } from '../service/contract/index.js'

export interface PollObservation {
  /** When the response was received (epoch ms). */
  atMs: number
  status: RunStatus
  /** Count of categories_planned. */
  planned: number
  /** Count of categories_completed. */
  completed: number
}

export interface ScheduleState {
  /** When the run was triggered (epoch ms). */
  startedAtMs: number
  /** Every poll's observation, oldest first. */
  observations: PollObservation[]
}

export interface ScheduleOptions {
  /** Shortest delay between polls. */
  minDelayMs: number
  /** Longest delay between polls when the run reports progress. */
  maxDelayMs: number
  /** Longest delay between polls when the run reports no progress. */
  noProgressMaxDelayMs: number
}

export const DEFAULT_SCHEDULE_OPTIONS: ScheduleOptions = {
  minDelayMs: 1_000,
  maxDelayMs: 30_000,
  noProgressMaxDelayMs: 15_000
}

// ---------------------------------------------------------------------------
// Tuning (figures checked by scripts/bench-sim.ts and its test)
// ---------------------------------------------------------------------------

/** Price of one request, in ms of expected detection latency. */
export const REQUEST_PRICE_MS = 20
/** Assumed coefficient of variation of one category's duration. */
const CATEGORY_CV = 0.7
/** Bounds of the log-spread of the main component. */
const MIN_LOG_SPREAD = 0.2
const MAX_LOG_SPREAD = 1.2
/** Weight, median factor and log-spread of the broad "stall" component. */
const STALL_WEIGHT = 0.08
const STALL_MEDIAN_FACTOR = 2
const STALL_LOG_SPREAD = 1.5
/** How many recent completions give the recent rate. */
const RECENT_WINDOW = 3
/** No progress: first delay, and growth per ms elapsed. */
const NO_PROGRESS_FIRST_DELAY_MS = 2_000
const NO_PROGRESS_GROWTH = 0.05
/** All categories done but still running: growth of the delay per ms overdue. */
const DUE_GROWTH = 0.1

// ---------------------------------------------------------------------------
// Progress model
// ---------------------------------------------------------------------------

interface ProgressModel {
  /** Planned and completed categories at the last observation. */
  planned: number
  completed: number
  /** Estimated time of the last category completion (epoch ms). */
  anchorMs: number
  /** Median of the time from anchorMs to the end, ms. */
  medianRemainingMs: number
  /** Log-spread of the main component. */
  logSpread: number
}

/**
 * Estimated completion time of each category seen completing, oldest first.
 * A poll that sees the count rise from a to b learned that b - a categories
 * completed since the previous poll; they are spread evenly over that gap.
 */
function completionTimes(state: ScheduleState): number[] {
  const times: number[] = []
  let prevAt = state.startedAtMs
  let prevCount = 0
  for (const o of state.observations) {
    if (o.completed > prevCount) {
      const n = o.completed - prevCount
      for (let k = 1; k <= n; k++) times.push(prevAt + ((o.atMs - prevAt) * (k - 0.5)) / n)
      prevCount = o.completed
    }
    prevAt = o.atMs
  }
  return times
}

function progressModel(state: ScheduleState): ProgressModel | null {
  const last = state.observations.at(-1)
  if (!last || last.planned <= 0 || last.completed <= 0) return null
  const times = completionTimes(state)
  const c = times.length
  if (c === 0) return null
  const anchorMs = times[c - 1]
  const planned = last.planned
  const completed = Math.min(last.completed, planned)
  const remaining = planned - completed
  const overall = Math.max(1, anchorMs - state.startedAtMs) / c
  const k = Math.min(RECENT_WINDOW, c)
  const windowStart = c > k ? times[c - 1 - k] : state.startedAtMs
  const recent = Math.max(1, anchorMs - windowStart) / k
  const perCategory = Math.sqrt(overall * recent)
  const cv2 = CATEGORY_CV * CATEGORY_CV
  const logSpread = Math.min(MAX_LOG_SPREAD, Math.max(MIN_LOG_SPREAD, Math.sqrt(Math.log(1 + cv2 / Math.max(1, remaining) + cv2 / c))))
  return { planned, completed, anchorMs, medianRemainingMs: remaining * perCategory, logSpread }
}

/**
 * The run's predicted end (epoch ms) from its progress: the median of the
 * model. Null when there is no usable progress (nothing planned or nothing
 * completed yet). When every planned category is done, the time of the last
 * completion (the end is due).
 */
export function estimateEndMs(state: ScheduleState): number | null {
  const m = progressModel(state)
  if (!m) return null
  return m.anchorMs + m.medianRemainingMs
}

// ---------------------------------------------------------------------------
// Hazard of the remaining-time distribution
// ---------------------------------------------------------------------------

const SQRT_2PI = Math.sqrt(2 * Math.PI)

/** Standard normal density. */
function phi(z: number): number {
  return Math.exp(-0.5 * z * z) / SQRT_2PI
}

/**
 * exp(x^2) * erfc(x) for x >= 0 (Numerical Recipes' erfcc, relative error
 * below 1.2e-7), kept scaled so that far tails do not underflow.
 */
function scaledErfc(x: number): number {
  const t = 1 / (1 + 0.5 * x)
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
  return t * Math.exp(poly)
}

/** Standard normal survival Q(z) = P(Z > z). */
function normalSurvival(z: number): number {
  if (z >= 0) return 0.5 * scaledErfc(z / Math.SQRT2) * Math.exp(-0.5 * z * z)
  return 1 - 0.5 * scaledErfc(-z / Math.SQRT2) * Math.exp(-0.5 * z * z)
}

/** Lognormal density and survival at x > 0 for median m and log-spread s. */
function lognormal(x: number, m: number, s: number): { pdf: number; sf: number } {
  const z = Math.log(x / m) / s
  return { pdf: phi(z) / (x * s), sf: normalSurvival(z) }
}

/** Hazard (per ms) that the run ends `x` ms after the anchor, given it has not yet. */
function hazard(model: ProgressModel, x: number): number {
  if (x <= 0) return 0
  const main = lognormal(x, model.medianRemainingMs, model.logSpread)
  const stall = lognormal(x, model.medianRemainingMs * STALL_MEDIAN_FACTOR, STALL_LOG_SPREAD)
  const pdf = (1 - STALL_WEIGHT) * main.pdf + STALL_WEIGHT * stall.pdf
  const sf = (1 - STALL_WEIGHT) * main.sf + STALL_WEIGHT * stall.sf
  if (sf <= 0) return Infinity
  return pdf / sf
}

/** Locally best interval (ms) at hazard h (per ms). */
function intervalAt(h: number): number {
  if (h <= 0) return Infinity
  return Math.sqrt((2 * REQUEST_PRICE_MS) / h)
}

/** Candidate delays, longest first, in steps of about 10 %. */
function candidateDelays(minMs: number, maxMs: number): number[] {
  const out: number[] = []
  for (let d = maxMs; d > Math.max(minMs, 50); d /= 1.1) out.push(d)
  out.push(minMs)
  return out
}

/**
 * The longest delay w such that no point of [now, now + w] has a locally best
 * interval shorter than w: the next poll never jumps over a stretch where
 * denser polling pays.
 */
function hazardDelay(model: ProgressModel, nowMs: number, opts: ScheduleOptions): number {
  const candidates = candidateDelays(opts.minDelayMs, opts.maxDelayMs)
  const elapsed = nowMs - model.anchorMs
  // Walk outwards from now: the tightest interval seen up to each offset.
  const ascending = [...candidates].reverse()
  let tightest = intervalAt(hazard(model, Math.max(1, elapsed)))
  let best = opts.minDelayMs
  for (const w of ascending) {
    tightest = Math.min(tightest, intervalAt(hazard(model, elapsed + w)))
    if (w <= tightest) best = w
    else break
  }
  return best
}

// ---------------------------------------------------------------------------
// The schedule
// ---------------------------------------------------------------------------

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x))
}

/**
 * Delay (ms) before the next poll, given what the polls so far saw and the
 * current time. Within [minDelayMs, maxDelayMs] (noProgressMaxDelayMs without
 * progress).
 */
export function nextPollDelayMs(state: ScheduleState, nowMs: number, opts: ScheduleOptions = DEFAULT_SCHEDULE_OPTIONS): number {
  const minMs = Math.max(0, opts.minDelayMs)
  const maxMs = Math.max(minMs, opts.maxDelayMs)
  const noProgressMaxMs = clamp(opts.noProgressMaxDelayMs, minMs, maxMs)
  const bounded: ScheduleOptions = { minDelayMs: minMs, maxDelayMs: maxMs, noProgressMaxDelayMs: noProgressMaxMs }

  let delay: number
  const model = progressModel(state)
  if (!model) {
    const elapsed = Math.max(0, nowMs - state.startedAtMs)
    delay = clamp(NO_PROGRESS_FIRST_DELAY_MS + NO_PROGRESS_GROWTH * elapsed, minMs, noProgressMaxMs)
  } else if (model.completed >= model.planned) {
    const overdue = Math.max(0, nowMs - model.anchorMs)
    delay = clamp(minMs + DUE_GROWTH * overdue, minMs, noProgressMaxMs)
  } else {
    delay = clamp(hazardDelay(model, nowMs, bounded), minMs, maxMs)
  }
  return Math.round(delay)
}
