/**
 * Adoption is not eviction: a push to the default branch with no record of it
 * listed is judged on its own run only when the durable sign (this agent's
 * commit status on an earlier commit of the branch) is absent from every read
 * and this push could set its own status; anything else stays strict (the
 * service's list presumed, as before). A pull request never reads the sign.
 */
import { describe, expect, it } from '@jest/globals'
import {
  ADOPTION_LINE,
  readSign,
  recordsGoneKind,
  recordsGoneOnPush,
  SIGN_COMMITS,
  type SignReading,
  type SignReads,
  type SignWrite
} from '../../src/evidence/adoption.js'
import { loadBaseline, type EvidenceDeps } from '../../src/evidence/load-evidence.js'
import { statusContext, STATUSES_READ, type ListedStatus } from '../../src/github/commit-status.js'
import { GitHubError } from '../../src/util/errors.js'
import { evidenceArgs } from '../__fixtures__/evidence-args.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun, makeRunListItem } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const THIS_RUN = 'https://github.com/o/r/actions/runs/42'
const SET: SignWrite = { set: true, targetUrl: THIS_RUN }
const REFUSED: SignWrite = { set: false, why: 'GitHub refused it: see the warning above' }

describe('recordsGoneKind: adoption only when no sign is found on every commit read and this push set its own', () => {
  const table: [string, SignReading, SignWrite, 'adoption' | 'strict', RegExp | null][] = [
    ['no sign, own status set', { kind: 'none', commitsRead: 4 }, SET, 'adoption', /^First assessment recorded by the default branch/],
    ['no sign, no earlier commit at all', { kind: 'none', commitsRead: 0 }, SET, 'adoption', /judged on this run alone/],
    ['the sign found: eviction, strict as before', { kind: 'found', commit: 'c1' }, SET, 'strict', null],
    ['the sign found, own status refused: still eviction', { kind: 'found', commit: 'c1' }, REFUSED, 'strict', null],
    [
      'no sign, own status refused: untrusted',
      { kind: 'none', commitsRead: 4 },
      REFUSED,
      'strict',
      /could not set its own commit status .*statuses: write/
    ],
    [
      'no sign, commit_status off',
      { kind: 'none', commitsRead: 4 },
      { set: false, why: 'commit_status is off' },
      'strict',
      /commit_status is off/
    ],
    ['a read failed', { kind: 'unreadable', why: 'HTTP 403' }, SET, 'strict', /could not be told \(HTTP 403\).*statuses: write/],
    [
      'more commits than read',
      { kind: 'beyond', why: 'main has more than 100 commits' },
      SET,
      'strict',
      /could not be told \(main has more/
    ]
  ]
  it.each(table)('%s', (_name, read, write, kind, line) => {
    const got = recordsGoneKind(read, write)
    expect(got.kind).toBe(kind)
    if (line === null) expect(got.line).toBeNull()
    else expect(got.line).toMatch(line)
  })

  it('the adoption line is one plain line', () => {
    expect(ADOPTION_LINE).not.toMatch(/\n/)
    expect(ADOPTION_LINE).toMatch(/nothing from other branches' runs presumed/)
  })
})

const REPO = { owner: 'o', repo: 'r' }
const CONTEXT = statusContext('m')
const OWNER = '1a2b3c4d'
const mine: ListedStatus = { context: CONTEXT, owner: OWNER }

/** Reads over `statuses` by commit, main's commits newest first; `fail` names a call that throws. */
function reads(commits: string[], statuses: Record<string, ListedStatus[]>, fail?: string): SignReads & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    listBranchCommits: (_repo, branch, o) => {
      calls.push(`commits ${branch} ${o.limit}`)
      if (fail === 'list')
        return Promise.reject(new GitHubError({ endpoint: 'GET /repos/{owner}/{repo}/commits', status: 403, message: 'Forbidden' }))
      return Promise.resolve(commits.slice(0, o.limit))
    },
    listCommitStatuses: (_repo, sha) => {
      calls.push(`statuses ${sha}`)
      if (fail === sha) return Promise.reject(new GitHubError({ endpoint: 'GET statuses', status: 502, message: 'Bad Gateway' }))
      return Promise.resolve(statuses[sha] ?? [])
    }
  }
}
const q = { repo: REPO, branch: 'main', context: CONTEXT, owner: OWNER, judged: 'c0', thisRun: THIS_RUN, since: '2026-10-27T12:00:00.000Z' }

describe("readSign: the statuses of the default branch's newest commits", () => {
  it('found on an earlier commit: stops there', async () => {
    const r = reads(['c0', 'c1', 'c2', 'c3'], { c2: [mine] })
    const cost = { githubRequests: 0 }
    expect(await readSign(r, q, cost)).toEqual({ kind: 'found', commit: 'c2' })
    expect(r.calls).toEqual([`commits main ${SIGN_COMMITS}`, 'statuses c0', 'statuses c1', 'statuses c2'])
    expect(cost.githubRequests).toBe(4)
  })

  it("this run's own status on its commit (set as it started) is no sign; another run's there is (a nightly run at an unchanged head)", async () => {
    const ownRun = { ...mine, targetUrl: `${THIS_RUN}#agent-${OWNER}` }
    expect(await readSign(reads(['c0', 'c1'], { c0: [ownRun] }), q, { githubRequests: 0 })).toEqual({ kind: 'none', commitsRead: 2 })
    const earlierRun = { ...mine, targetUrl: `https://github.com/o/r/actions/runs/41#agent-${OWNER}` }
    expect(await readSign(reads(['c0', 'c1'], { c0: [ownRun, earlierRun] }), q, { githubRequests: 0 })).toEqual({
      kind: 'found',
      commit: 'c0'
    })
    // The commit list not reaching this push's commit (its date outside `since`): it is read all the same.
    const r = reads(['c1'], { c0: [earlierRun] })
    expect(await readSign(r, q, { githubRequests: 0 })).toEqual({ kind: 'found', commit: 'c0' })
  })

  it("another agent's status of the same context, or one naming no agent, is not this agent's sign", async () => {
    const r = reads(['c0', 'c1'], {
      c1: [
        { context: CONTEXT, owner: 'ffffffff' },
        { context: CONTEXT, owner: null },
        { context: 'ci/build', owner: OWNER }
      ]
    })
    expect(await readSign(r, q, { githubRequests: 0 })).toEqual({ kind: 'none', commitsRead: 2 })
  })

  it('the commit list or a status list failing: unreadable, saying which', async () => {
    expect(await readSign(reads(['c0'], {}, 'list'), q, { githubRequests: 0 })).toMatchObject({
      kind: 'unreadable',
      why: expect.stringMatching(/commits of main could not be listed.*403/)
    })
    expect(await readSign(reads(['c0', 'c1', 'c2'], {}, 'c2'), q, { githubRequests: 0 })).toMatchObject({
      kind: 'unreadable',
      why: expect.stringMatching(/statuses of c2 could not be read.*502/)
    })
  })

  it('more commits within the age bound than read, or a commit whose statuses fill a page: cannot be told', async () => {
    const many = Array.from({ length: SIGN_COMMITS + 10 }, (_, i) => `c${i}`)
    const r = reads(many, {})
    expect(await readSign(r, q, { githubRequests: 0 })).toMatchObject({ kind: 'beyond' })
    // One page of commits listed, each read: the page is full, so what lies beyond cannot be told.
    expect(r.calls.filter((c) => c.startsWith('statuses'))).toHaveLength(SIGN_COMMITS)
    const full = Array.from({ length: STATUSES_READ }, () => ({ context: 'ci/build', owner: null }))
    expect(await readSign(reads(['c0', 'c1', 'c2'], { c1: full, c2: [mine] }), q, { githubRequests: 0 })).toMatchObject({ kind: 'beyond' })
  })
})

describe('recordsGoneOnPush: whatever it cannot read or trust is strict, and reads nothing it does not need', () => {
  const own = { context: CONTEXT, owner: OWNER, write: SET }
  const at = (over: Partial<Parameters<typeof recordsGoneOnPush>[2]> = {}) => ({
    repo: REPO,
    defaultBranch: 'main',
    judgedCommit: 'c0',
    bounds: { maxAgeDays: 30, now: Date.parse('2026-11-26T12:00:00Z') },
    cost: { githubRequests: 0 },
    ...over
  })
  it.each([
    ['no status edge of its own (commit_status off)', 'no-own', at(), null],
    ['no GitHub reads (github_token empty)', 'no-reads', at(), /github_token is empty or the repository is unknown/],
    ['no repository', 'reads', at({ repo: null }), /github_token is empty or the repository is unknown/],
    ['no default branch', 'reads', at({ defaultBranch: null }), /github_token is empty or the repository is unknown/],
    ['its own status refused', 'refused', at(), /could not set its own commit status/]
  ] as const)('%s: strict', async (_name, edge, a, line) => {
    const r = reads(['c0', 'c1'], {})
    const got = await recordsGoneOnPush(
      edge === 'no-reads' ? null : r,
      edge === 'no-own' ? null : edge === 'refused' ? { ...own, write: REFUSED } : own,
      a
    )
    expect(got.kind).toBe('strict')
    if (line === null) expect(got.line).toBeNull()
    else expect(got.line).toMatch(line)
    // Nothing read where nothing could make it adoption.
    expect(r.calls).toEqual([])
  })

  it('reads the branch since the age bound, the judged commit first, and finds adoption on a clean branch', async () => {
    const r = reads(['c1', 'c2'], {})
    const cost = { githubRequests: 0 }
    const got = await recordsGoneOnPush(r, own, at({ cost }))
    expect(got).toEqual({ kind: 'adoption', line: ADOPTION_LINE })
    expect(r.calls).toEqual([`commits main ${SIGN_COMMITS}`, 'statuses c0', 'statuses c1', 'statuses c2'])
    expect(cost.githubRequests).toBe(4)
  })

  it('names the commit whose statuses failed by its short SHA', async () => {
    const sha = 'abcdef0123456789abcdef0123456789abcdef01'
    const r = reads([sha], {}, sha)
    const got = await recordsGoneOnPush(r, own, at({ judgedCommit: null }))
    // No judged commit: only the branch's own commits are read.
    expect(r.calls).toEqual([`commits main ${SIGN_COMMITS}`, `statuses ${sha}`])
    expect(got.kind).toBe('strict')
    expect(got.line).toContain('the statuses of abcdef0 could not be read')
    expect(got.line).not.toContain(sha)
  })
})

describe('loadBaseline on a push to main with no record listed: adoption reads no other run; eviction presumes as before', () => {
  const NOW = Date.parse('2026-11-26T12:00:00Z')
  const jailbreak = makeFinding('high', { category: 'jailbreak', description: 'complied with a roleplay jailbreak', attacks: [] })
  /** A pull request's run saw the jailbreak; main never recorded. */
  function deps(signs: SignReads | null) {
    const api = fakeApi({
      getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: 'm', completed_at: '2026-11-20T00:00:00Z' })),
      listFindings: () => Promise.resolve({ findings: [jailbreak], count: 1 }),
      listRuns: () =>
        Promise.resolve({
          runs: [makeRunListItem({ run_id: 'pr1', findings_count: 1, completed_at: '2026-11-20T00:00:00Z' })],
          total: 1,
          returned: 1
        })
    })
    const d: EvidenceDeps = {
      api: () => api,
      github: { listCaches: () => Promise.resolve([]), changedFiles: () => Promise.resolve({ kind: 'files', files: [] }) },
      signs,
      log: recordingLog(),
      now: () => NOW
    }
    return { d, api }
  }
  const args = (write: SignWrite | null, onDefaultBranch = true) =>
    evidenceArgs(NOW, { onDefaultBranch, judgedCommit: 'c0', ownStatus: write === null ? null : { context: CONTEXT, owner: OWNER, write } })

  it('adoption: nothing presumed, the service list never read, the plain line said', async () => {
    const { d, api } = deps(reads(['c0', 'c1'], {}))
    const got = await loadBaseline(d, args(SET))
    expect(got.windows.agent).toBeNull()
    expect(api.calls).not.toContain('listRuns')
    expect(got.notes).toEqual([ADOPTION_LINE])
    expect(got.gaps).toEqual([])
    expect(got.serviceList).toEqual([])
    // The caches list, the commit list, two commits' statuses.
    expect(got.cost.githubRequests).toBe(4)
  })

  it('eviction (the sign found): the service list presumed, exactly as without the sign', async () => {
    const { d, api } = deps(reads(['c0', 'c1'], { c1: [mine] }))
    const got = await loadBaseline(d, args(SET))
    expect(api.calls).toContain('listRuns')
    expect(got.windows.agent?.scope).toBe('model')
    const before = await loadBaseline(deps(null).d, args(null))
    expect(got.windows.agent?.pool.runIds).toEqual(before.windows.agent?.pool.runIds)
    expect(got.serviceList).toEqual(['pr1'])
  })

  it('statuses unreadable: strict, with the fix said', async () => {
    const { d, api } = deps(reads(['c0', 'c1'], {}, 'c1'))
    const got = await loadBaseline(d, args(SET))
    expect(api.calls).toContain('listRuns')
    expect(got.windows.agent?.scope).toBe('model')
    expect(got.notes[0]).toMatch(/could not be told .*statuses: write/)
  })

  it("this push's own status refused: strict, no sign read", async () => {
    const r = reads(['c0', 'c1'], {})
    const { d } = deps(r)
    const got = await loadBaseline(d, args(REFUSED))
    expect(got.windows.agent?.scope).toBe('model')
    expect(r.calls).toEqual([])
  })

  it('a pull request never reads the sign: its gate is unchanged', async () => {
    const r = reads(['c0', 'c1'], {})
    const { d } = deps(r)
    const pr = await loadBaseline(d, args(SET, false))
    const before = await loadBaseline(deps(null).d, args(null, false))
    expect(r.calls).toEqual([])
    expect(pr.windows).toEqual(before.windows)
  })
})
