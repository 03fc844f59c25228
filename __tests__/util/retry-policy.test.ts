import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../src/util/clock.js'
import { AbortedError, DeadlineExceededError, MalformedResponseError, ServiceError } from '../../src/util/errors.js'
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  describeAttempt,
  retryDelayMs,
  isRetryable,
  parseRetryAfter,
  withRetry
} from '../../src/util/retry-policy.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'

const err = (init: Partial<ConstructorParameters<typeof ServiceError>[0]>) =>
  new ServiceError({ endpoint: 'GET /api/v1/run/r', message: 'm', ...init })

describe('retry policy', () => {
  it.each([
    ['network reset', err({ code: 'ECONNRESET', transient: true }), true],
    ['500', err({ status: 500, transient: true }), true],
    ['502', err({ status: 502 }), true],
    ['503', err({ status: 503 }), true],
    ['504', err({ status: 504 }), true],
    ['408', err({ status: 408 }), true],
    ['429', err({ status: 429 }), true],
    ['400', err({ status: 400 }), false],
    ['401', err({ status: 401 }), false],
    ['403', err({ status: 403 }), false],
    ['404', err({ status: 404 }), false],
    ['409', err({ status: 409 }), false],
    ['422', err({ status: 422 }), false],
    ['deadline', new DeadlineExceededError('x', 'y'), false],
    ['a bug', new TypeError('x'), false]
  ])('%s retryable: %s', (_n, e, expected) => {
    expect(isRetryable(e)).toBe(expected)
  })

  it.each([
    ['3', 3_000],
    [' 120 ', 120_000],
    ['0', 0],
    ['1.5', 1_500],
    ['Sat, 21 Nov 2026 12:00:30 GMT', 30_000],
    ['Sat, 21 Nov 2026 11:00:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined]
  ])('Retry-After %j -> %j ms', (value, expected) => {
    expect(parseRetryAfter(value, Date.parse('2026-11-21T12:00:00Z'))).toBe(expected)
  })

  it('backs off exponentially with full jitter, capped', () => {
    const p = DEFAULT_RETRY_POLICY
    expect([1, 2, 3, 4].map((r) => backoffDelayMs(r, p, () => 0.999999))).toEqual([499, 999, 1999, 3999])
    expect(backoffDelayMs(20, p, () => 0.999999)).toBe(p.maxDelayMs - 1)
    expect(backoffDelayMs(3, p, () => 0)).toBe(0)
  })

  it('retries transient failures, then succeeds', async () => {
    const clock = fakeClock()
    let n = 0
    const seen: number[] = []
    const v = await withRetry(
      async () => {
        n += 1
        if (n < 3) throw err({ status: 503 })
        return 'ok'
      },
      { clock, random: () => 0.5, onRetry: ({ attempt }) => seen.push(attempt) }
    )
    expect(v).toBe('ok')
    expect(seen).toEqual([1, 2])
    expect(clock.sleeps).toEqual([250, 500])
  })

  it('never retries a 4xx other than 408/429', async () => {
    const clock = fakeClock()
    let n = 0
    await expect(
      withRetry(
        async () => {
          n += 1
          throw err({ status: 404 })
        },
        { clock }
      )
    ).rejects.toMatchObject({ status: 404, attempts: 1 })
    expect(n).toBe(1)
  })

  it('waits for Retry-After on 429', async () => {
    const clock = fakeClock()
    let n = 0
    await withRetry(
      async () => {
        n += 1
        if (n === 1) throw err({ status: 429, retryAfterMs: 9_000 })
        return 1
      },
      { clock }
    )
    expect(clock.sleeps).toEqual([9_000])
  })

  it('stops when Retry-After goes past the deadline, saying why', async () => {
    const clock = fakeClock()
    const deadline = Deadline.after(clock, 5_000)
    const e = await withRetry(
      async () => {
        throw err({ status: 429, retryAfterMs: 60_000 })
      },
      { clock, deadline }
    ).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(DeadlineExceededError)
    expect((e as Error).message).toBe('HTTP 429: m; the service asked to retry after 60 s, but only 5 s of the time allowed remain')
    expect(clock.sleeps).toEqual([])
  })

  it('gives up after maxAttempts and records what was retried', async () => {
    const clock = fakeClock()
    const e = (await withRetry(
      async () => {
        throw err({ status: 502 })
      },
      { clock, random: () => 0 }
    ).catch((x: unknown) => x)) as ServiceError
    expect(e.attempts).toBe(DEFAULT_RETRY_POLICY.maxAttempts)
    expect(e.retried).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts - 1)
    expect(e.describe()).toMatch(/after 8 attempts: HTTP 502, waited 0.0 s/)
  })

  it('stops waiting when the step is cancelled', async () => {
    const clock = fakeClock()
    const controller = new AbortController()
    const e = await withRetry(
      async () => {
        controller.abort()
        throw err({ status: 503 })
      },
      { clock, signal: controller.signal }
    ).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(AbortedError)
  })
})

describe('long Retry-After', () => {
  it('waits the whole Retry-After when the deadline allows it', async () => {
    const clock = fakeClock()
    let n = 0
    await withRetry(
      async () => {
        n += 1
        if (n === 1) throw err({ status: 429, retryAfterMs: 20 * 60_000 })
        return 1
      },
      { clock, deadline: Deadline.after(clock, 60 * 60_000) }
    )
    expect(clock.sleeps).toEqual([20 * 60_000])
  })

  it('gives up at once without a deadline when Retry-After is beyond the policy cap', async () => {
    const clock = fakeClock()
    await expect(
      withRetry(
        async () => {
          throw err({ status: 429, retryAfterMs: 60 * 60_000 })
        },
        { clock }
      )
    ).rejects.toMatchObject({ status: 429, attempts: 1 })
    expect(clock.sleeps).toEqual([])
  })
})

describe('floors and budgets', () => {
  it.each([
    ['Retry-After 0', { retryAfterMs: 0 }],
    ['Retry-After in the past (parsed as 0)', { retryAfterMs: 0 }],
    ['429 without Retry-After', {}]
  ])('%s: waits 1 s, 2 s, 4 s... so a 429 cannot become a storm', async (_n, extra) => {
    const clock = fakeClock()
    await expect(
      withRetry(
        async () => {
          throw err({ status: 429, transient: true, ...extra })
        },
        { clock, random: () => 0 }
      )
    ).rejects.toBeInstanceOf(ServiceError)
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000])
  })

  it('keeps a longer Retry-After as the service said', () => {
    expect(retryDelayMs(err({ status: 429, retryAfterMs: 30_000 }), 1, DEFAULT_RETRY_POLICY, () => 0)).toBe(30_000)
  })

  it('tries a malformed answer only maxMalformedAttempts times, and names the field in the retry line', async () => {
    const clock = fakeClock()
    const lines: string[] = []
    let n = 0
    const e = await withRetry(
      async () => {
        n += 1
        throw new MalformedResponseError({
          endpoint: 'GET /api/v1/run/r',
          status: 200,
          code: 'malformed_response',
          message: 'field status: expected a string',
          fieldPath: 'status',
          transient: true
        })
      },
      { clock, random: () => 0.5, onRetry: ({ error }) => lines.push(describeAttempt(error)) }
    ).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(MalformedResponseError)
    expect(n).toBe(DEFAULT_RETRY_POLICY.maxMalformedAttempts)
    expect(lines[0]).toBe('HTTP 200 malformed_response (field status: expected a string)')
  })

  it('counts only schema violations against that budget: cut or non-JSON bodies and other faults between them use the full one', async () => {
    const clock = fakeClock()
    const body = (fieldPath: string) =>
      new MalformedResponseError({
        endpoint: 'GET /api/v1/run/r',
        status: 200,
        code: 'malformed_response',
        message: 'm',
        fieldPath,
        transient: true
      })
    const script = [
      err({ status: 503, transient: true }),
      body(''),
      body('status'),
      err({ status: 429, transient: true }),
      body(''),
      body('status')
    ]
    let n = 0
    const v = await withRetry(
      async () => {
        const e = script.at(n)
        n += 1
        if (e) throw e
        return 'ok'
      },
      { clock, random: () => 0.5 }
    )
    expect(v).toBe('ok')
    expect(n).toBe(script.length + 1)
  })
})
