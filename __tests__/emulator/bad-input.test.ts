/**
 * Bad input gets a clear error and changes nothing: for every endpoint's body
 * and query, the answer is 422 (detail list, 2.8) or the 400 code the API
 * description names, and the store is byte-for-byte the same afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { CodedErrorBody, FindingList, ProfileResponse, ValidationErrorBody } from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import http from 'node:http'
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, jsonDepth } from '../../src/emulator/http-util.js'
import { api, runToEnd, waitIdle } from '../__fixtures__/emulator-helpers.js'
import type { CallOptions } from '../__fixtures__/emulator-helpers.js'

let emu: Emulator
let runId = ''
let findingId = ''
let profile = { version: 0, profile_id: '' }

beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 10, attacksPerCategory: 1 })
  runId = await runToEnd(emu, emu.demoModelId)
  findingId = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json).findings[0].finding_id
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
  [
    'trigger: not JSON content type',
    'POST',
    () => '/api/v1/run',
    () => ({ rawBody: `model_id=${model()}`, contentType: 'application/x-www-form-urlencoded' }),
    422
  ],
  ['trigger: array body', 'POST', () => '/api/v1/run', () => ({ body: [model()] }), 422],
  ['trigger: unknown field', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model(), priority: 'high' } }), 422],
  ['trigger: wrong type', 'POST', () => '/api/v1/run', () => ({ body: { model_id: 42 } }), 422],
  ['trigger: categories not a list', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model(), categories: 'jailbreak' } }), 422],
  ['trigger: empty categories', 'POST', () => '/api/v1/run', () => ({ body: { model_id: model(), categories: [] } }), 422],
  [
    'trigger: unknown category',
    'POST',
    () => '/api/v1/run',
    () => ({ body: { model_id: model(), categories: ['nope'] } }),
    'invalid_categories'
  ],
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
  [
    'register: bad scheme',
    'POST',
    () => '/api/v1/model',
    () => ({ body: { name: 'x', config: { endpoint_url: 'ftp://a.example', response_field: 'r' } } }),
    'endpoint_rejected'
  ],
  // findings
  [
    'findings: bad min_severity',
    'GET',
    () => `/api/v1/run/${runId}/findings`,
    () => ({ query: { min_severity: 'info' } }),
    'invalid_min_severity'
  ],
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
  [
    'profile change: version without profile_id',
    'PATCH',
    () => `/api/v1/model/${model()}/profile`,
    () => ({ body: { version: profile.version, changes: {} } }),
    422
  ],
  [
    'profile change: negative version',
    'PATCH',
    () => `/api/v1/model/${model()}/profile`,
    () => ({ body: { ...profile, version: -1, changes: {} } }),
    422
  ],
  ['profile change: malformed JSON', 'PATCH', () => `/api/v1/model/${model()}/profile`, () => ({ rawBody: '{"changes":' }), 422],
  [
    'profile confirm: missing version',
    'POST',
    () => `/api/v1/model/${model()}/profile/confirm`,
    () => ({ body: { profile_id: profile.profile_id } }),
    422
  ],
  [
    'profile confirm: answers not a list',
    'POST',
    () => `/api/v1/model/${model()}/profile/confirm`,
    () => ({ body: { ...profile, answers: 'purpose' } }),
    422
  ],
  [
    'profile confirm: unknown field',
    'POST',
    () => `/api/v1/model/${model()}/profile/confirm`,
    () => ({ body: { ...profile, dismissals: [] } }),
    422
  ],
  // bodies nested too deep to walk (section 2.8 list, never a 500)
  ['trigger: 100k levels of [', 'POST', () => '/api/v1/run', () => ({ rawBody: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }), 422],
  ['trigger: 100k levels of [, never closed', 'POST', () => '/api/v1/run', () => ({ rawBody: '['.repeat(100_000) }), 422],
  [
    'register: an endpoint_url nested 100k levels',
    'POST',
    () => '/api/v1/model',
    () => ({ rawBody: deepIn('{"name":"x","config":{"response_field":"r","endpoint_url":', 100_000, '}}') }),
    422
  ],
  ['close: 129 levels of {', 'PATCH', () => `/api/v1/findings/${findingId}/close`, () => ({ rawBody: deepObject(129) }), 422],
  [
    'profile change: tool parameters nested 100k levels',
    'PATCH',
    () => `/api/v1/model/${model()}/profile`,
    () => ({
      rawBody: deepIn(
        `{"version":${profile.version},"profile_id":"${profile.profile_id}","changes":{"tools":[{"name":"t","description":"d","parameters":`,
        100_000,
        '}]}}'
      )
    }),
    422
  ]
]

/** `prefix`, then `levels` nested objects, then `suffix` (valid JSON when prefix and suffix are). */
function deepIn(prefix: string, levels: number, suffix: string): string {
  return `${prefix}${deepObject(levels)}${suffix}`
}

function deepObject(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
}

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

describe('JSON depth is counted without parsing', () => {
  it.each([
    ['1', 0],
    ['[]', 1],
    ['{"a":[{"b":[]}]}', 4],
    ['"[[[[{{{{"', 0],
    ['["\\"[[[", []]', 2],
    ['["\\\\", [[]]]', 3],
    ['[[[', 3],
    [']]]', 0]
  ])('%s has depth %d', (text, depth) => {
    expect(jsonDepth(text)).toBe(depth)
  })

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more`, async () => {
    const ok = await api(emu, 'PATCH', `/api/v1/findings/${findingId}/close`, {
      rawBody: `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`
    })
    expect(ok.status).toBe(422)
    expect(ValidationErrorBody.parse(ok.json).detail[0].type).not.toBe('json_invalid')
    const deep = await api(emu, 'PATCH', `/api/v1/findings/${findingId}/close`, {
      rawBody: `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`
    })
    expect(deep.status).toBe(422)
    expect(ValidationErrorBody.parse(deep.json).detail).toEqual([
      expect.objectContaining({ loc: ['body'], type: 'json_invalid', msg: `JSON nesting is deeper than ${MAX_JSON_DEPTH} levels` })
    ])
  })
})

/** A raw request whose body is written by `send`; resolves with the answer, or with the error that ended it. */
function rawRequest(
  method: string,
  path: string,
  headers: Partial<Record<string, string>>,
  send: (req: http.ClientRequest) => void
): Promise<{ status: number; json: unknown; continued: boolean } | { error: string }> {
  return new Promise((resolve) => {
    let continued = false
    const req = http.request(`${emu.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${emu.keys.full}`, 'content-type': 'application/json', ...headers }
    })
    req.on('continue', () => {
      continued = true
      send(req)
    })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')), continued })
      })
    })
    req.on('error', (e: NodeJS.ErrnoException) => {
      resolve({ error: e.code ?? e.message })
    })
    if (!/100-continue/i.test(headers.expect ?? '')) send(req)
  })
}

/** Writes 64 KiB chunks until the request is destroyed (once the answer came). */
function endless(req: http.ClientRequest): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  const pump = (): void => {
    while (!req.destroyed) if (!req.write(chunk)) return void req.once('drain', pump)
  }
  pump()
}

describe('bodies over 1 MiB answer 413, not a reset', () => {
  const expect413 = (r: Awaited<ReturnType<typeof rawRequest>>): void => {
    expect(r).toMatchObject({ status: 413 })
    const body = CodedErrorBody.parse((r as { json: unknown }).json)
    expect(body.detail).toMatchObject({ code: 'payload_too_large', max_bytes: MAX_BODY_BYTES })
  }

  it('a 2 MiB body with its length declared', async () => {
    const before = emu.control.snapshot()
    const r = await api(emu, 'POST', '/api/v1/model', { rawBody: JSON.stringify({ name: 'x'.repeat(2 * MAX_BODY_BYTES) }) })
    expect(r.status).toBe(413)
    expect(CodedErrorBody.parse(r.json).detail.code).toBe('payload_too_large')
    expect(emu.control.snapshot()).toBe(before)
  })

  it('a chunked body of 16 MiB with no declared length', async () => {
    expect413(
      await rawRequest('POST', '/api/v1/run', {}, (req) => {
        for (let i = 0; i < 256; i++) req.write(Buffer.alloc(64 * 1024, 0x20))
        req.end()
      })
    )
  })

  it('a chunked body without end, on a connection that stays usable', async () => {
    const before = emu.control.snapshot()
    expect413(await rawRequest('POST', '/api/v1/run', {}, endless))
    expect((await api(emu, 'GET', '/api/v1/model')).status).toBe(200)
    expect(emu.control.snapshot()).toBe(before)
  })

  it('a declared 3 GiB body behind Expect: 100-continue is refused before it is sent', async () => {
    const r = await rawRequest(
      'POST',
      '/api/v1/model',
      { expect: '100-continue', 'content-length': String(3 * 1024 * 1024 * 1024) },
      endless
    )
    expect413(r)
    expect(r).toMatchObject({ continued: false })
  })

  it('a small body behind Expect: 100-continue is asked for and read', async () => {
    const body = JSON.stringify({ model_id: 'mdl_unknown' })
    const r = await rawRequest(
      'POST',
      '/api/v1/run',
      { expect: '100-continue', 'content-length': String(Buffer.byteLength(body)) },
      (req) => req.end(body)
    )
    expect(r).toMatchObject({ status: 404, continued: true })
  })

  it('a body of exactly 1 MiB is read (and judged on its content)', async () => {
    const prefix = '{"model_id":"'
    const raw = `${prefix}${'m'.repeat(MAX_BODY_BYTES - prefix.length - 2)}"}`
    expect(Buffer.byteLength(raw)).toBe(MAX_BODY_BYTES)
    const r = await api(emu, 'POST', '/api/v1/run', { rawBody: raw })
    expect(r.status).toBe(404)
  })
})
