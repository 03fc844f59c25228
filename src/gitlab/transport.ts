/**
 * The one way this tool talks to GitLab's REST API (v4): each attempt under
 * its own timeout (connect, headers and body), on @actions/http-client, no
 * redirect followed (the token must not travel), failures as GitLabErrors,
 * the whole under the one retry policy (../util/retry-policy.ts), which waits
 * as GitLab's rate limits ask (429 with Retry-After, else RateLimit-Reset,
 * else at least a minute: GitLab documents that a rate-limited endpoint, as
 * note creation, is allowed again "after one minute").
 * Every API file (notes-api.ts) is a set of calls over this `GitLabCall`.
 *
 * The token goes into the PRIVATE-TOKEN header only; no message built here
 * quotes a header, and every text taken from an answer is scrubbed of it.
 */
import type * as http from 'node:http'
import { HttpClient } from '@actions/http-client'
import type { HttpClientResponse } from '@actions/http-client'
import { networkError } from '../service/http-errors.js'
import { readBody } from '../service/read-body.js'
import { jsonRequestInfo } from '../service/request-info.js'
import { AbortedError, GitLabError, RemoteError } from '../util/errors.js'
import { scrubSecrets } from '../util/redact.js'
import { parseRetryAfter, withRetry } from '../util/retry-policy.js'
import { isRecord, oneLine } from '../util/text.js'
import { remoteRetryContext, type RemoteApiDeps } from '../util/remote-api-deps.js'

export type GitLabDeps = RemoteApiDeps

/** A successful answer. */
export interface GitLabAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  data: unknown
}

/** Reads a successful answer; throws a GitLabError naming `endpoint` when it is not what the call expects. */
export type ReadAnswer<T> = (answer: GitLabAnswer, endpoint: string) => T

/**
 * One GitLab call: method, path under the API root (ids encoded, query
 * included), the JSON body, how to read the answer, and for a create how to
 * find what an ambiguous attempt made before sending it again.
 */
export type GitLabCall = <T>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body: unknown,
  read: ReadAnswer<T>,
  findExisting?: () => Promise<T | null>
) => Promise<T>

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000

/** GitLab's documented wait after a rate limit that said nothing of when it lifts: its limits are per minute. */
export const GITLAB_RATE_LIMIT_WAIT_MS = 60_000
/** The largest answer read: a page of 100 notes of up to 1,000,000 characters each, with room. */
const MAX_BODY_BYTES = 512 * 1024 * 1024

/** A header's first value. */
export function header(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const v = (headers as Record<string, string | string[] | undefined>)[name]
  return Array.isArray(v) ? v[0] : v
}

/**
 * How long GitLab asked us to wait: Retry-After, else on a 429 the
 * RateLimit-Reset time (Unix seconds) from now.
 */
export function gitlabRetryAfterMs(status: number, headers: http.IncomingHttpHeaders, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(header(headers, 'retry-after'), nowMs)
  if (retryAfter !== undefined || status !== 429) return retryAfter
  const reset = Number(header(headers, 'ratelimit-reset'))
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - nowMs) : undefined
}

/** GitLab's error text: `message` (a string or an object of field errors) or `error`. */
function gitlabMessage(text: string, fallback: string): string {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return text.trim() === '' ? fallback : text.slice(0, 300)
  }
  if (!isRecord(data)) return fallback
  const m = data.message ?? data.error
  if (typeof m === 'string') return m
  if (m !== undefined) return JSON.stringify(m).slice(0, 300)
  return fallback
}

/** A non-success answer as a GitLabError. */
export function gitlabStatusError(
  endpoint: string,
  status: number,
  headers: http.IncomingHttpHeaders,
  text: string,
  nowMs: number,
  secrets: readonly string[]
): GitLabError {
  const retryAfterMs = gitlabRetryAfterMs(status, headers, nowMs)
  return new GitLabError({
    endpoint,
    status,
    message: oneLine(scrubSecrets(gitlabMessage(text, `HTTP ${status}`), secrets), 300),
    retryAfterMs,
    leastWaitMs: status === 429 && retryAfterMs === undefined ? GITLAB_RATE_LIMIT_WAIT_MS : undefined,
    transient: status === 408 || status === 429 || status >= 500,
    ambiguous: status === 408 || status >= 500
  })
}

/** A success body as JSON; one that is not is a malformed answer (worth another attempt, as a proxy's bad minute). */
function parseJson(text: string, endpoint: string, status: number): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new GitLabError({
      endpoint,
      status,
      code: 'malformed_response',
      message: 'the answer is not JSON',
      transient: true,
      ambiguous: true
    })
  }
}

/** One exchange: the whole answer, or a GitLabError (network, timeout, status), or AbortedError. */
async function exchange(client: HttpClient, deps: GitLabDeps, method: string, path: string, body: unknown): Promise<GitLabAnswer> {
  const endpoint = `${method} ${path.replace(/\?.*$/, '')}`
  const timeoutMs = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout
  const url = new URL(`${deps.apiUrl}${path}`)
  const data = body === undefined ? null : JSON.stringify(body)
  const headers = { 'private-token': deps.token, 'user-agent': 'agent-security-gate' }
  try {
    const res: HttpClientResponse = await client.requestRaw(jsonRequestInfo(client, url, method, headers, data !== null, signal), data)
    const text = await readBody(res.message, signal, MAX_BODY_BYTES)
    const status = res.message.statusCode ?? 0
    if (status < 200 || status >= 300) throw gitlabStatusError(endpoint, status, res.message.headers, text, deps.clock.now(), [deps.token])
    return { status, headers: res.message.headers, data: parseJson(text, endpoint, status) }
  } catch (err) {
    if (deps.signal?.aborted) throw new AbortedError()
    if (err instanceof RemoteError) throw err
    const e = networkError(err, endpoint, { timedOut: timeout.aborted, requestTimeoutMs: timeoutMs, secrets: [deps.token] })
    throw new GitLabError({ endpoint, code: e.code, message: e.serviceMessage, transient: e.transient, ambiguous: e.ambiguous })
  }
}

/**
 * The calls of GitLab: each attempt with its own timeout, the whole under the
 * one retry policy; before a create is sent again after an ambiguous failure,
 * `findExisting` looks for what it made.
 */
export function gitlabCalls(deps: GitLabDeps): GitLabCall {
  const client = new HttpClient('agent-security-gate', [], {
    allowRetries: false,
    allowRedirects: false,
    keepAlive: false,
    socketTimeout: (deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) + 1000
  })
  return async (method, path, body, read, findExisting) => {
    let last: RemoteError | undefined
    return withRetry(
      async (attempt) => {
        if (attempt > 1 && findExisting && last?.ambiguous) {
          const existing = await findExisting()
          if (existing !== null) {
            deps.log.info(`${method} ${path}: the earlier attempt had taken effect; using what it created.`)
            return existing
          }
        }
        try {
          const answer = await exchange(client, deps, method, path, body)
          return read(answer, `${method} ${path.replace(/\?.*$/, '')}`)
        } catch (err) {
          if (err instanceof RemoteError) last = err
          throw err
        }
      },
      remoteRetryContext(deps, 'GitLab')
    )
  }
}
