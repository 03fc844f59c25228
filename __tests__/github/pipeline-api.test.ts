/**
 * The pipeline's GitHub calls against the GitHub stand-in, over real HTTP,
 * through the real @actions/github client: pull requests of a commit, a pull
 * request's head, commit statuses, comparisons, the token's login and the
 * assessment record of the bot's own comments.
 */
import { afterEach, describe, expect, test } from '@jest/globals'
import type { Clock } from '../../src/util/clock.js'
import { createGitHubClient, type PipelineApi } from '../../src/github/github-client.js'
import type { ContentsApi } from '../../src/github/contents-api.js'
import type { IssuesApi } from '../../src/github/issues-api.js'
import { pullForCommit } from '../../src/github/pulls.js'
import { postCommitStatus, statusContext } from '../../src/github/commit-status.js'
import { finalStatusState as statusStateFor } from '../../src/action/output-table.js'
import { findAssessmentRecords, tokenLogin } from '../../src/github/assessment-record.js'
import { commentMarker, recordMarker, recordSubjectKey, type AssessmentRecord } from '../../src/report/comment.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { startGitHubStandin, type GitHubStandin, type StandinOptions } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const REPO = { owner: 'octo', repo: 'agent' }
const sha = (c: string): string => c.repeat(40)

function instantClock(): Clock {
  let t = Date.UTC(2026, 10, 21, 14, 3)
  return {
    now: () => t,
    sleep: async (ms) => {
      t += ms
    }
  }
}

let standin: GitHubStandin
let log: ReturnType<typeof recordingLog>

async function start(opts?: StandinOptions): Promise<PipelineApi & IssuesApi & ContentsApi> {
  standin = await startGitHubStandin(opts)
  log = recordingLog()
  return createGitHubClient({ token: 'ghs_test_token', apiUrl: standin.url, clock: instantClock(), log, random: () => 0.5 })
}

afterEach(async () => {
  await stopStarted(standin)
})

describe('pull requests of a commit', () => {
  test('open ones first, the one whose head the commit is before the rest; a closed one last', async () => {
    const api = await start()
    standin.addCommit(sha('1'), null, ['a'])
    standin.seedPull({ number: 1, headSha: sha('1'), state: 'closed', merged: true })
    standin.seedPull({ number: 2, headSha: sha('2'), commits: [sha('1'), sha('2')] })
    standin.seedPull({ number: 3, headSha: sha('1') })
    const pulls = await api.pullsOfCommit(REPO, sha('1'))
    expect(pulls.map((p) => [p.number, p.state, p.merged])).toEqual([
      [3, 'open', false],
      [2, 'open', false],
      [1, 'closed', true]
    ])
    expect(pulls[0]).toEqual({
      number: 3,
      state: 'open',
      merged: false,
      headSha: sha('1'),
      headRef: 'feature-3',
      baseRef: 'main',
      headRepo: 'octo/agent',
      htmlUrl: 'https://github.com/octo/agent/pull/3'
    })
    expect(pullForCommit(pulls, sha('1'))?.number).toBe(3)
  })

  test('follows the pages', async () => {
    const api = await start({ perPage: 2 })
    standin.addCommit(sha('1'), null, ['a'])
    for (let n = 1; n <= 5; n++) standin.seedPull({ number: n, headSha: sha('9'), commits: [sha('1')] })
    const pulls = await api.pullsOfCommit(REPO, sha('1'))
    expect(pulls.map((p) => p.number)).toEqual([1, 2, 3, 4, 5])
    expect(standin.requests.filter((r) => r.path.endsWith('/pulls')).map((r) => r.query.page)).toEqual(['1', '2', '3'])
  })

  test('a commit GitHub does not know (422): none, and no pull request to comment on', async () => {
    const api = await start()
    const pulls = await api.pullsOfCommit(REPO, sha('7'))
    expect(pulls).toEqual([])
    expect(pullForCommit(pulls, sha('7'))).toBeNull()
  })

  test('only closed pull requests: none to comment on', async () => {
    const api = await start()
    standin.addCommit(sha('1'), null, ['a'])
    standin.seedPull({ number: 1, headSha: sha('1'), state: 'closed' })
    expect(pullForCommit(await api.pullsOfCommit(REPO, sha('1')), sha('1'))).toBeNull()
  })

  test("getPull: a queued pull request's head; null when there is none", async () => {
    const api = await start()
    standin.seedPull({ number: 12, headSha: sha('b') })
    expect((await api.getPull(REPO, 12))?.headSha).toBe(sha('b'))
    expect(await api.getPull(REPO, 99)).toBeNull()
  })
})

describe('commit statuses', () => {
  const status = {
    sha: sha('1'),
    state: 'pending' as const,
    context: statusContext('agent-pr-7'),
    description: 'Assessing agent-pr-7 at 1111111…',
    targetUrl: 'https://github.com/octo/agent/actions/runs/42',
    owner: null
  }

  test('sets state, context, description and target URL on the commit', async () => {
    const api = await start()
    standin.addCommit(sha('1'), null, ['a'])
    expect(await postCommitStatus(api, REPO, status, log)).toBe(true)
    expect(await postCommitStatus(api, REPO, { ...status, state: statusStateFor('fail', true), description: 'x'.repeat(500) }, log)).toBe(
      true
    )
    expect(
      standin.git.statuses.map(({ state, context, target_url, description }) => ({ state, context, target_url, len: description?.length }))
    ).toEqual([
      { state: 'pending', context: 'agent-security/agent-pr-7', target_url: status.targetUrl, len: status.description.length },
      { state: 'failure', context: 'agent-security/agent-pr-7', target_url: status.targetUrl, len: 140 }
    ])
    expect(log.lines.filter((l) => l.level === 'warning')).toEqual([])
  })

  test('a token that cannot write statuses: a warning naming the permission, and false', async () => {
    const api = await start()
    standin.addCommit(sha('1'), null, ['a'])
    standin.setReadOnly(true)
    expect(await postCommitStatus(api, REPO, status, log)).toBe(false)
    const warnings = log.lines.filter((l) => l.level === 'warning').map((l) => l.line)
    expect(warnings).toEqual([
      expect.stringMatching(/^Could not set the commit status on octo\/agent@1111111 .*403.*permissions: statuses: write/)
    ])
  })

  test('a status names its agent in its target URL, its description all the reader’s; the list reads it back, newest first', async () => {
    const api = await start()
    standin.addCommit(sha('1'), null, ['a'])
    await postCommitStatus(api, REPO, { ...status, owner: '0a1b2c3d' }, log)
    await postCommitStatus(api, REPO, { ...status, context: statusContext('other') }, log)
    await postCommitStatus(api, REPO, { ...status, state: 'failure', description: 'y'.repeat(500), owner: '99990000' }, log)
    const last = standin.git.statuses[2]
    expect(Array.from(last.description ?? '')).toHaveLength(140)
    expect(last.description?.endsWith('y…')).toBe(true)
    expect(last.target_url).toBe('https://github.com/octo/agent/actions/runs/42#agent-99990000')
    expect(standin.git.statuses[1].target_url).toBe('https://github.com/octo/agent/actions/runs/42')
    const listed = await api.listCommitStatuses(REPO, sha('1'))
    expect(listed.map(({ context, owner, state, creator }) => ({ context, owner, state, creator }))).toEqual([
      { context: 'agent-security/agent-pr-7', owner: '99990000', state: 'failure', creator: 'github-actions[bot]' },
      { context: 'agent-security/other', owner: null, state: 'pending', creator: 'github-actions[bot]' },
      { context: 'agent-security/agent-pr-7', owner: '0a1b2c3d', state: 'pending', creator: 'github-actions[bot]' }
    ])
    expect(listed[0].description).toBe(last.description)
    expect(standin.requests.filter((r) => r.method === 'GET').map((r) => r.query.per_page)).toEqual(['100'])
  })

  test('a passing failure of GitHub is retried', async () => {
    const api = await start()
    standin.addCommit(sha('1'), null, ['a'])
    standin.failNext('POST', /\/statuses\//, 502)
    expect(await postCommitStatus(api, REPO, status, log)).toBe(true)
    expect(standin.git.statuses).toHaveLength(1)
  })
})

describe('compare', () => {
  async function chain(): Promise<PipelineApi> {
    const api = await start()
    standin.addCommit(sha('a'), null, ['agent/main.py'])
    standin.addCommit(sha('b'), sha('a'), ['README.md'])
    standin.addCommit(sha('c'), sha('b'), ['docs/new.md'], { 'docs/new.md': 'prompts/old.md' })
    standin.addCommit(sha('d'), sha('c'), ['README.md', 'docs/setup.md'])
    standin.addCommit(sha('e'), sha('a'), ['prompts/system.md'])
    return api
  }

  test('the files changed since an ancestor, renames with their old path', async () => {
    const api = await chain()
    expect(await api.changedFiles(REPO, sha('a'), sha('d'))).toEqual({
      kind: 'files',
      files: ['README.md', 'docs/new.md', 'docs/setup.md', 'prompts/old.md']
    })
  })

  test('the same commit: no files', async () => {
    const api = await chain()
    expect(await api.changedFiles(REPO, sha('d'), sha('d'))).toEqual({ kind: 'files', files: [] })
  })

  test('a rewritten history (diverged) is everything: the merge base would hide the assessed side', async () => {
    const api = await chain()
    expect(await api.changedFiles(REPO, sha('e'), sha('d'))).toEqual({
      kind: 'everything',
      reason: 'eeeeeee is not an ancestor of ddddddd (diverged): the history was rewritten'
    })
  })

  test('a base GitHub does not know is everything', async () => {
    const api = await chain()
    const got = await api.changedFiles(REPO, sha('9'), sha('d'))
    expect(got).toEqual({ kind: 'everything', reason: expect.stringMatching(/HTTP 404/) })
  })

  test('300 files or more is everything (GitHub lists no more)', async () => {
    const api = await start()
    standin.addCommit(sha('a'), null, [])
    standin.addCommit(
      sha('b'),
      sha('a'),
      Array.from({ length: 300 }, (_, i) => `f${i}.txt`)
    )
    expect(await api.changedFiles(REPO, sha('a'), sha('b'))).toEqual({
      kind: 'everything',
      reason: '300 or more files changed, more than GitHub lists'
    })
  })

  test('one request: page 1 carries every file of the comparison, whatever the number of commits', async () => {
    const api = await start()
    standin.addCommit(sha('a'), null, [])
    let parent = sha('a')
    for (let i = 0; i < 250; i++) {
      const next = i.toString(16).padStart(40, '0')
      standin.addCommit(next, parent, [`notes/${i % 50}.md`])
      parent = next
    }
    expect(await api.changedFiles(REPO, sha('a'), parent)).toEqual({
      kind: 'files',
      files: expect.arrayContaining(['notes/0.md', 'notes/49.md'])
    })
    const pages = standin.requests.filter((r) => r.path.includes('/compare/')).map((r) => [r.query.page, r.query.per_page])
    expect(pages).toEqual([['1', '1']])
  })
})

describe("the token's login and the records of its own comments", () => {
  test('an installation token (GET /user refused) is told its login by GraphQL viewer', async () => {
    const api = await start()
    expect(await api.authenticatedLogin()).toBeNull()
    expect(await tokenLogin(api, api, log)).toBe('github-actions[bot]')
    expect(standin.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /user', 'POST /graphql'])
  })

  test('a personal token is told too; GET /user when GraphQL does not answer', async () => {
    const api = await start({ tokenKind: 'user', actor: { login: 'octo-bot', type: 'User' }, graphqlViewer: false })
    expect(await tokenLogin(api, api, log)).toBe('octo-bot')
    expect(standin.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /graphql', 'GET /user'])
  })

  test('neither tells: null', async () => {
    const api = await start({ graphqlViewer: false })
    expect(await tokenLogin(api, api, log)).toBeNull()
  })

  const SUBJECT = recordSubjectKey('target:agent-pr-7')
  const rec = (over: Partial<AssessmentRecord> = {}): AssessmentRecord => ({
    result: 'pass',
    assessedSha: sha('a'),
    headSha: sha('a'),
    subject: SUBJECT,
    config: 'c0ffee00',
    host: recordSubjectKey('pr-7.example.com'),
    profileDigest: null,
    policyDigest: null,
    at: '2026-11-20T10:00Z',
    ...over
  })
  const body = (r: AssessmentRecord): string =>
    `${commentMarker('m_1')}\n<!-- asas-gate:result=${r.result};sha=${r.assessedSha.slice(0, 12)};at=${r.at ?? '-'} -->\n${recordMarker(r)}\n\nreport`

  test("only the token's own comments count: a person's or another bot's record is not read", async () => {
    const api = await start({ perPage: 2 })
    const pr = { ...REPO, number: 7 }
    standin.seedComment(7, body(rec({ result: 'fail' })))
    standin.seedComment(7, body(rec({ at: '2026-11-21T09:00Z', assessedSha: sha('f'), headSha: sha('f') })), {
      login: 'mallory',
      type: 'User'
    })
    standin.seedComment(7, body(rec({ at: '2026-11-21T09:00Z', assessedSha: sha('e'), headSha: sha('e') })), {
      login: 'evil[bot]',
      type: 'Bot'
    })
    standin.seedComment(7, body(rec({ subject: recordSubjectKey('model:other'), at: '2026-11-21T09:30Z' })))
    standin.seedComment(7, 'a comment')
    const login = await tokenLogin(api, api, log)
    const found = (await findAssessmentRecords(api, pr, login, log)).filter((f) => f.record.subject === SUBJECT)
    expect(found.map((f) => f.record)).toEqual([rec({ result: 'fail' })])
    expect(found[0].commentId).toBe(standin.state.comments.get(7)?.[0].id)
  })

  test('every record of the token is read (comment mode new leaves several; recordsOfAgent picks the newest)', async () => {
    const api = await start()
    const pr = { ...REPO, number: 7 }
    standin.seedComment(7, body(rec({ at: '2026-11-21T09:00Z', result: 'fail' })))
    standin.seedComment(7, body(rec({ at: '2026-11-20T09:00Z' })))
    const found = await findAssessmentRecords(api, pr, 'github-actions[bot]', log)
    expect(found.map((f) => f.record.result)).toEqual(['fail', 'pass'])
  })

  test("without the token's login no record is trusted, and the log says so", async () => {
    const api = await start()
    standin.seedComment(7, body(rec()))
    expect(await findAssessmentRecords(api, { ...REPO, number: 7 }, null, log)).toEqual([])
    expect(log.lines.map((l) => l.line)).toContain(
      "GitHub did not tell this token's login, so no recorded assessment is trusted: the step assesses."
    )
    expect(standin.requests).toEqual([])
  })
})
