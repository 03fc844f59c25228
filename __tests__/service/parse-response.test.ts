/** Pure parsing of success and error bodies: tables and properties. */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { CoverageResponse, FindingList, RunStatusResponse } from '../../src/service/contract/index.js'
import { MalformedResponseError } from '../../src/util/errors.js'
import { describeValue, formatPath, parseErrorBody, parseSuccessBody } from '../../src/service/parse-response.js'
import { bodies } from '../__fixtures__/service-bodies.js'

const SECRET = 'asas_secret_value_42'
const ctx = { endpoint: 'GET /api/v1/run/r_1', status: 200, secrets: [SECRET] }

describe('formatPath', () => {
  it.each([
    [[], ''],
    [['a'], 'a'],
    [['categories', 2, 'worst_severity'], 'categories[2].worst_severity'],
    [['findings', 0, 'attacks', 1, 'replay_script', 3, 'step'], 'findings[0].attacks[1].replay_script[3].step'],
    [['answers', 'has space'], 'answers["has space"]'],
    [[0], '[0]']
  ] as [PropertyKey[], string][])('%j -> %s', (path, expected) => {
    expect(formatPath(path)).toBe(expected)
  })
})

describe('describeValue', () => {
  it.each([
    [null, 'null'],
    ['urgent', '"urgent"'],
    [3, '3'],
    [false, 'false'],
    [[1], 'an array'],
    [{ a: 1 }, 'an object'],
    ['x'.repeat(100), `"${'x'.repeat(37)}..."`]
  ])('describeValue(%j) = %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected)
  })

  it('redacts before clipping, so no prefix of a secret survives', () => {
    const text = describeValue(`Bearer ${SECRET}${'z'.repeat(50)}`, [SECRET])
    expect(text).toMatch(/^"Bearer \*\*\*z+\.\.\."$/)
    expect(text).not.toContain(SECRET.slice(0, 8))
  })
})

describe('parseSuccessBody', () => {
  it('keeps unknown extra fields (loose objects)', () => {
    const parsed = parseSuccessBody(RunStatusResponse, JSON.stringify({ ...bodies.getRun, new_field: 1 }), ctx)
    expect(parsed).toEqual({ ...bodies.getRun, new_field: 1 })
  })

  it('accepts an absent or null verdict', () => {
    const { verdict: _v, ...noVerdict } = bodies.getRun
    expect(parseSuccessBody(RunStatusResponse, JSON.stringify(noVerdict), ctx).verdict).toBeUndefined()
    expect(parseSuccessBody(RunStatusResponse, JSON.stringify({ ...noVerdict, verdict: null }), ctx).verdict).toBeNull()
  })

  it.each([
    ['verdict', { ...bodies.getRun, verdict: 'maybe' }, 'verdict', 'response field verdict: expected one of pass|fail, got "maybe"'],
    ['completed_at', { ...bodies.getRun, completed_at: 5 }, 'completed_at', 'response field completed_at: expected string, got 5'],
    [
      'categories_completed',
      { ...bodies.getRun, categories_completed: 'all' },
      'categories_completed',
      'response field categories_completed: expected array, got "all"'
    ],
    [
      'categories_planned item',
      { ...bodies.getRun, categories_planned: ['a', null] },
      'categories_planned[1]',
      'response field categories_planned[1]: expected string, got null'
    ]
  ])('run status: %s', (_, body, fieldPath, message) => {
    let err: unknown
    try {
      parseSuccessBody(RunStatusResponse, JSON.stringify(body), ctx)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(MalformedResponseError)
    expect((err as MalformedResponseError).fieldPath).toBe(fieldPath)
    expect((err as MalformedResponseError).message).toBe(message)
    expect((err as MalformedResponseError).endpoint).toBe('GET /api/v1/run/r_1')
  })

  it('an integer field holding a fraction says so', () => {
    const body = { ...bodies.getCoverage, categories: [{ ...bodies.getCoverage.categories[0], attacks_blocked: 1.5 }] }
    expect(() => parseSuccessBody(CoverageResponse, JSON.stringify(body), ctx)).toThrow(
      'response field categories[0].attacks_blocked: expected an integer, got 1.5'
    )
  })

  it('property: any text either parses or throws a one-line MalformedResponseError, never anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v))
        ),
        (text) => {
          try {
            parseSuccessBody(FindingList, text, ctx)
          } catch (err) {
            expect(err).toBeInstanceOf(MalformedResponseError)
            const m = (err as MalformedResponseError).message
            expect(m).not.toMatch(/[\u0000-\u001f]/)
            expect(m.length).toBeLessThan(400)
          }
        }
      ),
      { numRuns: 300 }
    )
  })

  it('property: mutating one field of a valid findings list to a random value never crashes the parser', () => {
    const base = bodies.listFindings
    fc.assert(
      fc.property(
        fc.constantFrom('finding_id', 'lens', 'severity', 'status', 'attacks', 'created_at', 'category'),
        fc.jsonValue(),
        (field, value) => {
          const body = { ...base, findings: [{ ...base.findings[0], [field]: value }] }
          try {
            parseSuccessBody(FindingList, JSON.stringify(body), ctx)
          } catch (err) {
            expect(err).toBeInstanceOf(MalformedResponseError)
            expect((err as MalformedResponseError).fieldPath.startsWith(`findings[0].${field}`)).toBe(true)
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe('parseErrorBody', () => {
  it.each([
    [
      'coded with extra',
      403,
      'Forbidden',
      { detail: { code: 'allowance_exhausted', message: 'spent', resets_on: '2026-12-01' } },
      { code: 'allowance_exhausted', message: 'spent', extra: { resets_on: '2026-12-01' } }
    ],
    ['text detail on 401', 401, 'Unauthorized', { detail: 'bad key' }, { code: 'unauthorized', message: 'bad key', extra: {} }],
    ['text detail on 404', 404, 'Not Found', { detail: 'gone' }, { code: undefined, message: 'gone', extra: {} }],
    [
      'probe failure',
      422,
      'Unprocessable Entity',
      { detail: { error: 'probe_failed', error_category: 'auth_failed', message: 'target said 401' } },
      { code: 'probe_failed', message: 'target said 401', extra: { error_category: 'auth_failed' } }
    ],
    [
      'validation list',
      422,
      'Unprocessable Entity',
      { detail: [{ loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal', input: '500' }] },
      {
        code: 'validation_error',
        message: 'request validation failed: query.limit: Input should be less than or equal to 100',
        extra: { issues: [{ loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal' }] }
      }
    ],
    [
      'empty validation list',
      422,
      'Unprocessable Entity',
      { detail: [] },
      { code: 'validation_error', message: 'request validation failed (no details given)', extra: { issues: [] } }
    ],
    [
      'unknown JSON',
      500,
      'Internal Server Error',
      { oops: true },
      { code: undefined, message: 'Internal Server Error: {"oops":true}', extra: {} }
    ],
    ['JSON null', 502, 'Bad Gateway', null, { code: undefined, message: 'Bad Gateway: null', extra: {} }]
  ])('%s', (_, status, statusText, body, expected) => {
    expect(parseErrorBody(status, statusText, JSON.stringify(body))).toEqual(expected)
  })

  it('non-JSON: status text and the first 200 characters of the body', () => {
    const parsed = parseErrorBody(502, 'Bad Gateway', `<h1>\n${'y'.repeat(300)}`)
    expect(parsed.message).toBe(`Bad Gateway: <h1> ${'y'.repeat(192)}...`)
    expect(parsed.code).toBeUndefined()
  })

  it('no status text and no body', () => {
    expect(parseErrorBody(599, '', '')).toEqual({ code: undefined, message: 'HTTP 599', extra: {} })
  })

  it('property: any body gives a one-line, bounded, secret-free message and never throws', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 300, max: 599 }),
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.record({ detail: fc.record({ code: fc.string(), message: fc.string() }) }).map((v) => JSON.stringify(v))
        ),
        (status, text) => {
          const withSecret = text.length > 3 ? `${text.slice(0, 3)}${SECRET}${text.slice(3)}` : `${SECRET}${text}`
          const parsed = parseErrorBody(status, 'Status', withSecret, [SECRET])
          expect(parsed.message).not.toMatch(/[\u0000-\u001f\u007f]/)
          expect(parsed.message.length).toBeLessThanOrEqual(500)
          expect(parsed.message).not.toContain(SECRET)
          expect(JSON.stringify(parsed.extra)).not.toContain(SECRET)
        }
      ),
      { numRuns: 300 }
    )
  })
})
