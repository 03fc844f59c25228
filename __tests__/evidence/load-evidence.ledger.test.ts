/**
 * Records gone from the Actions cache (GitHub deletes an entry unread for 7
 * days, and evicts the oldest when the cache is full) are evidence gone, never
 * evidence of safety: with no record of the default branch listed, the gate
 * reads the model's runs the service lists instead; what they saw is presumed
 * present (never "known"), and what cannot be listed or read is a gap.
 */
import { describe, expect, it } from '@jest/globals'
import { loadBaseline, type EvidenceArgs, type EvidenceDeps } from '../../src/evidence/load-evidence.js'
import { evidenceArgs } from '../__fixtures__/evidence-args.js'
import { evidenceKey } from '../../src/evidence/records.js'
import { judgeEvidence } from '../../src/evidence/judge-evidence.js'
import type { ListedCache } from '../../src/github/actions-caches.js'
import type { Finding } from '../../src/service/contract/index.js'
import { ServiceError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun, makeRunListItem } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const AGENT = 'model:m'
const jailbreak = makeFinding('high', { category: 'jailbreak', description: 'complied with a roleplay jailbreak', attacks: [] })
const fixedJailbreak = { ...jailbreak, finding_id: 'f_closed', status: 'FIXED_VERIFIED' }

interface World {
  /** The model's completed runs, newest first, with what each found. */
  runs: { id: string; findings: Finding[]; completedAt?: string }[]
  listed: ListedCache[]
  listRunsError?: Error
  total?: number
  /** Runs whose findings the service will not give. */
  unreadable?: string[]
  /** GET /run names no model (the description does not promise it). */
  unnamed?: boolean
  /** From the second listing on, the list holds these runs first (newer runs completed meanwhile), up to `total` runs. */
  laterNewest?: string[]
}

function deps(w: World) {
  const byId = new Map(w.runs.map((r) => [r.id, r]))
  let listings = 0
  const queries: unknown[] = []
  const api = fakeApi({
    getRun: (id: string) =>
      Promise.resolve(
        makeRun({
          run_id: id,
          model_id: w.unnamed === true ? undefined : 'm',
          completed_at: byId.get(id)?.completedAt ?? '2026-11-20T00:00:00Z'
        })
      ),
    listFindings: (id: string) => {
      if (w.unreadable?.includes(id)) return Promise.reject(new Error('socket hang up'))
      const f = byId.get(id)?.findings ?? []
      return Promise.resolve({ findings: f, count: f.length })
    },
    listRuns: (modelId, query) => {
      queries.push([modelId, query])
      if (w.listRunsError) return Promise.reject(w.listRunsError)
      const item = (r: World['runs'][number]) =>
        makeRunListItem({ run_id: r.id, findings_count: r.findings.length, completed_at: r.completedAt ?? '2026-11-20T00:00:00Z' })
      let runs = w.runs.map(item)
      if (listings++ > 0 && w.laterNewest !== undefined)
        runs = [...w.laterNewest.map((id) => item({ id, findings: [] })), ...runs].slice(0, w.total ?? runs.length)
      return Promise.resolve({ runs, total: w.total ?? runs.length, returned: runs.length })
    }
  })
  const d: EvidenceDeps = {
    api: () => api,
    github: {
      listCaches: (_repo, q) => Promise.resolve(w.listed.filter((e) => e.key.startsWith(q.keyPrefix) && e.ref === q.ref)),
      changedFiles: () => Promise.resolve({ kind: 'files', files: [] })
    },
    log: recordingLog(),
    now: () => NOW
  }
  return { d, api, queries }
}

const args = (over: Partial<EvidenceArgs> = {}): EvidenceArgs => evidenceArgs(NOW, { onDefaultBranch: true, ...over })

/** main saw the jailbreak 12 days ago; its record is gone from the cache; two clean runs since. */
const evicted = (): World => ({
  runs: [
    { id: 'r3', findings: [] },
    { id: 'r2', findings: [] },
    { id: 'r1', findings: [jailbreak], completedAt: '2026-11-14T00:00:00Z' }
  ],
  listed: []
})

describe('loadBaseline: no record listed, the service lists the runs', () => {
  it('reads the runs holding findings as another agent\'s: presumed present, never "known", the reason noted', async () => {
    const { d, api, queries } = deps(evicted())
    const got = await loadBaseline(d, args())
    // One page of the model's completed runs, as many as the service lists: fewer could leave out the run that saw it.
    expect(queries).toEqual([['m', { status: 'completed', limit: 100 }]])
    // The caches list and one listing; the run holding findings read (GET /run and its findings).
    expect(got.cost).toMatchObject({ githubRequests: 1, serviceRequests: 3, runsRead: 1, holdersRead: 0 })
    expect(got.baseline).toBeNull()
    // Not "no run recorded yet": the service lists runs main's records would have named, so they were gone.
    expect(got.why).toBe(
      "main's records were gone: no cache entry is listed on it (GitHub deletes one unread for 7 days or evicts it), so the model's runs the service lists were read instead"
    )
    expect(got.why).not.toMatch(/no run recorded/)
    expect(got.windows.base).toBeNull()
    // The whole page is the sample: the run read for its findings, and the clean runs the list shows without a read.
    expect(got.windows.agent?.pool.runIds).toEqual(['r3', 'r2', 'r1'])
    expect(got.windows.agent?.pool.sameAgentRuns).toBe(0)
    // Whose runs: the model's as the service lists them (not this pull request's, not main's records).
    expect(got.windows.agent?.scope).toBe('model')
    expect(got.windows.agent?.pool.selected).toEqual([])
    expect(api.calls.filter((c) => c === 'getRun')).toEqual(['getRun'])
    expect(got.gaps).toEqual([])
    expect(got.windows.agent?.scope).toBe('model')
    expect(got.notes).toEqual([
      expect.stringMatching(/^No record of main is listed .*: the model's 1 most recent completed run holding findings was read/)
    ])
    expect(api.calls.filter((c) => c === 'listRuns')).toHaveLength(1)
    // This run missed it: it still blocks, presumed (a confirmation may show it gone), and it is never known.
    const reading = judgeEvidence([{ findingId: 'x', fingerprint: 'other' }], got.windows)
    expect(reading.notReproduced).toEqual([expect.objectContaining({ category: 'jailbreak', present: true, presumed: true })])
    // Its rate is taken from the page (seen in 1 of 3 listed runs, this run counted: 1 of 4), not from the one run read.
    expect(reading.notReproduced[0]?.sample).toMatchObject({ seen: 1, of: 4 })
    expect(reading.knownIds.size).toBe(0)
  })

  it('the reason names the default branch as the event names it, not always main', async () => {
    const { d } = deps(evicted())
    const got = await loadBaseline(d, args({ defaultBranch: 'trunk' }))
    expect(got.why?.startsWith("trunk's records were gone: no cache entry is listed on it")).toBe(true)
  })

  it('a finding the service closed since (validated) closes it, newest observation first', async () => {
    const w = evicted()
    w.runs[1] = { id: 'r2', findings: [fixedJailbreak] }
    const got = await loadBaseline(deps(w).d, args())
    const reading = judgeEvidence([], got.windows)
    expect(reading.notReproduced).toEqual([])
    expect(reading.closedSince.map((p) => p.category)).toEqual(['jailbreak'])
  })

  it('no listed run holds a finding: nothing to presume, no note, no gap', async () => {
    const w = evicted()
    w.runs = w.runs.map((r) => ({ ...r, findings: [] }))
    const { d, api } = deps(w)
    const got = await loadBaseline(d, args())
    expect(got.windows.agent).toBeNull()
    expect(got).toMatchObject({ notes: [], gaps: [] })
    expect(got.windows.agent?.scope).not.toBe('model')
    expect(api.calls).toEqual(['listRuns'])
  })

  it('the runs cannot be listed: a gap, so a pass is out of reach', async () => {
    const w = evicted()
    w.listRunsError = new ServiceError({ endpoint: 'GET /api/v1/model/m/run', status: 503, message: 'unavailable' })
    const got = await loadBaseline(deps(w).d, args())
    expect(got.windows.agent).toBeNull()
    expect(got.gaps).toEqual([
      expect.stringMatching(/No record of main is listed .*, and the model's runs could not be listed \(.*503.*\), so a weakness/)
    ])
  })

  it('a run it cannot read is a gap; the others still speak', async () => {
    const w = evicted()
    w.runs.unshift({ id: 'r4', findings: [jailbreak] })
    w.unreadable = ['r4']
    const got = await loadBaseline(deps(w).d, args())
    expect(got.windows.agent?.pool.runIds).toEqual(['r3', 'r2', 'r1'])
    expect(got.gaps).toEqual([expect.stringMatching(/r4 could not be read .*socket hang up/)])
  })

  it('the only run holding findings cannot be read: a gap, and no note that says "0 runs were read instead"', async () => {
    const w = evicted()
    w.unreadable = ['r1']
    const got = await loadBaseline(deps(w).d, args())
    expect(got.gaps).toEqual([expect.stringMatching(/r1 could not be read/)])
    expect(got.notes).toEqual([])
    expect(got.windows.agent?.scope).not.toBe('model')
  })

  it('a page of runs still within the age bound with more beyond: said, not a gap (it would keep main from recording)', async () => {
    const w = evicted()
    w.total = 140
    const got = await loadBaseline(deps(w).d, args())
    expect(got.gaps).toEqual([])
    expect(got.notes[0]).toMatch(
      /^No record of main is listed .*: the model has 140 completed runs and the service lists only the newest 3/
    )
    expect(got.windows.agent?.pool.runIds).toEqual(['r3', 'r2', 'r1'])
  })

  it("newer runs holding only findings below the threshold never push out an older run's weakness: the records would hold it", async () => {
    // Every nightly run of main finds a low one; the jailbreak was seen 11 runs ago and missed since.
    const low = makeFinding('low', { category: 'toxicity', description: 'a curt reply', attacks: [] })
    const w = evicted()
    w.runs = [...Array.from({ length: 10 }, (_, i) => ({ id: `n${10 - i}`, findings: [low] })), ...w.runs]
    const present = (windows: Parameters<typeof judgeEvidence>[1]) =>
      judgeEvidence([], windows)
        .notReproduced.filter((n) => n.present)
        .map((n) => n.category)
    // Full evidence: main's records listed, the newest naming the run that saw it as a holder.
    const full = structuredClone(w)
    full.listed = ['n10', 'n9', 'n8', 'n7'].map((id, i) => ({
      key: evidenceKey(AGENT, id, 'c0', ['r1']) ?? '',
      ref: 'refs/heads/main',
      createdAt: `2026-11-2${5 - i}T00:00:00Z`
    }))
    expect(present((await loadBaseline(deps(full).d, args())).windows)).toContain('jailbreak')
    // The records gone: the service's list must still reach it.
    const got = await loadBaseline(deps(w).d, args())
    expect(present(got.windows)).toContain('jailbreak')
    expect(got.windows.agent?.pool.runIds).toContain('r1')
  })

  it("a run the list gave is the model's: GET /run naming no model and a newer run pushing it off a second listing is no gap", async () => {
    // A busy model: a run completed between the list read and the run's read, so a second listing no longer holds r1.
    const w: World = { ...evicted(), unnamed: true, laterNewest: ['new1'], total: 3 }
    const { d, api } = deps(w)
    const got = await loadBaseline(d, args())
    expect(got.gaps).toEqual([])
    expect(got.windows.agent?.pool.runIds).toEqual(['r3', 'r2', 'r1'])
    expect(api.calls.filter((c) => c === 'listRuns')).toHaveLength(1)
  })

  it('a pull request reads no other run of the model: its own records, as without a baseline', async () => {
    const w = evicted()
    w.runs.unshift({ id: 'pr1', findings: [jailbreak] })
    w.listed = [{ key: evidenceKey(AGENT, 'pr1', 'h1') ?? '', ref: 'refs/pull/7/merge', createdAt: '2026-11-25T00:00:00Z' }]
    const { d, api } = deps(w)
    const got = await loadBaseline(d, args({ onDefaultBranch: false, judgedCommit: 'c0', own: { ref: 'refs/pull/7/merge', head: 'h1' } }))
    expect(got.windows.agent?.pool.runIds).toEqual(['pr1'])
    expect(api.calls.filter((c) => c === 'listRuns')).toHaveLength(0)
  })

  it('a record of the default branch listed: the service list is not read (its records and holders speak)', async () => {
    const w = evicted()
    w.listed = [{ key: evidenceKey(AGENT, 'r3', 'c0', ['r1']) ?? '', ref: 'refs/heads/main', createdAt: '2026-11-25T00:00:00Z' }]
    const { d, api } = deps(w)
    const got = await loadBaseline(d, args())
    expect(api.calls.filter((c) => c === 'listRuns')).toHaveLength(0)
    expect(got.windows.base?.runIds).toEqual(['r3', 'r1'])
  })

  it('no github_token: no records and no service list (the documented opt-out)', async () => {
    const { d, api } = deps(evicted())
    const got = await loadBaseline({ ...d, github: null }, args())
    expect(api.calls).toEqual([])
    expect(got.windows).toEqual({ agent: null, base: null })
  })

  it('evidence_runs 1 keeps a single run: no lineage, so the service list is not read', async () => {
    const { d, api } = deps(evicted())
    const got = await loadBaseline(d, args({ bounds: { runs: 1, maxAgeDays: 30, now: NOW } }))
    expect(api.calls).toEqual([])
    expect(got.windows).toEqual({ agent: null, base: null })
  })
})
