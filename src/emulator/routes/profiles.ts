/** Profiles (sections 4.12 to 4.14): read, change and confirm the profile of a target. */
import { z } from 'zod'
import { ChangeProfileBody, ConfirmProfileBody, ProfileResponse, ProfileWriteResponse } from '../../service/contract/index.js'
import { codedError, jsonBody, notFound, ok, parseRequest, validationError } from '../http-util.js'
import {
  applyChanges,
  applyConfirm,
  checkChangeVersion,
  checkVersion,
  confirmIssues,
  emptyProfile,
  fencedValues,
  renderProfile
} from '../profiles.js'
import type { ProfileRecord } from '../profiles.js'
import { modelOf, noQuery } from './route-context.js'
import type { RouteTable } from './route-context.js'

export const profileRoutes = {
  getProfile(ctx, ws, req) {
    noQuery(req.query)
    const model = modelOf(ctx, ws, req.params.model_id)
    const p = ctx.store.profiles.get(model.model_id)
    if (!p) throw notFound(`profile of model '${model.model_id}'`)
    return ok(200, ProfileResponse, renderProfile(p, ctx.store.dismissals.get(model.model_id) ?? []) as z.input<typeof ProfileResponse>)
  },

  changeProfile(ctx, ws, req) {
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(ChangeProfileBody, 'body', input)
    const fenced = fencedValues(body.changes, ['body', 'changes'])
    if (fenced.length > 0) {
      throw validationError(
        fenced.map((x) => ({
          loc: x.loc,
          msg: 'value still holds an untrusted-content fence',
          type: 'value_error',
          input: x.value,
          ctx: {}
        }))
      )
    }
    const model = modelOf(ctx, ws, req.params.model_id)
    const current = ctx.store.profiles.get(model.model_id)
    const check = checkChangeVersion(current, body)
    if (check.kind === 'stale') throw codedError(409, 'stale_version', check.message, { current_version: current?.version ?? null })
    let p: ProfileRecord
    if (check.kind === 'create') {
      p = emptyProfile(model.model_id, model.name)
      applyChanges(p, body.changes)
      ctx.store.profiles.set(model.model_id, p)
    } else {
      p = check.profile
      applyChanges(p, body.changes)
      p.version++
    }
    return ok(200, ProfileWriteResponse, { model_id: model.model_id, profile_id: p.profile_id, version: p.version })
  },

  confirmProfile(ctx, ws, req) {
    noQuery(req.query)
    const input = jsonBody(req.rawBody, req.contentType)
    const body = parseRequest(ConfirmProfileBody, 'body', input) as Required<z.output<typeof ConfirmProfileBody>>
    const model = modelOf(ctx, ws, req.params.model_id)
    const current = ctx.store.profiles.get(model.model_id)
    const check = checkVersion(current, body.version, body.profile_id)
    if (check.kind !== 'ok')
      throw codedError(409, 'stale_version', check.kind === 'stale' ? check.message : 'stale', {
        current_version: current?.version ?? null
      })
    const p = check.profile
    const issues = confirmIssues(p, body)
    if (issues.length > 0) throw validationError(issues)
    applyConfirm(p, body)
    p.version++
    return ok(200, ProfileWriteResponse, { model_id: model.model_id, profile_id: p.profile_id, version: p.version })
  }
} satisfies RouteTable<'getProfile' | 'changeProfile' | 'confirmProfile'>
