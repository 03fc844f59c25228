/**
 * The sticky PR comment against the GitHub stand-in, over real HTTP, through
 * the real @actions/github client.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import type { Clock } from '../../src/util/clock.js'
import { AbortedError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { DEFAULT_RETRY_POLICY } from '../../src/util/retry-policy.js'
import { createGitHubClient } from '../../src/github/github-client.js'
import type { GitHubClient } from '../../src/github/github-client.js'
import { postStickyComment } from '../../src/github/sticky-comment.js'
import { startGitHubStandin, type GitHubStandin, type StandinOptions } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const PR = { owner: 'octo', repo: 'agent', number: 7 }
const MARKER_A = '<!-- agent-security-gate model_id=model-a -->'
const MARKER_B = '<!-- agent-security-gate model_id=model-b -->'

/** A clock whose sleep returns at once, recording what was asked. */
function instantClock(): Clock & { sleeps: number[] } {
  let t = 1_700_000_000_000
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms)
      t += ms
    }
  }
}

let standin: GitHubStandin
let clock: ReturnType<typeof instantClock>
let log: ReturnType<typeof recordingLog>

async function start(opts?: StandinOptions): Promise<GitHubClient> {
  standin = await startGitHubStandin(opts)
  clock = instantClock()
  log = recordingLog()
  return createGitHubClient({ token: 'ghs_test_token', apiUrl: standin.url, clock, log, random: () => 0.5 })
}

const comments = (n = PR.number) => standin.state.comments.get(n) ?? []
// POST /graphql asks the token's login: a read.
const writes = () => standin.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql')
const warnings = () => log.lines.filter((l) => l.level === 'warning').map((l) => l.line)

afterEach(async () => {
  await stopStarted(standin)
})

describe('postStickyComment (update)', () => {
  let api: GitHubClient
  beforeEach(async () => {
    api = await start()
  })

  test('builds the body from the comment it replaces (null when there is none)', async () => {
    const seen: (string | null)[] = []
    const body = (existing: string | null): string => {
      seen.push(existing)
      return `${MARKER_A}\nreport after ${existing === null ? 'nothing' : 'an old one'}`
    }
    await postStickyComment(api, PR, body, MARKER_A, 'update', log)
    await postStickyComment(api, PR, body, MARKER_A, 'update', log)
    expect(seen).toEqual([null, `${MARKER_A}\nreport after nothing`])
    expect(comments().map((c) => c.body)).toEqual([`${MARKER_A}\nreport after an old one`])
  })

  test('creates the comment, with the marker, when there is none', async () => {
    const out = await postStickyComment(api, PR, `${MARKER_A}\nreport 1`, MARKER_A, 'update', log)
    expect(out.action).toBe('created')
    expect(comments()).toHaveLength(1)
    expect(comments()[0].body).toBe(`${MARKER_A}\nreport 1`)
    expect(out.url).toBe(comments()[0].html_url)
    expect(standin.requests.every((r) => r.auth === 'token ghs_test_token')).toBe(true)
    expect(warnings()).toEqual([])
  })

  test('the marker is added when the body lacks it, so the next run finds the comment', async () => {
    await postStickyComment(api, PR, 'report without marker', MARKER_A, 'update', log)
    expect(comments()[0].body).toContain(MARKER_A)
    const out = await postStickyComment(api, PR, 'second', MARKER_A, 'update', log)
    expect(out.action).toBe('updated')
    expect(comments()).toHaveLength(1)
    expect(comments()[0].body).toContain('second')
  })

  test('edits in place on the second run: no new comment', async () => {
    const first = await postStickyComment(api, PR, `${MARKER_A}\nreport 1`, MARKER_A, 'update', log)
    const second = await postStickyComment(api, PR, `${MARKER_A}\nreport 2`, MARKER_A, 'update', log)
    expect(second).toEqual({ action: 'updated', url: first.url })
    expect(comments()).toHaveLength(1)
    expect(comments()[0].body).toBe(`${MARKER_A}\nreport 2`)
    expect(writes().map((r) => r.method)).toEqual(['POST', 'PATCH'])
  })

  test('finds the marker on page 3 of 250 comments through pagination and edits it', async () => {
    const human = { login: 'reviewer', type: 'User' as const }
    for (let i = 0; i < 250; i++) {
      if (i === 230) standin.seedComment(PR.number, `${MARKER_A}\nold report`)
      else standin.seedComment(PR.number, `comment ${i}`, human)
    }
    const target = comments()[230]
    const out = await postStickyComment(api, PR, `${MARKER_A}\nnew report`, MARKER_A, 'update', log)
    expect(out).toEqual({ action: 'updated', url: target.html_url })
    expect(comments()).toHaveLength(250)
    expect(comments()[230].body).toBe(`${MARKER_A}\nnew report`)
    const lists = standin.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/comments'))
    expect(lists.map((r) => [r.query.page, r.query.per_page])).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100']
    ])
    expect(writes()).toEqual([expect.objectContaining({ method: 'PATCH', path: `/repos/octo/agent/issues/comments/${target.id}` })])
  })

  test('pages are followed by the Link header, whatever the page size the server allows', async () => {
    await standin.stop()
    api = await start({ perPage: 10 })
    for (let i = 0; i < 35; i++) standin.seedComment(PR.number, i === 34 ? `${MARKER_A} x` : `c${i}`, { login: 'someone', type: 'User' })
    standin.seedComment(PR.number, `${MARKER_A}\nours`)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nnew`, MARKER_A, 'update', log)
    expect(out.action).toBe('updated')
    expect(standin.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/comments')).map((r) => r.query.page)).toEqual([
      '1',
      '2',
      '3',
      '4'
    ])
    expect(comments()[35].body).toBe(`${MARKER_A}\nnew`)
  })

  test('a marker quoted in a comment by a person is left alone: ours is created', async () => {
    standin.seedComment(PR.number, `look: ${MARKER_A}`, { login: 'mallory', type: 'User' })
    const out = await postStickyComment(api, PR, `${MARKER_A}\nreport`, MARKER_A, 'update', log)
    expect(out.action).toBe('created')
    expect(comments()).toHaveLength(2)
    expect(comments()[0].body).toBe(`look: ${MARKER_A}`)
    // The quoted marker does not open the comment, so there is no need to ask who we are.
    expect(standin.requests.some((r) => r.path === '/user')).toBe(false)
  })

  test('matrix: two model markers give two comments, each updated separately', async () => {
    await postStickyComment(api, PR, `${MARKER_A}\nA1`, MARKER_A, 'update', log)
    await postStickyComment(api, PR, `${MARKER_B}\nB1`, MARKER_B, 'update', log)
    expect(comments().map((c) => c.body)).toEqual([`${MARKER_A}\nA1`, `${MARKER_B}\nB1`])
    const b2 = await postStickyComment(api, PR, `${MARKER_B}\nB2`, MARKER_B, 'update', log)
    expect(b2.action).toBe('updated')
    expect(comments().map((c) => c.body)).toEqual([`${MARKER_A}\nA1`, `${MARKER_B}\nB2`])
    const a2 = await postStickyComment(api, PR, `${MARKER_A}\nA2`, MARKER_A, 'update', log)
    expect(a2.action).toBe('updated')
    expect(comments().map((c) => c.body)).toEqual([`${MARKER_A}\nA2`, `${MARKER_B}\nB2`])
  })

  test('comments on another PR are not touched', async () => {
    standin.seedComment(8, `${MARKER_A}\nother PR`)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nmine`, MARKER_A, 'update', log)
    expect(out.action).toBe('created')
    expect(comments(8)[0].body).toBe(`${MARKER_A}\nother PR`)
  })

  test("the GITHUB_TOKEN: another bot's comment holding the marker is left alone, ours edited; GET /user is never asked", async () => {
    standin.seedComment(PR.number, `${MARKER_A}\nby another app`, { login: 'evil[bot]', type: 'Bot' })
    standin.seedComment(PR.number, `${MARKER_A}\nby us`)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nnew`, MARKER_A, 'update', log)
    expect(out.action).toBe('updated')
    expect(comments().map((c) => c.body)).toEqual([`${MARKER_A}\nby another app`, `${MARKER_A}\nnew`])
    expect(standin.requests.filter((r) => r.path === '/user')).toEqual([])
    expect(standin.requests.filter((r) => r.path === '/graphql')).toHaveLength(1)
  })

  test("with a personal token, only the token user's comment is edited", async () => {
    await standin.stop()
    api = await start({ tokenKind: 'user', actor: { login: 'release-bot-user', type: 'User' } })
    standin.seedComment(PR.number, `${MARKER_A}\nby someone else`, { login: 'other', type: 'User' })
    standin.seedComment(PR.number, `${MARKER_A}\nby us`)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nnew`, MARKER_A, 'update', log)
    expect(out.action).toBe('updated')
    expect(comments().map((c) => c.body)).toEqual([`${MARKER_A}\nby someone else`, `${MARKER_A}\nnew`])
  })
})

describe('postStickyComment (new, off)', () => {
  test('new creates a comment on each run', async () => {
    const api = await start()
    for (const n of [1, 2, 3]) {
      const out = await postStickyComment(api, PR, `${MARKER_A}\nrun ${n}`, MARKER_A, 'new', log)
      expect(out.action).toBe('created')
    }
    expect(comments().map((c) => c.body)).toEqual([1, 2, 3].map((n) => `${MARKER_A}\nrun ${n}`))
    expect(standin.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST'])
  })

  test('off does nothing and sends no request', async () => {
    const api = await start()
    standin.seedComment(PR.number, `${MARKER_A}\nold`)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nnew`, MARKER_A, 'off', log)
    expect(out).toEqual({ action: 'skipped', url: null, reason: expect.any(String) })
    expect(standin.requests).toEqual([])
    expect(comments()[0].body).toBe(`${MARKER_A}\nold`)
  })
})

describe('postStickyComment failures never throw', () => {
  test('403 read-only token (fork PR): warning with the fix, skipped, nothing written', async () => {
    const api = await start()
    standin.setReadOnly(true)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nreport`, MARKER_A, 'update', log)
    expect(out).toEqual({ action: 'skipped', url: null, reason: expect.stringMatching(/403/) })
    expect(comments()).toEqual([])
    expect(warnings()).toHaveLength(1)
    const w = warnings()[0]
    expect(w).toContain('octo/agent#7')
    expect(w).toContain('pull-requests: write')
    expect(w).toMatch(/fork/)
    expect(w).toContain('pull_request_target')
    expect(w).toContain('Resource not accessible by integration')
    expect(w).not.toContain('ghs_test_token')
    expect(writes()).toHaveLength(1) // a 403 is not retried
  })

  test('403 on update in place: warning, skipped', async () => {
    const api = await start()
    standin.seedComment(PR.number, `${MARKER_A}\nold`)
    standin.setReadOnly(true)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nnew`, MARKER_A, 'update', log)
    expect(out.action).toBe('skipped')
    expect(comments()[0].body).toBe(`${MARKER_A}\nold`)
    expect(warnings()[0]).toContain('pull-requests: write')
  })

  test('404: warning that names the permission, skipped, not retried', async () => {
    const api = await start({ repository: 'octo/agent' })
    const out = await postStickyComment(api, { ...PR, repo: 'not-there' }, 'x', MARKER_A, 'update', log)
    expect(out).toEqual({ action: 'skipped', url: null, reason: expect.stringMatching(/404/) })
    expect(warnings()[0]).toMatch(/404.*pull-requests: write/)
    expect(standin.requests).toHaveLength(1)
  })

  test('401 (bad token): warning, skipped', async () => {
    standin = await startGitHubStandin()
    log = recordingLog()
    const api = await createGitHubClient({ token: 'a b', apiUrl: standin.url, clock: instantClock(), log })
    const out = await postStickyComment(api, PR, 'x', MARKER_A, 'new', log)
    expect(out.action).toBe('skipped')
    expect(warnings()[0]).toMatch(/401/)
  })

  test('502 then success: retried after a backoff, one comment', async () => {
    const api = await start()
    standin.failNext('POST', /\/issues\/7\/comments$/, 502)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nreport`, MARKER_A, 'update', log)
    expect(out.action).toBe('created')
    expect(comments()).toHaveLength(1)
    expect(writes().map((r) => r.method)).toEqual(['POST', 'POST'])
    expect(clock.sleeps).toHaveLength(1)
    expect(log.lines.some((l) => l.level === 'info' && /HTTP 502.*retrying/.test(l.line))).toBe(true)
    expect(warnings()).toEqual([])
  })

  test('502 on a page of the list, then success: the page is retried', async () => {
    const api = await start()
    for (let i = 0; i < 149; i++) standin.seedComment(PR.number, `c${i}`, { login: 'u', type: 'User' })
    standin.seedComment(PR.number, `${MARKER_A}\nold`)
    standin.failNext('GET', /\/issues\/7\/comments$/, 503, 2)
    const out = await postStickyComment(api, PR, `${MARKER_A}\nnew`, MARKER_A, 'update', log)
    expect(out.action).toBe('updated')
    expect(comments()).toHaveLength(150)
    expect(clock.sleeps).toHaveLength(2)
  })

  test('a connection reset after a create that took effect does not leave two comments', async () => {
    // The stand-in creates the comment, then the answer is lost.
    let lose = true
    const api = await start({
      failWith: (req) => {
        if (req.method === 'POST' && lose) {
          lose = false
          standin.seedComment(PR.number, (req.body as { body: string }).body)
          return { status: 0 }
        }
        return undefined
      }
    })
    const out = await postStickyComment(api, PR, `${MARKER_A}\nreport`, MARKER_A, 'update', log)
    expect(out.action).toBe('created')
    expect(comments()).toHaveLength(1)
    expect(standin.requests.filter((r) => r.method === 'POST' && r.path !== '/graphql')).toHaveLength(1)
    expect(clock.sleeps).toHaveLength(1)
  })

  test('429 with Retry-After waits what GitHub asked', async () => {
    const api = await start()
    standin.failNext('POST', /comments$/, 429, 1, { 'retry-after': '7' })
    const out = await postStickyComment(api, PR, 'x', MARKER_A, 'new', log)
    expect(out.action).toBe('created')
    expect(clock.sleeps).toEqual([7000])
  })

  test('403 secondary rate limit with Retry-After is retried, not taken for a permission problem', async () => {
    const api = await start()
    standin.failNext('POST', /comments$/, 403, 1, { 'retry-after': '60' })
    const out = await postStickyComment(api, PR, 'x', MARKER_A, 'new', log)
    expect(out.action).toBe('created')
    expect(clock.sleeps).toEqual([60_000])
  })

  test('5xx that persists: warning after the retries, skipped', async () => {
    const api = await start()
    standin.failNext('POST', /comments$/, 500, 100)
    const out = await postStickyComment(api, PR, 'x', MARKER_A, 'new', log)
    expect(out).toEqual({ action: 'skipped', url: null, reason: 'HTTP 500' })
    expect(writes()).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts)
    expect(warnings()[0]).toMatch(new RegExp(`after ${DEFAULT_RETRY_POLICY.maxAttempts} attempts`))
  })

  test('a cancelled step is not turned into a warning', async () => {
    standin = await startGitHubStandin()
    log = recordingLog()
    const controller = new AbortController()
    controller.abort()
    const api = await createGitHubClient({ token: 't', apiUrl: standin.url, clock: instantClock(), log, signal: controller.signal })
    await expect(postStickyComment(api, PR, 'x', MARKER_A, 'new', log)).rejects.toBeInstanceOf(AbortedError)
  })
})
