/**
 * The adapter over @actions/github: errors as GitHubErrors, rate-limit
 * waits, the Link header, per-request timeout; against the stand-in and raw
 * local servers over real HTTP.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from '@jest/globals'
import type { Clock } from '../../src/util/clock.js'
import { Deadline } from '../../src/util/clock.js'
import { DeadlineExceededError, GitHubError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { createGitHubClient } from '../../src/github/github-client.js'
import { githubRetryAfterMs, toGitHubError } from '../../src/github/github-error.js'
import { hasNextLink } from '../../src/github/pages.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'

const NOW = 1_700_000_000_000
function instantClock(): Clock & { sleeps: number[] } {
  let t = NOW
  const sleeps: number[] = []
  return { sleeps, now: () => t, sleep: async (ms) => void (sleeps.push(ms), (t += ms)) }
}

const REPO = { owner: 'octo', repo: 'agent' }
let standin: GitHubStandin | undefined
let raw: Server | undefined

afterEach(async () => {
  await standin?.stop()
  standin = undefined
  if (raw) {
    const s = raw
    raw = undefined
    s.closeAllConnections()
    await new Promise<void>((resolve) =>
      s.close(() => {
        resolve()
      })
    )
  }
})

describe('hasNextLink', () => {
  const cases: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"', true],
    ['<https://api.github.com/x?page=1>; rel="prev", <https://api.github.com/x?page=1>; rel="first"', false],
    ['<https://api.github.com/x?page=3>; rel="prev next"', true],
    ['<https://api.github.com/x?page=3>; rel=next', true],
    ['<https://api.github.com/next?page=3>; rel="last"', false]
  ]
  test.each(cases)('%j -> %s', (link, expected) => {
    expect(hasNextLink(link)).toBe(expected)
  })
})

describe('githubRetryAfterMs', () => {
  const cases: [string, Record<string, string>, number | undefined][] = [
    ['no headers', {}, undefined],
    ['retry-after seconds', { 'retry-after': '30' }, 30_000],
    ['retry-after HTTP-date', { 'retry-after': new Date(NOW + 90_000).toUTCString() }, 90_000],
    [
      'primary limit exhausted: until reset, plus a second',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 120) },
      121_000
    ],
    ['reset in the past', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 - 5) }, 1000],
    ['remaining not 0: no wait', { 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': String(NOW / 1000 + 120) }, undefined],
    [
      'retry-after wins over reset',
      { 'retry-after': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 120) },
      5000
    ]
  ]
  test.each(cases)('%s', (_name, headers, expected) => {
    expect(githubRetryAfterMs(headers, NOW)).toBe(expected)
  })
})

describe('toGitHubError', () => {
  const httpError = (status: number, data: unknown, headers: Record<string, string> = {}) =>
    Object.assign(new Error('x'), { name: 'HttpError', status, response: { status, headers, data, url: 'u' } })

  const cases: [string, unknown, Partial<Pick<GitHubError, 'status' | 'code' | 'transient' | 'retryAfterMs' | 'serviceMessage'>>][] = [
    ['502', httpError(502, { message: 'Server Error' }), { status: 502, transient: true, serviceMessage: 'Server Error' }],
    ['500', httpError(500, ''), { status: 500, transient: true }],
    ['408', httpError(408, { message: 'Timeout' }), { status: 408, transient: true }],
    [
      '429 with retry-after',
      httpError(429, { message: 'Too many' }, { 'retry-after': '3' }),
      { status: 429, transient: true, retryAfterMs: 3000, code: 'secondary_rate_limit' }
    ],
    [
      '403 permission',
      httpError(403, { message: 'Resource not accessible by integration' }),
      { status: 403, transient: false, code: undefined }
    ],
    [
      '403 secondary limit',
      httpError(403, { message: 'You have exceeded a secondary rate limit' }, { 'retry-after': '60' }),
      { status: 403, transient: true, code: 'secondary_rate_limit', retryAfterMs: 60_000 }
    ],
    [
      '403 primary limit',
      httpError(
        403,
        { message: 'API rate limit exceeded' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 10) }
      ),
      { status: 403, transient: true, code: 'rate_limited', retryAfterMs: 11_000 }
    ],
    ['404', httpError(404, { message: 'Not Found' }), { status: 404, transient: false }],
    [
      '422 with details',
      httpError(422, { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', message: 'body is too long' }] }),
      { status: 422, transient: false, code: 'custom', serviceMessage: 'Validation Failed: body is too long' }
    ],
    [
      'network error (no response)',
      Object.assign(new Error('other side closed'), { name: 'HttpError', status: 500 }),
      { status: undefined, transient: true, code: 'network_error' }
    ]
  ]
  test.each(cases)('%s', (_name, err, expected) => {
    const e = toGitHubError(err, 'POST /repos/octo/agent/issues/7/comments', NOW)
    expect(e).toBeInstanceOf(GitHubError)
    expect(e).not.toBeInstanceOf(ServiceError)
    expect(e.endpoint).toBe('POST /repos/octo/agent/issues/7/comments')
    expect(e).toMatchObject(expected)
  })

  test('an error message with line breaks stays one line', () => {
    const e = toGitHubError(httpError(400, { message: 'bad\n::error::injected' }), 'GET /user', NOW)
    expect(e.describe()).not.toMatch(/\n/)
  })
})

describe('createGitHubClient over real HTTP', () => {
  test('sends the token, the API version and per_page=100; names endpoints with ids and no query', async () => {
    standin = await startGitHubStandin()
    const log = recordingLog()
    const api = await createGitHubClient({ token: 'ghs_secret', apiUrl: `${standin.url}/`, clock: instantClock(), log })
    const page = await api.listComments(REPO, 7, 1)
    expect(page).toEqual({ items: [], hasNext: false })
    expect(standin.requests[0]).toMatchObject({
      method: 'GET',
      path: '/repos/octo/agent/issues/7/comments',
      query: { per_page: '100', page: '1' },
      auth: 'token ghs_secret'
    })
    await api.viewerLogin()
    // Every request, REST and GraphQL, names the REST API version GitHub documents (X-GitHub-Api-Version).
    expect(standin.requests.map((r) => r.headers['x-github-api-version'])).toEqual(['2022-11-28', '2022-11-28'])
    standin.failNext('PATCH', /comments\/55$/, 404)
    const err = await api.updateComment(REPO, 55, 'x').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitHubError)
    expect((err as GitHubError).endpoint).toBe('PATCH /repos/octo/agent/issues/comments/55')
    expect((err as GitHubError).describe()).not.toContain('ghs_secret')
  })

  test('GET /user: null for an installation token (403), the login for a user token', async () => {
    standin = await startGitHubStandin()
    let api = await createGitHubClient({ token: 't', apiUrl: standin.url, clock: instantClock(), log: recordingLog() })
    await expect(api.authenticatedLogin()).resolves.toBeNull()
    await standin.stop()
    standin = await startGitHubStandin({ tokenKind: 'user', actor: { login: 'octocat', type: 'User' } })
    api = await createGitHubClient({ token: 't', apiUrl: standin.url, clock: instantClock(), log: recordingLog() })
    await expect(api.authenticatedLogin()).resolves.toBe('octocat')
  })

  test('primary rate limit: waits until x-ratelimit-reset, then succeeds', async () => {
    standin = await startGitHubStandin()
    const clock = instantClock()
    const api = await createGitHubClient({ token: 't', apiUrl: standin.url, clock, log: recordingLog() })
    standin.failNext('GET', /\/issues$/, 403, 1, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(NOW / 1000) + 30) })
    await expect(api.listOpenIssues(REPO, 1)).resolves.toEqual({ items: [], hasNext: false })
    expect(clock.sleeps).toEqual([31_000])
  })

  test('a wait longer than the deadline ends with DeadlineExceededError', async () => {
    standin = await startGitHubStandin()
    const clock = instantClock()
    const api = await createGitHubClient({
      token: 't',
      apiUrl: standin.url,
      clock,
      deadline: Deadline.after(clock, 10_000),
      log: recordingLog()
    })
    standin.failNext('GET', /\/issues$/, 429, 1, { 'retry-after': '60' })
    await expect(api.listOpenIssues(REPO, 1)).rejects.toBeInstanceOf(DeadlineExceededError)
    expect(clock.sleeps).toEqual([])
  })

  describe('secondary rate limit without Retry-After: at least a minute, then doubling, within the deadline', () => {
    const cases: [string, number, Record<string, string>, string][] = [
      ['403 secondary', 403, {}, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.'],
      ['429 without headers', 429, {}, 'Too many requests'],
      ['403 abuse detection', 403, { 'x-ratelimit-remaining': '4000' }, 'You have exceeded a secondary rate limit']
    ]
    test.each(cases)('%s: waits 60 s, then 120 s', async (_name, status, headers, message) => {
      standin = await startGitHubStandin({
        failWith: (() => {
          let left = 2
          return (req) => (req.path.endsWith('/issues') && left-- > 0 ? { status, headers, body: { message } } : undefined)
        })()
      })
      const clock = instantClock()
      const api = await createGitHubClient({ token: 't', apiUrl: standin.url, clock, log: recordingLog(), random: () => 0 })
      await expect(api.listOpenIssues(REPO, 1)).resolves.toEqual({ items: [], hasNext: false })
      expect(clock.sleeps).toEqual([60_000, 120_000])
    })

    test('a wait past the deadline is not slept: the call ends saying how long GitHub asked for', async () => {
      standin = await startGitHubStandin({
        failWith: () => ({ status: 403, body: { message: 'You have exceeded a secondary rate limit' } })
      })
      const clock = instantClock()
      const deadline = Deadline.after(clock, 30_000)
      const api = await createGitHubClient({ token: 't', apiUrl: standin.url, clock, deadline, log: recordingLog() })
      const err = await api.listOpenIssues(REPO, 1).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(DeadlineExceededError)
      expect((err as Error).message).toMatch(/at least 60 s/)
      expect(clock.sleeps).toEqual([])
    })
  })

  test('a connection reset is retried', async () => {
    standin = await startGitHubStandin()
    const clock = instantClock()
    const api = await createGitHubClient({ token: 't', apiUrl: standin.url, clock, log: recordingLog(), random: () => 0 })
    standin.failNext('GET', /\/issues$/, 0)
    await expect(api.listOpenIssues(REPO, 1)).resolves.toEqual({ items: [], hasNext: false })
    expect(standin.requests).toHaveLength(2)
    expect(clock.sleeps).toHaveLength(1)
  })

  test('a server that never answers hits the per-request timeout, and that is retried', async () => {
    let hits = 0
    raw = createServer(() => {
      hits++ // never answers
    })
    await new Promise<void>((resolve) =>
      raw!.listen(0, '127.0.0.1', () => {
        resolve()
      })
    )
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`
    const clock = instantClock()
    const api = await createGitHubClient({
      token: 't',
      apiUrl: url,
      clock,
      log: recordingLog(),
      requestTimeoutMs: 100,
      policy: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1, minRetryAfterMs: 0, maxMalformedAttempts: 2 }
    })
    const err = await api.listComments(REPO, 1, 1).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitHubError)
    expect(err).toMatchObject({ code: 'request_timeout', attempts: 2, transient: true })
    expect(hits).toBe(2)
  })

  test('non-JSON success body is a retried malformed answer, not a crash', async () => {
    let hits = 0
    raw = createServer((_req, res) => {
      hits++
      res.setHeader('content-type', 'text/html')
      res.end('<html>proxy</html>')
    })
    await new Promise<void>((resolve) =>
      raw!.listen(0, '127.0.0.1', () => {
        resolve()
      })
    )
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`
    const api = await createGitHubClient({
      token: 't',
      apiUrl: url,
      clock: instantClock(),
      log: recordingLog(),
      policy: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1, minRetryAfterMs: 0, maxMalformedAttempts: 3 }
    })
    const err = await api.listOpenIssues(REPO, 1).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitHubError)
    expect((err as GitHubError).describe()).toMatch(/GET \/repos\/octo\/agent\/issues/)
    expect(hits).toBe(3)
  })
})
