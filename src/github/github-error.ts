/**
 * What a failed GitHub call means, as a GitHubError: the endpoint (ids filled
 * in, never a query string or a header), the status, GitHub's own message and
 * code, whether it is worth retrying, and how long GitHub asked us to wait
 * (its primary and secondary rate limits).
 */
import { GitHubError, RemoteError } from '../util/errors.js'
import { parseRetryAfter } from '../util/retry-policy.js'
import { isRecord } from '../util/text.js'

/** A response header as a string (Octokit's headers are a plain object; numbers are stringified). */
export function headerValue(headers: unknown, name: string): string | undefined {
  if (!isRecord(headers)) return undefined
  const value = headers[name] ?? headers[name.toLowerCase()]
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return undefined
}

/** GitHub's least wait after a secondary rate limit that sent no retry-after header. */
export const SECONDARY_LIMIT_WAIT_MS = 60_000

/** The shape of Octokit's RequestError that matters here (structural: no import of Octokit needed). */
interface RequestErrorLike {
  name: string
  status?: number
  message: string
  response?: { status: number; headers?: unknown; data?: unknown }
  cause?: unknown
}

function isRequestErrorLike(err: unknown): err is RequestErrorLike {
  return err instanceof Error && (err.name === 'HttpError' || err.name === 'AbortError' || 'status' in err)
}

/**
 * When GitHub asked us to wait: Retry-After first (secondary rate limits send
 * it with a 403 or 429), else x-ratelimit-reset when x-ratelimit-remaining is 0.
 */
export function githubRetryAfterMs(headers: unknown, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), nowMs)
  if (retryAfter !== undefined) return retryAfter
  if (headerValue(headers, 'x-ratelimit-remaining') === '0') {
    const reset = Number(headerValue(headers, 'x-ratelimit-reset'))
    if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - nowMs) + 1000
  }
  return undefined
}

function githubMessage(data: unknown, fallback: string): string {
  if (isRecord(data) && typeof data.message === 'string') {
    const errors = Array.isArray(data.errors) ? data.errors : []
    const details = errors
      .map((e) => (isRecord(e) && typeof e.message === 'string' ? e.message : isRecord(e) && typeof e.code === 'string' ? e.code : ''))
      .filter((s) => s !== '')
    return details.length > 0 ? `${data.message}: ${details.join(', ')}` : data.message
  }
  if (typeof data === 'string' && data.trim() !== '') return data.slice(0, 300)
  return fallback
}

function githubCode(data: unknown): string | undefined {
  if (!isRecord(data) || !Array.isArray(data.errors)) return undefined
  const errors: unknown[] = data.errors
  const first = errors.find((e) => isRecord(e) && typeof e.code === 'string')
  return isRecord(first) && typeof first.code === 'string' ? first.code : undefined
}

function causeMessage(err: unknown): string | undefined {
  let cur: unknown = err
  for (let i = 0; i < 4 && cur instanceof Error; i++) {
    const code = (cur as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code
    cur = cur.cause
  }
  return undefined
}

/**
 * Octokit's RequestError (or a fetch failure) as a GitHubError. `timedOut`
 * tells that our own per-request timeout fired.
 */
export function toGitHubError(err: unknown, endpoint: string, nowMs: number, timedOut = false): RemoteError {
  if (err instanceof RemoteError) return err
  if (timedOut) {
    return new GitHubError({
      endpoint,
      code: 'request_timeout',
      message: 'GitHub did not answer within the request timeout',
      transient: true,
      ambiguous: true
    })
  }
  if (!isRequestErrorLike(err) || err.response === undefined) {
    // No answer at all: connection refused or reset, DNS, TLS, aborted by the fetch layer.
    const message = err instanceof Error ? err.message : String(err)
    return new GitHubError({
      endpoint,
      code: causeMessage(err) ?? 'network_error',
      message: `no answer from GitHub: ${message}`,
      transient: true,
      ambiguous: true
    })
  }
  const status = err.response.status
  const headers = err.response.headers
  const data = err.response.data
  const retryAfterMs = githubRetryAfterMs(headers, nowMs)
  const primaryLimit = headerValue(headers, 'x-ratelimit-remaining') === '0'
  const message = githubMessage(data, err.message || `HTTP ${status}`)
  const secondaryLimit =
    (status === 403 || status === 429) && (headerValue(headers, 'retry-after') !== undefined || /secondary rate limit/i.test(message))
  const rateLimited = status === 429 || ((status === 403 || status === 429) && (primaryLimit || secondaryLimit))
  const code = rateLimited ? (secondaryLimit ? 'secondary_rate_limit' : 'rate_limited') : githubCode(data)
  const transient = status >= 500 || status === 408 || status === 429 || rateLimited
  return new GitHubError({
    endpoint,
    status,
    code,
    message,
    retryAfterMs,
    // GitHub: without retry-after (nor an exhausted primary limit), wait at least a minute, longer on each retry.
    leastWaitMs: rateLimited && retryAfterMs === undefined ? SECONDARY_LIMIT_WAIT_MS : undefined,
    transient,
    ambiguous: status >= 500 || status === 408
  })
}
