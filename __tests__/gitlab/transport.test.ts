/**
 * The GitLab transport over real HTTP: a request that never answers times
 * out and is retried under the policy; a redirect is not followed (the token
 * stays home); the token never comes back in an error; a 2xx that is not JSON
 * is a malformed answer; 4xx other than 408 and 429 are not retried.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gitlabCalls, gitlabRetryAfterMs } from '../../src/gitlab/transport.js'
import { GitLabError } from '../../src/util/errors.js'
import { DEFAULT_RETRY_POLICY } from '../../src/util/retry-policy.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const TOKEN = 'glpat-secret-token-0123456789'
let server: Server | undefined
let hits: IncomingMessage[] = []

afterEach(async () => {
  server?.closeAllConnections()
  const s = server
  if (s)
    await new Promise<void>((resolve) => {
      s.close(() => {
        resolve()
      })
    })
  server = undefined
  hits = []
})

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    hits.push(req)
    handler(req, res)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`
}

const get = async (apiUrl: string, opts: { requestTimeoutMs?: number; maxAttempts?: number } = {}) => {
  const call = gitlabCalls({
    token: TOKEN,
    apiUrl,
    clock: fakeClock(),
    log: recordingLog(),
    random: () => 0.5,
    requestTimeoutMs: opts.requestTimeoutMs,
    policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: opts.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts }
  })
  return call('GET', '/user', undefined, (a) => a.data)
}

const failure = async (p: Promise<unknown>): Promise<GitLabError> => {
  try {
    await p
  } catch (err) {
    if (err instanceof GitLabError) return err
    throw err
  }
  throw new Error('expected a GitLabError')
}

describe('the GitLab transport', () => {
  it('times out a request that never answers, and retries it under the policy', async () => {
    const url = await serve(() => undefined)
    const err = await failure(get(url, { requestTimeoutMs: 100, maxAttempts: 2 }))
    expect(err.code).toBe('request_timeout')
    expect(err.attempts).toBe(2)
    expect(hits).toHaveLength(2)
  })

  it('does not follow a redirect, so the token never reaches another host', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://evil.example/steal' })
      res.end()
    })
    const err = await failure(get(url))
    expect(err.status).toBe(302)
    expect(hits).toHaveLength(1)
    expect(hits[0].headers['private-token']).toBe(TOKEN)
    expect(hits[0].headers.authorization).toBeUndefined()
  })

  it('never repeats the token in an error, and does not retry a 403', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ message: `403 Forbidden for token ${TOKEN}` }))
    })
    const err = await failure(get(url))
    expect(err.describe()).not.toContain(TOKEN)
    expect(err.describe()).toMatch(/GET \/user HTTP 403: 403 Forbidden for token \*\*\*/)
    expect(hits).toHaveLength(1)
  })

  it('reads a 2xx that is not JSON as malformed, and retries it', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>proxy</html>')
    })
    const err = await failure(get(url, { maxAttempts: 2 }))
    expect(err.code).toBe('malformed_response')
    expect(hits).toHaveLength(2)
  })

  it.each([
    [429, { 'retry-after': '3' }, 3000],
    [429, { 'ratelimit-reset': '1000010' }, 10_000],
    [503, { 'ratelimit-reset': '1000010' }, undefined],
    [429, {}, undefined]
  ])('reads the wait GitLab asks for on %i %j as %j ms', (status, headers, ms) => {
    expect(gitlabRetryAfterMs(status, headers, 1_000_000_000)).toBe(ms)
  })
})
