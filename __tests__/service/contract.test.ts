import { describe, expect, it } from '@jest/globals'
import type { z } from 'zod'
import {
  atOrAbove,
  isTerminal,
  CancelRunResponse,
  CoverageResponse,
  FindingList,
  RunList,
  RunStatusResponse,
  TriggerRunResponse,
  RegisterModelBody,
  CloseFindingBody,
  ChangeProfileBody,
  API_ASSUMPTIONS,
  ENDPOINTS,
  ERROR_CODES,
  type EndpointName
} from '../../src/service/contract/index.js'
import { MalformedResponseError } from '../../src/util/errors.js'
import { parseSuccessBody } from '../../src/service/parse-response.js'
import { bodies, finding } from '../__fixtures__/service-bodies.js'

describe('contract', () => {
  it.each([
    ['critical', 'high', true],
    ['high', 'high', true],
    ['medium', 'high', false],
    ['low', 'critical', false],
    ['critical', 'low', true]
  ] as const)('%s at or above %s is %s', (s, t, expected) => {
    expect(atOrAbove(s, t)).toBe(expected)
  })

  it('keeps unknown response fields and rejects a missing known one with its path', () => {
    const ok = RunStatusResponse.parse({
      run_id: 'r',
      model_id: 'm',
      status: 'running',
      started_at: 't',
      completed_at: null,
      categories_planned: ['a'],
      categories_completed: [],
      extra_field: 1
    })
    expect(ok).toMatchObject({ extra_field: 1 })
    const bad = RunStatusResponse.safeParse({ run_id: 'r', model_id: 'm', categories_planned: [], categories_completed: [] })
    expect(bad.success).toBe(false)
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toContain('status')
  })

  it.each([
    ['completed', true],
    ['error', true],
    ['cancelled', true],
    ['running', false],
    ['queued', false],
    ['pending', false],
    ['RUNNING', false],
    ['Completed', false],
    [' completed', false]
  ] as const)('isTerminal(%j) is %s: only the three named end states, matched exactly', (status, expected) => {
    expect(isTerminal(status)).toBe(expected)
  })

  it('enforces the registration rules of section 2.2', () => {
    const base = { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'reply' } }
    expect(RegisterModelBody.safeParse(base).success).toBe(true)
    expect(RegisterModelBody.safeParse({ ...base, auth_type: 'bearer' }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, auth_type: 'bearer', credential: 'abcd' }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, auth_type: 'bearer', credential: 'abcde' }).success).toBe(true)
    expect(RegisterModelBody.safeParse({ ...base, oauth: { token_url: 'u', client_id: 'c' } }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, name: '' }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, name: 'n'.repeat(201) }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, config: { ...base.config, request_timeout: 181 } }).success).toBe(false)
  })

  it('enforces the close rules of section 4.9', () => {
    expect(CloseFindingBody.safeParse({ status: 'fixed', explanation: '   ' }).success).toBe(false)
    expect(CloseFindingBody.safeParse({ status: 'dismissed', explanation: 'why' }).success).toBe(false)
    expect(CloseFindingBody.safeParse({ status: 'dismissed', explanation: 'why', reason_code: 'other' }).success).toBe(true)
    expect(CloseFindingBody.safeParse({ status: 'fixed', explanation: 'x'.repeat(4001) }).success).toBe(false)
  })

  it('refuses a profile value that still holds an untrusted fence', () => {
    expect(ChangeProfileBody.safeParse({ changes: { purpose: '[UNTRUSTED:abc]x[/UNTRUSTED:abc]' } }).success).toBe(false)
    expect(ChangeProfileBody.safeParse({ changes: { purpose: 'support bot' } }).success).toBe(true)
    expect(ChangeProfileBody.safeParse({ changes: {}, version: 1 }).success).toBe(false)
  })

  it('lists every error code among the assumptions', () => {
    const codes = API_ASSUMPTIONS.find((a) => a.topic === 'error codes')?.decision ?? ''
    for (const list of Object.values(ERROR_CODES)) for (const c of list) expect(codes).toContain(c)
  })
})

describe('docs/api-assumptions.md', () => {
  it('lists every API assumption of the contract module', async () => {
    const { readFileSync } = await import('node:fs')
    const doc = readFileSync(new URL('../../docs/api-assumptions.md', import.meta.url), 'utf8')
    for (const a of API_ASSUMPTIONS) expect(doc).toContain(`| ${a.topic} | ${a.decision.replace(/\|/g, '\\|')} |`)
  })
})

// ---------------------------------------------------------------------------
// What the description does not guarantee is accepted; what it does is checked
// ---------------------------------------------------------------------------

/** How the client names an endpoint in an error: method and path, ids filled in. */
function endpointOf(name: EndpointName): string {
  const e = ENDPOINTS[name]
  return `${e.method} ${e.path.replace('{run_id}', 'r_1').replace('{model_id}', 'm_1').replace('{finding_id}', 'f_1')}`
}

function parse(name: EndpointName, schema: z.ZodType, text: string): unknown {
  return parseSuccessBody(schema, text, { endpoint: endpointOf(name), status: ENDPOINTS[name].ok })
}

const json = (v: unknown): string => JSON.stringify(v)
const minimalRun = { status: 'running', categories_planned: ['a'], categories_completed: [] }
const attack = finding.attacks[0]
function findingsWith(
  patch: Record<string, unknown>,
  attackPatch: Record<string, unknown> = {},
  stepPatch: Record<string, unknown> = {}
): string {
  const step = { ...attack.replay_script[0], ...stepPatch }
  return json({ findings: [{ ...finding, ...patch, attacks: [{ ...attack, ...attackPatch, replay_script: [step] }] }], count: 1 })
}

const lenient: [string, EndpointName, z.ZodType, string][] = [
  ['run status: only status, categories_planned, categories_completed', 'getRun', RunStatusResponse, json(minimalRun)],
  [
    'run status: run_id, model_id, started_at, completed_at null',
    'getRun',
    RunStatusResponse,
    json({ ...minimalRun, run_id: null, model_id: null, started_at: null, completed_at: null })
  ],
  [
    'run status: terminal with a verdict, nothing else',
    'getRun',
    RunStatusResponse,
    json({ ...minimalRun, status: 'completed', verdict: 'pass' })
  ],
  ['run status "queued"', 'getRun', RunStatusResponse, json({ ...bodies.getRun, status: 'queued', verdict: null })],
  ['run status "pending"', 'getRun', RunStatusResponse, json({ ...minimalRun, status: 'pending' })],
  ['run status "RUNNING"', 'getRun', RunStatusResponse, json({ ...minimalRun, status: 'RUNNING' })],
  ['trigger answer with status "queued"', 'triggerRun', TriggerRunResponse, json({ ...bodies.triggerRun, status: 'queued' })],
  [
    'run list item with status "pending"',
    'listRuns',
    RunList,
    json({ ...bodies.listRuns, runs: [{ ...bodies.listRuns.runs[0], status: 'pending' }] })
  ],
  [
    'coverage without run_id',
    'getCoverage',
    CoverageResponse,
    json({ run_status: 'completed', categories: bodies.getCoverage.categories })
  ],
  ['coverage with run_status "finalizing"', 'getCoverage', CoverageResponse, json({ ...bodies.getCoverage, run_status: 'finalizing' })],
  ['finding status "reopened"', 'listFindings', FindingList, findingsWith({ status: 'reopened' })],
  ['finding status "in_review"', 'listFindings', FindingList, findingsWith({ status: 'in_review' })],
  ['attack last_replay_status "replaying"', 'listFindings', FindingList, findingsWith({}, { last_replay_status: 'replaying' })],
  ['attack last_replay_status ""', 'listFindings', FindingList, findingsWith({}, { last_replay_status: '' })],
  [
    'replay headers with numbers, booleans, null and arrays',
    'listFindings',
    FindingList,
    findingsWith(
      {},
      {},
      {
        headers: {
          'Content-Length': 42,
          'X-Cache': false,
          'X-Empty': null,
          'Set-Cookie': ['a=1', 'b=2'],
          'X-Mixed': [1, true, null, 's'],
          Accept: '*/*'
        }
      }
    )
  ],
  ['replay headers empty', 'listFindings', FindingList, findingsWith({}, {}, { headers: {} })],
  ['cancel 202: the emulator body', 'cancelRun', CancelRunResponse, json(bodies.cancelRun)],
  ['cancel 202: empty body', 'cancelRun', CancelRunResponse, ''],
  ['cancel 202: {}', 'cancelRun', CancelRunResponse, '{}'],
  ['cancel 202: {"status":"cancelling"}', 'cancelRun', CancelRunResponse, '{"status":"cancelling"}'],
  ['cancel 202: not JSON', 'cancelRun', CancelRunResponse, 'Accepted'],
  ['cancel 202: cut-short JSON', 'cancelRun', CancelRunResponse, '{"run_id": "r_']
]

const strict: [string, EndpointName, z.ZodType, string, string, RegExp][] = [
  [
    'run status: status missing',
    'getRun',
    RunStatusResponse,
    json({ categories_planned: [], categories_completed: [] }),
    'status',
    /^response field status: expected string, got missing$/
  ],
  [
    'run status: status empty',
    'getRun',
    RunStatusResponse,
    json({ ...minimalRun, status: '' }),
    'status',
    /^response field status: expected at least 1, got ""$/
  ],
  [
    'run status: status a number',
    'getRun',
    RunStatusResponse,
    json({ ...minimalRun, status: 3 }),
    'status',
    /^response field status: expected string, got 3$/
  ],
  [
    'run status: categories_planned missing',
    'getRun',
    RunStatusResponse,
    json({ status: 'running', categories_completed: [] }),
    'categories_planned',
    /expected array, got missing$/
  ],
  [
    'run status: categories_completed mistyped',
    'getRun',
    RunStatusResponse,
    json({ ...minimalRun, categories_completed: 'all' }),
    'categories_completed',
    /expected array, got "all"$/
  ],
  [
    'run status: verdict outside pass/fail',
    'getRun',
    RunStatusResponse,
    json({ ...minimalRun, status: 'completed', verdict: 'PASS' }),
    'verdict',
    /expected one of pass\|fail, got "PASS"$/
  ],
  [
    'run status: run_id present but mistyped',
    'getRun',
    RunStatusResponse,
    json({ ...minimalRun, run_id: 7 }),
    'run_id',
    /expected string, got 7$/
  ],
  [
    'trigger answer: run_id missing',
    'triggerRun',
    TriggerRunResponse,
    json({ ...bodies.triggerRun, run_id: undefined }),
    'run_id',
    /expected string, got missing$/
  ],
  [
    'coverage: run_status missing',
    'getCoverage',
    CoverageResponse,
    json({ categories: [] }),
    'run_status',
    /expected string, got missing$/
  ],
  [
    'coverage: worst_severity outside the severities',
    'getCoverage',
    CoverageResponse,
    json({ ...bodies.getCoverage, categories: [{ ...bodies.getCoverage.categories[0], worst_severity: 'severe' }] }),
    'categories[0].worst_severity',
    /expected one of critical\|high\|medium\|low, got "severe"$/
  ],
  [
    'finding: severity outside the four',
    'listFindings',
    FindingList,
    findingsWith({ severity: 'urgent' }),
    'findings[0].severity',
    /expected one of critical\|high\|medium\|low, got "urgent"$/
  ],
  [
    'finding: lens outside the four',
    'listFindings',
    FindingList,
    findingsWith({ lens: 'privacy' }),
    'findings[0].lens',
    /expected one of security\|safety\|quality\|policy, got "privacy"$/
  ],
  [
    'finding: status empty',
    'listFindings',
    FindingList,
    findingsWith({ status: '' }),
    'findings[0].status',
    /expected at least 1, got ""$/
  ],
  ['finding: status null', 'listFindings', FindingList, findingsWith({ status: null }), 'findings[0].status', /expected string, got null$/],
  [
    'attack: last_replay_status a number',
    'listFindings',
    FindingList,
    findingsWith({}, { last_replay_status: 5 }),
    'findings[0].attacks[0].last_replay_status',
    /expected string, got 5$/
  ],
  [
    'replay headers: a value that is an object',
    'listFindings',
    FindingList,
    findingsWith({}, {}, { headers: { 'X-Obj': { a: 1 } } }),
    'findings[0].attacks[0].replay_script[0].headers["X-Obj"]',
    /^response field findings\[0\]\.attacks\[0\]\.replay_script\[0\]\.headers\["X-Obj"\]: .*got an object$/
  ],
  [
    'replay headers: not an object',
    'listFindings',
    FindingList,
    findingsWith({}, {}, { headers: 'a: b' }),
    'findings[0].attacks[0].replay_script[0].headers',
    /expected record, got "a: b"$/
  ]
]

describe('parsing: lenient where the description does not guarantee a field or value', () => {
  it.each(lenient)('%s parses', (_name, endpoint, schema, text) => {
    expect(() => parse(endpoint, schema, text)).not.toThrow()
  })

  it('keeps what it accepted as sent', () => {
    expect(parse('getRun', RunStatusResponse, json(minimalRun))).toEqual(minimalRun)
    expect(parse('cancelRun', CancelRunResponse, '{"status":"cancelling"}')).toEqual({ status: 'cancelling' })
    expect(parse('cancelRun', CancelRunResponse, '')).toBe('')
  })
})

describe('parsing: strict where the description guarantees it', () => {
  it.each(strict)('%s -> MalformedResponseError naming the endpoint and the field', (_name, endpoint, schema, text, fieldPath, message) => {
    let err: unknown
    try {
      parse(endpoint, schema, text)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(MalformedResponseError)
    const m = err as MalformedResponseError
    expect(m.endpoint).toBe(endpointOf(endpoint))
    expect(m.fieldPath).toBe(fieldPath)
    expect(m.message).toMatch(message)
    expect(m.describe()).toMatch(
      new RegExp(`^${endpointOf(endpoint).replace(/[/{}]/g, '\\$&')} HTTP \\d+ malformed_response: response (field|body)`)
    )
    expect(m.describe()).not.toMatch(/\n/)
  })
})
