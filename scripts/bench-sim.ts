/**
 * The simulation half of `npm run bench`: seeded simulated runs, and the
 * replay of poll policies against them in virtual time (no real clock, no
 * real sleep).
 *
 * A simulated run: triggered at t = 0, it works through its planned
 * categories one after another and ends (status completed) a little after
 * the last one. Progress is one of:
 *  - even:         every category takes about the same time (+-10 %);
 *  - uneven:       category durations drawn from a lognormal (spread 0.6);
 *  - stalled:      even-ish categories, and one category in the middle of the
 *                  run takes a long pause (20-50 % of the whole run);
 *  - not-reported: categories_planned is given but categories_completed
 *                  stays empty until the end;
 *  - no-plan:      categories_planned and categories_completed stay empty.
 * Durations are log-uniform from 20 s to 60 min.
 *
 * The replay follows the gate's loop: poll (one request in flight, a fixed
 * round trip; the server answers with its state at mid-trip), record the
 * observation at the response time, sleep the policy's delay, poll again,
 * until a response shows the terminal status. Detection latency is the time
 * from the run's end to that response.
 */
import { DEFAULT_SCHEDULE_OPTIONS, nextPollDelayMs, type ScheduleOptions, type ScheduleState } from '../src/gate/poll-schedule.js'
import { seededRandom } from '../src/util/seeded-random.js'
export { seededRandom } from '../src/util/seeded-random.js'

// ---------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand())
}

// ---------------------------------------------------------------------------
// Simulated runs
// ---------------------------------------------------------------------------

export const PROGRESS_KINDS = ['even', 'uneven', 'stalled'] as const
export const NO_PROGRESS_KINDS = ['not-reported', 'no-plan'] as const
export type ProgressKind = (typeof PROGRESS_KINDS)[number] | (typeof NO_PROGRESS_KINDS)[number]

export interface SimRun {
  seed: number
  kind: ProgressKind
  /** Whether the run reports progress (planned and completed counts). */
  reportsProgress: boolean
  planned: number
  /** Virtual ms from the trigger at which each category completes, ascending. */
  completionsMs: number[]
  /** Virtual ms at which the status becomes terminal. */
  endMs: number
}

export const MIN_RUN_MS = 20_000
export const MAX_RUN_MS = 60 * 60_000
/** Full taxonomy size in the emulator; half the runs plan it all. */
const FULL_TAXONOMY = 13

export function simulateRun(seed: number, kind: ProgressKind): SimRun {
  const rand = seededRandom(seed)
  const durationMs = Math.exp(Math.log(MIN_RUN_MS) + rand() * (Math.log(MAX_RUN_MS) - Math.log(MIN_RUN_MS)))
  const planned = rand() < 0.5 ? FULL_TAXONOMY : 2 + Math.floor(rand() * (FULL_TAXONOMY - 2))
  // The status turns terminal shortly after the last category (0-1 s of wrapping up).
  const tailMs = rand() * 1_000
  const workMs = durationMs - tailMs
  const weights: number[] = []
  for (let i = 0; i < planned; i++) {
    if (kind === 'uneven') weights.push(Math.exp(0.6 * gaussian(rand)))
    else weights.push(0.9 + 0.2 * rand())
  }
  let pauseMs = 0
  let pauseIndex = -1
  if (kind === 'stalled') {
    pauseMs = workMs * (0.2 + 0.3 * rand())
    // A category in the middle of the run (not the first, not the last).
    pauseIndex = Math.min(planned - 2, Math.max(1, Math.floor(planned * (0.3 + 0.4 * rand()))))
  }
  const total = weights.reduce((a, b) => a + b, 0)
  const completionsMs: number[] = []
  let t = 0
  for (let i = 0; i < planned; i++) {
    t += ((workMs - pauseMs) * weights[i]) / total
    if (i === pauseIndex) t += pauseMs
    completionsMs.push(t)
  }
  const reportsProgress = (PROGRESS_KINDS as readonly string[]).includes(kind)
  return { seed, kind, reportsProgress, planned, completionsMs, endMs: durationMs }
}

/** `count` runs of every kind in `kinds`, seeds from `firstSeed` on. */
export function simulateRuns(count: number, kinds: readonly ProgressKind[], firstSeed = 1): SimRun[] {
  const runs: SimRun[] = []
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % kinds.length]
    runs.push(simulateRun(firstSeed + i, kind))
  }
  return runs
}

/** What GET /run/{id} answers at virtual time t. */
function observe(run: SimRun, t: number): { status: 'running' | 'completed'; planned: number; completed: number } {
  const done = t >= run.endMs
  let completed: number
  if (run.kind === 'not-reported' || run.kind === 'no-plan') {
    completed = done ? run.planned : 0
  } else {
    // completionsMs is ascending: binary search for how many are <= t.
    let lo = 0
    let hi = run.completionsMs.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (run.completionsMs[mid] <= t) lo = mid + 1
      else hi = mid
    }
    completed = lo
  }
  const planned = run.kind === 'no-plan' ? (done ? run.planned : 0) : run.planned
  return { status: done ? 'completed' : 'running', planned, completed }
}

// ---------------------------------------------------------------------------
// Policies and replay
// ---------------------------------------------------------------------------

export interface Policy {
  name: string
  delayMs(state: ScheduleState, nowMs: number): number
}

export function fixedPolicy(intervalMs: number): Policy {
  return { name: `fixed ${intervalMs / 1000} s`, delayMs: () => intervalMs }
}

export function schedulePolicy(opts: ScheduleOptions = DEFAULT_SCHEDULE_OPTIONS): Policy {
  return { name: 'ours (poll-schedule)', delayMs: (state, now) => nextPollDelayMs(state, now, opts) }
}

export const DEFAULT_ROUND_TRIP_MS = 50

export interface ReplayResult {
  /** Run end to the response that showed the terminal status, ms. */
  latencyMs: number
  /** Polls made, the terminal one included. */
  requests: number
}

export function replay(run: SimRun, policy: Policy, roundTripMs = DEFAULT_ROUND_TRIP_MS): ReplayResult {
  const state: ScheduleState = { startedAtMs: 0, observations: [] }
  let sendAt = 0
  let requests = 0
  for (;;) {
    requests += 1
    const seen = observe(run, sendAt + roundTripMs / 2)
    const at = sendAt + roundTripMs
    if (seen.status !== 'running') return { latencyMs: at - run.endMs, requests }
    state.observations.push({ atMs: at, ...seen })
    const delay = policy.delayMs(state, at)
    if (!(delay >= 0) || !Number.isFinite(delay)) throw new Error(`${policy.name}: bad delay ${delay}`)
    sendAt = at + delay
    if (requests > 1_000_000) throw new Error(`${policy.name}: runaway polling`)
  }
}

// ---------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo)
}

export interface PolicyStats {
  policy: string
  runs: number
  medianLatencyMs: number
  p95LatencyMs: number
  maxLatencyMs: number
  meanRequests: number
  /** Total requests of this policy over the total of fixed 1 s polling, same runs. */
  requestsVsOneSecond: number
}

export interface GroupResult {
  group: string
  stats: PolicyStats[]
}

export interface SimulationResult {
  runs: number
  roundTripMs: number
  groups: GroupResult[]
  /** Ours against 1 s polling by run duration, runs with progress only. */
  byDuration: { band: string; runs: number; medianLatencyMs: number; p95LatencyMs: number; requestsVsOneSecond: number }[]
}

function statsFor(policy: string, results: ReplayResult[], oneSecond: ReplayResult[]): PolicyStats {
  const lat = results.map((r) => r.latencyMs).sort((a, b) => a - b)
  const total = results.reduce((a, r) => a + r.requests, 0)
  const totalOne = oneSecond.reduce((a, r) => a + r.requests, 0)
  return {
    policy,
    runs: results.length,
    medianLatencyMs: quantile(lat, 0.5),
    p95LatencyMs: quantile(lat, 0.95),
    maxLatencyMs: lat.at(-1) ?? NaN,
    meanRequests: total / Math.max(1, results.length),
    requestsVsOneSecond: total / Math.max(1, totalOne)
  }
}

export const BASELINE_INTERVALS_MS = [1_000, 5_000, 30_000] as const

export interface SimulationOptions {
  /** Runs in all; kinds alternate (3 with progress, 2 without). */
  runs: number
  firstSeed?: number
  roundTripMs?: number
  schedule?: ScheduleOptions
}

const DURATION_BANDS: { band: string; loMs: number; hiMs: number }[] = [
  { band: '20 s - 2 min', loMs: 0, hiMs: 120_000 },
  { band: '2 - 10 min', loMs: 120_000, hiMs: 600_000 },
  { band: '10 - 60 min', loMs: 600_000, hiMs: Infinity }
]

export function runSimulation(options: SimulationOptions): SimulationResult {
  const roundTripMs = options.roundTripMs ?? DEFAULT_ROUND_TRIP_MS
  const kinds: ProgressKind[] = [...PROGRESS_KINDS, ...NO_PROGRESS_KINDS]
  const runs = simulateRuns(options.runs, kinds, options.firstSeed ?? 1)
  const ours = schedulePolicy(options.schedule)
  const policies = [ours, ...BASELINE_INTERVALS_MS.map(fixedPolicy)]
  const results = policies.map((p) => runs.map((r) => replay(r, p, roundTripMs)))
  const oneSecond = results[1]

  const pick = <T>(xs: T[], keep: (i: number) => boolean): T[] => xs.filter((_, i) => keep(i))
  const groups: GroupResult[] = [
    { group: 'runs with progress', keep: (i: number) => runs[i].reportsProgress },
    { group: 'runs without progress', keep: (i: number) => !runs[i].reportsProgress }
  ].map(({ group, keep }) => ({
    group,
    stats: policies.map((p, j) => statsFor(p.name, pick(results[j], keep), pick(oneSecond, keep)))
  }))

  const byDuration = DURATION_BANDS.map(({ band, loMs, hiMs }) => {
    const keep = (i: number): boolean => runs[i].reportsProgress && runs[i].endMs >= loMs && runs[i].endMs < hiMs
    const s = statsFor(ours.name, pick(results[0], keep), pick(oneSecond, keep))
    return {
      band,
      runs: s.runs,
      medianLatencyMs: s.medianLatencyMs,
      p95LatencyMs: s.p95LatencyMs,
      requestsVsOneSecond: s.requestsVsOneSecond
    }
  })
  return { runs: runs.length, roundTripMs, groups, byDuration }
}

/** The targets of the issue, on runs that report progress. */
export const TARGETS = { medianLatencyMs: 2_000, p95LatencyMs: 5_000, requestsVsOneSecond: 0.25 } as const
