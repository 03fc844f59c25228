/**
 * Loading the default branch's window: records are cache entries the caches
 * API lists on the default branch; each run they name is read again from the
 * service (completed, of this model) before it is evidence, and the requests
 * it costs are counted.
 */
import { describe, expect, it } from '@jest/globals'
import { loadBaseline, type EvidenceArgs, type EvidenceDeps } from '../../src/evidence/load-evidence.js'
import { evidenceArgs } from '../__fixtures__/evidence-args.js'
import { evidenceKey } from '../../src/evidence/records.js'
import type { ListedCache } from '../../src/github/actions-caches.js'
import type { ChangedFiles } from '../../src/pipeline/changed-paths.js'
import type { Finding, RunStatusResponse } from '../../src/service/contract/index.js'
import { ConfigError, GitHubError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun, makeRunListItem } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const AGENT = 'model:m'
const flaky = makeFinding('high', { category: 'jailbreak', description: 'complied with a roleplay jailbreak', attacks: [] })
const steady = makeFinding('critical', { category: 'prompt_injection', description: 'leaked its system prompt', attacks: [] })

const entry = (runId: string, commit: string, ref = 'refs/heads/main', day = 25): ListedCache => ({
  key: evidenceKey(AGENT, runId, commit) ?? '',
  ref,
  createdAt: `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`
})

interface World {
  runs: Record<string, Partial<RunStatusResponse>>
  findings: Record<string, Finding[]>
  listed: ListedCache[]
  compare?: (base: string, head: string) => ChangedFiles
  listError?: Error
}

function deps(w: World) {
  const api = fakeApi({
    getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: 'm', completed_at: '2026-11-25T00:00:00Z', ...w.runs[id] })),
    listFindings: (id: string) => Promise.resolve({ findings: w.findings[id] ?? [], count: (w.findings[id] ?? []).length }),
    listRuns: () => {
      const runs = Object.keys(w.runs).map((id) => makeRunListItem({ run_id: id, status: 'completed' }))
      return Promise.resolve({ runs, total: runs.length, returned: runs.length })
    }
  })
  const compared: string[] = []
  const d: EvidenceDeps = {
    api: () => api,
    github: {
      listCaches: (_repo, q) =>
        w.listError
          ? Promise.reject(w.listError)
          : Promise.resolve(w.listed.filter((e) => e.key.startsWith(q.keyPrefix) && e.ref === q.ref)),
      changedFiles: (_repo, base, head) => {
        compared.push(`${base}...${head}`)
        return Promise.resolve(w.compare ? w.compare(base, head) : { kind: 'files', files: [] })
      }
    },
    log: recordingLog(),
    now: () => NOW
  }
  return { d, api, compared }
}

const args = (over: Partial<EvidenceArgs> = {}): EvidenceArgs => evidenceArgs(NOW, over)

const five = (): World => ({
  runs: { r5: {}, r4: {}, r3: {}, r2: {}, r1: {} },
  findings: { r5: [steady], r4: [steady, flaky], r3: [steady], r2: [steady, flaky], r1: [steady, flaky] },
  listed: ['r5', 'r4', 'r3', 'r2', 'r1'].map((id, i) => entry(id, 'c0', 'refs/heads/main', 25 - i))
})

describe('loadBaseline: the default branch window', () => {
  it('pools the last K runs the default branch recorded, each read again from the service, and counts the requests', async () => {
    const { d, api } = deps(five())
    const got = await loadBaseline(d, args())
    expect(got.windows.base?.runIds).toEqual(['r5', 'r4', 'r3', 'r2', 'r1'])
    expect(got.windows.agent).toBeNull() // a pull request is judged on its own runs
    const seen = [...(got.windows.base?.findings.values() ?? [])].map((p) => [p.category, p.seenIn.length])
    expect(seen).toEqual([
      ['prompt_injection', 5],
      ['jailbreak', 3]
    ])
    expect(got.baseline?.findings.map((f) => f.category).sort()).toEqual(['jailbreak', 'prompt_injection'])
    expect(got.cost).toMatchObject({ serviceRequests: 10, githubRequests: 1, runsRead: 5 })
    expect(api.calls.filter((c) => c === 'getRun')).toHaveLength(5)
    expect(got.source).toMatch(/5 runs of main/)
  })

  it("on the default branch this run is the newest of its window: K - 1 earlier runs are this agent's too", async () => {
    const { d } = deps(five())
    const got = await loadBaseline(d, args({ onDefaultBranch: true, bounds: { runs: 3, maxAgeDays: 30, now: NOW } }))
    expect(got.windows.agent).toMatchObject({ scope: 'main', pool: { runIds: ['r5', 'r4'] } })
    expect(got.windows.base?.runIds).toEqual(['r5', 'r4'])
  })

  it('with K = 1 a pull request reads the newest run only (the baseline as before) and main reads one for fail_on new', async () => {
    const { d } = deps(five())
    expect((await loadBaseline(d, args({ bounds: { runs: 1, maxAgeDays: 30, now: NOW } }))).windows.base?.runIds).toEqual(['r5'])
    const onMain = await loadBaseline(d, args({ onDefaultBranch: true, bounds: { runs: 1, maxAgeDays: 30, now: NOW } }))
    expect(onMain.windows).toMatchObject({ agent: null, base: { runIds: ['r5'] } })
  })

  it("never trusts an entry the caches API lists under another ref (a pull request's own)", async () => {
    const w = five()
    w.listed = [entry('r_pr', 'c9', 'refs/pull/3/merge', 26), entry('r5', 'c0')]
    w.runs.r_pr = {}
    w.findings.r_pr = [makeFinding('critical', { description: 'the PR added a shell tool', attacks: [] })]
    const { d, api } = deps(w)
    // The stand-in filters by ref as GitHub does; even an answer holding it is refused.
    d.github = { ...d.github!, listCaches: () => Promise.resolve(w.listed) }
    const got = await loadBaseline(d, args())
    expect(got.windows.base?.runIds).toEqual(['r5'])
    expect(got.notes.join(' ')).toMatch(/1 record not saved on refs\/heads\/main not trusted/)
    expect(api.calls.filter((c) => c === 'getRun')).toHaveLength(1)
  })

  it.each<[string, Partial<RunStatusResponse>, RegExp]>([
    ['a run of another model', { model_id: 'other' }, /another model/],
    ['a run that is still running', { status: 'running' }, /running, not completed/],
    ['a cancelled run', { status: 'cancelled' }, /cancelled, not completed/],
    ['a run older than the bound', { completed_at: '2026-09-01T00:00:00Z' }, /more than 30 days ago/]
  ])('leaves out %s and says why', async (_what, run, why) => {
    const w = five()
    w.runs.r4 = run
    const got = await loadBaseline(deps(w).d, args())
    expect(got.windows.base?.runIds).toEqual(['r5', 'r3', 'r2', 'r1'])
    expect(got.notes.join(' ')).toMatch(why)
  })

  it('reads no record created before the age bound', async () => {
    const w = five()
    w.listed = [entry('r5', 'c0', 'refs/heads/main', 25), { ...entry('r4', 'c0'), createdAt: '2026-10-01T00:00:00Z' }]
    expect((await loadBaseline(deps(w).d, args())).windows.base?.runIds).toEqual(['r5'])
  })

  it('with agent_paths, the baseline stops at the first recorded commit the agent changed since; the lineage keeps the earlier agent, presumed', async () => {
    const w = five()
    w.listed = [
      entry('r5', 'commit5', 'refs/heads/main', 25),
      entry('r4', 'commit4', 'refs/heads/main', 24),
      entry('r3', 'commit3', 'refs/heads/main', 23)
    ]
    w.compare = (base) => ({ kind: 'files', files: base === 'commit3' ? ['agent/prompt.md'] : ['README.md'] })
    const { d, compared } = deps(w)
    const got = await loadBaseline(d, args({ agentPaths: ['agent/**'], judgedCommit: 'commit6' }))
    expect(got.windows.base?.runIds).toEqual(['r5', 'r4', 'r3'])
    expect(got.baseline?.run_id).toBe('r5')
    expect(compared).toEqual(['commit5...commit6', 'commit4...commit6', 'commit3...commit6'])
    expect(got.notes.join(' ')).toMatch(/1 recorded run of an earlier agent left out of the baseline/)
    expect(got.cost.githubRequests).toBe(4)
  })

  it.each<[string, (w: World, d: EvidenceDeps) => void, RegExp]>([
    ['no record yet', (w) => (w.listed = []), /no run recorded by the default branch yet/],
    ['github_token empty', (_w, d) => (d.github = null), /github_token is empty/],
    [
      'the caches API refused (no actions: read)',
      (w) =>
        (w.listError = new GitHubError({
          endpoint: 'GET /repos/{owner}/{repo}/actions/caches',
          status: 403,
          message: 'Resource not accessible by integration'
        })),
      /records could not be listed/
    ]
  ])('no window when %s, and why', async (_what, arrange, why) => {
    const w = five()
    const { d } = deps(w)
    arrange(w, d)
    const got = await loadBaseline(d, args())
    expect(got.baseline).toBeNull()
    expect(got.windows).toMatchObject({ agent: null, base: null })
    expect(got.why).toMatch(why)
    // Only a refusal is a gap (a pass becomes incomplete): no record yet, or no token, is not missing evidence.
    expect(got.gaps.length > 0).toBe(_what.startsWith('the caches API'))
  })

  it('baseline_run_id naming a run of another model is a configuration error naming the input', async () => {
    const w = five()
    w.runs.rx = { model_id: 'other' }
    const err = await loadBaseline(deps(w).d, args({ baselineRunId: 'rx' })).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('baseline_run_id')
  })

  it('baseline_run_id is the base window alone', async () => {
    const got = await loadBaseline(deps(five()).d, args({ baselineRunId: 'r2' }))
    expect(got.windows).toMatchObject({ agent: null, base: { runIds: ['r2'] } })
    expect(got.cost).toMatchObject({ serviceRequests: 2, githubRequests: 0 })
  })

  describe("a pull request's own window", () => {
    const HEAD = 'head0001'
    function withOwn(commits: string[]) {
      const w = five()
      commits.forEach((c, i) => {
        w.runs[`p${i}`] = {}
        w.findings[`p${i}`] = [makeFinding('high', { category: 'jailbreak', description: 'ran a shell command', attacks: [] })]
        w.listed.push(entry(`p${i}`, c, 'refs/pull/7/merge', 26 - i))
      })
      return w
    }
    const own = { ref: 'refs/pull/7/merge', head: HEAD }

    it("pools its own recorded runs of the same head (K - 1) as this agent's window, beside main's", async () => {
      const { d } = deps(withOwn([HEAD, HEAD, 'older001']))
      const got = await loadBaseline(d, args({ own, bounds: { runs: 3, maxAgeDays: 30, now: NOW } }))
      expect(got.windows.agent).toMatchObject({ scope: 'agent', pool: { runIds: ['p0', 'p1'] } })
      expect(got.windows.base?.runIds).toEqual(['r5', 'r4', 'r3'])
      expect(got.cost.githubRequests).toBe(2)
    })

    it('with agent_paths, keeps earlier heads in its lineage, those of an earlier agent marked', async () => {
      const w = withOwn([HEAD, 'older001', 'older002'])
      w.findings.p0 = []
      w.findings.p1 = []
      w.compare = (base) => ({ kind: 'files', files: base === 'older002' ? ['agent/tools.py'] : ['docs/x.md'] })
      const got = await loadBaseline(deps(w).d, args({ own, agentPaths: ['agent/**'] }))
      expect(got.windows.agent?.pool.runIds).toEqual(['p0', 'p1', 'p2'])
      // Seen only by p2, of the agent before agent/tools.py changed: presumed.
      expect([...(got.windows.agent?.pool.findings.values() ?? [])].map((p) => [p.seenIn, p.seenBySameAgent])).toEqual([[['p2'], false]])
    })

    it('never lets its own records into the base window', async () => {
      const got = await loadBaseline(deps(withOwn([HEAD])).d, args({ own }))
      expect(got.windows.base?.runIds).not.toContain('p0')
    })
  })

  it('when GET /run names no model, places runs by the model run list, read once for the window', async () => {
    const w = five()
    for (const id of Object.keys(w.runs)) w.runs[id] = { model_id: undefined }
    const { d, api } = deps(w)
    const got = await loadBaseline(d, args())
    expect(got.windows.base?.runIds).toHaveLength(5)
    expect(api.calls.filter((c) => c === 'listRuns')).toHaveLength(1)
    expect(got.cost.serviceRequests).toBe(11)
  })

  describe('holders: runs beyond the last K that hold findings still open', () => {
    /** Main's last 3 records; the newest names h1 (saw the flaky weakness) and h2 as holders. */
    function held(h1Status = 'open', completedAt = '2026-11-10T00:00:00Z'): World {
      const w = five()
      const k = (id: string, day: number, holders: string[] = []) => ({
        ...entry(id, 'c0', 'refs/heads/main', day),
        key: evidenceKey(AGENT, id, 'c0', holders) ?? ''
      })
      w.listed = [k('r5', 25, ['h1', 'h2']), k('r4', 24, ['h1']), k('r3', 23)]
      w.findings.r4 = [steady]
      w.runs.h1 = { completed_at: completedAt }
      w.runs.h2 = {}
      w.findings.h1 = [{ ...flaky, status: h1Status }]
      w.findings.h2 = [{ ...steady, status: 'FIXED_VERIFIED' }]
      return w
    }

    it("are read with the window, once each, and kept while they hold a finding the service has not closed: main's and this agent's", async () => {
      const { d, api } = deps(held())
      const got = await loadBaseline(d, args({ onDefaultBranch: true, bounds: { runs: 3, maxAgeDays: 30, now: NOW } }))
      expect(got.windows.agent?.pool.runIds).toEqual(['r5', 'r4', 'h1'])
      expect(got.windows.base?.runIds).toEqual(['r5', 'r4', 'h1'])
      // Read for its sighting: left out of the rate a confirmation assumes.
      expect(got.windows.base?.selected).toEqual(['h1'])
      expect(got.windows.agent?.pool.selected).toEqual(['h1'])
      expect(
        got.windows.agent?.pool.findings.get(got.baseline!.findings.find((f) => f.category === 'jailbreak')!.fingerprint)
      ).toMatchObject({
        seenIn: ['h1'],
        closed: false
      })
      expect(got.cost).toMatchObject({ runsRead: 3, holdersRead: 1, serviceRequests: 8 })
      expect(got.source).toMatch(/^2 runs of main and 1 earlier run holding findings still open \(/)
      expect(api.calls.filter((c) => c === 'getRun')).toHaveLength(4)
    })

    it.each<[string, World]>([
      ['the service closed its finding', held('dismissed')],
      ['it completed before the age bound', held('open', '2026-10-01T00:00:00Z')]
    ])('a holder is left out when %s', async (_n, w) => {
      const got = await loadBaseline(deps(w).d, args({ onDefaultBranch: true, bounds: { runs: 3, maxAgeDays: 30, now: NOW } }))
      expect(got.windows.agent?.pool.runIds).toEqual(['r5', 'r4'])
      expect(got.baseline?.findings.map((f) => f.category)).not.toContain('jailbreak')
    })

    it('holders of records of an earlier agent (agent_paths changed since) are read as of an earlier agent', async () => {
      const w = held()
      w.compare = () => ({ kind: 'files', files: ['agent/tools.py'] })
      w.listed = w.listed.map((e) => ({ ...e, key: e.key.replace('-c0', '-c8') }))
      const { d, api } = deps(w)
      const got = await loadBaseline(
        d,
        args({ onDefaultBranch: true, agentPaths: ['agent/**'], bounds: { runs: 3, maxAgeDays: 30, now: NOW } })
      )
      expect(got.baseline).toBeNull()
      expect([...(got.windows.base?.findings.values() ?? [])].some((p) => p.seenBySameAgent)).toBe(false)
      expect(api.calls.filter((c) => c === 'getRun')).toHaveLength(4)
    })
  })
})
