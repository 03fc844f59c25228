/**
 * The 14 endpoints of section 4 over the in-memory store. Every request body
 * and query is parsed with the contract's request schemas (strict: unknown
 * fields are 422), and every response is checked against the contract's
 * response schema before it is returned (see http-util `ok`).
 *
 * Order of checks: 401 key -> 403 scope -> 422 request shape (400 for the
 * named bad query values) -> 404 -> endpoint rules.
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import {
  CancelRunAccepted,
  CategoryList,
  ChangeProfileBody,
  CloseFindingBody,
  ConfirmProfileBody,
  CoverageResponse,
  ENDPOINTS,
  Finding,
  FindingList,
  FINDING_STATUS_FILTERS,
  GetRunQuery,
  ListCategoriesQuery,
  ListFindingsQuery,
  ListRunsQuery,
  ModelList,
  ProbeFailureBody,
  ProfileResponse,
  ProfileWriteResponse,
  RegisterModelBody,
  RegisterModelResponse,
  RunList,
  RunStatusResponse,
  RUN_STATUS_FILTERS,
  SCOPE_TEST_RUN,
  SEVERITIES,
  TriggerRunBody,
  TriggerRunResponse,
  ValidateFindingResponse,
  atOrAbove,
  isTerminal
} from '../service/contract/index.js'
import type { EndpointName, Severity } from '../service/contract/index.js'
import { findingView, replayFinding } from './findings.js'
import {
  HttpError,
  codedError,
  isoNow,
  jsonBody,
  noBody,
  notFound,
  ok,
  parseRequest,
  queryObject,
  retryAfterSeconds,
  validationError
} from './http-util.js'
import type { HandlerResult } from './http-util.js'
import type { Limits } from './limits.js'
import { firstOfNextMonth } from './limits.js'
import {
  applyChanges,
  applyConfirm,
  checkChangeVersion,
  checkVersion,
  confirmIssues,
  emptyProfile,
  fencedValues,
  renderProfile
} from './profiles.js'
import type { RunEngine, Scheduler } from './run-engine.js'
import { checkEndpointUrl } from './ssrf.js'
import type { Resolver } from './ssrf.js'
import { newId } from './store.js'
import type { ModelRecord, RunRecord, Store } from './store.js'
import { categoriesOfLens, SECURITY_KEYS } from './taxonomy.js'
import { TargetClient } from './target.js'
import type { WorkspaceName, WorkspacePlan } from './workspaces.js'
import { workspaceForAuthorization } from './workspaces.js'

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

// ---------------------------------------------------------------------------
// Routing
// ---------------------------------------------------------------------------

const ROUTES = Object.entries(ENDPOINTS).map(([name, e]) => {
  const names: string[] = []
  const source = e.path.replace(/\{(\w+)\}/g, (_m, n: string) => {
    names.push(n)
    return '([^/]+)'
  })
  return { name: name as EndpointName, method: e.method as string, re: new RegExp(`^${source}/?$`), names }
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
      let v = m[i + 1]!
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

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

function requireScope(ws: WorkspacePlan, scope: string): void {
  if (!ws.scopes.has(scope)) throw codedError(403, 'insufficient_scope', `this key lacks the scope ${scope}`)
}

function noQuery(q: URLSearchParams): void {
  parseRequest(zEmptyQuery, 'query', queryObject(q))
}

/** A strict empty object for endpoints without query parameters. */
const zEmptyQuery = z.strictObject({})

function badSeverity(v: unknown): boolean {
  return typeof v === 'string' && !(SEVERITIES as readonly string[]).includes(v)
}

function runOf(ctx: ApiContext, ws: WorkspacePlan, id: string): RunRecord {
  const r = ctx.store.run(ws.name, id)
  if (!r) throw notFound(`run '${id}'`)
  return r
}

function modelOf(ctx: ApiContext, ws: WorkspacePlan, id: string): ModelRecord {
  const m = ctx.store.model(ws.name, id)
  if (!m) throw notFound(`model '${id}'`)
  return m
}

function verdictOf(ctx: ApiContext, run: RunRecord, min: Severity): 'pass' | 'fail' {
  const failing = ctx.store.findingsOfRun(run).some((f) => f.status === 'open' && atOrAbove(f.severity, min))
  return failing ? 'fail' : 'pass'
}

function tooMany(code: 'rate_limited' | 'daily_budget_exhausted' | 'replay_cap_exceeded', message: string, retryAfterMs: number): HttpError {
  const seconds = retryAfterSeconds(retryAfterMs)
  return codedError(429, code, message, { retry_after_seconds: Number(seconds) }, { 'retry-after': seconds })
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

type Handler = (ctx: ApiContext, ws: WorkspacePlan, req: ApiRequest) => Promise<HandlerResult>

const handlers: Record<EndpointName, Handler> = {
  async triggerRun(ctx, ws, req) {
    requireScope(ws, SCOPE_TEST_RUN)
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(TriggerRunBody, 'body', input)
    const model = modelOf(ctx, ws, body.model_id)
    if (body.categories !== undefined && ws.trial) {
      throw codedError(403, 'trial_focus_not_included', 'an evaluation workspace runs full assessments only; leave categories out')
    }
    let planned = [...SECURITY_KEYS]
    if (body.categories !== undefined) {
      if (body.categories.length === 0) {
        throw validationError([
          { loc: ['body', 'categories'], msg: 'categories must not be empty (leave it out for the full taxonomy)', type: 'too_short', input: [], ctx: { min_length: 1 } }
        ])
      }
      const invalid = [...new Set(body.categories.filter((k) => !SECURITY_KEYS.includes(k)))]
      if (invalid.length > 0) {
        throw codedError(400, 'invalid_categories', `unknown or non-security category keys: ${invalid.join(', ')}`, { invalid })
      }
      planned = SECURITY_KEYS.filter((k) => body.categories!.includes(k))
    }
    if (!model.config) throw codedError(400, 'incomplete_config', `model '${model.model_id}' has no complete agent config`)
    const now = Date.now()
    if (ctx.allowanceExhausted.has(ws.name)) {
      throw codedError(403, 'allowance_exhausted', 'the monthly assessment allowance of this workspace is spent', {
        resets_on: firstOfNextMonth(now)
      })
    }
    if (ws.trial && (ctx.limits.evaluationRuns.get(ws.name) ?? 0) >= ctx.limits.values.evaluationCeiling) {
      throw codedError(403, 'evaluation_ceiling', 'the evaluation ceiling of this workspace is reached; the operator can lift it')
    }
    const active = ctx.store.activeRun(model.model_id)
    if (active) throw codedError(409, 'run_active', `run '${active.run_id}' is already active for this model`, { run_id: active.run_id })
    const refusal = ctx.limits.checkTrigger(ws.name, now)
    if (refusal) throw tooMany(refusal.code, refusal.message, refusal.retryAfterMs)
    const run: RunRecord = {
      run_id: newId('run'),
      model_id: model.model_id,
      workspace: ws.name,
      status: 'running',
      started_at: isoNow(now),
      completed_at: null,
      categories_planned: planned,
      categories_completed: [],
      coverage: [],
      finding_ids: [],
      cancelRequested: false,
      error_message: null,
      seq: ctx.store.nextSeq()
    }
    ctx.store.runs.set(run.run_id, run)
    ctx.limits.countTrigger(ws.name, now)
    if (ws.trial) ctx.limits.evaluationRuns.set(ws.name, (ctx.limits.evaluationRuns.get(ws.name) ?? 0) + 1)
    ctx.engine.start(run, model)
    return ok(202, TriggerRunResponse, { run_id: run.run_id, model_id: run.model_id, status: run.status, started_at: run.started_at })
  },

  async getRun(ctx, ws, req) {
    const q = queryObject(req.query)
    if (badSeverity(q.min_severity)) throw codedError(400, 'invalid_min_severity', `min_severity must be one of ${SEVERITIES.join(', ')}`)
    const query = parseRequest(GetRunQuery, 'query', q)
    const run = runOf(ctx, ws, req.params.run_id!)
    const verdict = query.min_severity && isTerminal(run.status) ? verdictOf(ctx, run, query.min_severity) : null
    return ok(200, RunStatusResponse, {
      run_id: run.run_id,
      model_id: run.model_id,
      status: run.status,
      started_at: run.started_at,
      completed_at: run.completed_at,
      categories_planned: [...run.categories_planned],
      categories_completed: [...run.categories_completed],
      verdict,
      min_severity: query.min_severity ?? null,
      error_message: run.error_message
    })
  },

  async getCoverage(ctx, ws, req) {
    noQuery(req.query)
    const run = runOf(ctx, ws, req.params.run_id!)
    if (run.status === 'running') throw codedError(409, 'run_in_progress', 'the run is still in progress; coverage is available once it ends')
    return ok(200, CoverageResponse, { run_id: run.run_id, run_status: run.status, categories: run.coverage.map((r) => ({ ...r })) })
  },

  async cancelRun(ctx, ws, req) {
    requireScope(ws, SCOPE_TEST_RUN)
    noQuery(req.query)
    noBody(req.rawBody, req.contentType)
    const run = runOf(ctx, ws, req.params.run_id!)
    if (run.status !== 'running') throw codedError(409, 'run_not_running', `the run is ${run.status}, not running`, { status: run.status })
    run.cancelRequested = true
    return ok(202, CancelRunAccepted, { run_id: run.run_id, status: 'running', cancel_requested: true })
  },

  async listRuns(ctx, ws, req) {
    const q = queryObject(req.query)
    if (typeof q.status === 'string' && !(RUN_STATUS_FILTERS as readonly string[]).includes(q.status)) {
      throw codedError(400, 'invalid_status', `status must be one of ${RUN_STATUS_FILTERS.join(', ')}`)
    }
    const query = parseRequest(ListRunsQuery, 'query', q)
    const model = modelOf(ctx, ws, req.params.model_id!)
    const all = ctx.store.runsOfModel(model.model_id).filter((r) => !query.status || r.status === query.status)
    const runs = all.slice(0, query.limit).map((r) => ({
      run_id: r.run_id,
      model_id: r.model_id,
      status: r.status,
      started_at: r.started_at,
      findings_count: r.finding_ids.length,
      ingest_incomplete: model.ingestIncomplete,
      categories_planned: [...r.categories_planned],
      completed_at: r.completed_at
    }))
    return ok(200, RunList, { runs, total: all.length, returned: runs.length })
  },

  async listModels(ctx, ws, req) {
    noQuery(req.query)
    const models = ctx.store.modelsOf(ws.name).map((m) => {
      let host = ''
      try {
        host = m.config ? new URL(m.config.endpoint_url).host : ''
      } catch {
        host = ''
      }
      return {
        model_id: m.model_id,
        name: m.name,
        model_type: m.model_type,
        environment: m.environment,
        has_agent_config: m.config !== null,
        latest_run_status: ctx.store.runsOfModel(m.model_id)[0]?.status ?? null,
        endpoint_host: host
      }
    })
    return ok(200, ModelList, { models })
  },

  async registerModel(ctx, ws, req) {
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(RegisterModelBody, 'body', input)
    for (const [field, url] of [
      ['config.endpoint_url', body.config.endpoint_url],
      ['oauth.token_url', body.oauth?.token_url]
    ] as const) {
      if (url === undefined) continue
      const check = await checkEndpointUrl(url, ctx.allowLoopbackTargets, ctx.resolver)
      if (!check.ok) throw codedError(400, 'endpoint_rejected', `${field} rejected: ${check.reason}`, { field })
    }
    const spec = { config: body.config, auth_type: body.auth_type, credential: body.credential ?? null, oauth: body.oauth ?? null }
    const target = new TargetClient(spec, ctx.allowLoopbackTargets)
    const probe = await target.send('Hello, this is a connectivity check from the assessment service.', `probe_${randomBytes(6).toString('hex')}`)
    if (!probe.ok) {
      const failure = { detail: { error: 'probe_failed' as const, error_category: probe.category, message: `probe failed: ${probe.message}` } }
      ProbeFailureBody.parse(failure)
      throw new HttpError({ status: 422, body: failure })
    }
    const model: ModelRecord = {
      model_id: newId('mdl'),
      workspace: ws.name,
      name: body.name,
      model_type: 'agent',
      environment: body.environment,
      config: body.config,
      auth_type: body.auth_type,
      credential: body.credential ?? null,
      oauth: body.oauth ?? null,
      created_at: isoNow(),
      trustedLoopback: false,
      ingestIncomplete: false,
      target
    }
    ctx.store.models.set(model.model_id, model)
    if (model.credential) ctx.store.credentials.add(model.credential)
    return ok(201, RegisterModelResponse, { model_id: model.model_id, connected: true })
  },

  async listFindings(ctx, ws, req) {
    const q = queryObject(req.query)
    if (badSeverity(q.min_severity)) throw codedError(400, 'invalid_min_severity', `min_severity must be one of ${SEVERITIES.join(', ')}`)
    if (typeof q.status === 'string' && !(FINDING_STATUS_FILTERS as readonly string[]).includes(q.status)) {
      throw codedError(400, 'invalid_status', `status must be one of ${FINDING_STATUS_FILTERS.join(', ')}`)
    }
    const query = parseRequest(ListFindingsQuery, 'query', q)
    const run = runOf(ctx, ws, req.params.run_id!)
    if (run.status === 'running') throw codedError(409, 'run_in_progress', 'the run is still in progress; findings are available once it ends')
    const findings = ctx.store
      .findingsOfRun(run)
      .filter((f) => !query.min_severity || atOrAbove(f.severity, query.min_severity))
      .filter((f) => !query.status || f.status === query.status || (query.status === 'fixed' && f.status === 'FIXED_VERIFIED'))
      .map((f) => findingView(f, ws.proofWithheld))
    return ok(200, FindingList, { findings, count: findings.length })
  },

  async closeFinding(ctx, ws, req) {
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(CloseFindingBody, 'body', input)
    const f = ctx.store.finding(ws.name, req.params.finding_id!)
    if (!f) throw notFound(`finding '${req.params.finding_id}'`)
    if (ws.proofWithheld) throw codedError(403, 'proof_withheld', 'the plan of this workspace withholds the proof of findings')
    if (body.status === 'fixed') {
      f.status = 'fixed'
      f.fix_description = body.explanation
    } else {
      f.status = 'dismissed'
      f.dismissal = { reason_code: body.reason_code!, rationale: body.explanation }
      const list = (ctx.store.dismissals.get(f.model_id) ?? []).filter((d) => d.finding_id !== f.finding_id)
      list.push({ finding_id: f.finding_id, category: f.category, reason_code: body.reason_code!, reason_text: body.explanation, created_at: isoNow() })
      ctx.store.dismissals.set(f.model_id, list)
    }
    return ok(200, Finding, findingView(f, false))
  },

  async validateFinding(ctx, ws, req) {
    noQuery(req.query)
    noBody(req.rawBody, req.contentType)
    const f = ctx.store.finding(ws.name, req.params.finding_id!)
    if (!f) throw notFound(`finding '${req.params.finding_id}'`)
    if (ws.proofWithheld) throw codedError(403, 'proof_withheld', 'the plan of this workspace withholds the proof of findings')
    if (f.validating) {
      throw codedError(409, 'validation_in_progress', 'a validation is already running for this finding', { replay_run_id: f.validating })
    }
    if (f.status !== 'fixed') {
      return ok(200, ValidateFindingResponse, { finding_id: f.finding_id, replay_run_id: '', verdict: 'not_eligible', finding: findingView(f, false) })
    }
    const model = ctx.store.models.get(f.model_id)
    if (!model || !model.config) throw codedError(422, 'replay_unwireable', 'the target has no agent config to replay against')
    if (model.config.transport === 'websocket') {
      throw codedError(422, 'replay_unwireable', 'replays are sent over HTTP; this target uses the websocket transport')
    }
    if (f.attacks.some((a) => a.message === '')) throw codedError(422, 'replay_unwireable', 'an attack has no replayable message')
    const now = Date.now()
    const refusal = ctx.limits.checkReplay(ws.name, now)
    if (refusal) throw tooMany(refusal.code, refusal.message, refusal.retryAfterMs)
    const replayId = newId('rpl')
    ctx.limits.startReplay(ws.name, now)
    const record = { replay_run_id: replayId, finding_id: f.finding_id, workspace: ws.name, started_at: isoNow(now), finished: false, verdict: null as 'resolved' | 'still_broken' | null }
    ctx.store.replays.set(replayId, record)
    f.validating = replayId
    const target = ctx.targetFor(model)
    const done = replayFinding(f, target, () => ctx.scheduler.stopped).then(
      (verdict) => {
        record.verdict = verdict
        return verdict
      },
      () => {
        record.verdict = 'still_broken'
        return 'still_broken' as const
      }
    )
    void done.finally(() => {
      record.finished = true
      f.validating = null
      ctx.limits.endReplay(ws.name)
    })
    const quick = await Promise.race([done, ctx.scheduler.sleep(ctx.validationQuickMs()).then(() => null)])
    if (quick === null && !record.finished) {
      return ok(200, ValidateFindingResponse, { finding_id: f.finding_id, replay_run_id: replayId, verdict: 'validating', finding: findingView(f, false) })
    }
    const verdict = await done
    return ok(200, ValidateFindingResponse, { finding_id: f.finding_id, replay_run_id: replayId, verdict, finding: findingView(f, false) })
  },

  async listCategories(_ctx, ws, req) {
    const query = parseRequest(ListCategoriesQuery, 'query', queryObject(req.query))
    if (ws.trial) throw codedError(403, 'taxonomy_not_included', 'the category list is not included in an evaluation workspace')
    const categories = categoriesOfLens(query.lens).map((c) => ({
      key: c.key,
      display_name: c.display_name,
      description: c.description,
      owasp: c.owasp,
      atlas: c.atlas,
      severity: c.severity
    }))
    return ok(200, CategoryList, { categories, lens: query.lens }, { 'cache-control': 'private, max-age=3600' })
  },

  async getProfile(ctx, ws, req) {
    noQuery(req.query)
    const model = modelOf(ctx, ws, req.params.model_id!)
    const p = ctx.store.profiles.get(model.model_id)
    if (!p) throw notFound(`profile of model '${model.model_id}'`)
    return ok(200, ProfileResponse, renderProfile(p, ctx.store.dismissals.get(model.model_id) ?? []) as z.input<typeof ProfileResponse>)
  },

  async changeProfile(ctx, ws, req) {
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(ChangeProfileBody, 'body', input)
    const fenced = fencedValues(body.changes, ['body', 'changes'])
    if (fenced.length > 0) {
      throw validationError(
        fenced.map((x) => ({ loc: x.loc, msg: 'value still holds an untrusted-content fence', type: 'value_error', input: x.value, ctx: {} }))
      )
    }
    const model = modelOf(ctx, ws, req.params.model_id!)
    const current = ctx.store.profiles.get(model.model_id)
    const check = checkChangeVersion(current, body)
    if (check.kind === 'stale') throw codedError(409, 'stale_version', check.message, { current_version: current?.version ?? null })
    let p = current
    if (check.kind === 'create') {
      p = emptyProfile(model.model_id, model.name)
      applyChanges(p, body.changes)
      ctx.store.profiles.set(model.model_id, p)
    } else {
      applyChanges(p!, body.changes)
      p!.version++
    }
    return ok(200, ProfileWriteResponse, { model_id: model.model_id, profile_id: p!.profile_id, version: p!.version })
  },

  async confirmProfile(ctx, ws, req) {
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(ConfirmProfileBody, 'body', input) as Required<z.output<typeof ConfirmProfileBody>>
    const model = modelOf(ctx, ws, req.params.model_id!)
    const current = ctx.store.profiles.get(model.model_id)
    const check = checkVersion(current, body.version, body.profile_id)
    if (check.kind !== 'ok') throw codedError(409, 'stale_version', check.kind === 'stale' ? check.message : 'stale', { current_version: current?.version ?? null })
    const issues = confirmIssues(current!, body)
    if (issues.length > 0) throw validationError(issues)
    applyConfirm(current!, body)
    current!.version++
    return ok(200, ProfileWriteResponse, { model_id: model.model_id, profile_id: current!.profile_id, version: current!.version })
  }
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

