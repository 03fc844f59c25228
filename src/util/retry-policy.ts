/**
 * The one retry policy of the action, used by every call to the service and
 * to GitHub.
 *
 * - Network errors, 500/502/503/504 and 408 are retried with exponential
 *   backoff and full jitter.
 * - 429 waits for Retry-After (seconds or HTTP-date), capped by the time left,
 *   and never less than a floor that doubles on each retry (a Retry-After of 0
 *   or a date in the past must not turn into a request storm).
 * - A remote whose documentation asks for a least wait when it sent no
 *   Retry-After (GitHub's secondary rate limit: a minute) waits that, doubling
 *   on each retry, capped by the time left.
 * - Other 4xx are never retried.
 * - A malformed answer is retried a few times (it may be a proxy's bad
 *   minute); a persistent one ends with the last error, naming the field.
 * - All waiting stops at the deadline (timeout_minutes) or when the step is
 *   cancelled.
 */
import type { Clock, Deadline } from './clock.js'
import { AbortedError, DeadlineExceededError, MalformedResponseError, RemoteError } from './errors.js'

export interface RetryPolicy {
  /** Attempts in all, including the first. */
  maxAttempts: number
  /** Cap of the first backoff window; doubles on each retry. */
  baseDelayMs: number
  /** Cap of any backoff window. */
  maxDelayMs: number
  /** Longest Retry-After waited for when there is no deadline; with one, the time left is the cap. */
  maxRetryAfterMs: number
  /** Floor under a Retry-After wait on the first retry; doubles on each retry up to maxDelayMs. */
  minRetryAfterMs: number
  /** Answers in all, within maxAttempts, whose JSON does not follow the contract (it rarely heals). */
  maxMalformedAttempts: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  maxRetryAfterMs: 5 * 60_000,
  minRetryAfterMs: 1_000,
  maxMalformedAttempts: 3
}

/** Status codes that are worth another attempt. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504])

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status)
}

/** Full jitter: a uniform draw in [0, min(maxDelay, base * 2^(retry-1))]. `retry` counts from 1. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const window = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1))
  return Math.floor(random() * window)
}

/**
 * Parse a Retry-After header: delta-seconds or an HTTP-date. Returns
 * milliseconds from `nowMs`, or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === undefined || value === null) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - nowMs)
}

/** Whether a failure is worth another attempt under this policy. */
export function isRetryable(err: unknown): err is RemoteError {
  if (!(err instanceof RemoteError)) return false
  if (err instanceof DeadlineExceededError) return false
  if (err.status !== undefined && !err.transient) return isRetryableStatus(err.status)
  return err.transient
}

/** The least wait before retry number `retry` (from 1) when the service named one: 1 s, 2 s, 4 s... capped. */
export function retryAfterFloorMs(retry: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.minRetryAfterMs * 2 ** Math.max(0, retry - 1))
}

/**
 * How long to wait before retry number `retry` (from 1) after `err`:
 * Retry-After when the service said (never below the floor; a 429 without
 * one waits the floor), else the remote's documented least wait doubled per
 * retry, else backoff with full jitter.
 */
export function retryDelayMs(err: RemoteError, retry: number, policy: RetryPolicy, random: () => number): number {
  if (err.retryAfterMs === undefined && err.leastWaitMs !== undefined) return err.leastWaitMs * 2 ** Math.max(0, retry - 1)
  if (err.retryAfterMs !== undefined || err.status === 429) return Math.max(err.retryAfterMs ?? 0, retryAfterFloorMs(retry, policy))
  return backoffDelayMs(retry, policy, random)
}

/**
 * An answer whose JSON does not follow the contract (a missing or mistyped
 * field): unlike a cut or non-JSON body (a proxy's or the network's bad
 * minute), it rarely heals, so it has its own, smaller budget.
 */
export function isSchemaViolation(err: unknown): boolean {
  return err instanceof MalformedResponseError && err.fieldPath !== ''
}

export interface RetryContext {
  clock: Clock
  deadline?: Deadline
  signal?: AbortSignal
  policy?: RetryPolicy
  random?: () => number
  /** Told about each retry before its wait, e.g. for a log line. */
  onRetry?: (info: { attempt: number; delayMs: number; error: RemoteError }) => void
}

/** What one failed attempt was, for retry lines: `HTTP 503`, `ECONNRESET`, `HTTP 200 malformed_response at categories[0].key`. */
export function describeAttempt(err: RemoteError): string {
  const what = err.status !== undefined ? `HTTP ${err.status}${err.code ? ` ${err.code}` : ''}` : (err.code ?? 'network error')
  if (err instanceof MalformedResponseError) return `${what} (${err.serviceMessage})`
  return what
}

/** `err` telling the attempts made: itself when it already does, else a copy with it as the cause. */
function withAttempts(err: RemoteError, attempts: number, retried: readonly string[]): RemoteError {
  if (err.attempts === attempts && err.retried.length === retried.length) return err
  return err.withDetail({ attempts, retried: [...retried] })
}

/**
 * Run `op` under the retry policy. `op` gets the attempt number (from 1).
 * Rejects with the last RemoteError (a copy of it with `attempts` and
 * `retried` filled in, the error itself as its cause),
 * with DeadlineExceededError when the deadline left no room for the wait, or
 * with AbortedError when the signal aborts.
 */
export async function withRetry<T>(op: (attempt: number) => Promise<T>, ctx: RetryContext): Promise<T> {
  const policy = ctx.policy ?? DEFAULT_RETRY_POLICY
  const random = ctx.random ?? Math.random
  const retried: string[] = []
  let schemaViolations = 0
  for (let attempt = 1; ; attempt++) {
    if (ctx.signal?.aborted) throw new AbortedError()
    try {
      return await op(attempt)
    } catch (err) {
      if (isSchemaViolation(err)) schemaViolations += 1
      if (!isRetryable(err) || attempt >= policy.maxAttempts || schemaViolations >= policy.maxMalformedAttempts) {
        throw err instanceof RemoteError ? withAttempts(err, attempt, retried) : err
      }
      const delayMs = retryDelayMs(err, attempt, policy, random)
      if (!ctx.deadline && delayMs > policy.maxRetryAfterMs) {
        throw withAttempts(err, attempt, retried)
      }
      if (ctx.deadline && delayMs >= ctx.deadline.remainingMs()) {
        const left = Math.round(ctx.deadline.remainingMs() / 1000)
        const why =
          err.retryAfterMs !== undefined
            ? `the service asked to retry after ${Math.ceil(err.retryAfterMs / 1000)} s, but only ${left} s of the time allowed remain`
            : err.leastWaitMs !== undefined
              ? `it asks to wait at least ${Math.ceil(delayMs / 1000)} s before retrying, but only ${left} s of the time allowed remain`
              : `no time left for another attempt (${left} s of the time allowed remain)`
        const tried = attempt > 1 ? ` (after ${attempt} attempts: ${retried.join('; ')})` : ''
        throw new DeadlineExceededError(err.endpoint, `${describeAttempt(err)}: ${err.serviceMessage}${tried}; ${why}`, { cause: err })
      }
      retried.push(`${describeAttempt(err)}, waited ${(delayMs / 1000).toFixed(1)} s`)
      ctx.onRetry?.({ attempt, delayMs, error: err })
      await ctx.clock.sleep(delayMs, ctx.signal)
    }
  }
}
