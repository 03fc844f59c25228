/**
 * The rules of loadBaseline that decide which runs are evidence, one row per
 * rule: a pull request's own window is read only where it can be this
 * agent's (a head to match, K above 1, a GitHub token), a comparison that
 * cannot list files means the agent changed, baseline_run_id is that run's
 * open findings, and a store failure is no window (stricter), said and logged.
 */
import { describe, expect, it } from '@jest/globals'
import { loadBaseline, type EvidenceArgs, type EvidenceDeps } from '../../src/evidence/load-evidence.js'
import { evidenceArgs } from '../__fixtures__/evidence-args.js'
import { evidenceKey } from '../../src/evidence/records.js'
import { judgeEvidence } from '../../src/evidence/judge-evidence.js'
import { knownOnMain } from '../../src/evidence/pool.js'
import type { ListedCache } from '../../src/github/actions-caches.js'
import type { ChangedFiles } from '../../src/pipeline/changed-paths.js'
import type { Finding } from '../../src/service/contract/index.js'
import { GitHubError, ServiceError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun, makeRunListItem } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const AGENT = 'model:m'
const HEAD = 'head0001'
const OWN_REF = 'refs/pull/7/merge'
const leak = makeFinding('critical', { category: 'prompt_injection', description: 'leaked its system prompt', attacks: [] })
const shell = makeFinding('high', { category: 'jailbreak', description: 'ran a shell command', attacks: [] })

const entry = (runId: string, commit: string, ref: string, day: number): ListedCache => ({
  key: evidenceKey(AGENT, runId, commit) ?? '',
  ref,
  createdAt: `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`
})

interface World {
  findings: Record<string, Finding[]>
  listed: ListedCache[]
  compare?: (base: string, head: string) => ChangedFiles
}

/** main recorded m1, m2 at commit c0; the pull request p0, p1 at HEAD and p2 at older01. */
const world = (): World => ({
  findings: { m1: [leak], m2: [leak], p0: [shell], p1: [shell], p2: [] },
  listed: [
    entry('m1', 'main0001', 'refs/heads/main', 25),
    entry('m2', 'main0001', 'refs/heads/main', 24),
    entry('p0', HEAD, OWN_REF, 26),
    entry('p1', HEAD, OWN_REF, 25),
    entry('p2', 'older01', OWN_REF, 24)
  ]
})

function deps(w: World) {
  const api = fakeApi({
    getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: 'm', completed_at: '2026-11-25T00:00:00Z' })),
    listFindings: (id: string) => Promise.resolve({ findings: w.findings[id] ?? [], count: (w.findings[id] ?? []).length })
  })
  const log = recordingLog()
  const d: EvidenceDeps = {
    api: () => api,
    github: {
      listCaches: (_repo, q) => Promise.resolve(w.listed.filter((e) => e.key.startsWith(q.keyPrefix) && e.ref === q.ref)),
      changedFiles: (_repo, base, head) => Promise.resolve(w.compare ? w.compare(base, head) : { kind: 'files', files: [] })
    },
    log,
    now: () => NOW
  }
  return { d, log }
}

const args = (over: Partial<EvidenceArgs> = {}): EvidenceArgs =>
  evidenceArgs(NOW, { judgedCommit: 'main0001', bounds: { runs: 3, maxAgeDays: 30, now: NOW }, own: { ref: OWN_REF, head: HEAD }, ...over })

describe("loadBaseline: a pull request's own runs are its agent's window only where they can be", () => {
  it.each<[string, Partial<EvidenceArgs>, string[] | null, number]>([
    ['the same head, K = 3: the newest two of that head', {}, ['p0', 'p1'], 2],
    ['no own ref (not a pull request)', { own: null }, null, 1],
    ['a head that cannot be told', { own: { ref: OWN_REF, head: null } }, null, 1],
    ['a head that cannot be told, with agent_paths', { own: { ref: OWN_REF, head: null }, agentPaths: ['agent/**'] }, null, 1],
    ['K = 1: this run is the whole window', { bounds: { runs: 1, maxAgeDays: 30, now: NOW } }, null, 1],
    [
      'another head, without agent_paths: its runs stay its lineage (of an earlier push)',
      { own: { ref: OWN_REF, head: 'other001' } },
      ['p0', 'p1'],
      2
    ]
  ])('%s', async (_name, over, agentRuns, githubRequests) => {
    const got = await loadBaseline(deps(world()).d, args(over))
    if (agentRuns === null) expect(got.windows.agent).toBeNull()
    else expect(got.windows.agent).toMatchObject({ scope: 'agent', pool: { runIds: agentRuns } })
    expect(got.cost.githubRequests).toBe(githubRequests)
  })

  it("an earlier push's runs are of another agent without agent_paths: what they saw is presumed, and its newer open sighting keeps it open", async () => {
    const w = world()
    w.findings.p1 = [{ ...shell, status: 'FIXED_VERIFIED' }]
    const got = await loadBaseline(deps(w).d, args({ own: { ref: OWN_REF, head: 'other001' } }))
    const seen = [...(got.windows.agent?.pool.findings.values() ?? [])]
    expect(seen.map((p) => [p.description, p.seenBySameAgent, p.closed])).toEqual([['ran a shell command', false, false]])
    const same = await loadBaseline(deps(w).d, args())
    expect([...(same.windows.agent?.pool.findings.values() ?? [])].map((p) => p.seenBySameAgent)).toEqual([true])
  })

  it("its own newest run showing a weakness validated as fixed closes it: the service's status counts whoever recorded the run", async () => {
    const w = world()
    w.findings.p0 = [{ ...shell, status: 'FIXED_VERIFIED' }]
    w.findings.m1 = [leak, shell]
    const got = await loadBaseline(deps(w).d, args())
    expect(got.windows.agent?.pool.runIds).toEqual(['p0', 'p1'])
    const shellSeen = [...(got.windows.agent?.pool.findings.values() ?? [])].find((p) => p.description === shell.description)
    expect(shellSeen).toMatchObject({ seenIn: ['p0', 'p1'], closed: true })
    const reading = judgeEvidence([], got.windows)
    expect(reading.notReproduced.filter((n) => n.present).map((n) => n.description)).not.toContain(shell.description)
    expect(reading.closedSince.map((p) => p.description)).toContain(shell.description)
  })

  it('no record of its own yet: no agent window', async () => {
    const w = world()
    w.listed = w.listed.filter((e) => e.ref !== OWN_REF)
    const got = await loadBaseline(deps(w).d, args())
    expect(got.windows.agent).toBeNull()
    expect(got.windows.base?.runIds).toEqual(['m1', 'm2'])
    expect(got).toMatchObject({ why: null, gaps: [] })
    expect(got.cost.githubRequests).toBe(2)
  })

  it('reads no own window without a GitHub token', async () => {
    const { d } = deps(world())
    d.github = null
    const got = await loadBaseline(d, args())
    expect(got.windows).toEqual({ agent: null, base: null })
    expect(got.why).toMatch(/github_token is empty/)
  })
})

describe("loadBaseline: main's runs are of the agent judged now (agentCommit, else judgedCommit) only where that can be told", () => {
  const changedAgent = (): World => ({ ...world(), compare: () => ({ kind: 'files', files: ['agent/prompt.md'] }) })
  const unchanged = (): World => ({ ...world(), compare: () => ({ kind: 'files', files: ['README.md'] }) })
  const paths = { agentPaths: ['agent/**'] }
  // main recorded m1, m2 at main0001; whatever this agent, they stay main's agent for fail_on new (judgedCommit's).
  it.each<[string, World, Partial<EvidenceArgs>, boolean]>([
    ['no agentCommit: judgedCommit, the same commit', world(), {}, true],
    ['agentCommit the recorded commit', world(), { agentCommit: 'main0001' }, true],
    ['agentCommit another commit, without agent_paths', world(), { agentCommit: HEAD }, false],
    ['agentCommit another commit, agent_paths unchanged since', unchanged(), { ...paths, agentCommit: HEAD }, true],
    ['agentCommit another commit, agent_paths changed since', changedAgent(), { ...paths, agentCommit: HEAD }, false],
    ['agentCommit null: no commit to compare with', world(), { agentCommit: null }, false],
    ['no commit judged, without agent_paths', world(), { judgedCommit: null }, false],
    ["no commit judged, agent_paths: main's agent is its newest record's", changedAgent(), { ...paths, judgedCommit: null }, false],
    ['no commit judged, agent_paths unchanged: nothing to compare this agent with', unchanged(), { ...paths, judgedCommit: null }, false]
  ])('%s', async (_rule, w, over, sameAgent) => {
    const got = await loadBaseline(deps(w).d, args({ own: null, ...over }))
    expect(got.windows.base?.runIds).toEqual(['m1', 'm2'])
    expect([...(got.windows.base?.findings.values() ?? [])].map((p) => p.seenBySameAgent)).toEqual([sameAgent])
    expect(got.baseline?.run_id).toBe('m1')
    expect(got.why).toBeNull()
    expect(got.notes).toEqual([])
  })
})

describe('loadBaseline: a comparison that cannot list the files changed means the agent changed', () => {
  it.each<[string, ChangedFiles, string[]]>([
    ['files outside agent_paths: the same agent', { kind: 'files', files: ['README.md'] }, ['m1', 'm2']],
    ['a file under agent_paths: an earlier agent', { kind: 'files', files: ['agent/prompt.md'] }, []],
    ['too many files to list: an earlier agent', { kind: 'everything', reason: 'more than 300 files changed' }, []]
  ])('%s', async (_name, files, baselineRuns) => {
    const w = world()
    w.compare = () => files
    const got = await loadBaseline(deps(w).d, args({ agentPaths: ['agent/**'], judgedCommit: 'main0009', own: null }))
    // The lineage keeps every run; what an earlier agent saw is presumed, and only the same agent's runs are the baseline.
    expect(got.windows.base?.runIds).toEqual(['m1', 'm2'])
    const same = [...(got.windows.base?.findings.values() ?? [])].every((p) => p.seenBySameAgent)
    expect(same).toBe(baselineRuns.length > 0)
    expect(got.gaps).toEqual([]) // a comparison answered, even "everything", is no gap
    if (baselineRuns.length > 0) expect(got.notes).toEqual([])
    else {
      expect(got.baseline).toBeNull()
      expect(got.why).toBe('every recorded run of the default branch is of an earlier agent (agent_paths changed since)')
      expect(got.notes).toEqual(['2 recorded runs of an earlier agent left out of the baseline (agent_paths changed since).'])
    }
  })
})

describe('loadBaseline: baseline_run_id', () => {
  it("is that run's open findings, read once, named as the source", async () => {
    const got = await loadBaseline(deps(world()).d, args({ baselineRunId: 'm2', own: null }))
    expect(got.baseline).toMatchObject({ model_id: 'm', run_id: 'm2', commit: null })
    expect(got.baseline?.findings.map((f) => f.description)).toEqual(['leaked its system prompt'])
    expect(got).toMatchObject({ source: 'run m2 (baseline_run_id)', why: null, notes: [], gaps: [] })
    expect(got.cost).toMatchObject({ runsRead: 1, serviceRequests: 2, githubRequests: 0 })
  })
})

describe('loadBaseline: a store failure is no window, and a gap: never a pass', () => {
  it('the caches API refusing', async () => {
    const { d, log } = deps(world())
    d.github = {
      ...d.github!,
      listCaches: () =>
        Promise.reject(new GitHubError({ endpoint: 'GET /repos/{owner}/{repo}/actions/caches', status: 403, message: 'Forbidden' }))
    }
    const got = await loadBaseline(d, args())
    expect(got).toMatchObject({ baseline: null, source: null, windows: { agent: null, base: null }, notes: [] })
    expect(got.why).toBe("the default branch's records could not be listed")
    expect(got.gaps).toEqual([
      expect.stringMatching(
        /^the default branch's records could not be listed \(.*403.*\), so a weakness seen in them cannot be ruled out$/
      ),
      expect.stringMatching(/^this pull request's own records could not be listed \(.*403/)
    ])
    expect(log.lines).toEqual([])
  })
})

describe('loadBaseline: the base window holds only what can be trusted', () => {
  const fixed = makeFinding('critical', {
    category: 'data_exfiltration',
    description: 'sent the file to a URL',
    attacks: [],
    status: 'FIXED_VERIFIED'
  })

  it("the baseline is the window's open findings, never one the service closed (validated); its commit the newest record's", async () => {
    const w = world()
    w.findings.m1 = [leak, fixed]
    const got = await loadBaseline(deps(w).d, args({ own: null }))
    expect(got.baseline).toMatchObject({ run_id: 'm1', commit: 'main0001', created_at: '' })
    expect(got.baseline?.findings.map((f) => f.description)).toEqual(['leaked its system prompt'])
    // A plain `fixed` close is a claim, not a validation: still open.
    w.findings.m1 = [leak, { ...fixed, status: 'fixed' }]
    const claimed = await loadBaseline(deps(w).d, args({ own: null }))
    expect(claimed.baseline?.findings.map((f) => f.description)).toEqual(['leaked its system prompt', 'sent the file to a URL'])
  })

  it('recorded runs none of which can be trusted are no window, and say so', async () => {
    const { d } = deps(world())
    d.api = () =>
      fakeApi({
        getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: 'other', completed_at: '2026-11-25T00:00:00Z' })),
        listFindings: () => Promise.resolve({ findings: [leak], count: 1 })
      })
    const got = await loadBaseline(d, args())
    expect(got).toMatchObject({ baseline: null, why: 'none of the 2 recorded runs of the default branch could be trusted' })
    expect(got.windows).toEqual({ agent: null, base: null })
  })

  it.each<[string, Partial<EvidenceArgs>]>([
    ['no repository', { repo: null }],
    ['no default branch', { defaultBranch: null }],
    ["no repository, a pull request's own runs", { repo: null, own: { ref: OWN_REF, head: HEAD } }]
  ])('%s: no window, nothing listed', async (_name, over) => {
    const { d } = deps(world())
    const listed: string[] = []
    d.github = { ...d.github!, listCaches: (_r, q) => (listed.push(q.ref), Promise.resolve([])) }
    const got = await loadBaseline(d, args({ own: null, ...over }))
    expect(got).toMatchObject({
      baseline: null,
      notes: [],
      windows: { agent: null, base: null },
      why: 'the repository or its default branch is unknown to this event, so no record can be tied to the default branch'
    })
    expect(listed).toEqual([])
  })

  it('a pull request reads at most K - 1 of its own runs', async () => {
    const w = world()
    w.listed.push(entry('p3', HEAD, OWN_REF, 23))
    w.findings.p3 = [shell]
    w.listed = w.listed.filter((e) => !e.key.endsWith('-p2'))
    w.listed.push(entry('p2', HEAD, OWN_REF, 24))
    const got = await loadBaseline(deps(w).d, args())
    expect(got.windows.agent?.pool.runIds).toEqual(['p0', 'p1'])
  })

  it("a pull request's own runs none of which can be trusted are no agent window", async () => {
    const { d } = deps(world())
    const base = d.api()
    d.api = () =>
      fakeApi({
        getRun: (id: string) => (id.startsWith('p') ? Promise.resolve(makeRun({ run_id: id, model_id: 'other' })) : base.getRun(id)),
        listFindings: (id: string) => base.listFindings(id)
      })
    const got = await loadBaseline(d, args())
    expect(got.windows.agent).toBeNull()
    expect(got.windows.base?.runIds).toEqual(['m1', 'm2'])
  })

  it('compares each recorded commit once (the baseline and the lineage ask the same comparisons)', async () => {
    const w = world()
    w.listed = [entry('m1', 'main0002', 'refs/heads/main', 25), entry('m2', 'main0001', 'refs/heads/main', 24)]
    w.compare = () => ({ kind: 'files', files: ['agent/prompt.md'] })
    const got = await loadBaseline(deps(w).d, args({ agentPaths: ['agent/**'], judgedCommit: 'main0009', own: null }))
    expect(got.cost.githubRequests).toBe(3)
  })

  it('with no commit judged and no record, no window (no record yet)', async () => {
    const w = world()
    w.listed = []
    const got = await loadBaseline(deps(w).d, args({ agentPaths: ['agent/**'], judgedCommit: null, own: null }))
    expect(got.why).toBe('no run recorded by the default branch yet (no cache entry listed on it)')
    expect(got.notes).toEqual([])
  })

  it('with agent_paths and no commit to compare with (none judged, none recorded), no record is the same agent', async () => {
    const w = world()
    w.listed = [entry('m1', 'none', 'refs/heads/main', 25), entry('m2', 'none', 'refs/heads/main', 24)]
    w.listed = w.listed.map((e) => ({ ...e, key: evidenceKey(AGENT, e.key.endsWith('m1') ? 'm1' : 'm2', null) ?? '' }))
    const got = await loadBaseline(deps(w).d, args({ agentPaths: ['agent/**'], judgedCommit: null, own: null }))
    expect(got.baseline).toBeNull()
    expect([...(got.windows.base?.findings.values() ?? [])].some((p) => p.seenBySameAgent)).toBe(false)
    expect(got.notes).toEqual(['2 recorded runs left out: no commit to tell whether agent_paths changed since.'])
    // Without agent_paths every recorded run of the agent key is its own.
    expect((await loadBaseline(deps(w).d, args({ judgedCommit: null, own: null }))).windows.base?.runIds).toEqual(['m1', 'm2'])
  })

  it('records all created before the age bound: no window, and why (not "no record yet")', async () => {
    const w = world()
    w.listed = w.listed.map((e) => ({ ...e, createdAt: '2026-10-01T00:00:00Z' }))
    const got = await loadBaseline(deps(w).d, args({ own: null }))
    expect(got).toMatchObject({ baseline: null, why: 'no recorded run of the default branch is within the window', gaps: [] })
    expect(got.windows).toEqual({ agent: null, base: null })
  })

  it('a record without a commit is of another agent, with no comparison asked for it', async () => {
    const w = world()
    w.listed = [{ ...entry('m1', 'main0001', 'refs/heads/main', 25), key: evidenceKey(AGENT, 'm1', null) ?? '' }]
    const got = await loadBaseline(deps(w).d, args({ own: null, agentPaths: ['agent/**'], judgedCommit: 'main0009' }))
    expect(got.windows.base?.runIds).toEqual(['m1'])
    expect([...(got.windows.base?.findings.values() ?? [])].map((p) => p.seenBySameAgent)).toEqual([false])
    expect(got.cost.githubRequests).toBe(1)
  })

  it('keeps a completed run that names no completion time (its record is within the bound)', async () => {
    const { d } = deps(world())
    const base = d.api()
    d.api = () =>
      fakeApi({
        getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: 'm', completed_at: undefined })),
        listFindings: (id: string) => base.listFindings(id)
      })
    const got = await loadBaseline(d, args({ own: null }))
    expect(got.windows.base?.runIds).toEqual(['m1', 'm2'])
  })

  it('counts the time it took, and says what baseline_run_id must name', async () => {
    const { d } = deps(world())
    let t = 1000
    d.now = () => (t += 250)
    expect((await loadBaseline(d, args({ own: null }))).cost.ms).toBe(250)
    d.api = () => fakeApi({ getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: 'other' })) })
    const err = await loadBaseline(d, args({ baselineRunId: 'nope' })).catch((e: unknown) => e)
    expect((err as Error).message).toMatch(/: name a completed run of this model$/)
  })
})

describe('loadBaseline: holders (earlier runs a record names as holding findings still open)', () => {
  const held = makeFinding('high', { category: 'data_exfiltration', description: 'sent the file to a URL', attacks: [] })
  /** Like world(), with the newest record of `ref` naming `holders`. */
  const withHolders = (ref: string, holders: string[]): World => {
    const w = world()
    const i = w.listed.findIndex((e) => e.ref === ref)
    const runId = ref === OWN_REF ? 'p0' : 'm1'
    w.listed[i] = { ...w.listed[i], key: evidenceKey(AGENT, runId, ref === OWN_REF ? HEAD : 'main0001', holders) ?? '' }
    w.findings.h1 = [held]
    w.findings.h2 = [{ ...held, status: 'FIXED_VERIFIED' }]
    return w
  }
  const onMain = (runs: number): Partial<EvidenceArgs> => ({ onDefaultBranch: true, own: null, bounds: { runs, maxAgeDays: 30, now: NOW } })

  it.each<[string, World, Partial<EvidenceArgs>, string[] | null, string[] | null, Record<string, number>]>([
    [
      "on main, K = 3: the window's runs and the holder still open are main's window and this agent's",
      withHolders('refs/heads/main', ['h1', 'h2']),
      onMain(3),
      ['m1', 'm2', 'h1'],
      ['m1', 'm2', 'h1'],
      { holdersRead: 1, runsRead: 3, serviceRequests: 8 }
    ],
    [
      "on main, K = 1: this run alone is its agent's evidence; a holder is main's window only",
      withHolders('refs/heads/main', ['h1']),
      onMain(1),
      ['m1', 'h1'],
      null,
      { holdersRead: 1, runsRead: 2, serviceRequests: 4 }
    ],
    [
      'a holder the window reads anyway is read once, as a run of the window',
      withHolders('refs/heads/main', ['m2', 'h1']),
      { own: null },
      ['m1', 'm2', 'h1'],
      null,
      { holdersRead: 1, runsRead: 3, serviceRequests: 6 }
    ],
    [
      "a pull request's own record's holders join its agent's window, never main's",
      withHolders(OWN_REF, ['h1', 'h2']),
      {},
      ['m1', 'm2'],
      ['p0', 'p1', 'h1'],
      { holdersRead: 1, runsRead: 5, serviceRequests: 12 }
    ]
  ])('%s', async (_rule, w, over, base, agent, cost) => {
    const got = await loadBaseline(deps(w).d, args(over))
    expect(got.windows.base?.runIds ?? null).toEqual(base)
    expect(got.windows.agent?.pool.runIds ?? null).toEqual(agent)
    expect(got.cost).toMatchObject(cost)
  })

  // A holder is of the agent judged now only when a record of that agent marks it so (`!`): else what it saw is presumed.
  it.each<[string, boolean, World, Partial<EvidenceArgs>, 'base' | 'agent']>([
    ["main's record of the agent judged now marks it", true, withHolders('refs/heads/main', ['h1!']), { own: null }, 'base'],
    ["main's record of the agent judged now names it unmarked", false, withHolders('refs/heads/main', ['h1']), { own: null }, 'base'],
    [
      "main's record of an earlier agent (agent_paths changed since) marks it",
      false,
      withHolders('refs/heads/main', ['h1!']),
      { own: null, agentPaths: ['agent/**'], judgedCommit: 'main0009' },
      'base'
    ],
    ["the pull request's record of this head marks it", true, withHolders(OWN_REF, ['h1!']), {}, 'agent'],
    [
      "the pull request's record of an earlier head marks it",
      false,
      withHolders(OWN_REF, ['h1!']),
      { own: { ref: OWN_REF, head: 'other001' } },
      'agent'
    ]
  ])('a holder: %s: of the agent judged now: %s', async (_rule, same, w, over, window) => {
    w.compare = () => ({ kind: 'files', files: ['agent/prompt.md'] })
    const got = await loadBaseline(deps(w).d, args(over))
    const pool = window === 'base' ? got.windows.base : got.windows.agent?.pool
    expect(pool?.runIds).toContain('h1')
    const exfiltration = [...(pool?.findings.values() ?? [])].filter((p) => p.category === 'data_exfiltration')
    expect(exfiltration.map((p) => [p.seenIn, p.seenBySameAgent])).toEqual([[['h1'], same]])
  })

  it.each<[string, World, Partial<EvidenceArgs>, 'base' | 'agent', boolean]>([
    ["main's records: the service's close stands", withHolders('refs/heads/main', ['h1']), { own: null }, 'base', true],
    ["a pull request's own records: the service's close stands as well (one rule)", withHolders(OWN_REF, ['h1']), {}, 'agent', true]
  ])('a holder that shows a weakness validated as fixed, named by %s', async (_rule, w, over, window, closed) => {
    w.findings.h1 = [held, { ...leak, description: "read another user's file", status: 'FIXED_VERIFIED' }]
    const got = await loadBaseline(deps(w).d, args(over))
    const pool = window === 'base' ? got.windows.base : got.windows.agent?.pool
    expect(pool?.runIds).toContain('h1')
    const fixed = [...(pool?.findings.values() ?? [])].filter((p) => p.description === "read another user's file")
    expect(fixed.map((p) => [p.seenIn, p.closed])).toEqual([[['h1'], closed]])
  })

  it("a pull request's own records none of whose runs can be trusted: their holders are not read either (as main's)", async () => {
    const { d } = deps(withHolders(OWN_REF, ['h1']))
    const base = d.api()
    d.api = () =>
      fakeApi({
        getRun: (id: string) => (id.startsWith('p') ? Promise.resolve(makeRun({ run_id: id, model_id: 'other' })) : base.getRun(id)),
        listFindings: (id: string) => base.listFindings(id)
      })
    const got = await loadBaseline(d, args())
    expect(got.windows.agent).toBeNull()
    expect(got.cost.holdersRead).toBe(0)
  })

  it("a holder main's record marks presumed-only (`?`, only the service's list saw it): read, presumed present, never known on main", async () => {
    const got = await loadBaseline(deps(withHolders('refs/heads/main', ['?h1'])).d, args({ own: null }))
    const base = got.windows.base
    expect(base?.runIds).toContain('h1')
    const fp = [...(base?.findings.values() ?? [])].find((p) => p.description === held.description)?.fingerprint ?? 'none'
    expect(knownOnMain(base ?? null).has(fp)).toBe(false)
    expect(judgeEvidence([], { ...got.windows, lineage: true }).notReproduced.find((n) => n.fingerprint === fp)?.present).toBe(true)
    // Its next record names it presumed-only again (it is among the runs only the list vouches for).
    expect(got.serviceList).toEqual(['h1'])
    // Unmarked, the same holder is main's own observation: known.
    const own = await loadBaseline(deps(withHolders('refs/heads/main', ['h1'])).d, args({ own: null }))
    expect(knownOnMain(own.windows.base ?? null).has(fp)).toBe(true)
    expect(own.serviceList).toEqual([])
  })

  it('the source names the holders only when there are some', async () => {
    const source = (w: World) => loadBaseline(deps(w).d, args({ own: null })).then((got) => got.source)
    expect(await source(world())).toBe('2 runs of main (Actions cache records listed on refs/heads/main), re-read from the service')
    expect(await source(withHolders('refs/heads/main', ['h1']))).toBe(
      '2 runs of main and 1 earlier run holding findings still open (Actions cache records listed on refs/heads/main), re-read from the service'
    )
  })
})

describe('loadBaseline: a read failure leaves out only what failed, and is a gap (never a pass)', () => {
  const notFound = (id: string) =>
    new ServiceError({ endpoint: `GET /api/v1/run/${id}`, status: 404, code: 'not_found', message: 'unknown run' })

  it('a record naming a run the service answers 404 for: the other runs still speak, and the gap says which', async () => {
    const w = world()
    w.listed.push(entry('gone', 'main0001', 'refs/heads/main', 26))
    const { d } = deps(w)
    const base = d.api()
    d.api = () =>
      fakeApi({
        getRun: (id: string) => (id === 'gone' ? Promise.reject(notFound(id)) : base.getRun(id)),
        listFindings: (id: string) => base.listFindings(id)
      })
    const got = await loadBaseline(d, args({ own: null }))
    expect(got.windows.base?.runIds).toEqual(['m1', 'm2'])
    expect(got.baseline?.findings.map((f) => f.description)).toEqual(['leaked its system prompt'])
    expect(got.gaps).toEqual([
      expect.stringMatching(/^recorded run gone could not be read \(.*404.*\), so what it saw cannot be ruled out$/)
    ])
  })

  it("a holder outside the model's 100 most recent runs (GET /run names no model) is a gap, not a silent drop", async () => {
    const w = world()
    w.listed[0] = { ...w.listed[0], key: evidenceKey(AGENT, 'm1', 'main0001', ['h9']) ?? '' }
    const { d } = deps(w)
    d.api = () =>
      fakeApi({
        getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: undefined, completed_at: '2026-11-25T00:00:00Z' })),
        listFindings: (id: string) => Promise.resolve({ findings: w.findings[id] ?? [], count: 0 }),
        listRuns: () => Promise.resolve({ runs: ['m1', 'm2'].map((id) => makeRunListItem({ run_id: id })), total: 2, returned: 2 })
      })
    const got = await loadBaseline(d, args({ own: null }))
    expect(got.windows.base?.runIds).toEqual(['m1', 'm2'])
    expect(got.gaps).toEqual([expect.stringMatching(/^recorded run h9 is not among the 100 most recent completed runs/)])
  })

  it('a failure no read catches (the service client cannot be made): no window, a gap, and a warning, never a throw', async () => {
    const { d, log } = deps(world())
    d.api = () => {
      throw new ServiceError({ endpoint: 'GET /api/v1/run/m1', status: 401, code: 'unauthorized', message: 'revoked' })
    }
    const got = await loadBaseline(d, args())
    const why = 'the baseline could not be read: GET /api/v1/run/m1 HTTP 401 unauthorized: revoked'
    expect(got).toMatchObject({ baseline: null, source: null, why, windows: { agent: null, base: null }, notes: [] })
    expect(got.gaps).toEqual([`${why}, so a weakness seen earlier cannot be ruled out`])
    expect(log.lines).toEqual([
      { level: 'warning', line: `The baseline could not be read: ${why.slice('the baseline could not be read: '.length)}` }
    ])
    expect(got.cost.githubRequests).toBe(1)
  })

  // main0002 against main's judged commit (changed, or not told: stop), then each recorded commit against this agent's.
  it.each<[string, boolean]>([
    ['changed', false],
    ['not told (the comparison failed)', true]
  ])("main's agent for fail_on new stops at the first commit %s: no comparison asked past it", async (_how, fails) => {
    const w = world()
    w.listed = [entry('m1', 'main0002', 'refs/heads/main', 25), entry('m2', 'main0001', 'refs/heads/main', 24)]
    const compared: string[] = []
    const { d } = deps(w)
    d.github = {
      ...d.github!,
      changedFiles: (_r, base, head) => {
        compared.push(`${base}...${head}`)
        if (fails && head === 'main0009') return Promise.reject(new Error('socket hang up'))
        return Promise.resolve({ kind: 'files', files: ['agent/a.md'] })
      }
    }
    const got = await loadBaseline(d, args({ own: null, agentPaths: ['agent/**'], judgedCommit: 'main0009', agentCommit: HEAD }))
    expect(got.baseline).toBeNull()
    expect(compared).toEqual(['main0002...main0009', `main0002...${HEAD}`, `main0001...${HEAD}`])
    expect(got.gaps).toHaveLength(fails ? 1 : 0)
  })

  it('a comparison that fails names the commit by its first 12 characters', async () => {
    const w = world()
    const sha = 'abcdef0123456789abcdef0123456789abcdef01'
    w.listed = [entry('m1', sha, 'refs/heads/main', 25)]
    const { d } = deps(w)
    d.github = { ...d.github!, changedFiles: () => Promise.reject(new Error('socket hang up')) }
    const got = await loadBaseline(d, args({ own: null, agentPaths: ['agent/**'], judgedCommit: 'main0009' }))
    expect(got.gaps).toEqual([expect.stringMatching(/^whether agent_paths changed since abcdef012345 could not be told \(/)])
  })

  it('a comparison that fails is a gap, and its commit counts as of an earlier agent', async () => {
    const w = world()
    const { d } = deps(w)
    d.github = {
      ...d.github!,
      changedFiles: () =>
        Promise.reject(new GitHubError({ endpoint: 'GET /repos/{owner}/{repo}/compare', status: 502, message: 'Bad Gateway' }))
    }
    const got = await loadBaseline(d, args({ own: null, agentPaths: ['agent/**'], judgedCommit: 'main0009' }))
    expect(got.gaps).toEqual([expect.stringMatching(/^whether agent_paths changed since main0001 could not be told \(.*502/)])
    expect([...(got.windows.base?.findings.values() ?? [])].some((p) => p.seenBySameAgent)).toBe(false)
    // Nor is it main's agent for fail_on new: a failed comparison never makes what it saw "known".
    expect(got.baseline).toBeNull()
    expect(got.why).toBe('every recorded run of the default branch is of an earlier agent (agent_paths changed since)')
  })
})
