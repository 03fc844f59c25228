import type { Clock } from '../../src/util/clock.js'
import { AbortedError } from '../../src/util/errors.js'

/** Virtual time: sleep advances the clock at once. Records every sleep. */
export function fakeClock(start = Date.parse('2026-11-21T12:00:00Z')): Clock & { sleeps: number[]; advance(ms: number): void } {
  let now = start
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms
    },
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new AbortedError()
      sleeps.push(ms)
      now += Math.max(0, ms)
      await Promise.resolve()
    }
  }
}
