/**
 * Bad input gets a clear error and changes nothing: for every endpoint's body
 * and query, the answer is 422 (detail list, 2.8) or the 400 code the API
 * description names, and the store is byte-for-byte the same afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { CodedErrorBody, FindingList, ProfileResponse, ValidationErrorBody } from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { api, runToEnd, waitIdle } from '../__fixtures__/emulator-helpers.js'
import type { CallOptions } from '../__fixtures__/emulator-helpers.js'

let emu: Emulator
let runId = ''
let findingId = ''
let profile = { version: 0, profile_id: '' }

beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 10, attacksPerCategory: 1 })
  runId = await runToEnd(emu, emu.demoModelId)
  findingId = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json).findings[0]!.finding_id
  const p = ProfileResponse.parse((await api(emu, 'GET', `/api/v1/model/${emu.demoModelId}/profile`)).json)
  profile = { version: p.version, profile_id: p.profile_id }
  await waitIdle(emu)
})
afterAll(async () => {
  await emu.stop()
})

type Case = [label: string, method: string, path: () => string, opts: () => CallOptions, expected: number | string]

const model = (): string => emu.demoModelId
const cases: Case[] = [
  // POST /run
  ['trigger: no body', 'POST', () => '/api/v1/run', () => ({}), 422],
  ['trigger: malformed JSON', 'POST', () => '/api/v1/run', () => ({ rawBody: '{"model_id": ' }), 422],
  ['trigger: not JSON content type', 'POST', () => '/api/v1/run', () => ({ rawBody: `model_id=${model()}`, contentType: 'application/x-www-form-urlencoded' }), 422],
  ['trigger: array body', 'POST', () => '/api/v1/run', () => ({ body: [model()] }), 422],
  ['trigger: unknown field', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model(), priority: 'high' } }), 422],
  ['trigger: wrong type', 'POST', () => '/api/v1/run', () => ({ body: { model_id: 42 } }), 422],
  ['trigger: categories not a list', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model(), categories: 'jailbreak' } }), 422],
  ['trigger: empty categories', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model(), categories: [] } }), 422],
  ['trigger: unknown category', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model(), categories: ['nope'] } }), 'invalid_categories'],
  ['trigger: unknown query', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model() }, query: { dry: '1' } }), 422],
  // GET /run/{id}
  ['get run: bad min_severity', 'GET', () => `/api/v1/run/${runId}`, () => ({ query: { min_severity: 'HIGH' } }), 'invalid_min_severity'],
  ['get run: unknown query', 'GET', () => `/api/v1/run/${runId}`, () => ({ query: { verbose: 'true' } }), 422],
  // coverage, cancel
  ['coverage: unknown query', 'GET', () => `/api/v1/run/${runId}/coverage`, () => ({ query: { lens: 'security' } }), 422],
  ['cancel: a body', 'POST', () => `/api/v1/run/${runId}/cancel`, () => ({ body: { reason: 'x' } }), 422],
  ['cancel: malformed JSON', 'POST', () => `/api/v1/run/${runId}/cancel`, () => ({ rawBody: '{' }), 422],
  // list runs
  ['list runs: bad status', 'GET', () => `/api/v1/model/${model()}/run`, () => ({ query: { status: 'done' } }), 'invalid_status'],
  ['list runs: limit 0', 'GET', () => `/api/v1/model/${model()}/run`, () => ({ query: { limit: '0' } }), 422],
  ['list runs: limit 101', 'GET', () => `/api/v1/model/${model()}/run`, () => ({ query: { limit: '101' } }), 422],
  ['list runs: unknown query', 'GET', () => `/api/v1/model/${model()}/run`, () => ({ query: { offset: '2' } }), 422],
  // models
  ['list models: unknown query', 'GET', () => '/api/v1/model', () => ({ query: { page: '2' } }), 422],
  ['register: malformed JSON', 'POST', () => '/api/v1/model', () => ({ rawBody: '{"name":"x",' }), 422],
  ['register: missing config', 'POST', () => '/api/v1/model', () => ({ body: { name: 'x' } }), 422],
  ['register: bad scheme', 'POST', () => '/api/v1/model', () => ({ body: { name: 'x', config: { endpoint_url: 'ftp://a.example', response_field: 'r' } } }), 'endpoint_rejected'],
  // findings
  ['findings: bad min_severity', 'GET', () => `/api/v1/run/${runId}/findings`, () => ({ query: { min_severity: 'info' } }), 'invalid_min_severity'],
  ['findings: bad status', 'GET', () => `/api/v1/run/${runId}/findings`, () => ({ query: { status: 'closed' } }), 'invalid_status'],
  ['findings: unknown query', 'GET', () => `/api/v1/run/${runId}/findings`, () => ({ query: { page: '1' } }), 422],
  ['close: malformed JSON', 'PATCH', () => `/api/v1/findings/${findingId}/close`, () => ({ rawBody: 'status=fixed' }), 422],
  ['close: no body', 'PATCH', () => `/api/v1/findings/${findingId}/close`, () => ({}), 422],
  ['close: bad status', 'PATCH', () => `/api/v1/findings/${findingId}/close`, () => ({ body: { status: 'open', explanation: 'x' } }), 422],
  ['validate: a body', 'POST', () => `/api/v1/findings/${findingId}/validate`, () => ({ body: { force: true } }), 422],
  // categories
  ['categories: bad lens', 'GET', () => '/api/v1/category', () => ({ query: { lens: 'policy' } }), 422],
  // profiles
  ['profile get: unknown query', 'GET', () => `/api/v1/model/${model()}/profile`, () => ({ query: { full: '1' } }), 422],
  ['profile change: no changes', 'PATCH', () => `/api/v1/model/${model()}/profile`, () => ({ body: { ...profile } }), 422],
  ['profile change: version without profile_id', 'PATCH', () => `/api/v1/model/${model()}/profile`, () => ({ body: { version: profile.version, changes: {} } }), 422],
  ['profile change: negative version', 'PATCH', () => `/api/v1/model/${model()}/profile`, () => ({ body: { ...profile, version: -1, changes: {} } }), 422],
  ['profile change: malformed JSON', 'PATCH', () => `/api/v1/model/${model()}/profile`, () => ({ rawBody: '{"changes":' }), 422],
  ['profile confirm: missing version', 'POST', () => `/api/v1/model/${model()}/profile/confirm`, () => ({ body: { profile_id: profile.profile_id } }), 422],
  ['profile confirm: answers not a list', 'POST', () => `/api/v1/model/${model()}/profile/confirm`, () => ({ body: { ...profile, answers: 'purpose' } }), 422],
  ['profile confirm: unknown field', 'POST', () => `/api/v1/model/${model()}/profile/confirm`, () => ({ body: { ...profile, dismissals: [] } }), 422]
]

describe('bad input changes nothing', () => {
  it.each(cases)('%s', async (_label, method, path, opts, expected) => {
    const before = emu.control.snapshot()
    const r = await api(emu, method, path(), opts())
    if (typeof expected === 'number') {
      expect(r.status).toBe(expected)
      const body = ValidationErrorBody.parse(r.json)
      expect(body.detail.length).toBeGreaterThan(0)
      for (const d of body.detail) {
        expect(['body', 'query']).toContain(d.loc[0])
        for (const part of d.loc) expect(typeof part).toBe('string') // 2.8: loc is an array of string
        expect(typeof d.msg).toBe('string')
        expect(typeof d.type).toBe('string')
        expect(d).toHaveProperty('input')
        expect(typeof d.ctx).toBe('object')
      }
    } else {
      expect(r.status).toBe(400)
      expect(CodedErrorBody.parse(r.json).detail.code).toBe(expected)
    }
    expect(emu.control.snapshot()).toBe(before)
  })

  it('answers 404 for an unknown path and 405 for a wrong method, changing nothing', async () => {
    const before = emu.control.snapshot()
    expect((await api(emu, 'GET', '/api/v1/runs')).status).toBe(404)
    const r = await api(emu, 'DELETE', `/api/v1/run/${runId}`)
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET')
    expect(emu.control.snapshot()).toBe(before)
  })
})
