/**
 * The Host check of the emulator's servers (the API with its admin routes,
 * and the demo agent): a request is answered only when its Host header names
 * a loopback name with the port the server listens on.
 *
 * Why: the servers listen on 127.0.0.1 without authentication on the admin
 * routes (GET /__emulator/credentials hands out every stored target
 * credential). A web page opened in a browser on the same machine can point
 * a name it controls at 127.0.0.1 (DNS rebinding) and then read those routes
 * as same-origin; its requests still carry its own name in Host. Refusing
 * every Host but the loopback names closes that door on every route.
 *
 * The servers bind 127.0.0.1 only and offer no option to bind another
 * address: the admin routes must never be reachable from the network, so
 * there is no non-loopback name to allow. A request without Host, or with a
 * port other than the listening one, is refused too (the default port may be
 * left out only when the server listens on port 80).
 */
import type { HandlerResult } from './http-util.js'
import { codedError } from './http-util.js'

/** The names a loopback listener is reached by (lower case; an IPv6 address in brackets, as Host writes it). */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/** Whether a Host header value names this loopback server: one of LOOPBACK_HOST_NAMES, with `port`. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false
  const m = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host.trim())
  if (!m) return false
  const name = m[1].toLowerCase()
  const portText = m.at(2) // undefined when Host names no port
  const named = portText === undefined ? 80 : Number(portText)
  return LOOPBACK_HOST_NAMES.includes(name) && named === port
}

/**
 * 421 Misdirected Request: this server does not answer for that name. A
 * client still waiting for `100 Continue` never gets it and may never send
 * its body, so its connection is closed with the answer.
 */
export function misdirected(host: string | undefined, port: number, awaitingContinue: boolean): HandlerResult {
  const shown = host === undefined ? 'no Host header' : `Host ${JSON.stringify(host.slice(0, 200))}`
  return codedError(
    421,
    'misdirected_request',
    `${shown} is refused: this server answers only for localhost:${port}, 127.0.0.1:${port} or [::1]:${port}`,
    { allowed_hosts: LOOPBACK_HOST_NAMES.map((n) => `${n}:${port}`) },
    awaitingContinue ? { connection: 'close' } : {}
  ).result
}
