/**
 * The typed client against a scripted local HTTP server: request shapes of the
 * 14 endpoints, error mapping, malformed answers, retries, timeouts, abort,
 * and the api key kept out of every error and log line.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { AssessmentClient, createClient } from '../../src/service/client.js'
import type { ClientOptions } from '../../src/service/client.js'
import { Deadline } from '../../src/util/clock.js'
import { AbortedError, DeadlineExceededError, MalformedResponseError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import type { RetryPolicy } from '../../src/util/retry-policy.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { bodies } from '../__fixtures__/service-bodies.js'
import { closedPort, fakeClock, neverAnswer, resetAfterRequest, startScriptedServer } from '../__fixtures__/scripted-server.js'
import type { ScriptedServer, Step } from '../__fixtures__/scripted-server.js'

const KEY = 'asas_test_SECRET_key_123456'
const POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 100,
  maxDelayMs: 1000,
  maxRetryAfterMs: 60_000,
  minRetryAfterMs: 0,
  maxMalformedAttempts: 4
}

let server: ScriptedServer
beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(async () => {
  await server.stop()
})
beforeEach(() => {
  server.requests.length = 0
})

function client(extra: Partial<ClientOptions> = {}) {
  /** The fake clock in use unless `extra.clock` replaces it. */
  const clock = fakeClock()
  const log = recordingLog()
  const c = new AssessmentClient({ baseUrl: server.url, apiKey: KEY, clock, retryPolicy: POLICY, random: () => 0.5, log, ...extra })
  return { c, clock, log }
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (err) {
    return err
  }
  throw new Error('expected the call to fail')
}

async function serviceFailure(p: Promise<unknown>): Promise<ServiceError> {
  const err = await failure(p)
  expect(err).toBeInstanceOf(ServiceError)
  return err as ServiceError
}

// ---------------------------------------------------------------------------
// Request shapes and success parsing, all 14 endpoints
// ---------------------------------------------------------------------------

type Call = (c: ServiceApi) => Promise<unknown>
const endpointCases: {
  name: keyof typeof bodies
  call: Call
  method: string
  url: string
  status: number
  sent?: unknown
}[] = [
  {
    name: 'triggerRun',
    call: (c) => c.triggerRun({ model_id: 'm_1', categories: ['prompt_injection'] }),
    method: 'POST',
    url: '/api/v1/run',
    status: 202,
    sent: { model_id: 'm_1', categories: ['prompt_injection'] }
  },
  {
    name: 'getRun',
    call: (c) => c.getRun('r_1', { min_severity: 'high' }),
    method: 'GET',
    url: '/api/v1/run/r_1?min_severity=high',
    status: 200
  },
  { name: 'getRun', call: (c) => c.getRun('r_1'), method: 'GET', url: '/api/v1/run/r_1', status: 200 },
  { name: 'getCoverage', call: (c) => c.getCoverage('r/1 x'), method: 'GET', url: '/api/v1/run/r%2F1%20x/coverage', status: 200 },
  { name: 'cancelRun', call: (c) => c.cancelRun('r_1'), method: 'POST', url: '/api/v1/run/r_1/cancel', status: 202 },
  {
    name: 'listRuns',
    call: (c) => c.listRuns('m_1', { status: 'running', limit: 5 }),
    method: 'GET',
    url: '/api/v1/model/m_1/run?status=running&limit=5',
    status: 200
  },
  { name: 'listRuns', call: (c) => c.listRuns('m_1', { limit: 100 }), method: 'GET', url: '/api/v1/model/m_1/run?limit=100', status: 200 },
  { name: 'listModels', call: (c) => c.listModels(), method: 'GET', url: '/api/v1/model', status: 200 },
  {
    name: 'registerModel',
    call: (c) =>
      c.registerModel({
        name: 'bot',
        config: { endpoint_url: 'https://bot.example.com/chat', response_field: 'reply' },
        auth_type: 'bearer',
        credential: 'tok_12345'
      }),
    method: 'POST',
    url: '/api/v1/model',
    status: 201,
    sent: {
      name: 'bot',
      config: { endpoint_url: 'https://bot.example.com/chat', response_field: 'reply' },
      auth_type: 'bearer',
      credential: 'tok_12345'
    }
  },
  {
    name: 'listFindings',
    call: (c) => c.listFindings('r_1', { min_severity: 'low', status: 'open' }),
    method: 'GET',
    url: '/api/v1/run/r_1/findings?min_severity=low&status=open',
    status: 200
  },
  {
    name: 'closeFinding',
    call: (c) => c.closeFinding('f_1', { status: 'dismissed', explanation: 'public data', reason_code: 'data_is_public' }),
    method: 'PATCH',
    url: '/api/v1/findings/f_1/close',
    status: 200,
    sent: { status: 'dismissed', explanation: 'public data', reason_code: 'data_is_public' }
  },
  { name: 'validateFinding', call: (c) => c.validateFinding('f_1'), method: 'POST', url: '/api/v1/findings/f_1/validate', status: 200 },
  {
    name: 'listCategories',
    call: (c) => c.listCategories({ lens: 'safety' }),
    method: 'GET',
    url: '/api/v1/category?lens=safety',
    status: 200
  },
  { name: 'listCategories', call: (c) => c.listCategories(), method: 'GET', url: '/api/v1/category', status: 200 },
  { name: 'getProfile', call: (c) => c.getProfile('m_1'), method: 'GET', url: '/api/v1/model/m_1/profile', status: 200 },
  {
    name: 'changeProfile',
    call: (c) => c.changeProfile('m_1', { changes: { purpose: 'support', multi_agent: null }, version: 3, profile_id: 'p_1' }),
    method: 'PATCH',
    url: '/api/v1/model/m_1/profile',
    status: 200,
    sent: { changes: { purpose: 'support', multi_agent: null }, version: 3, profile_id: 'p_1' }
  },
  {
    name: 'confirmProfile',
    call: (c) => c.confirmProfile('m_1', { version: 4, profile_id: 'p_1', answers: ['purpose'], items: { tools: ['search'] } }),
    method: 'POST',
    url: '/api/v1/model/m_1/profile/confirm',
    status: 200,
    sent: { version: 4, profile_id: 'p_1', answers: ['purpose'], items: { tools: ['search'] } }
  }
]

describe('every endpoint: request shape and parsed answer', () => {
  it.each(endpointCases.map((c, i) => [`${c.name} #${i}`, c] as const))('%s', async (_, tc) => {
    server.script({ status: tc.status, body: { ...bodies[tc.name], extra_field: 'kept' } })
    const { c } = client()
    const result = await tc.call(c)
    expect(result).toEqual({ ...bodies[tc.name], extra_field: 'kept' })
    expect(server.requests).toHaveLength(1)
    const req = server.requests[0]
    expect(req.method).toBe(tc.method)
    expect(req.url).toBe(tc.url)
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(req.headers.accept).toBe('application/json')
    if (tc.sent === undefined) {
      expect(req.body).toBe('')
      expect(req.headers['content-type']).toBeUndefined()
    } else {
      expect(req.headers['content-type']).toBe('application/json')
      expect(JSON.parse(req.body)).toEqual(tc.sent)
    }
  })

  it('covers all 14 methods of ServiceApi', () => {
    expect(new Set(endpointCases.map((c) => c.name)).size).toBe(14)
  })

  it.each([
    ['trailing slash', (u: string) => `${u}/`],
    ['trailing /api/v1', (u: string) => `${u}/api/v1/`]
  ])('tolerates a base URL with a %s', async (_, f) => {
    server.script({ status: 200, body: bodies.listModels })
    const c = createClient({ baseUrl: f(server.url), apiKey: KEY })
    await c.listModels()
    expect(server.requests[0].url).toBe('/api/v1/model')
  })

  it('sends the configured user agent', async () => {
    server.script({ status: 200, body: bodies.listModels })
    await client({ userAgent: 'gate-test/1' }).c.listModels()
    expect(server.requests[0].headers['user-agent']).toBe('gate-test/1')
  })

  it('refuses an empty id (it would address another endpoint) without sending anything: a bug, not an input mistake', async () => {
    const err = await failure(client().c.getRun(''))
    expect(err).toBeInstanceOf(TypeError)
    expect(server.requests).toHaveLength(0)
  })

  it('writes a debug line per request with method, path and status', async () => {
    server.script({ status: 200, body: bodies.getRun })
    const { c, log } = client()
    await c.getRun('r_1', { min_severity: 'high' })
    const debug = log.lines.filter((l) => l.level === 'debug').map((l) => l.line)
    expect(debug).toHaveLength(1)
    expect(debug[0]).toMatch(/^GET \/api\/v1\/run\/r_1 -> 200 \(\d+ ms\)$/)
  })
})

// ---------------------------------------------------------------------------
// Error mapping (section 7 and the lenient shapes)
// ---------------------------------------------------------------------------

const retryDate = new Date(Date.parse('2026-11-21T12:00:00Z') + 30_000).toUTCString()
const errorCases: {
  title: string
  step: Step
  expected: {
    status: number
    code?: string
    message: RegExp
    transient: boolean
    ambiguous: boolean
    retryAfterMs?: number
    extra?: Record<string, unknown>
  }
}[] = [
  {
    title: '400 coded with extra field',
    step: { status: 400, body: { detail: { code: 'invalid_categories', message: 'unknown keys', invalid: ['nope'] } } },
    expected: {
      status: 400,
      code: 'invalid_categories',
      message: /^unknown keys$/,
      transient: false,
      ambiguous: false,
      extra: { invalid: ['nope'] }
    }
  },
  {
    title: '400 endpoint_rejected',
    step: { status: 400, body: { detail: { code: 'endpoint_rejected', message: 'private address' } } },
    expected: { status: 400, code: 'endpoint_rejected', message: /private address/, transient: false, ambiguous: false }
  },
  {
    title: '401 with a text detail gets code unauthorized',
    step: { status: 401, body: { detail: 'Not authenticated' } },
    expected: { status: 401, code: 'unauthorized', message: /^Not authenticated$/, transient: false, ambiguous: false }
  },
  {
    title: '401 with an empty body',
    step: { status: 401, raw: '' },
    expected: { status: 401, code: 'unauthorized', message: /^Unauthorized$/, transient: false, ambiguous: false }
  },
  {
    title: '403 allowance_exhausted carries resets_on',
    step: { status: 403, body: { detail: { code: 'allowance_exhausted', message: 'monthly allowance spent', resets_on: '2026-12-01' } } },
    expected: {
      status: 403,
      code: 'allowance_exhausted',
      message: /monthly/,
      transient: false,
      ambiguous: false,
      extra: { resets_on: '2026-12-01' }
    }
  },
  {
    title: '403 insufficient_scope',
    step: { status: 403, body: { detail: { code: 'insufficient_scope', message: 'needs test:run' } } },
    expected: { status: 403, code: 'insufficient_scope', message: /test:run/, transient: false, ambiguous: false }
  },
  {
    title: '404 not_found',
    step: { status: 404, body: { detail: { code: 'not_found', message: 'model not found' } } },
    expected: { status: 404, code: 'not_found', message: /not found/, transient: false, ambiguous: false }
  },
  {
    title: '409 run_active',
    step: { status: 409, body: { detail: { code: 'run_active', message: 'a run is active', run_id: 'r_9' } } },
    expected: { status: 409, code: 'run_active', message: /active/, transient: false, ambiguous: false, extra: { run_id: 'r_9' } }
  },
  {
    title: '422 validation list',
    step: {
      status: 422,
      body: {
        detail: [
          { loc: ['body', 'model_id'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'categories', 0], msg: 'Input should be a valid string', type: 'string_type', input: 3 },
          { loc: ['body', 'a'], msg: 'x', type: 't' },
          { loc: ['body', 'b'], msg: 'y', type: 't' }
        ]
      }
    },
    expected: {
      status: 422,
      code: 'validation_error',
      message:
        /^request validation failed: body\.model_id: Field required; body\.categories\.0: Input should be a valid string; body\.a: x \(and 1 more\)$/,
      transient: false,
      ambiguous: false
    }
  },
  {
    title: '422 probe failure object',
    step: { status: 422, body: { detail: { error: 'probe_failed', error_category: 'unreachable', message: 'target did not answer' } } },
    expected: {
      status: 422,
      code: 'probe_failed',
      message: /target did not answer/,
      transient: false,
      ambiguous: false,
      extra: { error_category: 'unreachable' }
    }
  },
  {
    title: '429 with Retry-After seconds',
    step: { status: 429, body: { detail: { code: 'rate_limited', message: 'slow down' } }, headers: { 'retry-after': '7' } },
    expected: { status: 429, code: 'rate_limited', message: /slow down/, transient: true, ambiguous: false, retryAfterMs: 7000 }
  },
  {
    title: '429 with Retry-After HTTP-date',
    step: { status: 429, body: { detail: { code: 'daily_budget_exhausted', message: 'budget' } }, headers: { 'retry-after': retryDate } },
    expected: { status: 429, code: 'daily_budget_exhausted', message: /budget/, transient: true, ambiguous: false, retryAfterMs: 30_000 }
  },
  {
    title: '500 HTML page from a proxy, control characters stripped',
    step: { status: 500, raw: '<html>\r\n<body>\u0007oops\u001b[31m</body></html>', headers: { 'content-type': 'text/html' } },
    expected: {
      status: 500,
      message: /^Internal Server Error: <html> <body> oops <\/body><\/html>$/,
      transient: true,
      ambiguous: true
    }
  },
  {
    title: '502 long non-JSON body is clipped',
    step: { status: 502, raw: 'x'.repeat(5000) },
    expected: { status: 502, message: /^Bad Gateway: x{197}\.\.\.$/, transient: true, ambiguous: true }
  },
  {
    title: '503 with a text detail',
    step: { status: 503, body: { detail: 'maintenance' }, headers: { 'retry-after': '2' } },
    expected: { status: 503, message: /^maintenance$/, transient: true, ambiguous: true, retryAfterMs: 2000 }
  },
  {
    title: '408',
    step: { status: 408, raw: '' },
    expected: { status: 408, message: /^Request Timeout$/, transient: true, ambiguous: true }
  },
  {
    title: 'JSON of an unknown shape',
    step: { status: 418, body: { error: 'teapot' } },
    expected: { status: 418, message: /^I'm a Teapot: \{"error":"teapot"\}$/, transient: false, ambiguous: false }
  }
]

describe('error mapping (sent once through triggerRun, so nothing is retried)', () => {
  it.each(errorCases.map((c) => [c.title, c] as const))('%s', async (_, tc) => {
    server.script(tc.step)
    const err = await serviceFailure(client().c.triggerRun({ model_id: 'm_1' }))
    expect(err).not.toBeInstanceOf(MalformedResponseError)
    expect(err.endpoint).toBe('POST /api/v1/run')
    expect(err.status).toBe(tc.expected.status)
    expect(err.code).toBe(tc.expected.code)
    expect(err.message).toMatch(tc.expected.message)
    expect(err.transient).toBe(tc.expected.transient)
    expect(err.ambiguous).toBe(tc.expected.ambiguous)
    expect(err.retryAfterMs).toBe(tc.expected.retryAfterMs)
    if (tc.expected.extra) expect(err.extra).toEqual(tc.expected.extra)
    expect(err.describe()).not.toMatch(/\n/)
    expect(server.requests).toHaveLength(1)
  })

  it('names the endpoint with the id filled in and never the query string', async () => {
    server.script({ status: 404, body: { detail: { code: 'not_found', message: 'no such run' } } })
    const err = await serviceFailure(client().c.getRun('r 1', { min_severity: 'high' }))
    expect(err.endpoint).toBe('GET /api/v1/run/r%201')
    expect(err.describe()).toBe('GET /api/v1/run/r%201 HTTP 404 not_found: no such run')
  })

  it('does not follow a redirect (the key must not travel): 3xx is an error', async () => {
    server.script({ status: 302, raw: '', headers: { location: 'http://127.0.0.1:1/elsewhere' } })
    const err = await serviceFailure(client().c.listModels())
    expect(err.status).toBe(302)
    expect(err.transient).toBe(false)
    expect(server.requests).toHaveLength(1)
  })
})

// ---------------------------------------------------------------------------
// Malformed answers
// ---------------------------------------------------------------------------

const coverage = bodies.getCoverage
const malformedCases: { title: string; step: Step; fieldPath: string; message: RegExp }[] = [
  {
    title: 'non-JSON 200 (HTML)',
    step: { status: 200, raw: '<html>proxy error</html>' },
    fieldPath: '',
    message: /^response body is not JSON, starts with "<html>proxy error<\/html>"$/
  },
  {
    title: 'truncated JSON',
    step: { status: 200, raw: JSON.stringify(coverage).slice(0, 40) },
    fieldPath: '',
    message: /^response body is not valid JSON \(truncated\?\)/
  },
  { title: 'empty body', step: { status: 200, raw: '' }, fieldPath: '', message: /^response body is empty, expected JSON$/ },
  {
    title: 'JSON but not an object',
    step: { status: 200, body: 'text' },
    fieldPath: '',
    message: /^response body: expected object, got "text"$/
  },
  {
    title: 'missing field',
    step: { status: 200, body: { run_id: 'r_1', run_status: 'completed' } },
    fieldPath: 'categories',
    message: /^response field categories: expected array, got missing$/
  },
  {
    title: 'wrong type',
    step: { status: 200, body: { ...coverage, categories: [coverage.categories[0], { ...coverage.categories[1], attacks_blocked: '4' }] } },
    fieldPath: 'categories[1].attacks_blocked',
    message: /^response field categories\[1\]\.attacks_blocked: expected number, got "4"$/
  },
  {
    title: 'negative count',
    step: { status: 200, body: { ...coverage, categories: [{ ...coverage.categories[0], attacks_succeeded: -1 }] } },
    fieldPath: 'categories[0].attacks_succeeded',
    message: /^response field categories\[0\]\.attacks_succeeded: expected at least 0, got -1$/
  },
  {
    title: 'unknown enum value',
    step: {
      status: 200,
      body: { ...coverage, categories: [...coverage.categories.slice(0, 2), { ...coverage.categories[2], worst_severity: 'urgent' }] }
    },
    fieldPath: 'categories[2].worst_severity',
    message: /^response field categories\[2\]\.worst_severity: expected one of critical\|high\|medium\|low, got "urgent"$/
  },
  {
    title: 'empty run status, and a second issue counted',
    step: { status: 200, body: { run_id: 'r_1', run_status: '', categories: null } },
    fieldPath: 'run_status',
    message: /^response field run_status: expected at least 1, got "" \(and 1 more issue\)$/
  },
  {
    title: 'unexpected 2xx status',
    step: { status: 204, raw: '' },
    fieldPath: '',
    message: /^unexpected success status 204, expected 200$/
  }
]

describe('malformed answers', () => {
  it.each(malformedCases.map((c) => [c.title, c] as const))('%s', async (_, tc) => {
    server.script(tc.step)
    const err = await failure(client({ retryPolicy: { ...POLICY, maxAttempts: 1 } }).c.getCoverage('r_1'))
    expect(err).toBeInstanceOf(MalformedResponseError)
    const m = err as MalformedResponseError
    expect(m.endpoint).toBe('GET /api/v1/run/r_1/coverage')
    expect(m.fieldPath).toBe(tc.fieldPath)
    expect(m.message).toMatch(tc.message)
    expect(m.transient).toBe(true)
    expect(m.ambiguous).toBe(true)
    expect(m.describe()).toMatch(/^GET \/api\/v1\/run\/r_1\/coverage HTTP \d+ malformed_response: /)
    expect(m.describe()).not.toMatch(/\n/)
  })

  it('a findings list with a bad nested attack names the full path', async () => {
    const bad = {
      findings: [
        { ...bodies.listFindings.findings[0], attacks: [{ ...bodies.listFindings.findings[0].attacks[0], last_replay_status: 42 }] }
      ],
      count: 1
    }
    server.script({ status: 200, body: bad })
    const err = (await failure(client({ retryPolicy: { ...POLICY, maxAttempts: 1 } }).c.listFindings('r_1'))) as MalformedResponseError
    expect(err.fieldPath).toBe('findings[0].attacks[0].last_replay_status')
  })
})

// ---------------------------------------------------------------------------
// Retries
// ---------------------------------------------------------------------------

const unavailable: Step = { status: 503, body: { detail: 'busy' } }

describe('retries', () => {
  it.each([500, 502, 503, 504, 408])('GET: %i then success is retried after a backoff within the window', async (status) => {
    server.script({ status, raw: 'no' }, { status: 200, body: bodies.getRun })
    const { c, clock, log } = client()
    await expect(c.getRun('r_1')).resolves.toEqual(bodies.getRun)
    expect(server.requests).toHaveLength(2)
    expect(clock.sleeps).toHaveLength(1)
    // random() = 0.5 of the first window (baseDelayMs)
    expect(clock.sleeps[0]).toBe(POLICY.baseDelayMs / 2)
    const info = log.lines.filter((l) => l.level === 'info').map((l) => l.line)
    expect(info).toEqual([`GET /api/v1/run/r_1: HTTP ${status}; retrying in 0.1 s (attempt 2 of 4)`])
  })

  it.each([400, 401, 403, 404, 409, 422])('GET: %i is not retried', async (status) => {
    server.script({ status, body: { detail: { code: 'x', message: 'y' } } }, { status: 200, body: bodies.getRun })
    const { c, clock } = client()
    const err = await serviceFailure(c.getRun('r_1'))
    expect(err.status).toBe(status)
    expect(err.attempts).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it('429 waits for Retry-After, then succeeds', async () => {
    server.script(
      { status: 429, body: { detail: { code: 'rate_limited', message: 'slow' } }, headers: { 'retry-after': '12' } },
      { status: 200, body: bodies.listModels }
    )
    const { c, clock } = client()
    await expect(c.listModels()).resolves.toEqual(bodies.listModels)
    expect(clock.sleeps).toEqual([12_000])
  })

  it('429 with an HTTP-date waits until that date', async () => {
    server.script({ status: 429, raw: '', headers: { 'retry-after': retryDate } }, { status: 200, body: bodies.listModels })
    const { c, clock } = client()
    await c.listModels()
    expect(clock.sleeps).toEqual([30_000])
  })

  it('the deadline stops waiting: a Retry-After beyond it ends with DeadlineExceededError', async () => {
    server.script({ status: 429, body: { detail: { code: 'rate_limited', message: 'slow' } }, headers: { 'retry-after': '120' } })
    const clock = fakeClock()
    const { c } = client({ clock, deadline: Deadline.after(clock, 60_000) })
    const err = await failure(c.listModels())
    expect(err).toBeInstanceOf(DeadlineExceededError)
    expect((err as Error).message).toMatch(/retry after 120 s, but only 60 s of the time allowed remain/)
    expect(server.requests).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it('stops after maxAttempts and reports what was retried', async () => {
    server.script(unavailable)
    const { c, clock } = client()
    const err = await serviceFailure(c.getCoverage('r_1'))
    expect(err.status).toBe(503)
    expect(err.attempts).toBe(POLICY.maxAttempts)
    expect(err.retried).toHaveLength(POLICY.maxAttempts - 1)
    expect(server.requests).toHaveLength(POLICY.maxAttempts)
    expect(clock.sleeps).toHaveLength(POLICY.maxAttempts - 1)
    expect(err.describe()).toMatch(/after 4 attempts/)
  })

  it('a malformed answer is retried, and the next good one is used', async () => {
    server.script({ status: 200, raw: '<html>' }, { status: 200, body: bodies.listRuns })
    await expect(client().c.listRuns('m_1')).resolves.toEqual(bodies.listRuns)
    expect(server.requests).toHaveLength(2)
  })

  it('a connection reset on a GET is retried', async () => {
    server.script(resetAfterRequest, { status: 200, body: bodies.listFindings })
    await expect(client().c.listFindings('r_1')).resolves.toEqual(bodies.listFindings)
    expect(server.requests).toHaveLength(2)
  })

  it.each([
    ['cancelRun', (c: ServiceApi) => c.cancelRun('r_1'), bodies.cancelRun, 202],
    ['closeFinding', (c: ServiceApi) => c.closeFinding('f_1', { status: 'fixed', explanation: 'patched' }), bodies.closeFinding, 200]
  ] as const)('%s is retried on 503', async (_, call, body, status) => {
    server.script(unavailable, { status, body })
    await expect(call(client().c)).resolves.toEqual(body)
    expect(server.requests).toHaveLength(2)
  })

  it.each([
    ['the emulator body', { status: 202, body: bodies.cancelRun }],
    ['an empty body', { status: 202, raw: '' }],
    ['{}', { status: 202, body: {} }],
    ['{"status":"cancelling"}', { status: 202, body: { status: 'cancelling' } }],
    ['a body that is not JSON', { status: 202, raw: 'Accepted' }]
  ] as [string, Step][])('cancelRun: a 202 with %s means the cancel was recorded, sent once', async (_, step) => {
    server.script(step)
    const { c, clock } = client()
    await expect(c.cancelRun('r_1')).resolves.not.toBeInstanceOf(Error)
    expect(server.requests).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it('cancelRun returns a 409 run_not_running on the retry as-is', async () => {
    server.script(resetAfterRequest, { status: 409, body: { detail: { code: 'run_not_running', message: 'run is cancelled' } } })
    const err = await serviceFailure(client().c.cancelRun('r_1'))
    expect(err.code).toBe('run_not_running')
    expect(server.requests).toHaveLength(2)
  })

  const sentOnce: [string, Call][] = [
    ['triggerRun', (c) => c.triggerRun({ model_id: 'm_1' })],
    ['registerModel', (c) => c.registerModel({ name: 'x', config: { endpoint_url: 'https://x.example.com', response_field: 'r' } })],
    ['validateFinding', (c) => c.validateFinding('f_1')],
    ['changeProfile', (c) => c.changeProfile('m_1', { changes: { purpose: 'p' }, version: 1, profile_id: 'p_1' })],
    ['confirmProfile', (c) => c.confirmProfile('m_1', { version: 1, profile_id: 'p_1' })]
  ]
  it.each(sentOnce)('%s is sent once: never retried on 503', async (_, call) => {
    server.script(unavailable, { status: 200, body: {} })
    const { c, clock } = client()
    const err = await serviceFailure(call(c))
    expect(err.status).toBe(503)
    expect(err.ambiguous).toBe(true)
    expect(server.requests).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it.each(sentOnce)('%s is sent once: never retried after a reset, which is ambiguous', async (_, call) => {
    server.script(resetAfterRequest, { status: 200, body: {} })
    const err = await serviceFailure(call(client().c))
    expect(err.code).toBe('ECONNRESET')
    expect(err.ambiguous).toBe(true)
    expect(err.transient).toBe(true)
    expect(server.requests).toHaveLength(1)
  })

  it('triggerRun is not retried on a malformed 202 either (ambiguous: the run may exist)', async () => {
    server.script({ status: 202, raw: '{"run_id": "r_' }, { status: 202, body: bodies.triggerRun })
    const err = await failure(client().c.triggerRun({ model_id: 'm_1' }))
    expect(err).toBeInstanceOf(MalformedResponseError)
    expect((err as MalformedResponseError).ambiguous).toBe(true)
    expect(server.requests).toHaveLength(1)
  })
})

// ---------------------------------------------------------------------------
// Network errors, timeouts, abort
// ---------------------------------------------------------------------------

describe('network errors, per-request timeout and abort', () => {
  it('connection refused: transient, not ambiguous (never reached), retried for reads', async () => {
    const port = await closedPort()
    const clock = fakeClock()
    const c = new AssessmentClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, clock, retryPolicy: POLICY, random: () => 0 })
    const err = await serviceFailure(c.listModels())
    expect(err.code).toBe('ECONNREFUSED')
    expect(err.transient).toBe(true)
    expect(err.ambiguous).toBe(false)
    expect(err.status).toBeUndefined()
    expect(err.attempts).toBe(POLICY.maxAttempts)
    const once = await serviceFailure(c.triggerRun({ model_id: 'm_1' }))
    expect(once.attempts).toBe(1)
    expect(once.ambiguous).toBe(false)
  })

  it('a body cut short by the server (fewer bytes than Content-Length) is an ambiguous network error', async () => {
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' })
      res.write('{"models": [')
      setImmediate(() => res.socket?.destroy())
    })
    const err = await serviceFailure(client({ retryPolicy: { ...POLICY, maxAttempts: 1 } }).c.listModels())
    expect(err.code).toBe('ECONNRESET')
    expect(err.ambiguous).toBe(true)
    expect(err.transient).toBe(true)
  })

  it('a server that accepts and never answers hits the per-request timeout', async () => {
    server.script(neverAnswer)
    const err = await serviceFailure(client({ requestTimeoutMs: 200, retryPolicy: { ...POLICY, maxAttempts: 2 } }).c.getRun('r_1'))
    expect(err.code).toBe('request_timeout')
    expect(err.transient).toBe(true)
    expect(err.ambiguous).toBe(true)
    expect(err.message).toBe('no complete answer within 200 ms (per-request timeout)')
    expect(err.attempts).toBe(2)
    expect(server.requests).toHaveLength(2)
  })

  it('caps the timeout of an attempt by what is left before the deadline, so a hang cannot outlast timeout_minutes', async () => {
    server.script(neverAnswer)
    const clock = fakeClock()
    const deadline = Deadline.after(clock, 2_500)
    const err = await serviceFailure(client({ clock, deadline, retryPolicy: { ...POLICY, maxAttempts: 1 } }).c.getRun('r_1'))
    expect(err.code).toBe('request_timeout')
    expect(err.message).toBe('no complete answer within 2500 ms (per-request timeout)')
  })

  it('a server that sends headers and then stalls the body hits the per-request timeout too', async () => {
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"models": [')
    })
    const err = await serviceFailure(client({ requestTimeoutMs: 200 }).c.triggerRun({ model_id: 'm_1' }))
    expect(err.code).toBe('request_timeout')
    expect(server.requests).toHaveLength(1)
  })

  it('aborting the per-call signal while the request is in flight rejects with AbortedError', async () => {
    server.script(neverAnswer)
    const ac = new AbortController()
    const pending = failure(client().c.getRun('r_1', {}, { signal: ac.signal }))
    await server.received(1)
    ac.abort()
    expect(await pending).toBeInstanceOf(AbortedError)
  })

  it('the client-wide signal is honoured too; an aborted signal sends nothing', async () => {
    const ac = new AbortController()
    ac.abort()
    const err = await failure(client({ signal: ac.signal }).c.listModels())
    expect(err).toBeInstanceOf(AbortedError)
    expect(server.requests).toHaveLength(0)
  })

  it('aborting during the wait between retries rejects with AbortedError', async () => {
    server.script(unavailable)
    const ac = new AbortController()
    const clock = fakeClock()
    const sleeping = {
      ...clock,
      sleep: async (ms: number, signal?: AbortSignal) => {
        ac.abort()
        return clock.sleep(ms, signal)
      }
    }
    const err = await failure(client({ clock: sleeping, signal: ac.signal }).c.listModels())
    expect(err).toBeInstanceOf(AbortedError)
    expect(server.requests).toHaveLength(1)
  })
})

// ---------------------------------------------------------------------------
// The api key never leaks
// ---------------------------------------------------------------------------

describe('the api key never appears in an error, its fields, or a log line', () => {
  const echoKey =
    (shape: 'coded' | 'text' | 'html' | 'list' | 'malformed'): Step =>
    (req, res) => {
      const auth = String(req.headers.authorization)
      const status = shape === 'malformed' ? 200 : 400
      const body =
        shape === 'coded'
          ? JSON.stringify({ detail: { code: 'bad', message: `you sent ${auth}`, echo: { header: auth, list: [auth] } } })
          : shape === 'text'
            ? JSON.stringify({ detail: `header was ${auth}` })
            : shape === 'list'
              ? JSON.stringify({ detail: [{ loc: ['header', auth], msg: `bad ${auth}`, type: 't', input: auth }] })
              : shape === 'html'
                ? `<pre>${auth}</pre>`
                : JSON.stringify({ models: [{ ...bodies.listModels.models[0], has_agent_config: auth }] })
      res.writeHead(status, { 'content-type': 'application/json' }).end(body)
    }

  it.each(['coded', 'text', 'html', 'list', 'malformed'] as const)('server echoes the header in a %s body', async (shape) => {
    server.script(echoKey(shape))
    const { c, log } = client({ retryPolicy: { ...POLICY, maxAttempts: 2 } })
    const err = await serviceFailure(c.listModels())
    expect(server.requests[0].headers.authorization).toContain(KEY) // it was really echoed
    const everything = [
      err.message,
      err.describe(),
      err.stack ?? '',
      JSON.stringify(err.extra),
      JSON.stringify(err),
      ...log.lines.map((l) => l.line)
    ].join('\n')
    expect(everything).not.toContain(KEY)
    expect(everything).toContain('***')
  })

  it('network errors and timeouts do not carry it either', async () => {
    server.script(neverAnswer)
    const { c, log } = client({ requestTimeoutMs: 100, retryPolicy: { ...POLICY, maxAttempts: 1 } })
    const err = await serviceFailure(c.listModels())
    const everything = [err.message, err.describe(), err.stack ?? '', JSON.stringify(err), ...log.lines.map((l) => l.line)].join('\n')
    expect(everything).not.toContain(KEY)
    expect(everything).not.toMatch(/authorization|bearer/i)
  })
})

describe('a body over the size limit', () => {
  it('is a malformed answer, not retried, naming the endpoint', async () => {
    server.script({ status: 200, body: bodies.listModels })
    const { c } = client({ maxBodyBytes: 64 })
    const err = (await failure(c.listModels())) as MalformedResponseError
    expect(err).toBeInstanceOf(MalformedResponseError)
    expect(err.transient).toBe(false)
    expect(err.attempts).toBe(1)
    expect(err.describe()).toMatch(/GET \/api\/v1\/model.*larger than 64 bytes/)
  })
})
