/**
 * The emulator of the Agent Security Assessment Service: a real HTTP server on
 * 127.0.0.1 implementing every endpoint of the API description over an
 * in-memory store, with a demo agent to assess, admin controls and a seeded
 * fault mode.
 *
 * Why node:http and no framework: zero dependencies, and full control over the
 * socket, which the fault mode needs (reset a connection before or after the
 * handler ran, hang, send half a body). Route handlers return
 * {status, headers, body}; this module writes it, or cuts it, as the fault
 * mode says.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { handleAdmin } from './admin.js'
import { startDemoAgent } from './demo-agent.js'
import { FaultInjector } from './faults.js'
import type { FaultKind } from './faults.js'
import { MAX_BODY_BYTES, codedError, payloadTooLarge, readBody } from './http-util.js'
import type { HandlerResult } from './http-util.js'
import { Limits } from './limits.js'
import { demoProfile } from './profiles.js'
import { handleApi, matchRoute } from './routes/index.js'
import type { ApiContext } from './routes/index.js'
import { RunEngine, Scheduler } from './run-engine.js'
import { Store } from './store.js'
import { newId } from './ids.js'
import type { ModelRecord } from './store.js'
import { TargetClient } from './target.js'
import { DEV_KEYS, WORKSPACE_NAMES } from './workspaces.js'
import type { WorkspaceName } from './workspaces.js'
import { randomBytes } from 'node:crypto'

export type { FaultConfig, FaultKind } from './faults.js'

export type { Emulator, EmulatorOptions, RequestLogEntry } from './emulator.js'
import type { Emulator, EmulatorOptions, RequestLogEntry } from './emulator.js'

const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n'
const HTML_200 =
  '<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1><p>Captive portal.</p></body></html>\n'

function serialise(result: HandlerResult): { body: string; type: string } {
  if (result.contentType) return { body: String(result.body), type: result.contentType }
  return { body: JSON.stringify(result.body), type: 'application/json' }
}

function write(res: http.ServerResponse, result: HandlerResult, cut = false): void {
  if (res.destroyed || res.writableEnded) return
  const { body, type } = serialise(result)
  const payload = cut ? body.slice(0, Math.floor(body.length / 2)) : body
  res.writeHead(result.status, { ...(result.headers ?? {}), 'content-type': type, 'content-length': String(Buffer.byteLength(payload)) })
  res.end(payload)
}

function faultResult(kind: FaultKind, retryAfter: number): HandlerResult | null {
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

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const log = opts.log ?? (() => undefined)
  const store = new Store()
  const limits = new Limits(opts.limits ?? {})
  const scheduler = new Scheduler()
  const requestLog: RequestLogEntry[] = []
  const allowanceExhausted = new Set<WorkspaceName>()
  const allowLoopbackTargets = opts.allowLoopbackTargets ?? false
  let categoryDurationMs = opts.categoryDurationMs ?? 2000
  let injector: FaultInjector | null = opts.faults ? new FaultInjector(opts.faults) : null
  /** By model_id: reads of its profile after which another writer moves the version on (control.raceProfile). */
  const profileRaces = new Map<string, number>()

  const demoAgent = await startDemoAgent({
    log: (method, path, status) => {
      requestLog.push({ at: Date.now(), method, path, query: '', endpoint: 'demo-agent', status, fault: null, key: null })
    }
  })

  const targetFor = (model: ModelRecord): TargetClient => {
    if (model.target) return model.target
    // callers check the config first (a run or a replay of a model without one is refused)
    if (!model.config) throw new Error(`model '${model.model_id}' has no agent config to send to`)
    model.target = new TargetClient(
      { config: model.config, auth_type: model.auth_type, credential: model.credential, oauth: model.oauth },
      model.trustedLoopback || allowLoopbackTargets
    )
    return model.target
  }
  const engine = new RunEngine(store, scheduler, {
    categoryDurationMs: () => categoryDurationMs,
    attacksPerCategory: opts.attacksPerCategory ?? 3,
    targetFor
  })
  const ctx: ApiContext = {
    store,
    limits,
    engine,
    scheduler,
    allowLoopbackTargets,
    validationQuickMs: () => opts.validationQuickMs ?? 1500,
    allowanceExhausted,
    targetFor,
    resolver: opts.resolver
  }

  // Seed: one demo model per workspace (its own credential), plus a model without agent config.
  const demoModels = {} as Record<WorkspaceName, string>
  for (const ws of WORKSPACE_NAMES) {
    const credential = `demo-target-secret-${ws}-${randomBytes(8).toString('hex')}`
    demoAgent.acceptSecret(credential)
    store.credentials.add(credential)
    const model: ModelRecord = {
      model_id: newId('mdl'),
      workspace: ws,
      name: 'Acme Support demo agent',
      model_type: 'agent',
      environment: 'staging',
      config: { endpoint_url: demoAgent.chatUrl, response_field: 'output.text', transport: 'http', request_timeout: 10 },
      auth_type: 'bearer',
      credential,
      oauth: null,
      created_at: new Date().toISOString(),
      trustedLoopback: true,
      ingestIncomplete: false,
      target: null
    }
    store.models.set(model.model_id, model)
    store.profiles.set(model.model_id, demoProfile(model.model_id, model.name))
    demoModels[ws] = model.model_id
  }
  const noConfig: ModelRecord = {
    model_id: newId('mdl'),
    workspace: 'full',
    name: 'Legacy FAQ bot (no agent config)',
    model_type: 'agent',
    environment: 'prod',
    config: null,
    auth_type: 'none',
    credential: null,
    oauth: null,
    created_at: new Date().toISOString(),
    trustedLoopback: false,
    ingestIncomplete: false,
    target: null
  }
  store.models.set(noConfig.model_id, noConfig)

  const sockets = new Set<Socket>()
  const keyOf = (auth: string | undefined): string | null => {
    const m = /^Bearer\s+(\S+)/i.exec(auth ?? '')
    return m && (Object.values(DEV_KEYS) as string[]).includes(m[1]) ? m[1] : null
  }

  async function onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const method = req.method ?? 'GET'
    const auth = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined
    const entry: RequestLogEntry = {
      at: Date.now(),
      method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      endpoint: 'unknown',
      status: 0,
      fault: null,
      key: keyOf(auth)
    }
    requestLog.push(entry)
    const finish = (result: HandlerResult, cut = false): void => {
      entry.status = res.destroyed ? 'reset' : result.status
      write(res, result, cut)
      log(`${method} ${url.pathname}${url.search} -> ${entry.status}${entry.fault ? ` [fault ${entry.fault}]` : ''}`)
    }
    let read: Awaited<ReturnType<typeof readBody>>
    try {
      read = await readBody(req)
    } catch {
      entry.status = 'reset'
      req.socket.destroy()
      return
    }
    if (!read.ok) {
      finish(payloadTooLarge(read.awaitingContinue))
      return
    }
    const raw = read.text
    const contentType = typeof req.headers['content-type'] === 'string' ? req.headers['content-type'] : undefined

    if (url.pathname.startsWith('/__emulator/') || url.pathname === '/__emulator') {
      entry.endpoint = 'admin'
      finish(handleAdmin(emu, method, url.pathname, url.searchParams, raw, contentType))
      return
    }
    const match = matchRoute(method, url.pathname.replace(/\/+$/, '') || '/')
    if (match.kind === 'none') {
      finish(codedError(404, 'not_found', `no endpoint ${method} ${url.pathname}`).result)
      return
    }
    if (match.kind === 'method_not_allowed') {
      finish(codedError(405, 'method_not_allowed', `${method} is not allowed here`, {}, { allow: match.allowed.join(', ') }).result)
      return
    }
    entry.endpoint = match.endpoint
    const inj = injector
    const fault = inj ? inj.next(match.endpoint) : null
    entry.fault = fault
    if (fault === 'reset_before') {
      entry.status = 'reset'
      log(`${method} ${url.pathname} -> reset [fault reset_before]`)
      req.socket.destroy()
      return
    }
    const injected = inj && fault ? faultResult(fault, inj.retryAfterSeconds) : null
    if (injected) {
      finish(injected)
      return
    }
    const result = await handleApi(ctx, {
      method,
      endpoint: match.endpoint,
      params: match.params,
      query: url.searchParams,
      rawBody: raw,
      contentType,
      authorization: auth
    })
    // The route names its parameters, but a read by name may still miss.
    const params: Partial<Record<string, string>> = match.params
    const modelId = params.model_id
    if (match.endpoint === 'getProfile' && result.status === 200 && modelId !== undefined) {
      const left = profileRaces.get(modelId) ?? 0
      const p = store.profiles.get(modelId)
      if (left > 0 && p) {
        profileRaces.set(modelId, left - 1)
        p.version++
      }
    }
    if (fault === 'reset_after') {
      entry.status = 'reset'
      log(`${method} ${url.pathname} -> reset [fault reset_after, handler answered ${result.status}]`)
      req.socket.destroy()
      return
    }
    if (fault === 'hang') {
      await scheduler.sleep(injector?.hangMs ?? 30_000)
      if (res.destroyed || req.socket.destroyed) {
        entry.status = 'reset'
        return
      }
    }
    finish(result, fault === 'truncated')
  }

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    onRequest(req, res).catch((e: unknown) => {
      log(`emulator error: ${(e as Error).stack ?? String(e)}`)
      if (!res.headersSent) write(res, { status: 500, body: { detail: { code: 'internal_error', message: 'emulator error' } } })
      else res.destroy()
    })
  }
  const server = http.createServer(handle)
  // Expect: 100-continue: a body declared over the limit is refused before it is sent.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!(Number(req.headers['content-length']) > MAX_BODY_BYTES)) res.writeContinue()
    handle(req, res)
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  let stopping: Promise<void> | null = null

  const emu: Emulator = {
    url: `http://127.0.0.1:${port}`,
    keys: DEV_KEYS,
    demoModelId: demoModels.full,
    demoModels,
    noConfigModelId: noConfig.model_id,
    demoAgent: {
      url: demoAgent.url,
      setVulnerable: (c, on) => {
        demoAgent.setVulnerable(c, on)
      },
      setAllVulnerable: (on) => {
        demoAgent.setAllVulnerable(on)
      },
      setAvailable: (up) => {
        demoAgent.setAvailable(up)
      },
      setReplyDelayMs: (ms) => {
        demoAgent.setReplyDelayMs(ms)
      },
      credentialsSeen: () => demoAgent.credentialsSeen()
    },
    demoAgentState: () => demoAgent.state(),
    control: {
      exhaustAllowance(workspace, on = true) {
        if (on) allowanceExhausted.add(workspace)
        else allowanceExhausted.delete(workspace)
      },
      setIngestIncomplete(modelId, on) {
        const m = store.models.get(modelId)
        if (m) m.ingestIncomplete = on
      },
      setLimits(l) {
        limits.set(l ?? {})
      },
      setFaults(f) {
        injector = f ? new FaultInjector(f) : null
      },
      setCategoryDurationMs(ms) {
        categoryDurationMs = Math.max(0, ms)
      },
      runs: () =>
        [...store.runs.values()]
          .sort((a, b) => a.seq - b.seq)
          .map((r) => ({ run_id: r.run_id, model_id: r.model_id, status: r.status, started_at: r.started_at, workspace: r.workspace })),
      registeredCredentials: () => [...store.credentials],
      deleteProfile(modelId) {
        store.profiles.delete(modelId)
      },
      raceProfile(modelId, reads) {
        profileRaces.set(modelId, Math.max(0, reads))
      },
      snapshot: () => store.snapshot()
    },
    requestLog,
    stop() {
      stopping ??= (async () => {
        scheduler.stop()
        for (const s of sockets) s.destroy()
        await Promise.all([
          new Promise<void>((resolve) =>
            server.close(() => {
              resolve()
            })
          ),
          demoAgent.stop()
        ])
      })()
      return stopping
    }
  }
  return emu
}
