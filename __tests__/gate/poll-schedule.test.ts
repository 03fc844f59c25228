import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  DEFAULT_SCHEDULE_OPTIONS,
  estimateEndMs,
  nextPollDelayMs,
  type PollObservation,
  type ScheduleOptions,
  type ScheduleState
} from '../../src/gate/poll-schedule.js'

const T0 = 1_700_000_000_000
const S = 1_000

/**
 * A run whose categories complete at `completionsS` (seconds after T0),
 * polled every `everyS` seconds up to `untilS` (inclusive).
 */
function history(planned: number, completionsS: number[], untilS: number, everyS: number): ScheduleState {
  const observations: PollObservation[] = []
  for (let t = 0; t <= untilS + 1e-9; t += everyS) {
    const completed = completionsS.filter((c) => c <= t).length
    observations.push({ atMs: T0 + t * S, status: 'running', planned, completed })
  }
  return { startedAtMs: T0, observations }
}

/** Categories of equal length `eachS`. */
function even(planned: number, eachS: number): number[] {
  return Array.from({ length: planned }, (_, i) => (i + 1) * eachS)
}

const at = (s: number): number => T0 + s * S

describe('estimateEndMs', () => {
  const cases: { name: string; state: ScheduleState; expected: number | null; toleranceS?: number }[] = [
    { name: 'no observation yet', state: { startedAtMs: T0, observations: [] }, expected: null },
    { name: 'nothing planned', state: history(0, [], 120, 5), expected: null },
    { name: 'nothing completed yet', state: history(10, even(10, 60), 50, 5), expected: null },
    {
      name: 'even progress, halfway: 10 x 60 s ends near 600 s',
      state: history(10, even(10, 60), 300, 5),
      expected: at(600),
      toleranceS: 15
    },
    {
      name: 'even progress, one category left',
      state: history(10, even(10, 60), 545, 5),
      expected: at(600),
      toleranceS: 10
    },
    {
      name: 'short run, 4 x 5 s polled every second',
      state: history(4, even(4, 5), 11, 1),
      expected: at(20),
      toleranceS: 2
    },
    {
      name: 'every planned category done: the end is due at the last completion',
      state: history(3, [10, 20, 30], 31, 1),
      expected: at(30),
      toleranceS: 1
    }
  ]
  it.each(cases)('$name', ({ state, expected, toleranceS }) => {
    const got = estimateEndMs(state)
    if (expected === null) {
      expect(got).toBeNull()
    } else {
      expect(got).not.toBeNull()
      expect(Math.abs(got! - expected)).toBeLessThanOrEqual((toleranceS ?? 0) * S)
    }
  })

  it('weighs the recent rate and the overall rate: uneven progress lands between the two', () => {
    // Three slow categories (100 s each), then three fast ones (20 s each); 4 left.
    const completions = [100, 200, 300, 320, 340, 360]
    const state = history(10, completions, 361, 1)
    const got = estimateEndMs(state)!
    const byRecent = at(360 + 4 * 20)
    const byOverall = at(360 + 4 * 60)
    expect(got).toBeGreaterThan(byRecent)
    expect(got).toBeLessThan(byOverall)
  })

  it('dates a completion between the two polls that bracket it', () => {
    // Polled every 30 s: one completion seen between 30 s and 60 s, then two
    // more between 90 s and 120 s.
    const state: ScheduleState = {
      startedAtMs: T0,
      observations: [
        { atMs: at(30), status: 'running', planned: 6, completed: 0 },
        { atMs: at(60), status: 'running', planned: 6, completed: 1 },
        { atMs: at(90), status: 'running', planned: 6, completed: 1 },
        { atMs: at(120), status: 'running', planned: 6, completed: 3 }
      ]
    }
    // Completions dated 45, 97.5, 112.5 s: about 37.5 s each, 3 left.
    const got = estimateEndMs(state)!
    expect(got).toBeGreaterThan(at(112.5 + 3 * 30))
    expect(got).toBeLessThan(at(112.5 + 3 * 45))
  })
})

describe('nextPollDelayMs with progress', () => {
  const tenByMinute = even(10, 60) // ends at 600 s

  it.each([
    { name: 'early in a 10 min run (1 category done)', untilS: 65, atLeastS: 10 },
    { name: 'halfway through a 10 min run', untilS: 300, atLeastS: 10 },
    { name: 'early in a 60 min run (2 of 13 done)', planned: 13, eachS: 277, untilS: 560, atLeastS: 25 }
  ])('sparse well before the estimated end: $name', ({ planned, eachS, untilS, atLeastS }) => {
    const state = history(planned ?? 10, even(planned ?? 10, eachS ?? 60), untilS, 5)
    const delay = nextPollDelayMs(state, at(untilS))
    expect(delay).toBeGreaterThanOrEqual(atLeastS * S)
    expect(delay).toBeLessThanOrEqual(DEFAULT_SCHEDULE_OPTIONS.maxDelayMs)
  })

  it.each([
    { name: '5 s before the estimated end', nowS: 595, atMostS: 2 },
    { name: 'at the estimated end', nowS: 600, atMostS: 2 },
    { name: '5 s after the estimated end', nowS: 605, atMostS: 2 }
  ])('dense around the estimated end: $name', ({ nowS, atMostS }) => {
    const state = history(10, tenByMinute, nowS, 1)
    const delay = nextPollDelayMs(state, at(nowS))
    expect(delay).toBeGreaterThanOrEqual(DEFAULT_SCHEDULE_OPTIONS.minDelayMs)
    expect(delay).toBeLessThanOrEqual(atMostS * S)
  })

  it('never jumps over the estimated end from far before it', () => {
    // One category left, polled sparsely: the next poll comes before the end.
    const state = history(10, tenByMinute, 560, 20)
    const delay = nextPollDelayMs(state, at(560))
    expect(at(560) + delay).toBeLessThan(at(600))
  })

  it('overdue: about 1 s just after the estimate, then a gentle back-off up to the maximum', () => {
    const state = (nowS: number): ScheduleState => history(10, even(9, 60), nowS, 1)
    const justAfter = nextPollDelayMs(state(605), at(605))
    const later = nextPollDelayMs(state(700), at(700))
    const muchLater = nextPollDelayMs(state(1_500), at(1_500))
    const farLater = nextPollDelayMs(state(6_000), at(6_000))
    expect(justAfter).toBeLessThanOrEqual(2 * S)
    expect(later).toBeGreaterThanOrEqual(justAfter)
    expect(muchLater).toBeGreaterThan(later)
    expect(farLater).toBeGreaterThanOrEqual(muchLater)
    expect(farLater).toBeLessThanOrEqual(DEFAULT_SCHEDULE_OPTIONS.maxDelayMs)
    // Gentle: the interval stays well under the time already overdue.
    expect(muchLater).toBeLessThan((1_500 - 600) * S * 0.1)
  })

  it('stalled progress widens the interval once the run is past its estimate', () => {
    // 10 x 60 s planned; 5 done by 300 s, then nothing: the estimate (600 s) passes.
    const completions = even(5, 60)
    const times = [900, 1_800, 3_600, 7_200]
    const delays = times.map((nowS) => nextPollDelayMs(history(10, completions, nowS, 5), at(nowS)))
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1])
    expect(delays.at(-1)!).toBeGreaterThanOrEqual(2 * delays[0])
    expect(delays.at(-1)!).toBeLessThanOrEqual(DEFAULT_SCHEDULE_OPTIONS.maxDelayMs)
  })

  it('all planned categories done but still running: poll at the minimum, then back off gently', () => {
    const state = (nowS: number): ScheduleState => history(3, [10, 20, 30], nowS, 1)
    // The last completion is dated between the polls at 29 s and 30 s.
    const due = nextPollDelayMs(state(31), at(31))
    expect(due).toBeGreaterThanOrEqual(DEFAULT_SCHEDULE_OPTIONS.minDelayMs)
    expect(due).toBeLessThanOrEqual(1.5 * S)
    const later = nextPollDelayMs(state(60), at(60))
    expect(later).toBeGreaterThan(DEFAULT_SCHEDULE_OPTIONS.minDelayMs)
    expect(nextPollDelayMs(state(3_600), at(3_600))).toBe(DEFAULT_SCHEDULE_OPTIONS.noProgressMaxDelayMs)
  })
})

describe('nextPollDelayMs without progress', () => {
  const noPlan = (nowS: number): ScheduleState => history(0, [], nowS, 5)
  const nothingCompleted = (nowS: number): ScheduleState => history(13, [], nowS, 5)

  it.each([
    { name: 'nothing planned', state: noPlan },
    { name: 'planned, nothing completed', state: nothingCompleted }
  ])('$name: about 2 s at first, growing gently, capped at noProgressMaxDelayMs', ({ state }) => {
    const first = nextPollDelayMs(state(0), at(0))
    expect(first).toBeGreaterThanOrEqual(1_500)
    expect(first).toBeLessThanOrEqual(2_500)
    const times = [0, 30, 60, 120, 300, 600, 3_600]
    const delays = times.map((t) => nextPollDelayMs(state(t), at(t)))
    for (let i = 1; i < delays.length; i++) {
      expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1])
      // Gently: never more than double the earlier delay at twice the elapsed time.
      expect(delays[i]).toBeLessThanOrEqual(Math.max(2 * delays[i - 1], 2_500 * (times[i] / Math.max(1, times[i - 1]))))
    }
    expect(delays.at(-1)).toBe(DEFAULT_SCHEDULE_OPTIONS.noProgressMaxDelayMs)
  })

  it('no observation at all (first poll failed): the no-progress start', () => {
    const state: ScheduleState = { startedAtMs: T0, observations: [] }
    expect(nextPollDelayMs(state, T0)).toBe(2_000)
  })

  it('honours a custom noProgressMaxDelayMs', () => {
    const opts: ScheduleOptions = { minDelayMs: 1_000, maxDelayMs: 30_000, noProgressMaxDelayMs: 8_000 }
    expect(nextPollDelayMs(noPlan(3_600), at(3_600), opts)).toBe(8_000)
  })
})

describe('nextPollDelayMs: bounds', () => {
  const states: { name: string; state: ScheduleState; nowS: number }[] = [
    { name: 'no progress', state: history(0, [], 10, 2), nowS: 10 },
    { name: 'near the estimated end', state: history(10, even(10, 60), 598, 1), nowS: 598 },
    { name: 'sparse phase', state: history(10, even(10, 60), 100, 5), nowS: 100 }
  ]

  it.each(states)('within custom bounds ($name)', ({ state, nowS }) => {
    const opts: ScheduleOptions = { minDelayMs: 2_500, maxDelayMs: 6_000, noProgressMaxDelayMs: 4_000 }
    const delay = nextPollDelayMs(state, at(nowS), opts)
    expect(delay).toBeGreaterThanOrEqual(2_500)
    expect(delay).toBeLessThanOrEqual(6_000)
  })

  const observation = fc.record({
    dtMs: fc.integer({ min: 0, max: 120_000 }),
    planned: fc.integer({ min: 0, max: 20 }),
    completedDelta: fc.integer({ min: 0, max: 3 })
  })

  it('property: any history, any options: within [min, max]; pure', () => {
    fc.assert(
      fc.property(
        fc.array(observation, { maxLength: 40 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 120_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        (obs, minDelayMs, maxExtra, noProgressExtra, sinceLastMs) => {
          const observations: PollObservation[] = []
          let t = T0
          let completed = 0
          for (const o of obs) {
            t += o.dtMs
            completed = Math.min(o.planned, completed + o.completedDelta)
            observations.push({ atMs: t, status: 'running', planned: o.planned, completed })
          }
          const now = t + sinceLastMs
          const opts: ScheduleOptions = {
            minDelayMs,
            maxDelayMs: minDelayMs + maxExtra,
            noProgressMaxDelayMs: minDelayMs + noProgressExtra
          }
          const state: ScheduleState = { startedAtMs: T0, observations }
          const snapshot = JSON.stringify(state)
          const delay = nextPollDelayMs(state, now, opts)
          expect(Number.isInteger(delay)).toBe(true)
          expect(delay).toBeGreaterThanOrEqual(opts.minDelayMs)
          expect(delay).toBeLessThanOrEqual(opts.maxDelayMs)
          expect(nextPollDelayMs(state, now, opts)).toBe(delay)
          expect(JSON.stringify(state)).toBe(snapshot)
        }
      ),
      { numRuns: 500 }
    )
  })
})

describe('nextPollDelayMs: defaults', () => {
  it('DEFAULT_SCHEDULE_OPTIONS is ordered min <= noProgressMax <= max', () => {
    const o = DEFAULT_SCHEDULE_OPTIONS
    expect(o.minDelayMs).toBeLessThanOrEqual(o.noProgressMaxDelayMs)
    expect(o.noProgressMaxDelayMs).toBeLessThanOrEqual(o.maxDelayMs)
  })
})
