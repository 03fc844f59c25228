import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  CategoryList,
  CodedErrorBody,
  ModelList,
  ProbeFailureBody,
  RegisterModelResponse,
  ValidationErrorBody
} from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { api, closedPort, demoCredential, runToEnd } from '../__fixtures__/emulator-helpers.js'

let emu: Emulator
let slow: http.Server
let slowUrl: string

beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 20, attacksPerCategory: 1, allowLoopbackTargets: true })
  // a target that accepts the connection and never answers
  slow = http.createServer(() => undefined)
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r))
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/chat`
})
afterAll(async () => {
  slow.closeAllConnections()
  await new Promise<void>((r) =>
    slow.close(() => {
      r()
    })
  )
  await emu.stop()
})

function expectCoded(r: { status: number; json: unknown }, status: number, code: string): void {
  expect(r.status).toBe(status)
  expect(CodedErrorBody.parse(r.json).detail.code).toBe(code)
}

async function modelCount(): Promise<number> {
  return ModelList.parse((await api(emu, 'GET', '/api/v1/model')).json).models.length
}

describe('GET /api/v1/model', () => {
  it('lists the workspace models only', async () => {
    const list = ModelList.parse((await api(emu, 'GET', '/api/v1/model')).json)
    const demo = list.models.find((m) => m.model_id === emu.demoModelId)!
    expect(demo).toMatchObject({ has_agent_config: true, model_type: 'agent', endpoint_host: new URL(emu.demoAgent.url).host })
    expect(list.models.find((m) => m.model_id === emu.noConfigModelId)).toMatchObject({ has_agent_config: false })
    expect(list.models.some((m) => m.model_id === emu.demoModels.other)).toBe(false)
    const other = ModelList.parse((await api(emu, 'GET', '/api/v1/model', { key: 'other' })).json)
    expect(other.models.map((m) => m.model_id)).toEqual([emu.demoModels.other])
  })

  it('reports the latest run status', async () => {
    await runToEnd(emu, emu.demoModels.other, 'other', ['jailbreak'])
    const m = ModelList.parse((await api(emu, 'GET', '/api/v1/model', { key: 'other' })).json).models[0]
    expect(m.latest_run_status).toBe('completed')
  })
})

describe('POST /api/v1/model', () => {
  const chat = (path: string): string => `${emu.demoAgent.url}${path}`

  it.each([
    ['bearer', '/chat', (c: string) => ({ auth_type: 'bearer', credential: c })],
    ['api_key', '/chat/api-key', (c: string) => ({ auth_type: 'api_key', credential: c })],
    ['basic', '/chat/basic', (c: string) => ({ auth_type: 'basic', credential: `demo:${c}` })],
    ['none', '/chat/open', () => ({})],
    [
      'oauth_client_credentials',
      '/chat/oauth',
      (c: string) => ({
        auth_type: 'oauth_client_credentials',
        credential: c,
        oauth: { token_url: `${emu.demoAgent.url}/oauth/token`, client_id: 'demo-client' }
      })
    ]
  ] as const)('registers a %s target after a live probe, never echoing config or credential, and runs it', async (_t, path, auth) => {
    const before = await modelCount()
    const cred = demoCredential(emu)
    const r = await api(emu, 'POST', '/api/v1/model', {
      body: { name: `agent ${_t}`, config: { endpoint_url: chat(path), response_field: 'output.text', request_timeout: 5 }, ...auth(cred) }
    })
    expect(r.status).toBe(201)
    expect(RegisterModelResponse.parse(r.json)).toEqual({ model_id: expect.stringMatching(/^mdl_/), connected: true })
    expect(r.text).not.toContain(cred)
    expect(r.text).not.toContain(path)
    expect(await modelCount()).toBe(before + 1)
    const runId = await runToEnd(emu, r.json.model_id, 'full', ['prompt_injection'])
    const s = (await api(emu, 'GET', `/api/v1/run/${runId}`, { query: { min_severity: 'high' } })).json
    expect(s).toMatchObject({ status: 'completed', verdict: 'fail' })
  })

  it('does not deduplicate creates', async () => {
    const body = { name: 'dup', config: { endpoint_url: chat('/chat/open'), response_field: 'output.text' } }
    const a = await api(emu, 'POST', '/api/v1/model', { body })
    const b = await api(emu, 'POST', '/api/v1/model', { body })
    expect(a.status).toBe(201)
    expect(b.status).toBe(201)
    expect(a.json.model_id).not.toBe(b.json.model_id)
  })

  it('stores the credential (for leak scans) and the demo agent saw it', async () => {
    const cred = `extra-secret-${Date.now()}`
    const r = await api(emu, 'POST', '/api/v1/model', {
      body: {
        name: 'x',
        config: { endpoint_url: chat('/chat/open'), response_field: 'output.text' },
        auth_type: 'api_key',
        credential: cred
      }
    })
    expect(r.status).toBe(201)
    expect(emu.control.registeredCredentials()).toContain(cred)
    expect(emu.demoAgent.credentialsSeen()).toContain(demoCredential(emu))
  })

  it.each([
    ['unreachable', async () => ({ endpoint_url: `http://127.0.0.1:${await closedPort()}/chat`, response_field: 'output.text' }), {}],
    [
      'auth_failed',
      async () => ({ endpoint_url: chat('/chat'), response_field: 'output.text' }),
      { auth_type: 'bearer', credential: 'wrong-secret-123' }
    ],
    ['parse_error', async () => ({ endpoint_url: chat('/html'), response_field: 'output.text' }), {}],
    ['no_reply', async () => ({ endpoint_url: chat('/chat/open'), response_field: 'reply.text' }), {}],
    ['no_reply', async () => ({ endpoint_url: slowUrl, response_field: 'output.text', request_timeout: 0.2 }), {}],
    ['not_an_endpoint', async () => ({ endpoint_url: chat('/nothing-here'), response_field: 'output.text' }), {}],
    [
      'auth_failed',
      async () => ({ endpoint_url: chat('/chat/oauth'), response_field: 'output.text' }),
      { auth_type: 'oauth_client_credentials', credential: 'wrong-secret-123', oauth: { token_url: 'TOKEN', client_id: 'demo-client' } }
    ]
  ] as const)('422 probe_failed %s (detail object, redacted message) and stores nothing', async (category, config, auth) => {
    const before = emu.control.snapshot()
    const a = { ...auth } as Record<string, unknown>
    if (a.oauth) a.oauth = { ...a.oauth, token_url: `${emu.demoAgent.url}/oauth/token` }
    const r = await api(emu, 'POST', '/api/v1/model', { body: { name: 'bad', config: await config(), ...a } })
    expect(r.status).toBe(422)
    const body = ProbeFailureBody.parse(r.json)
    expect(body.detail.error_category).toBe(category)
    expect(r.text).not.toContain('wrong-secret-123')
    expect(r.text).not.toContain('Welcome')
    expect(emu.control.snapshot()).toBe(before)
  })

  it.each([
    ['empty body', {}, ['name']],
    ['empty name', { name: '', config: { endpoint_url: 'https://a.example', response_field: 'r' } }, ['name']],
    ['name over 200', { name: 'n'.repeat(201), config: { endpoint_url: 'https://a.example', response_field: 'r' } }, ['name']],
    [
      'request_timeout over 180',
      { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'r', request_timeout: 181 } },
      ['config', 'request_timeout']
    ],
    [
      'unknown transport',
      { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'r', transport: 'grpc' } },
      ['config', 'transport']
    ],
    [
      'bearer without credential',
      { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'r' }, auth_type: 'bearer' },
      ['credential']
    ],
    [
      'credential under 5',
      { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'r' }, auth_type: 'bearer', credential: 'abcd' },
      ['credential']
    ],
    [
      'oauth auth without oauth config',
      {
        name: 'x',
        config: { endpoint_url: 'https://a.example', response_field: 'r' },
        auth_type: 'oauth_client_credentials',
        credential: 'abcdef'
      },
      ['oauth']
    ],
    [
      'oauth config with auth none',
      {
        name: 'x',
        config: { endpoint_url: 'https://a.example', response_field: 'r' },
        oauth: { token_url: 'https://t.example', client_id: 'c' }
      },
      ['oauth']
    ],
    [
      'unknown environment',
      { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'r' }, environment: 'qa' },
      ['environment']
    ],
    ['unknown field', { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'r' }, owner: 'me' }, ['owner']]
  ] as [string, Record<string, unknown>, string[]][])('422 validation detail list: %s', async (_label, body, loc) => {
    const before = emu.control.snapshot()
    const r = await api(emu, 'POST', '/api/v1/model', { body })
    expect(r.status).toBe(422)
    const v = ValidationErrorBody.parse(r.json)
    expect(v.detail.map((d) => d.loc.slice(1).join('.'))).toContain(loc.join('.'))
    for (const d of v.detail) {
      expect(d.loc[0]).toBe('body')
      expect(typeof d.msg).toBe('string')
      expect(typeof d.type).toBe('string')
      expect(d).toHaveProperty('ctx')
    }
    expect(emu.control.snapshot()).toBe(before)
  })
})

describe('GET /api/v1/category', () => {
  it('lists at least 8 security categories with OWASP 2025 and ATLAS codes', async () => {
    const r = await api(emu, 'GET', '/api/v1/category')
    const list = CategoryList.parse(r.json)
    expect(list.lens).toBe('security')
    expect(list.categories.length).toBeGreaterThanOrEqual(8)
    for (const c of r.json.categories) {
      expect(c.owasp).toMatch(/^LLM(0[1-9]|10):2025$/)
      expect(c.atlas).toMatch(/^AML\.T\d{4}(\.\d{3})?$/)
      expect(c.display_name).not.toBe('')
      expect(c.description).not.toBe('')
    }
    expect(r.headers.get('cache-control')).toContain('max-age=3600')
  })

  it.each(['safety', 'compliance'])('lists %s categories, which cannot focus a run', async (lens) => {
    const list = CategoryList.parse((await api(emu, 'GET', '/api/v1/category', { query: { lens } })).json)
    expect(list.lens).toBe(lens)
    expect(list.categories.length).toBeGreaterThan(0)
    const r = await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId, categories: [list.categories[0].key] } })
    expectCoded(r, 400, 'invalid_categories')
  })

  it('422 for an unknown lens or parameter; 403 taxonomy_not_included for a trial workspace', async () => {
    expect((await api(emu, 'GET', '/api/v1/category', { query: { lens: 'quality' } })).status).toBe(422)
    expect((await api(emu, 'GET', '/api/v1/category', { query: { lense: 'safety' } })).status).toBe(422)
    expectCoded(await api(emu, 'GET', '/api/v1/category', { key: 'trial' }), 403, 'taxonomy_not_included')
  })
})
