/** Findings (sections 4.8 to 4.10): the findings of a run, close, and validate (a replay against the live target). */
import {
  CloseFindingBody,
  Finding,
  FindingList,
  FINDING_STATUS_FILTERS,
  ListFindingsQuery,
  SEVERITIES,
  ValidateFindingResponse,
  atOrAbove
} from '../../service/contract/index.js'
import { findingView, replayFinding } from '../finding-replay.js'
import { codedError, isoNow, jsonBody, noBody, notFound, ok, parseRequest, queryObject } from '../http-util.js'
import { newId } from '../ids.js'
import { badSeverity, noQuery, runOf, tooMany } from './route-context.js'
import type { RouteTable } from './route-context.js'

export const findingRoutes = {
  listFindings(ctx, ws, req) {
    const q = queryObject(req.query)
    if (badSeverity(q.min_severity)) throw codedError(400, 'invalid_min_severity', `min_severity must be one of ${SEVERITIES.join(', ')}`)
    if (typeof q.status === 'string' && !(FINDING_STATUS_FILTERS as readonly string[]).includes(q.status)) {
      throw codedError(400, 'invalid_status', `status must be one of ${FINDING_STATUS_FILTERS.join(', ')}`)
    }
    const query = parseRequest(ListFindingsQuery, 'query', q)
    const run = runOf(ctx, ws, req.params.run_id)
    if (run.status === 'running')
      throw codedError(409, 'run_in_progress', 'the run is still in progress; findings are available once it ends')
    const findings = ctx.store
      .findingsOfRun(run)
      .filter((f) => !query.min_severity || atOrAbove(f.severity, query.min_severity))
      .filter((f) => !query.status || f.status === query.status || (query.status === 'fixed' && f.status === 'FIXED_VERIFIED'))
      .map((f) => findingView(f, ws.proofWithheld))
    return ok(200, FindingList, { findings, count: findings.length })
  },

  closeFinding(ctx, ws, req) {
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(CloseFindingBody, 'body', input)
    const f = ctx.store.finding(ws.name, req.params.finding_id)
    if (!f) throw notFound(`finding '${req.params.finding_id}'`)
    if (ws.proofWithheld) throw codedError(403, 'proof_withheld', 'the plan of this workspace withholds the proof of findings')
    if (body.status === 'fixed') {
      f.status = 'fixed'
      f.fix_description = body.explanation
    } else {
      const reasonCode = body.reason_code
      // the schema requires reason_code with a dismissal; reaching this is a bug (a 500)
      if (reasonCode === undefined) throw new Error('a dismissal without reason_code passed the body schema')
      f.status = 'dismissed'
      f.dismissal = { reason_code: reasonCode, rationale: body.explanation }
      const list = (ctx.store.dismissals.get(f.model_id) ?? []).filter((d) => d.finding_id !== f.finding_id)
      list.push({
        finding_id: f.finding_id,
        category: f.category,
        reason_code: reasonCode,
        reason_text: body.explanation,
        created_at: isoNow()
      })
      ctx.store.dismissals.set(f.model_id, list)
    }
    return ok(200, Finding, findingView(f, false))
  },

  async validateFinding(ctx, ws, req) {
    noQuery(req.query)
    noBody(req.rawBody, req.contentType)
    const f = ctx.store.finding(ws.name, req.params.finding_id)
    if (!f) throw notFound(`finding '${req.params.finding_id}'`)
    if (ws.proofWithheld) throw codedError(403, 'proof_withheld', 'the plan of this workspace withholds the proof of findings')
    if (f.validating) {
      throw codedError(409, 'validation_in_progress', 'a validation is already running for this finding', { replay_run_id: f.validating })
    }
    if (f.status !== 'fixed') {
      return ok(200, ValidateFindingResponse, {
        finding_id: f.finding_id,
        replay_run_id: '',
        verdict: 'not_eligible',
        finding: findingView(f, false)
      })
    }
    const model = ctx.store.models.get(f.model_id)
    if (!model?.config) throw codedError(422, 'replay_unwireable', 'the target has no agent config to replay against')
    if (model.config.transport === 'websocket') {
      throw codedError(422, 'replay_unwireable', 'replays are sent over HTTP; this target uses the websocket transport')
    }
    if (f.attacks.some((a) => a.message === '')) throw codedError(422, 'replay_unwireable', 'an attack has no replayable message')
    const now = Date.now()
    const refusal = ctx.limits.checkReplay(ws.name, now)
    if (refusal) throw tooMany(refusal.code, refusal.message, refusal.retryAfterMs)
    const replayId = newId('rpl')
    ctx.limits.startReplay(ws.name, now)
    const record = {
      replay_run_id: replayId,
      finding_id: f.finding_id,
      workspace: ws.name,
      started_at: isoNow(now),
      finished: false,
      verdict: null as 'resolved' | 'still_broken' | null
    }
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
      return ok(200, ValidateFindingResponse, {
        finding_id: f.finding_id,
        replay_run_id: replayId,
        verdict: 'validating',
        finding: findingView(f, false)
      })
    }
    const verdict = await done
    return ok(200, ValidateFindingResponse, { finding_id: f.finding_id, replay_run_id: replayId, verdict, finding: findingView(f, false) })
  }
} satisfies RouteTable<'listFindings' | 'closeFinding' | 'validateFinding'>
