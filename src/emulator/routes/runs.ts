/** Runs (sections 4.1 to 4.5): trigger, status and verdict, coverage, cancel, and the run list of a model. */
import {
  CancelRunAccepted,
  CoverageResponse,
  GetRunQuery,
  ListRunsQuery,
  RunList,
  RunStatusResponse,
  RUN_STATUS_FILTERS,
  SCOPE_TEST_RUN,
  SEVERITIES,
  TriggerRunBody,
  TriggerRunResponse,
  atOrAbove,
  isTerminal
} from '../../service/contract/index.js'
import type { Severity } from '../../service/contract/index.js'
import { codedError, isoNow, jsonBody, noBody, ok, parseRequest, queryObject, validationError } from '../http-util.js'
import { firstOfNextMonth } from '../workspace-limits.js'
import { newId } from '../ids.js'
import type { RunRecord } from '../store.js'
import { SECURITY_KEYS } from '../taxonomy.js'
import { badSeverity, modelOf, noQuery, requireScope, runOf, tooMany } from './route-context.js'
import type { ApiContext, RouteTable } from './route-context.js'

function verdictOf(ctx: ApiContext, run: RunRecord, min: Severity): 'pass' | 'fail' {
  const failing = ctx.store.findingsOfRun(run).some((f) => f.status === 'open' && atOrAbove(f.severity, min))
  return failing ? 'fail' : 'pass'
}

export const runRoutes = {
  triggerRun(ctx, ws, req) {
    requireScope(ws, SCOPE_TEST_RUN)
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(TriggerRunBody, 'body', input)
    const model = modelOf(ctx, ws, body.model_id)
    if (body.categories !== undefined && ws.trial) {
      throw codedError(403, 'trial_focus_not_included', 'an evaluation workspace runs full assessments only; leave categories out')
    }
    let planned = [...SECURITY_KEYS]
    const categories = body.categories
    if (categories !== undefined) {
      if (categories.length === 0) {
        throw validationError([
          {
            loc: ['body', 'categories'],
            msg: 'categories must not be empty (leave it out for the full taxonomy)',
            type: 'too_short',
            input: [],
            ctx: { min_length: 1 }
          }
        ])
      }
      const invalid = [...new Set(categories.filter((k) => !SECURITY_KEYS.includes(k)))]
      if (invalid.length > 0) {
        throw codedError(400, 'invalid_categories', `unknown or non-security category keys: ${invalid.join(', ')}`, { invalid })
      }
      planned = SECURITY_KEYS.filter((k) => categories.includes(k))
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

  getRun(ctx, ws, req) {
    const q = queryObject(req.query)
    if (badSeverity(q.min_severity)) throw codedError(400, 'invalid_min_severity', `min_severity must be one of ${SEVERITIES.join(', ')}`)
    const query = parseRequest(GetRunQuery, 'query', q)
    const run = runOf(ctx, ws, req.params.run_id)
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

  getCoverage(ctx, ws, req) {
    noQuery(req.query)
    const run = runOf(ctx, ws, req.params.run_id)
    if (run.status === 'running')
      throw codedError(409, 'run_in_progress', 'the run is still in progress; coverage is available once it ends')
    return ok(200, CoverageResponse, { run_id: run.run_id, run_status: run.status, categories: run.coverage.map((r) => ({ ...r })) })
  },

  cancelRun(ctx, ws, req) {
    requireScope(ws, SCOPE_TEST_RUN)
    noQuery(req.query)
    noBody(req.rawBody, req.contentType)
    const run = runOf(ctx, ws, req.params.run_id)
    if (run.status !== 'running') throw codedError(409, 'run_not_running', `the run is ${run.status}, not running`, { status: run.status })
    run.cancelRequested = true
    return ok(202, CancelRunAccepted, { run_id: run.run_id, status: 'running', cancel_requested: true })
  },

  listRuns(ctx, ws, req) {
    const q = queryObject(req.query)
    if (typeof q.status === 'string' && !(RUN_STATUS_FILTERS as readonly string[]).includes(q.status)) {
      throw codedError(400, 'invalid_status', `status must be one of ${RUN_STATUS_FILTERS.join(', ')}`)
    }
    const query = parseRequest(ListRunsQuery, 'query', q)
    const model = modelOf(ctx, ws, req.params.model_id)
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
  }
} satisfies RouteTable<'triggerRun' | 'getRun' | 'getCoverage' | 'cancelRun' | 'listRuns'>
