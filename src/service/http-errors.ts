/**
 * A failed exchange with the service as a ServiceError: a network failure or
 * timeout (no HTTP status), or a non-success answer. Says whether another
 * attempt is worth it (transient) and whether the request may have taken
 * effect (ambiguous). Pure; every text from the network is scrubbed of secrets.
 */
import type * as http from 'node:http'
import { ServiceError } from '../util/errors.js'
import { scrubSecrets } from '../util/redact.js'
import { parseRetryAfter } from '../util/retry-policy.js'
import { oneLine } from '../util/text.js'
import { parseErrorBody } from './parse-response.js'

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
