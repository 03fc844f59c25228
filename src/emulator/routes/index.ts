/**
 * The 14 endpoints of section 4, one file per resource, composed here. Every
 * request body and query is parsed with the contract's request schemas
 * (strict: unknown fields are 422), and every response is checked against the
 * contract's response schema before it is returned (see http-util `ok`).
 *
 * Order of checks: 401 key -> 403 scope -> 422 request shape (400 for the
 * named bad query values) -> 404 -> endpoint rules.
 */
import { ENDPOINTS } from '../../service/contract/index.js'
import type { EndpointName } from '../../service/contract/index.js'
import { HttpError, codedError } from '../http-util.js'
import type { HandlerResult } from '../http-util.js'
import { workspaceForAuthorization } from '../workspaces.js'
import { categoryRoutes } from './categories.js'
import type { ApiContext, ApiRequest, Handler } from './route-context.js'
import { findingRoutes } from './findings.js'
import { modelRoutes } from './models.js'
import { profileRoutes } from './profiles.js'
import { runRoutes } from './runs.js'

export type { ApiContext, ApiRequest } from './route-context.js'

/** Every endpoint of the contract has exactly one handler (the type says so). */
const handlers: Record<EndpointName, Handler> = { ...runRoutes, ...modelRoutes, ...findingRoutes, ...categoryRoutes, ...profileRoutes }

const ROUTES = Object.entries(ENDPOINTS).map(([name, e]) => {
  const names: string[] = []
  const source = e.path.replace(/\{(\w+)\}/g, (_m, n: string) => {
    names.push(n)
    return '([^/]+)'
  })
  return { name: name as EndpointName, method: e.method, re: new RegExp(`^${source}/?$`), names }
})

export type RouteMatch =
  | { kind: 'endpoint'; endpoint: EndpointName; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'none' }

export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = []
  for (const r of ROUTES) {
    const m = r.re.exec(path)
    if (!m) continue
    if (r.method !== method) {
      allowed.push(r.method)
      continue
    }
    const params: Record<string, string> = {}
    r.names.forEach((n, i) => {
      let v = m[i + 1]
      try {
        v = decodeURIComponent(v)
      } catch {
        /* keep raw */
      }
      params[n] = v
    })
    return { kind: 'endpoint', endpoint: r.name, params }
  }
  return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'none' }
}

/** Runs one API request: 401 for a missing or unknown key, then the endpoint's handler. */
export async function handleApi(ctx: ApiContext, req: ApiRequest): Promise<HandlerResult> {
  try {
    const ws = workspaceForAuthorization(req.authorization)
    if (!ws) throw codedError(401, 'unauthorized', 'missing or invalid API key (send Authorization: Bearer <key>)')
    return await handlers[req.endpoint](ctx, ws, req)
  } catch (e) {
    if (e instanceof HttpError) return e.result
    return { status: 500, body: { detail: { code: 'internal_error', message: `emulator error: ${(e as Error).message}` } } }
  }
}
