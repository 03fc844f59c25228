/**
 * One request to the emulator, from the socket to the answer: log it, check
 * its Host, read its body (bounded), then route it to the admin controls or
 * to an API endpoint. On the API, the fault mode may answer in the handler's
 * place, drop the connection before or after the handler ran, hang, or cut
 * the answer in half.
 */
import type http from 'node:http'
import { handleAdmin } from './admin.js'
import type { Emulator, RequestLogEntry } from './emulator.js'
import type { FaultKind } from './faults.js'
import { isLoopbackHost, misdirected } from './host-guard.js'
import { codedError, expectsContinue, payloadTooLarge, readBody } from './http-util.js'
import type { HandlerResult } from './http-util.js'
import { faultResult, write } from './respond.js'
import { handleApi, matchRoute } from './routes/index.js'
import type { RouteMatch } from './routes/index.js'
import type { EmulatorState } from './emulator-state.js'
import { DEV_KEYS } from './workspaces.js'

export interface RequestContext {
  state: EmulatorState
  /** The port the server listens on (requests come only once it does). */
  port(): number
  /** The handle the admin routes drive. */
  emulator(): Emulator
}

/** A request on its way: what the log and every answer need. */
interface Exchange {
  req: http.IncomingMessage
  res: http.ServerResponse
  method: string
  url: URL
  entry: RequestLogEntry
}

interface RequestBody {
  raw: string
  contentType: string | undefined
}

/** The dev key of an Authorization header, for the log (null for anything else: never a target credential). */
function keyOf(auth: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)/i.exec(auth ?? '')
  return m && (Object.values(DEV_KEYS) as string[]).includes(m[1]) ? m[1] : null
}

function authorizationOf(req: http.IncomingMessage): string | undefined {
  return typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined
}

/** Starts the exchange and its request log entry. */
function openExchange(state: EmulatorState, req: http.IncomingMessage, res: http.ServerResponse): Exchange {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const method = req.method ?? 'GET'
  const entry: RequestLogEntry = {
    at: Date.now(),
    method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ''),
    endpoint: 'unknown',
    status: 0,
    fault: null,
    key: keyOf(authorizationOf(req))
  }
  state.requestLog.push(entry)
  return { req, res, method, url, entry }
}

function finish(state: EmulatorState, x: Exchange, result: HandlerResult, cut = false): void {
  x.entry.status = x.res.destroyed ? 'reset' : result.status
  write(x.res, result, cut)
  state.log(`${x.method} ${x.url.pathname}${x.url.search} -> ${x.entry.status}${x.entry.fault ? ` [fault ${x.entry.fault}]` : ''}`)
}

/** Drops the connection without an answer. */
function reset(state: EmulatorState, x: Exchange, why: string): void {
  x.entry.status = 'reset'
  state.log(`${x.method} ${x.url.pathname} -> reset [${why}]`)
  x.req.socket.destroy()
}

/** The body, or null once the request has been answered (413) or its connection dropped. */
async function readRequestBody(state: EmulatorState, x: Exchange): Promise<RequestBody | null> {
  let read: Awaited<ReturnType<typeof readBody>>
  try {
    read = await readBody(x.req)
  } catch {
    x.entry.status = 'reset'
    x.req.socket.destroy()
    return null
  }
  if (!read.ok) {
    finish(state, x, payloadTooLarge(read.awaitingContinue))
    return null
  }
  const contentType = typeof x.req.headers['content-type'] === 'string' ? x.req.headers['content-type'] : undefined
  return { raw: read.text, contentType }
}

function isAdminPath(pathname: string): boolean {
  return pathname.startsWith('/__emulator/') || pathname === '/__emulator'
}

function noEndpoint(x: Exchange, match: Exclude<RouteMatch, { kind: 'endpoint' }>): HandlerResult {
  if (match.kind === 'none') return codedError(404, 'not_found', `no endpoint ${x.method} ${x.url.pathname}`).result
  return codedError(405, 'method_not_allowed', `${x.method} is not allowed here`, {}, { allow: match.allowed.join(', ') }).result
}

/** control.raceProfile: after a successful read of a raced profile, another writer moves its version on. */
function raceProfileRead(state: EmulatorState, match: Extract<RouteMatch, { kind: 'endpoint' }>, result: HandlerResult): void {
  // The route names its parameters, but a read by name may still miss.
  const params: Partial<Record<string, string>> = match.params
  const modelId = params.model_id
  if (match.endpoint !== 'getProfile' || result.status !== 200 || modelId === undefined) return
  const left = state.profileRaces.get(modelId) ?? 0
  const p = state.store.profiles.get(modelId)
  if (left > 0 && p) {
    state.profileRaces.set(modelId, left - 1)
    p.version++
  }
}

/** Sends the handler's answer, unless the fault drops it, holds it back or cuts it. */
async function deliver(state: EmulatorState, x: Exchange, result: HandlerResult, fault: FaultKind | null): Promise<void> {
  if (fault === 'reset_after') {
    reset(state, x, `fault reset_after, handler answered ${result.status}`)
    return
  }
  if (fault === 'hang') {
    await state.scheduler.sleep(state.injector?.hangMs ?? 30_000)
    if (x.res.destroyed || x.req.socket.destroyed) {
      x.entry.status = 'reset'
      return
    }
  }
  finish(state, x, result, fault === 'truncated')
}

async function answerApi(state: EmulatorState, x: Exchange, body: RequestBody): Promise<void> {
  const match = matchRoute(x.method, x.url.pathname.replace(/\/+$/, '') || '/')
  if (match.kind !== 'endpoint') {
    finish(state, x, noEndpoint(x, match))
    return
  }
  x.entry.endpoint = match.endpoint
  const inj = state.injector
  const fault = inj ? inj.next(match.endpoint) : null
  x.entry.fault = fault
  if (fault === 'reset_before') {
    reset(state, x, 'fault reset_before')
    return
  }
  const injected = inj && fault ? faultResult(fault, inj.retryAfterSeconds) : null
  if (injected) {
    finish(state, x, injected)
    return
  }
  const result = await handleApi(state.api, {
    method: x.method,
    endpoint: match.endpoint,
    params: match.params,
    query: x.url.searchParams,
    rawBody: body.raw,
    contentType: body.contentType,
    authorization: authorizationOf(x.req)
  })
  raceProfileRead(state, match, result)
  await deliver(state, x, result, fault)
}

export async function handleRequest(rc: RequestContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { state } = rc
  const x = openExchange(state, req, res)
  if (!isLoopbackHost(req.headers.host, rc.port())) {
    finish(state, x, misdirected(req.headers.host, rc.port(), expectsContinue(req)))
    return
  }
  const body = await readRequestBody(state, x)
  if (!body) return
  if (isAdminPath(x.url.pathname)) {
    x.entry.endpoint = 'admin'
    finish(state, x, handleAdmin(rc.emulator(), x.method, x.url.pathname, x.url.searchParams, body.raw, body.contentType))
    return
  }
  await answerApi(state, x, body)
}
