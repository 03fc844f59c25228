/** Models (sections 4.6, 4.7): the inventory list, and registration with its SSRF check and live probe. */
import { randomBytes } from 'node:crypto'
import { ModelList, ProbeFailureBody, RegisterModelBody, RegisterModelResponse } from '../../service/contract/index.js'
import { HttpError, codedError, isoNow, jsonBody, ok, parseRequest } from '../http-util.js'
import { checkEndpointUrl } from '../ssrf.js'
import { newId } from '../ids.js'
import type { ModelRecord } from '../store.js'
import { TargetClient } from '../target-calls.js'
import { noQuery } from './route-context.js'
import type { RouteTable } from './route-context.js'

export const modelRoutes = {
  listModels(ctx, ws, req) {
    noQuery(req.query)
    const models = ctx.store.modelsOf(ws.name).map((m) => {
      let host: string
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
    const probe = await target.send(
      'Hello, this is a connectivity check from the assessment service.',
      `probe_${randomBytes(6).toString('hex')}`
    )
    if (!probe.ok) {
      const failure = {
        detail: { error: 'probe_failed' as const, error_category: probe.category, message: `probe failed: ${probe.message}` }
      }
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
  }
} satisfies RouteTable<'listModels' | 'registerModel'>
