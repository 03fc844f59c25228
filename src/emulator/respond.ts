/**
 * Writing an answer on the socket: a handler's result as JSON (or raw text
 * with its content type), whole or cut in half, and the answers the fault
 * mode puts in place of a handler's (what a proxy or a captive portal says).
 */
import type http from 'node:http'
import type { FaultKind } from './faults.js'
import { codedError } from './http-util.js'
import type { HandlerResult } from './http-util.js'

const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n'
const HTML_200 =
  '<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1><p>Captive portal.</p></body></html>\n'

function serialise(result: HandlerResult): { body: string; type: string } {
  if (result.contentType) return { body: String(result.body), type: result.contentType }
  return { body: JSON.stringify(result.body), type: 'application/json' }
}

/** Writes `result`; with `cut`, only the first half of its body (content-length says the half). */
export function write(res: http.ServerResponse, result: HandlerResult, cut = false): void {
  if (res.destroyed || res.writableEnded) return
  const { body, type } = serialise(result)
  const payload = cut ? body.slice(0, Math.floor(body.length / 2)) : body
  res.writeHead(result.status, { ...(result.headers ?? {}), 'content-type': type, 'content-length': String(Buffer.byteLength(payload)) })
  res.end(payload)
}

/** The answer an injected fault gives instead of the handler's; null for the faults that act on the socket. */
export function faultResult(kind: FaultKind, retryAfter: number): HandlerResult | null {
  switch (kind) {
    case 'status500':
      return { status: 500, body: { detail: { code: 'internal_error', message: 'internal server error (injected fault)' } } }
    case 'status502':
      return { status: 502, body: HTML_502, contentType: 'text/html' }
    case 'status503':
      return { status: 503, body: { detail: { code: 'service_unavailable', message: 'service unavailable (injected fault)' } } }
    case 'status504':
      return { status: 504, body: { detail: { code: 'gateway_timeout', message: 'gateway timeout (injected fault)' } } }
    case 'non_json':
      return { status: 200, body: HTML_200, contentType: 'text/html' }
    case 'burst429':
      return codedError(
        429,
        'rate_limited',
        'too many requests (injected fault)',
        { retry_after_seconds: retryAfter },
        { 'retry-after': String(retryAfter) }
      ).result
    default:
      return null
  }
}
