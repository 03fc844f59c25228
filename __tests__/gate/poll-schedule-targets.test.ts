/**
 * The poll schedule's figures stay inside the targets on simulated
 * runs (virtual time, seeded: deterministic, no wall clock involved).
 * A seed range other than the one `npm run bench` prints, so the tuning is
 * not checked only on the runs it was tuned on.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import {
  fixedPolicy,
  replay,
  runSimulation,
  simulateRun,
  simulateRuns,
  PROGRESS_KINDS,
  NO_PROGRESS_KINDS,
  MIN_RUN_MS,
  MAX_RUN_MS,
  TARGETS,
  type PolicyStats,
  type SimulationResult
} from '../../scripts/bench-sim.js'
import { DEFAULT_SCHEDULE_OPTIONS } from '../../src/gate/poll-schedule.js'

const RUNS = 1_000
const FIRST_SEED = 500_001

let sim: SimulationResult
const stats = (group: string, policy: string): PolicyStats => {
  const g = sim.groups.find((x) => x.group === group)
  const s = g?.stats.find((x) => x.policy.startsWith(policy))
  if (!s) throw new Error(`no stats for ${group} / ${policy}`)
  return s
}

beforeAll(() => {
  sim = runSimulation({ runs: RUNS, firstSeed: FIRST_SEED })
})

describe('simulated runs', () => {
  it('are seeded: the same seed gives the same run', () => {
    expect(simulateRun(42, 'uneven')).toEqual(simulateRun(42, 'uneven'))
    expect(simulateRun(42, 'uneven')).not.toEqual(simulateRun(43, 'uneven'))
  })

  it('span 20 s to 60 min, with completions in order and before the end', () => {
    for (const run of simulateRuns(200, [...PROGRESS_KINDS, ...NO_PROGRESS_KINDS], 7)) {
      expect(run.endMs).toBeGreaterThanOrEqual(MIN_RUN_MS)
      expect(run.endMs).toBeLessThanOrEqual(MAX_RUN_MS)
      expect(run.completionsMs).toHaveLength(run.planned)
      for (let i = 1; i < run.completionsMs.length; i++) {
        expect(run.completionsMs[i]).toBeGreaterThanOrEqual(run.completionsMs[i - 1])
      }
      expect(run.completionsMs.at(-1)!).toBeLessThanOrEqual(run.endMs)
    }
  })

  it('replay measures latency from the end to the response that sees it', () => {
    // Fixed 1 s polling with a 50 ms round trip: latency in (0, 1.05 s].
    const run = simulateRun(3, 'even')
    const r = replay(run, fixedPolicy(1_000), 50)
    expect(r.latencyMs).toBeGreaterThan(0)
    expect(r.latencyMs).toBeLessThanOrEqual(1_050)
    expect(r.requests).toBe(Math.floor((run.endMs - 25) / 1_050) + 2)
  })
})

describe(`poll schedule targets (${RUNS} simulated runs, virtual time)`, () => {
  it('covers both groups', () => {
    expect(stats('runs with progress', 'ours').runs).toBe((RUNS * 3) / 5)
    expect(stats('runs without progress', 'ours').runs).toBe((RUNS * 2) / 5)
  })

  it(`runs with progress: median detection latency <= ${TARGETS.medianLatencyMs} ms`, () => {
    expect(stats('runs with progress', 'ours').medianLatencyMs).toBeLessThanOrEqual(TARGETS.medianLatencyMs)
  })

  it(`runs with progress: p95 detection latency <= ${TARGETS.p95LatencyMs} ms`, () => {
    expect(stats('runs with progress', 'ours').p95LatencyMs).toBeLessThanOrEqual(TARGETS.p95LatencyMs)
  })

  it(`runs with progress: requests <= ${TARGETS.requestsVsOneSecond * 100} % of fixed 1 s polling`, () => {
    expect(stats('runs with progress', 'ours').requestsVsOneSecond).toBeLessThanOrEqual(TARGETS.requestsVsOneSecond)
  })

  it('runs without progress: latency bounded by the no-progress interval, fewer requests than 5 s polling', () => {
    const ours = stats('runs without progress', 'ours')
    expect(ours.maxLatencyMs).toBeLessThanOrEqual(DEFAULT_SCHEDULE_OPTIONS.noProgressMaxDelayMs + sim.roundTripMs)
    expect(ours.meanRequests).toBeLessThan(stats('runs without progress', 'fixed 5 s').meanRequests)
  })

  it('beats fixed 5 s polling on runs with progress: lower median and p95 latency, fewer requests', () => {
    const ours = stats('runs with progress', 'ours')
    const five = stats('runs with progress', 'fixed 5 s')
    expect(ours.medianLatencyMs).toBeLessThan(five.medianLatencyMs)
    expect(ours.p95LatencyMs).toBeLessThan(five.p95LatencyMs)
    expect(ours.meanRequests).toBeLessThan(five.meanRequests)
  })
})
