/**
 * What every route handler gets (the emulator's state, the calling workspace,
 * the request) and the checks they share: scope, an empty query, and the
 * lookups that answer 404 for an id of another workspace.
 */
import { z } from 'zod'
import { SEVERITIES } from '../../service/contract/index.js'
import type { EndpointName } from '../../service/contract/index.js'
import { HttpError, codedError, notFound, parseRequest, queryObject, retryAfterSeconds } from '../http-util.js'
import type { HandlerResult } from '../http-util.js'
import type { Limits } from '../workspace-limits.js'
import type { RunEngine, Scheduler } from '../run-engine.js'
import type { Resolver } from '../ssrf.js'
import type { ModelRecord, RunRecord, Store } from '../store.js'
import type { TargetClient } from '../target-calls.js'
import type { WorkspaceName, WorkspacePlan } from '../workspaces.js'

export interface ApiContext {
  store: Store
  limits: Limits
  engine: RunEngine
  scheduler: Scheduler
  allowLoopbackTargets: boolean
  validationQuickMs: () => number
  allowanceExhausted: Set<WorkspaceName>
  targetFor(model: ModelRecord): TargetClient
  resolver?: Resolver
}

export interface ApiRequest {
  method: string
  endpoint: EndpointName
  params: Record<string, string>
  query: URLSearchParams
  rawBody: string
  contentType: string | undefined
  authorization: string | undefined
}

/** A handler may answer at once or after I/O (a probe, a replay); a throw, sync or async, is the error response. */
export type Handler = (ctx: ApiContext, ws: WorkspacePlan, req: ApiRequest) => HandlerResult | Promise<HandlerResult>

/** The handlers of one resource, by endpoint name. */
export type RouteTable<K extends EndpointName> = Record<K, Handler>

export function requireScope(ws: WorkspacePlan, scope: string): void {
  if (!ws.scopes.has(scope)) throw codedError(403, 'insufficient_scope', `this key lacks the scope ${scope}`)
}

/** A strict empty object for endpoints without query parameters. */
const zEmptyQuery = z.strictObject({})

export function noQuery(q: URLSearchParams): void {
  parseRequest(zEmptyQuery, 'query', queryObject(q))
}

export function badSeverity(v: unknown): boolean {
  return typeof v === 'string' && !(SEVERITIES as readonly string[]).includes(v)
}

export function runOf(ctx: ApiContext, ws: WorkspacePlan, id: string): RunRecord {
  const r = ctx.store.run(ws.name, id)
  if (!r) throw notFound(`run '${id}'`)
  return r
}

export function modelOf(ctx: ApiContext, ws: WorkspacePlan, id: string): ModelRecord {
  const m = ctx.store.model(ws.name, id)
  if (!m) throw notFound(`model '${id}'`)
  return m
}

export function tooMany(
  code: 'rate_limited' | 'daily_budget_exhausted' | 'replay_cap_exceeded',
  message: string,
  retryAfterMs: number
): HttpError {
  const seconds = retryAfterSeconds(retryAfterMs)
  return codedError(429, code, message, { retry_after_seconds: Number(seconds) }, { 'retry-after': seconds })
}
