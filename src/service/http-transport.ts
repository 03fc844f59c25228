/**
 * One HTTP exchange with the service, on @actions/http-client: URL building,
 * headers, a per-request timeout covering connect, headers and body, body
 * reading (./read-body.ts), and mapping every outcome to a value or a typed
 * error (./http-errors.ts).
 *
 * No retrying here (see retry-policy.ts and client.ts); no redirects followed
 * (a redirect is an error: the Authorization header must not travel).
 *
 * Secrets: the api key goes into the Authorization header only. No error
 * message, log line or exception built here quotes a request header, and
 * every text taken from a response is redacted of the key.
 */
import * as http from 'node:http'
import { performance } from 'node:perf_hooks'
import { HttpClient } from '@actions/http-client'
import type { HttpClientResponse } from '@actions/http-client'
import type { RequestInfo } from '@actions/http-client/lib/interfaces'
import type { z } from 'zod'
import { parseBaseUrl } from './base-url.js'
import type { Clock } from '../util/clock.js'
import { systemClock } from '../util/clock.js'
import { AbortedError, MalformedResponseError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { silentLog } from '../util/log.js'
import { secretWireForms } from '../util/redact.js'
import { networkError, statusError } from './http-errors.js'
import { parseSuccessBody } from './parse-response.js'
import { BodyTooLarge, readBody } from './read-body.js'
import { jsonRequestInfo } from './request-info.js'

export type HttpMethod = 'GET' | 'POST' | 'PATCH'

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
/**
 * A body larger than this is refused. The largest real answer is a findings
 * list, which can hold thousands of findings with replies of megabytes; the
 * cap keeps well under V8's largest string (about 512 Mi characters).
 */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024
export const DEFAULT_USER_AGENT = 'agent-security-gate'

export interface TransportOptions {
  /** The part before /api/v1, e.g. https://asas.example.com (a trailing slash or /api/v1 is tolerated). */
  baseUrl: string
  apiKey: string
  /**
   * The step's other secrets (the target's credential, query secrets: every
   * wire form, see secretWireForms), scrubbed from every text of an answer
   * before it is clipped into an error. The api key's forms are always in.
   */
  secrets?: readonly string[]
  /** Per request: connect, headers and body must all arrive within it. */
  requestTimeoutMs?: number
  maxBodyBytes?: number
  userAgent?: string
  /** Used for Retry-After HTTP-dates. */
  clock?: Clock
  log?: Log
}

export interface RequestSpec<S extends z.ZodType> {
  method: HttpMethod
  /** Path with ids filled in and encoded, no query string, e.g. /api/v1/run/r_1. */
  path: string
  query?: Readonly<Record<string, string | number | boolean | undefined | null>>
  /** JSON-serialised when defined. */
  body?: unknown
  /** The one success status of the endpoint. */
  okStatus: number
  /** Contract schema of the success body. */
  schema: S
  signal?: AbortSignal
  /** This attempt's timeout (connect, headers and body); default the transport's requestTimeoutMs. */
  timeoutMs?: number
}

// ---------------------------------------------------------------------------
// URL building (pure)
// ---------------------------------------------------------------------------

/**
 * Fill a path template: `/api/v1/run/{run_id}` with `{run_id: 'a b'}` ->
 * `/api/v1/run/a%20b`. Every parameter is URL-encoded; an empty one is refused
 * (it would address another endpoint). Ids come from the service's answers,
 * whose schemas refuse empty ones, so a missing id is a bug of the caller
 * (a TypeError, reported with its stack), not a configuration mistake.
 */
export function fillPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name]
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`path parameter ${name} of ${template} must be a non-empty string`)
    }
    return encodeURIComponent(value)
  })
}

/** `?a=1&b=x` with only the defined (non-null) values, or ''. */
export function buildQuery(query: RequestSpec<z.ZodType>['query']): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

// ---------------------------------------------------------------------------
// The transport
// ---------------------------------------------------------------------------

/** One attempt in flight. */
interface Attempt {
  /** `METHOD /path`, as errors and logs name it. */
  endpoint: string
  url: URL
  timeoutMs: number
  /** Aborted by the timer when the attempt takes longer than timeoutMs. */
  timeout: AbortController
  callerSignal: AbortSignal | undefined
  /** Ends the exchange on either the caller's abort or the timeout. */
  signal: AbortSignal
  timer: ReturnType<typeof setTimeout>
  /** Milliseconds since the attempt started, for the debug log. */
  elapsed: () => number
}

/** A whole answer, before it is judged. */
interface RawAnswer {
  status: number
  statusText: string
  headers: http.IncomingHttpHeaders
  text: string
}

export class HttpTransport {
  readonly baseUrl: string
  readonly requestTimeoutMs: number
  private readonly apiKey: string
  private readonly maxBodyBytes: number
  private readonly userAgent: string
  private readonly clock: Clock
  private readonly log: Log
  private readonly http: HttpClient

  constructor(opts: TransportOptions) {
    this.baseUrl = parseBaseUrl(opts.baseUrl)
    this.apiKey = opts.apiKey
    this.secrets = [...new Set([opts.apiKey, ...secretWireForms(opts.apiKey), ...(opts.secrets ?? [])])].filter((x) => x !== '')
    this.requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
    this.maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    this.userAgent = opts.userAgent ?? DEFAULT_USER_AGENT
    this.clock = opts.clock ?? systemClock
    this.log = opts.log ?? silentLog
    // Our own timer bounds the whole exchange; http-client's idle timeout is only a backstop.
    this.http = new HttpClient(this.userAgent, [], {
      allowRetries: false,
      allowRedirects: false,
      keepAlive: false,
      socketTimeout: this.requestTimeoutMs + 1000
    })
  }

  private readonly secrets: readonly string[]

  /** Send one request; resolve with the success body parsed through `spec.schema`. */
  async send<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.infer<S>> {
    if (spec.signal?.aborted) throw new AbortedError()
    const attempt = this.startAttempt(spec)
    try {
      const answer = await this.exchange(spec, attempt)
      this.log.debug(`${attempt.endpoint} -> ${answer.status} (${attempt.elapsed()} ms)`)
      return this.readAnswer(spec, attempt.endpoint, answer)
    } finally {
      clearTimeout(attempt.timer)
    }
  }

  /** The attempt's URL, and its timer started: from here it ends by an answer, the caller's abort or the timeout. */
  private startAttempt(spec: RequestSpec<z.ZodType>): Attempt {
    const url = new URL(`${this.baseUrl}${spec.path}${buildQuery(spec.query)}`)
    const timeout = new AbortController()
    const timeoutMs = spec.timeoutMs ?? this.requestTimeoutMs
    const timer = setTimeout(() => {
      timeout.abort()
    }, timeoutMs)
    const started = performance.now()
    return {
      endpoint: `${spec.method} ${spec.path}`,
      url,
      timeoutMs,
      timeout,
      callerSignal: spec.signal,
      signal: spec.signal ? AbortSignal.any([timeout.signal, spec.signal]) : timeout.signal,
      timer,
      elapsed: () => Math.round(performance.now() - started)
    }
  }

  /** The request sent and the whole answer read; any failure on the way as the error `send` throws. */
  private async exchange(spec: RequestSpec<z.ZodType>, attempt: Attempt): Promise<RawAnswer> {
    const data = spec.body === undefined ? null : JSON.stringify(spec.body)
    let res: HttpClientResponse
    try {
      res = await this.http.requestRaw(this.requestInfo(spec.method, attempt, data !== null), data)
    } catch (err) {
      throw this.exchangeFailure(err, attempt)
    }
    try {
      const text = await readBody(res.message, attempt.signal, this.maxBodyBytes)
      return { status: res.message.statusCode ?? 0, statusText: res.message.statusMessage ?? '', headers: res.message.headers, text }
    } catch (err) {
      throw this.exchangeFailure(err, attempt)
    }
  }

  /** What http-client sends: the method, the headers (the api key in Authorization only), the attempt's signal. */
  private requestInfo(method: HttpMethod, attempt: Attempt, hasBody: boolean): RequestInfo {
    const headers = { authorization: `Bearer ${this.apiKey}`, 'user-agent': this.userAgent }
    return jsonRequestInfo(this.http, attempt.url, method, headers, hasBody, attempt.signal)
  }

  /** A failure before the whole answer arrived: the caller's abort, a body too large, or a network error or timeout. */
  private exchangeFailure(err: unknown, attempt: Attempt): Error {
    const { endpoint } = attempt
    const timedOut = attempt.timeout.signal.aborted
    attempt.timeout.abort() // destroy whatever is left of the exchange
    if (attempt.callerSignal?.aborted) return new AbortedError()
    if (err instanceof BodyTooLarge) {
      return new MalformedResponseError({
        endpoint,
        code: 'malformed_response',
        message: err.message,
        fieldPath: '',
        // The same answer will be as large next time: not worth a retry.
        transient: false,
        ambiguous: true
      })
    }
    const mapped = networkError(err, endpoint, {
      timedOut,
      requestTimeoutMs: attempt.timeoutMs,
      secrets: this.secrets
    })
    this.log.debug(`${endpoint} -> ${mapped.code ?? 'network error'} (${attempt.elapsed()} ms)`)
    return mapped
  }

  /** The answer read: the success body through the schema, another 2xx as malformed, anything else as a ServiceError. */
  private readAnswer<S extends z.ZodType>(spec: RequestSpec<S>, endpoint: string, answer: RawAnswer): z.infer<S> {
    const { status, text } = answer
    if (status === spec.okStatus) return parseSuccessBody(spec.schema, text, { endpoint, status, secrets: this.secrets })
    if (status >= 200 && status < 300) {
      throw new MalformedResponseError({
        endpoint,
        status,
        code: 'malformed_response',
        message: `unexpected success status ${status}, expected ${spec.okStatus}`,
        fieldPath: '',
        transient: true,
        ambiguous: true
      })
    }
    throw statusError(endpoint, status, answer.statusText, answer.headers, text, this.clock.now(), this.secrets)
  }
}
