/**
 * Time at the edge: the real clock and sleep, passed in so that the pure core
 * and the tests can run on virtual time.
 */
import { AbortedError } from './errors.js'

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Resolves after `ms`, or rejects with AbortedError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new AbortedError())
        return
      }
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(new AbortedError())
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        Math.max(0, ms)
      )
      signal?.addEventListener('abort', onAbort, { once: true })
    })
}

/** A point in time after which waiting must stop. */
export class Deadline {
  constructor(
    private readonly clock: Clock,
    /** Absolute epoch milliseconds. */
    readonly at: number
  ) {}

  static after(clock: Clock, ms: number): Deadline {
    return new Deadline(clock, clock.now() + ms)
  }

  remainingMs(): number {
    return Math.max(0, this.at - this.clock.now())
  }

  expired(): boolean {
    return this.remainingMs() <= 0
  }
}
