/** Pure helpers of the transport: URL building and network error mapping. */
import { describe, expect, it } from '@jest/globals'
import { ConfigError, failureKind } from '../../src/util/errors.js'
import { networkError, statusError } from '../../src/service/http-errors.js'
import { buildQuery, fillPath } from '../../src/service/http-transport.js'
import { parseBaseUrl } from '../../src/service/base-url.js'

describe("parseBaseUrl (the transport uses the inputs' rule)", () => {
  it.each([
    ['http://127.0.0.1:1234', 'http://127.0.0.1:1234'],
    ['http://127.0.0.1:1234/', 'http://127.0.0.1:1234'],
    ['https://asas.example.com//', 'https://asas.example.com'],
    ['https://asas.example.com/api/v1', 'https://asas.example.com'],
    ['https://asas.example.com/api/v1/', 'https://asas.example.com'],
    ['https://example.com/asas/', 'https://example.com/asas'],
    ['  https://asas.example.com  ', 'https://asas.example.com'],
    ['http://[::1]:8080/', 'http://[::1]:8080']
  ])('%s -> %s', (raw, expected) => {
    expect(parseBaseUrl(raw)).toBe(expected)
  })

  it.each(['not a url', 'ftp://asas.example.com', 'file:///etc/passwd', 'https://user:pw@asas.example.com', 'http://asas.example.com'])(
    'refuses %s',
    (raw) => {
      expect(() => parseBaseUrl(raw)).toThrow(ConfigError)
    }
  )
})

describe('fillPath', () => {
  it.each([
    ['/api/v1/run/{run_id}', { run_id: 'r_1' }, '/api/v1/run/r_1'],
    ['/api/v1/run/{run_id}/coverage', { run_id: '../x?y=1#z' }, '/api/v1/run/..%2Fx%3Fy%3D1%23z/coverage'],
    ['/api/v1/model/{model_id}/profile', { model_id: 'ü é' }, '/api/v1/model/%C3%BC%20%C3%A9/profile'],
    ['/api/v1/model', {}, '/api/v1/model']
  ])('%s with %j', (template, params, expected) => {
    expect(fillPath(template, params)).toBe(expected)
  })

  it('refuses an empty or missing parameter, naming it, as a bug (no input is at fault)', () => {
    expect(() => fillPath('/api/v1/run/{run_id}', { run_id: '' })).toThrow(/path parameter run_id .* must be a non-empty string/)
    expect(() => fillPath('/api/v1/findings/{finding_id}/close', {})).toThrow(TypeError)
    const err = (() => {
      try {
        return fillPath('/api/v1/run/{run_id}', {})
      } catch (e) {
        return e
      }
    })()
    expect(failureKind(err)).toBe('bug')
    expect(err).not.toBeInstanceOf(ConfigError)
  })
})

describe('buildQuery', () => {
  it.each([
    [undefined, ''],
    [{}, ''],
    [{ a: undefined, b: null }, ''],
    [{ min_severity: 'high' }, '?min_severity=high'],
    [{ status: 'open', limit: 5, x: undefined }, '?status=open&limit=5'],
    [{ q: 'a b&c' }, '?q=a+b%26c']
  ])('%j -> %s', (query, expected) => {
    expect(buildQuery(query)).toBe(expected)
  })
})

describe('networkError', () => {
  const base = { timedOut: false, requestTimeoutMs: 1000, secrets: ['sekret_key'] }
  const err = (code: string | undefined, message: string): Error => Object.assign(new Error(message), code ? { code } : {})
  it.each([
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1', true, false],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND asas.invalid', true, false],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN asas.example.com', true, false],
    ['ECONNRESET', 'socket hang up', true, true],
    ['EPIPE', 'write EPIPE', true, true],
    ['ETIMEDOUT', 'connect ETIMEDOUT', true, true],
    ['CERT_HAS_EXPIRED', 'certificate has expired', false, true],
    [undefined, 'something odd', false, true]
  ])('%s', (code, message, transient, ambiguous) => {
    const e = networkError(err(code, message), 'GET /api/v1/model', base)
    expect(e.code).toBe(code ?? 'network_error')
    expect(e.transient).toBe(transient)
    expect(e.ambiguous).toBe(ambiguous)
    expect(e.status).toBeUndefined()
    expect(e.message).toBe(`network error: ${message}`)
  })

  it('the per-request timeout', () => {
    const e = networkError(err('ABORT_ERR', 'The operation was aborted'), 'GET /api/v1/model', { ...base, timedOut: true })
    expect(e.code).toBe('request_timeout')
    expect(e.transient).toBe(true)
    expect(e.ambiguous).toBe(true)
  })

  it("http-client's own timeout message (which quotes the path and query) is mapped and not quoted", () => {
    const e = networkError(err(undefined, 'Request timeout: /api/v1/run/r_1?min_severity=high'), 'GET /api/v1/run/r_1', base)
    expect(e.code).toBe('request_timeout')
    expect(e.message).not.toContain('min_severity')
  })

  it('redacts the key from a network error message', () => {
    const e = networkError(err('EPROTO', 'bad thing sekret_key'), 'GET /api/v1/model', base)
    expect(e.message).toBe('network error: bad thing ***')
  })
})

describe('statusError', () => {
  it.each([
    [400, false, false],
    [401, false, false],
    [403, false, false],
    [404, false, false],
    [408, true, true],
    [409, false, false],
    [422, false, false],
    [429, true, false],
    [500, true, true],
    [502, true, true],
    [503, true, true],
    [504, true, true]
  ])('%i: transient %s, ambiguous %s', (status, transient, ambiguous) => {
    const e = statusError('POST /api/v1/run', status, 'X', {}, '', 0, [])
    expect(e.status).toBe(status)
    expect(e.transient).toBe(transient)
    expect(e.ambiguous).toBe(ambiguous)
  })

  it('reads Retry-After in seconds, as an HTTP-date, and ignores garbage', () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    expect(statusError('x', 429, '', { 'retry-after': '3' }, '', now, []).retryAfterMs).toBe(3000)
    expect(statusError('x', 429, '', { 'retry-after': 'Sat, 21 Nov 2026 12:01:00 GMT' }, '', now, []).retryAfterMs).toBe(60_000)
    expect(statusError('x', 429, '', { 'retry-after': 'soon' }, '', now, []).retryAfterMs).toBeUndefined()
    expect(statusError('x', 429, '', {}, '', now, []).retryAfterMs).toBeUndefined()
  })
})
