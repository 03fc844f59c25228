/**
 * One HTTP exchange with the service, on @actions/http-client: URL building,
 * headers, a per-request timeout covering connect, headers and body, body
 * reading, and mapping every outcome to a value or a typed error.
 *
 * No retrying here (see retry-policy.ts and client.ts); no redirects followed
 * (a redirect is an error: the Authorization header must not travel).
 *
 * Secrets: the api key goes into the Authorization header only. No error
 * message, log line or exception built here quotes a request header, and
 * every text taken from a response is redacted of the key.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import { performance } from 'node:perf_hooks'
import { HttpClient } from '@actions/http-client'
import type { HttpClientResponse } from '@actions/http-client'
import type { RequestInfo } from '@actions/http-client/lib/interfaces'
import type { z } from 'zod'
import { parseBaseUrl } from './base-url.js'
import type { Clock } from '../util/clock.js'
import { systemClock } from '../util/clock.js'
import { AbortedError, MalformedResponseError, ServiceError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { silentLog } from '../util/log.js'
import { parseErrorBody, parseSuccessBody } from './parse-response.js'
import { scrubSecrets } from '../util/redact.js'
import { oneLine } from '../util/text.js'
import { parseRetryAfter } from '../util/retry-policy.js'

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
// Network failures (pure)
// ---------------------------------------------------------------------------

/** Connection never established: the request cannot have reached the service. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])
/** Network faults worth another attempt. */
const TRANSIENT_NETWORK = new Set([
  ...NOT_REACHED,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'ESOCKETTIMEDOUT',
  'UND_ERR_SOCKET',
  'request_timeout'
])

function errorCode(err: unknown): string | undefined {
  if (err !== null && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code
  return undefined
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * Map a failure of the exchange (no HTTP status) to a ServiceError.
 * `timedOut`: the per-request timeout fired.
 */
export function networkError(
  err: unknown,
  endpoint: string,
  opts: { timedOut: boolean; requestTimeoutMs: number; secrets: readonly string[] }
): ServiceError {
  const httpClientTimeout = errorMessage(err).startsWith('Request timeout:')
  if (opts.timedOut || httpClientTimeout) {
    return new ServiceError({
      endpoint,
      code: 'request_timeout',
      message: `no complete answer within ${opts.requestTimeoutMs} ms (per-request timeout)`,
      transient: true,
      ambiguous: true
    })
  }
  const code = errorCode(err) ?? 'network_error'
  const text = oneLine(scrubSecrets(errorMessage(err), opts.secrets), 200)
  return new ServiceError({
    endpoint,
    code,
    message: `network error: ${text}`,
    transient: TRANSIENT_NETWORK.has(code),
    ambiguous: !NOT_REACHED.has(code)
  })
}

/** Map a non-success HTTP answer to a ServiceError. */
export function statusError(
  endpoint: string,
  status: number,
  statusText: string,
  headers: http.IncomingHttpHeaders,
  text: string,
  nowMs: number,
  secrets: readonly string[]
): ServiceError {
  const parsed = parseErrorBody(status, statusText, text, secrets)
  // Typed a single string by Node; kept wide, as what a proxy sends is not Node's to promise.
  const raw: Record<string, string | string[] | undefined> = headers
  const retryAfter = raw['retry-after']
  const retryAfterMs = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, nowMs)
  return new ServiceError({
    endpoint,
    status,
    code: parsed.code,
    message: parsed.message,
    retryAfterMs,
    extra: parsed.extra,
    transient: status === 408 || status === 429 || status >= 500,
    ambiguous: status === 408 || status >= 500
  })
}

// ---------------------------------------------------------------------------
// Body reading
// ---------------------------------------------------------------------------

class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`response body larger than ${limit} bytes`)
  }
}

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code })
}

/** Read the whole body; rejects on abort, on a connection cut before the end, or past `maxBytes`. */
export function readBody(msg: http.IncomingMessage, signal: AbortSignal, maxBytes: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (err: Error | undefined, text?: string): void => {
      if (done) return
      done = true
      signal.removeEventListener('abort', onAbort)
      if (err === undefined) resolve(text ?? '')
      else {
        reject(err)
        msg.destroy()
      }
    }
    // The reason only has to be an Error: the caller tells an abort by its signals, not by this error.
    const onAbort = (): void => {
      const reason: unknown = signal.reason
      finish(reason instanceof Error ? reason : withCode('aborted', 'ABORT_ERR'))
    }
    if (signal.aborted) {
      onAbort()
      return
    }
    signal.addEventListener('abort', onAbort, { once: true })
    msg.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) finish(new BodyTooLarge(maxBytes))
      else chunks.push(chunk)
    })
    msg.on('end', () => {
      finish(undefined, Buffer.concat(chunks).toString('utf8'))
    })
    msg.on('aborted', () => {
      finish(withCode('connection closed before the response was complete', 'ECONNRESET'))
    })
    msg.on('error', (e) => {
      finish(e)
    })
    msg.on('close', () => {
      if (!msg.complete) finish(withCode('connection closed before the response was complete', 'ECONNRESET'))
    })
  })
}

// ---------------------------------------------------------------------------
// The transport
// ---------------------------------------------------------------------------

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

  private get secrets(): readonly string[] {
    return [this.apiKey]
  }

  /** Send one request; resolve with the success body parsed through `spec.schema`. */
  async send<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.infer<S>> {
    const endpoint = `${spec.method} ${spec.path}`
    if (spec.signal?.aborted) throw new AbortedError()
    const url = new URL(`${this.baseUrl}${spec.path}${buildQuery(spec.query)}`)
    const timeout = new AbortController()
    const signal = spec.signal ? AbortSignal.any([timeout.signal, spec.signal]) : timeout.signal
    const timeoutMs = spec.timeoutMs ?? this.requestTimeoutMs
    const timer = setTimeout(() => {
      timeout.abort()
    }, timeoutMs)
    const started = performance.now()
    const elapsed = (): number => Math.round(performance.now() - started)
    const fail = (err: unknown): Error => {
      const timedOut = timeout.signal.aborted
      timeout.abort() // destroy whatever is left of the exchange
      if (spec.signal?.aborted) return new AbortedError()
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
        requestTimeoutMs: timeoutMs,
        secrets: this.secrets
      })
      this.log.debug(`${endpoint} -> ${mapped.code ?? 'network error'} (${elapsed()} ms)`)
      return mapped
    }
    try {
      const data = spec.body === undefined ? null : JSON.stringify(spec.body)
      const headers: http.OutgoingHttpHeaders = {
        accept: 'application/json',
        authorization: `Bearer ${this.apiKey}`,
        'user-agent': this.userAgent
      }
      if (data !== null) headers['content-type'] = 'application/json'
      const isHttps = url.protocol === 'https:'
      const info: RequestInfo = {
        parsedUrl: url,
        httpModule: isHttps ? https : http,
        options: {
          host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port ? Number(url.port) : isHttps ? 443 : 80,
          path: `${url.pathname}${url.search}`,
          method: spec.method,
          headers,
          agent: this.http.getAgent(url.toString()),
          signal
        }
      }
      let res: HttpClientResponse
      try {
        res = await this.http.requestRaw(info, data)
      } catch (err) {
        throw fail(err)
      }
      const status = res.message.statusCode ?? 0
      let text: string
      try {
        text = await readBody(res.message, signal, this.maxBodyBytes)
      } catch (err) {
        throw fail(err)
      }
      this.log.debug(`${endpoint} -> ${status} (${elapsed()} ms)`)
      const ctx = { endpoint, status, secrets: this.secrets }
      if (status === spec.okStatus) return parseSuccessBody(spec.schema, text, ctx)
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
      throw statusError(endpoint, status, res.message.statusMessage ?? '', res.message.headers, text, this.clock.now(), this.secrets)
    } finally {
      clearTimeout(timer)
    }
  }
}
