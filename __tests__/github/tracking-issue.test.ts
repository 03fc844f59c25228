/**
 * The tracking issue against the GitHub stand-in, over real HTTP, through the
 * real @actions/github client: create -> update -> close with a comment.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals'
import type { Clock } from '../../src/util/clock.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { createGitHubClient } from '../../src/github/github-client.js'
import type { GitHubClient } from '../../src/github/github-client.js'
import { syncTrackingIssue } from '../../src/github/tracking-issue.js'
import { startGitHubStandin, type GitHubStandin, type StandinOptions } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const REPO = { owner: 'octo', repo: 'agent' }
const MARKER = '<!-- agent-security-gate model_id=model-a -->'
const OTHER_MARKER = '<!-- agent-security-gate model_id=model-b -->'

function instantClock(): Clock & { sleeps: number[] } {
  let t = 1_700_000_000_000
  const sleeps: number[] = []
  return { sleeps, now: () => t, sleep: async (ms) => void (sleeps.push(ms), (t += ms)) }
}

let standin: GitHubStandin
let clock: ReturnType<typeof instantClock>
let log: ReturnType<typeof recordingLog>
let api: GitHubClient

async function start(opts?: StandinOptions): Promise<void> {
  standin = await startGitHubStandin(opts)
  clock = instantClock()
  log = recordingLog()
  api = await createGitHubClient({ token: 'ghs_t', apiUrl: standin.url, clock, log, random: () => 0.5 })
}

const args = (failing: boolean, body: string, marker = MARKER) => ({
  marker,
  title: 'Agent security: model-a failing',
  body: `${marker}\n${body}`,
  failing
})
const warnings = () => log.lines.filter((l) => l.level === 'warning').map((l) => l.line)
const open = () => standin.state.issues.filter((i) => i.state === 'open')

afterEach(async () => {
  await stopStarted(standin)
})

describe('syncTrackingIssue', () => {
  beforeEach(async () => {
    await start()
  })

  test('create -> update -> close with a comment -> none', async () => {
    const created = await syncTrackingIssue(api, REPO, args(true, 'run 1 failed'), log)
    expect(created.action).toBe('created')
    expect(standin.state.issues).toHaveLength(1)
    const issue = standin.state.issues[0]
    expect(created.url).toBe(issue.html_url)
    expect(issue).toMatchObject({ title: 'Agent security: model-a failing', state: 'open', body: `${MARKER}\nrun 1 failed` })

    const updated = await syncTrackingIssue(api, REPO, args(true, 'run 2 incomplete'), log)
    expect(updated).toEqual({ action: 'updated', url: issue.html_url })
    expect(standin.state.issues).toHaveLength(1)
    expect(issue.body).toBe(`${MARKER}\nrun 2 incomplete`)

    const closed = await syncTrackingIssue(api, REPO, args(false, 'resolved by run 3'), log)
    expect(closed).toEqual({ action: 'closed', url: issue.html_url })
    expect(issue.state).toBe('closed')
    expect(issue.state_reason).toBe('completed')
    expect(standin.state.comments.get(issue.number)!.map((c) => c.body)).toEqual([`${MARKER}\nresolved by run 3`])

    const none = await syncTrackingIssue(api, REPO, args(false, 'run 4 passed'), log)
    expect(none).toEqual({ action: 'none', url: null })
    expect(warnings()).toEqual([])

    // A later failure opens a new issue; the closed one stays closed.
    const again = await syncTrackingIssue(api, REPO, args(true, 'run 5 failed'), log)
    expect(again.action).toBe('created')
    expect(open()).toHaveLength(1)
    expect(open()[0].number).not.toBe(issue.number)
  })

  test('passing with no open issue creates nothing', async () => {
    const out = await syncTrackingIssue(api, REPO, args(false, 'passed'), log)
    expect(out).toEqual({ action: 'none', url: null })
    expect(standin.requests.filter((r) => r.method !== 'GET')).toEqual([])
  })

  test('one issue per model: each marker keeps its own', async () => {
    await syncTrackingIssue(api, REPO, args(true, 'a1'), log)
    await syncTrackingIssue(api, REPO, args(true, 'b1', OTHER_MARKER), log)
    expect(open()).toHaveLength(2)
    await syncTrackingIssue(api, REPO, args(false, 'b fixed', OTHER_MARKER), log)
    expect(open().map((i) => i.body)).toEqual([`${MARKER}\na1`])
  })

  test("searches every page of open issues; pull requests and others' issues are skipped", async () => {
    await standin.stop()
    await start({ perPage: 100 })
    const ours = standin.seedIssue({ title: 'tracking', body: `${MARKER}\nold` })
    standin.seedIssue({ title: 'a PR quoting it', body: MARKER, pullRequest: true })
    standin.seedIssue({ title: 'someone quoting it', body: `see ${MARKER}`, user: { login: 'mallory', type: 'User' } })
    for (let i = 0; i < 230; i++) standin.seedIssue({ title: `issue ${i}`, body: 'unrelated', user: { login: 'dev', type: 'User' } })
    const out = await syncTrackingIssue(api, REPO, args(true, 'new report'), log)
    expect(out).toEqual({ action: 'updated', url: ours.html_url })
    expect(ours.body).toBe(`${MARKER}\nnew report`)
    const lists = standin.requests.filter((r) => r.method === 'GET' && r.path === '/repos/octo/agent/issues')
    expect(lists.map((r) => [r.query.state, r.query.page])).toEqual([
      ['open', '1'],
      ['open', '2'],
      ['open', '3']
    ])
    expect(standin.state.issues.filter((i) => i.body?.includes(MARKER))).toHaveLength(3)
  })

  test('a closed issue with the marker is not reused', async () => {
    standin.seedIssue({ title: 'old', body: `${MARKER}\nold`, state: 'closed' })
    const out = await syncTrackingIssue(api, REPO, args(true, 'new'), log)
    expect(out.action).toBe('created')
    expect(standin.state.issues).toHaveLength(2)
  })

  test('403 (no issues: write): warning that says so, skipped, nothing thrown', async () => {
    standin.setReadOnly(true)
    const out = await syncTrackingIssue(api, REPO, args(true, 'failed'), log)
    expect(out).toEqual({ action: 'skipped', url: null, reason: expect.stringMatching(/403.*issues: write/) })
    expect(warnings()).toHaveLength(1)
    expect(warnings()[0]).toContain('permissions: issues: write')
    expect(warnings()[0]).toContain('octo/agent')
    expect(standin.state.issues).toEqual([])
  })

  test('403 when closing: warning, skipped, the issue stays open', async () => {
    const issue = standin.seedIssue({ title: 't', body: `${MARKER}\nold` })
    standin.setReadOnly(true)
    const out = await syncTrackingIssue(api, REPO, args(false, 'passed'), log)
    expect(out.action).toBe('skipped')
    expect(issue.state).toBe('open')
    expect(warnings()[0]).toContain('issues: write')
  })

  test('410 issues disabled: warning, skipped', async () => {
    standin.failNext('POST', /\/issues$/, 410)
    const out = await syncTrackingIssue(api, REPO, args(true, 'failed'), log)
    expect(out).toEqual({ action: 'skipped', url: null, reason: expect.stringMatching(/disabled/) })
    expect(warnings()[0]).toMatch(/Issues/)
  })

  test('502 then success on the list: retried', async () => {
    standin.failNext('GET', /\/issues$/, 502)
    const out = await syncTrackingIssue(api, REPO, args(true, 'failed'), log)
    expect(out.action).toBe('created')
    expect(clock.sleeps).toHaveLength(1)
  })

  test('a create that took effect before a 502 is not repeated', async () => {
    await standin.stop()
    let lose = true
    await start({
      failWith: (req) => {
        if (req.method === 'POST' && req.path.endsWith('/issues') && lose) {
          lose = false
          const b = req.body as { title: string; body: string }
          standin.seedIssue({ title: b.title, body: b.body })
          return { status: 502 }
        }
        return undefined
      }
    })
    const out = await syncTrackingIssue(api, REPO, args(true, 'failed'), log)
    expect(out.action).toBe('created')
    expect(standin.state.issues).toHaveLength(1)
    expect(standin.requests.filter((r) => r.method === 'POST' && r.path !== '/graphql')).toHaveLength(1)
  })
})
