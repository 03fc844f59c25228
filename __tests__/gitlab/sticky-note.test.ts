/**
 * The sticky merge-request note against the GitLab stand-in, over real HTTP
 * through the real transport: created once, then updated in place; another
 * user's note and a system note holding the marker left alone; every page of
 * notes read; rate limits waited out as GitLab asks; a fork's pipeline never
 * handed the token; failures a warning, never a throw.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readGitLabCi, type GitLabCi } from '../../src/gitlab/ci-context.js'
import { GITLAB_BUDGET_MS, publishNoteInsteadOfComment, publishToGitLab, type GitLabPublished } from '../../src/gitlab/publish.js'
import { commentMarker } from '../../src/report/comment.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { startGitLabStandin, type GitLabStandin, type GitLabStandinUser } from '../__fixtures__/gitlab-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const BOT: GitLabStandinUser = { id: 41, username: 'project_1_bot_5f2a', bot: true }
const ALICE: GitLabStandinUser = { id: 7, username: 'alice' }
const OTHER_BOT: GitLabStandinUser = { id: 42, username: 'project_1_bot_other', bot: true }
const MARKER = commentMarker('m_demo')

let standin: GitLabStandin
let clock: ReturnType<typeof fakeClock>
let log: ReturnType<typeof recordingLog>

beforeEach(async () => {
  standin = await startGitLabStandin({
    tokens: { 'glpat-bot': BOT, 'glpat-alice': ALICE },
    projects: { '1': 'acme/shop', '2': 'mallory/shop' }
  })
  standin.openMergeRequest('1', 5)
  clock = fakeClock()
  log = recordingLog()
})

afterEach(() => stopStarted(standin))

/** A merge-request pipeline's variables (same project unless overridden). */
function mrCi(over: NodeJS.ProcessEnv = {}): GitLabCi {
  return readGitLabCi({
    GITLAB_CI: 'true',
    CI_API_V4_URL: standin.apiUrl,
    CI_PROJECT_ID: '1',
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_PROJECT_ID: '1',
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1',
    CI_MERGE_REQUEST_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
    CI_COMMIT_SHA: 'a'.repeat(40),
    ...over
  })
}

function publish(body: string, ci = mrCi(), token = 'glpat-bot'): Promise<GitLabPublished> {
  return publishToGitLab({ log, clock, random: () => 0.5 }, { ci, token, marker: MARKER, noteBody: () => `${MARKER}\n${body}` })
}

const notesOf = () => standin.notes.get('1!5') ?? []
const writes = () => standin.requests.filter((r) => r.method !== 'GET')

describe('the sticky merge-request note', () => {
  it('is created with the marker first, authenticated by PRIVATE-TOKEN, and its address returned', async () => {
    const out = await publish('first report')
    expect(out.outcome?.action).toBe('created')
    expect(notesOf()).toHaveLength(1)
    expect(notesOf()[0]).toMatchObject({ body: `${MARKER}\nfirst report`, author: BOT })
    expect(out.noteUrl).toBe(`https://gitlab.example.com/acme/shop/-/merge_requests/5#note_${notesOf()[0].id}`)
    expect(standin.requests.every((r) => r.token === 'glpat-bot')).toBe(true)
  })

  it('is updated in place on the next run: the same note, never a second', async () => {
    await publish('first report')
    const id = notesOf()[0].id
    const out = await publish('second report')
    expect(out.outcome).toEqual({ action: 'updated', noteId: id })
    expect(notesOf()).toHaveLength(1)
    expect(notesOf()[0].body).toBe(`${MARKER}\nsecond report`)
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /projects/1/merge_requests/5/notes',
      `PUT /projects/1/merge_requests/5/notes/${id}`
    ])
    // Each run: GET /user, one page of notes, one write.
    expect(standin.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'POST', 'GET', 'GET', 'PUT'])
  })

  it("leaves another user's note and a system note holding the marker alone, and writes its own", async () => {
    const alices = standin.seedNote('1', 5, `${MARKER}\nquoted by Alice`, ALICE)
    const otherBots = standin.seedNote('1', 5, `${MARKER}\nanother bot`, OTHER_BOT)
    const system = standin.seedNote('1', 5, `${MARKER}\nsystem`, BOT, true)
    const out = await publish('ours')
    expect(out.outcome?.action).toBe('created')
    expect(alices.body).toBe(`${MARKER}\nquoted by Alice`)
    expect(otherBots.body).toBe(`${MARKER}\nanother bot`)
    expect(system.body).toBe(`${MARKER}\nsystem`)
    expect(writes().filter((r) => r.method === 'PUT')).toEqual([])
    // With Alice's own token her note is hers: updated, not duplicated.
    const asAlice = await publish('as alice', mrCi(), 'glpat-alice')
    expect(asAlice.outcome).toEqual({ action: 'updated', noteId: alices.id })
  })

  it("does not take another model's note for its own", async () => {
    standin.seedNote('1', 5, `${commentMarker('m_other')}\nother model`, BOT)
    const out = await publish('ours')
    expect(out.outcome?.action).toBe('created')
    expect(notesOf()).toHaveLength(2)
  })

  it('reads every page of notes (100 a page, oldest first) to find its note', async () => {
    for (let i = 0; i < 230; i++) standin.seedNote('1', 5, `note ${i}`, ALICE)
    const ours = standin.seedNote('1', 5, `${MARKER}\nold`, BOT)
    const out = await publish('new')
    expect(out.outcome).toEqual({ action: 'updated', noteId: ours.id })
    const lists = standin.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/notes'))
    expect(lists.map((r) => [r.query.page, r.query.per_page, r.query.sort])).toEqual([
      ['1', '100', 'asc'],
      ['2', '100', 'asc'],
      ['3', '100', 'asc']
    ])
    expect(notesOf()).toHaveLength(231)
  })

  it("follows the Link header's next page, as GitLab's docs ask, rather than building its own URL", async () => {
    for (let i = 0; i < 150; i++) standin.seedNote('1', 5, `note ${i}`, ALICE)
    const ours = standin.seedNote('1', 5, `${MARKER}\nold`, BOT)
    const out = await publish('new')
    expect(out.outcome).toEqual({ action: 'updated', noteId: ours.id })
    const lists = standin.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/notes'))
    // Only GitLab's Link URL carries the route's own parameters (id, noteable_id).
    expect(lists[1].query).toEqual({ id: '1', noteable_id: '5', sort: 'asc', order_by: 'created_at', per_page: '100', page: '2' })
  })

  it('does not follow a next link outside the API root (the token would go there): no note is written, a warning says why', async () => {
    await stopStarted(standin)
    standin = await startGitLabStandin({
      tokens: { 'glpat-bot': BOT },
      projects: { '1': 'acme/shop' },
      externalUrl: 'https://elsewhere.example'
    })
    standin.openMergeRequest('1', 5)
    for (let i = 0; i < 120; i++) standin.seedNote('1', 5, `note ${i}`, ALICE)
    const out = await publish('new')
    expect(out.outcome).toMatchObject({ action: 'skipped' })
    expect(writes()).toEqual([])
    expect(standin.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/notes'))).toHaveLength(1)
    expect(log.lines.find((l) => l.level === 'warning')?.line).toMatch(/next page is not under the API root/)
  })

  it('waits out a 429 as Retry-After says, then goes on', async () => {
    standin.failNext('GET', /\/notes$/, 429, 1, { 'retry-after': '7' })
    const out = await publish('report')
    expect(out.outcome?.action).toBe('created')
    expect(clock.sleeps).toEqual([7000])
    expect(log.lines.some((l) => l.line.includes('GitLab: GET /projects/1/merge_requests/5/notes HTTP 429'))).toBe(true)
  })

  it('waits out a 429 until RateLimit-Reset when there is no Retry-After', async () => {
    const resetAt = Math.floor(clock.now() / 1000) + 12
    standin.failNext('POST', /\/notes$/, 429, 1, { 'ratelimit-reset': String(resetAt) })
    const out = await publish('report')
    expect(out.outcome?.action).toBe('created')
    expect(clock.sleeps).toHaveLength(1)
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(11_000)
    expect(clock.sleeps[0]).toBeLessThanOrEqual(12_000)
    expect(notesOf()).toHaveLength(1)
  })

  it('waits a minute on a bare 429 creating the note (GitLab: allowed again after one minute), then creates it once', async () => {
    standin.failNext('POST', /\/notes$/, 429, 1)
    const out = await publish('report')
    expect(out.outcome?.action).toBe('created')
    expect(clock.sleeps).toHaveLength(1)
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(60_000)
    expect(notesOf()).toHaveLength(1)
  })

  it('gives up on a bare 429 that comes again when a second wait would pass the budget, as a warning', async () => {
    standin.failNext('POST', /\/notes$/, 429, 5)
    const out = await publish('report')
    expect(out.outcome).toMatchObject({ action: 'skipped' })
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(60_000)
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(GITLAB_BUDGET_MS)
    expect(notesOf()).toHaveLength(0)
    expect(log.lines.find((l) => l.level === 'warning')?.line).toMatch(/HTTP 429/)
  })

  it('retries a 502 on listing and a reset connection', async () => {
    standin.failNext('GET', /\/notes$/, 502)
    standin.failNext('GET', /^\/user$/, 0)
    const out = await publish('report')
    expect(out.outcome?.action).toBe('created')
    expect(notesOf()).toHaveLength(1)
  })

  it('writes nothing when GitLab does not say who the token is, and says how to fix it', async () => {
    standin.failNext('GET', /^\/user$/, 403, 1)
    standin.seedNote('1', 5, `${MARKER}\nold`, BOT)
    const out = await publish('report')
    expect(out.outcome).toMatchObject({ action: 'skipped', reason: 'the token user is unknown' })
    expect(writes()).toEqual([])
    expect(log.lines.find((l) => l.level === 'warning')?.line).toMatch(/GET \/user.*`api` scope/)
  })

  it('is a warning, not a failure, when the token may not write (403) or is refused (401)', async () => {
    standin.failNext('POST', /\/notes$/, 403)
    expect((await publish('report')).outcome).toMatchObject({ action: 'skipped', reason: 'forbidden (403)' })
    const bad = await publish('report', mrCi(), 'glpat-unknown')
    expect(bad.outcome).toMatchObject({ action: 'skipped' })
    expect(log.lines.filter((l) => l.level === 'warning').map((l) => l.line)).toEqual([
      expect.stringMatching(/answered 403.*Reporter role/),
      expect.stringMatching(/401 Unauthorized.*`api` scope/)
    ])
    expect(notesOf()).toEqual([])
  })

  it('is not written from a merge request from a fork whose pipeline runs in the target project', async () => {
    const fork = mrCi({ CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' })
    const out = await publish('report', fork)
    expect(out).toEqual({ outcome: null, noteUrl: null })
    expect(standin.requests).toEqual([])
    expect(log.lines.find((l) => l.level === 'warning')?.line).toMatch(/fork's code/)
  })

  it("is written from a fork pipeline that runs in the fork, with the fork's own token", async () => {
    const inFork = mrCi({ CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2', CI_PROJECT_ID: '2' })
    expect((await publish('report', inFork)).outcome?.action).toBe('created')
  })

  it('is not written outside a merge-request pipeline, nor without a token or an API address', async () => {
    expect(await publish('x', readGitLabCi({ CI_API_V4_URL: standin.apiUrl, CI_PIPELINE_SOURCE: 'push', CI_PROJECT_ID: '1' }))).toEqual({
      outcome: null,
      noteUrl: null
    })
    expect((await publish('x', mrCi(), '')).outcome).toBeNull()
    expect((await publish('x', mrCi({ CI_API_V4_URL: '', CI_SERVER_URL: 'file:///etc' }))).outcome).toBeNull()
    expect(standin.requests).toEqual([])
  })

  it('finds the API from CI_SERVER_URL', async () => {
    const ci = mrCi({ CI_API_V4_URL: '', CI_SERVER_URL: `${standin.serverUrl}/`, CI_PROJECT_ID: '1' })
    expect((await publish('report', ci)).outcome?.action).toBe('created')
  })

  it("writes no note when the merge request's project cannot be told (CI_MERGE_REQUEST_PROJECT_ID unset), nor takes CI_PROJECT_ID for it", async () => {
    const ci = mrCi({ CI_MERGE_REQUEST_PROJECT_ID: '', CI_PROJECT_ID: '1' })
    expect(ci.mergeRequestGap).toMatch(/CI_MERGE_REQUEST_PROJECT_ID unset/)
    expect((await publish('report', ci)).outcome).toBeNull()
    expect(standin.requests).toEqual([])
  })

  it("refuses a body over GitLab's limit as a bug of the renderer, before sending it", async () => {
    const huge = 'x'.repeat(1_000_001)
    await expect(publish(huge)).rejects.toThrow(/over GitLab's limit/)
    expect(writes()).toEqual([])
  })

  it("takes the GitHub comment's place for a shell in GitLab CI: same marker and body, GITLAB_TOKEN, the note's address", async () => {
    const env = {
      GITLAB_CI: 'true',
      GITLAB_TOKEN: 'glpat-bot',
      CI_API_V4_URL: standin.apiUrl,
      CI_PROJECT_ID: '1',
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_MERGE_REQUEST_IID: '5',
      CI_MERGE_REQUEST_PROJECT_ID: '1',
      CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1',
      CI_MERGE_REQUEST_PROJECT_URL: 'https://gitlab.example.com/acme/shop'
    }
    const args = (comment: 'update' | 'off') => ({
      inputs: { comment, issue: 'off' as const, githubToken: '' },
      marker: MARKER,
      commentBody: (existing: string | null) => `${MARKER}\nreplacing ${existing === null ? 'nothing' : 'a note'}`,
      issueTitle: 'unused',
      failing: true
    })
    const deps = { env, log, clock, signal: new AbortController().signal }
    expect(await publishNoteInsteadOfComment(deps, args('off'))).toEqual({ commentUrl: null, issueUrl: null })
    expect(standin.requests).toEqual([])
    const first = await publishNoteInsteadOfComment(deps, args('update'))
    const second = await publishNoteInsteadOfComment(deps, args('update'))
    expect(first.commentUrl).toBe(`https://gitlab.example.com/acme/shop/-/merge_requests/5#note_${notesOf()[0].id}`)
    expect(second.commentUrl).toBe(first.commentUrl)
    expect(notesOf().map((n) => n.body)).toEqual([`${MARKER}\nreplacing a note`])
  })
})
