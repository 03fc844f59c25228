/**
 * Missing evidence is never evidence of safety, as a property: in random
 * windows of evidence (main's records with holders, a pull request's own
 * records, agent changes, every finding status), every subset of read
 * failures (a recorded run or holder the service answers 404 or 500 for, its
 * findings unreadable, a holder outside the model's 100 most recent runs, the
 * caches list refused for main or for the pull request, a comparison that
 * fails, main's records deleted from the cache, the service's run list
 * failing) is injected, and the gate's verdict (loadBaseline, applyPolicy,
 * decide: the path of the step) is never better than with every read
 * succeeding: no pass where full evidence does not pass. Fixed seed.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { loadBaseline, type EvidenceArgs, type EvidenceDeps } from '../../src/evidence/load-evidence.js'
import { evidenceKey } from '../../src/evidence/records.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import { decide } from '../../src/decision/decide.js'
import type { ListedCache } from '../../src/github/actions-caches.js'
import type { Finding } from '../../src/service/contract/index.js'
import { GitHubError, ServiceError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun, makeRunListItem } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const AGENT = 'model:m'
const OWN_REF = 'refs/pull/7/merge'
const HEAD = 'head0001'
const CATEGORIES = ['jailbreak', 'prompt_injection']
/** Weaknesses by what tells them apart: the description (fingerprints follow it). */
const WEAKNESSES = [
  { category: 'jailbreak', description: 'complied with a roleplay jailbreak' },
  { category: 'prompt_injection', description: 'leaked its system prompt' },
  { category: 'jailbreak', description: 'ran a shell command' }
]
const STATUSES = ['open', 'open', 'fixed', 'dismissed', 'FIXED_VERIFIED']

interface RunSpec {
  id: string
  commit: string
  day: number
  /** [weakness index, status] */
  seen: [number, string][]
}

interface Window {
  main: RunSpec[]
  own: RunSpec[]
  holders: RunSpec[]
  /** Holders the newest main record names (ids of `holders`), and whether each is marked of its agent. */
  marked: boolean[]
  agentPaths: boolean
  /** Commits the agent changed at (compared with the head: files under agent/). */
  changed: string[]
  thisRun: number[]
  onDefaultBranch: boolean
  failOn: 'any' | 'new'
  /** Which runs GET /run names no model for (placed by the run list; holders outside it cannot be). */
  unnamed: boolean
}

const seen = fc.array(fc.tuple(fc.integer({ min: 0, max: WEAKNESSES.length - 1 }), fc.constantFrom(...STATUSES)), { maxLength: 3 })
const runSpec = (prefix: string, i: number): fc.Arbitrary<RunSpec> =>
  fc.record({ commit: fc.constantFrom('c1', 'c2', 'c3'), seen }).map((r) => ({ ...r, id: `${prefix}${i}`, day: 25 - i }))
const runs = (prefix: string, max: number): fc.Arbitrary<RunSpec[]> =>
  fc
    .integer({ min: 0, max })
    .chain((n) => (n === 0 ? fc.constant([]) : fc.tuple(...Array.from({ length: n }, (_, i) => runSpec(prefix, i)))))

const windowArb: fc.Arbitrary<Window> = fc.record({
  main: runs('m', 4),
  own: runs('p', 2),
  holders: runs('h', 2),
  marked: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
  agentPaths: fc.boolean(),
  changed: fc.subarray(['c1', 'c2', 'c3', HEAD]),
  thisRun: fc.subarray([0, 1, 2]),
  onDefaultBranch: fc.boolean(),
  failOn: fc.constantFrom<'any' | 'new'>('any', 'new'),
  unnamed: fc.boolean()
})

/** A read that can fail: a run's GET /run, its findings, either caches list, or the comparisons. */
type Failure = `run:${string}` | `findings:${string}` | 'list:main' | 'list:own' | 'compare' | 'evicted' | 'list:runs'

function failurePoints(w: Window): Failure[] {
  const ids = [...w.main, ...w.own, ...w.holders].map((r) => r.id)
  // Main's records deleted: on the default branch the service's list of the model's runs stands in (a pull request's run
  // is judged without main's window then, as without a baseline: a documented limit); with GET /run naming no model,
  // the holders lie beyond the list's reach (runs the list cannot reach are said, not a gap: a documented limit).
  const evicted: Failure[] = w.onDefaultBranch && !w.unnamed ? ['evicted', 'list:runs'] : []
  return [
    ...evicted,
    ...ids.map((id): Failure => `run:${id}`),
    ...ids.slice(0, 2).map((id): Failure => `findings:${id}`),
    'list:main',
    'list:own',
    'compare'
  ]
}

function findingsOf(r: RunSpec): Finding[] {
  return r.seen.map(([i, status]) => makeFinding('high', { ...WEAKNESSES[i], status, attacks: [] }))
}

async function verdict(w: Window, failing: ReadonlySet<Failure>): Promise<string> {
  const all = [...w.main, ...w.own, ...w.holders]
  const byId = new Map(all.map((r) => [r.id, r]))
  const notFound = (id: string) => new ServiceError({ endpoint: `GET /api/v1/run/${id}`, status: 404, code: 'not_found', message: 'x' })
  const api = fakeApi({
    getRun: (id: string) =>
      failing.has(`run:${id}`) || !byId.has(id)
        ? Promise.reject(notFound(id))
        : Promise.resolve(
            makeRun({
              run_id: id,
              model_id: w.unnamed ? undefined : 'm',
              completed_at: `2026-11-${String(byId.get(id)!.day)}T00:00:00Z`,
              // The same categories as this run: a narrower run is another rule (coverage), not a read failure.
              categories_planned: CATEGORIES,
              categories_completed: CATEGORIES
            })
          ),
    listFindings: (id: string) =>
      failing.has(`findings:${id}`)
        ? Promise.reject(new ServiceError({ endpoint: `GET /api/v1/run/${id}/findings`, status: 500, message: 'x' }))
        : Promise.resolve({ findings: findingsOf(byId.get(id)!), count: 0 }),
    // The run list holds main's and the pull request's runs, newest first; with GET /run naming no model, the holders
    // are older than its page of 100 (so they cannot be placed), else they are listed too.
    listRuns: () => {
      if (failing.has('list:runs'))
        return Promise.reject(new ServiceError({ endpoint: 'GET /api/v1/model/m/run', status: 503, message: 'x' }))
      const listed = [...w.main, ...w.own, ...(w.unnamed ? [] : w.holders)]
        .sort((a, b) => b.day - a.day)
        .map((r) =>
          makeRunListItem({
            run_id: r.id,
            findings_count: r.seen.length,
            completed_at: `2026-11-${String(r.day)}T00:00:00Z`,
            categories_planned: CATEGORIES
          })
        )
      return Promise.resolve({ runs: listed, total: listed.length + (w.unnamed ? w.holders.length : 0), returned: listed.length })
    }
  })
  const refused = (what: string) =>
    new GitHubError({ endpoint: `GET ${what}`, status: 403, message: 'Resource not accessible by integration' })
  const holderTokens = w.holders.map((h, i) => (w.marked[i] ? `${h.id}!` : h.id))
  const listed: ListedCache[] = [
    ...w.main.map((r, i) => ({
      key: evidenceKey(AGENT, r.id, r.commit, i === 0 ? holderTokens : []) ?? '',
      ref: 'refs/heads/main',
      createdAt: `2026-11-${String(r.day)}T00:00:00Z`
    })),
    ...w.own.map((r) => ({ key: evidenceKey(AGENT, r.id, r.commit) ?? '', ref: OWN_REF, createdAt: `2026-11-${String(r.day)}T00:00:00Z` }))
  ]
  const deps: EvidenceDeps = {
    api: () => api,
    github: {
      listCaches: (_repo, q) =>
        failing.has(q.ref === OWN_REF ? 'list:own' : 'list:main')
          ? Promise.reject(refused('/actions/caches'))
          : // Evicted: GitHub deleted main's entries (unread for 7 days, or a full cache); its runs stay on the service.
            Promise.resolve(
              listed.filter((e) => e.key.startsWith(q.keyPrefix) && e.ref === q.ref && !(failing.has('evicted') && e.ref !== OWN_REF))
            ),
      changedFiles: (_repo, base) =>
        failing.has('compare')
          ? Promise.reject(refused('/compare'))
          : Promise.resolve({ kind: 'files', files: w.changed.includes(base) ? ['agent/prompt.md'] : ['README.md'] })
    },
    log: recordingLog(),
    now: () => NOW
  }
  const args: EvidenceArgs = {
    modelId: 'm',
    agentKey: AGENT,
    baselineRunId: '',
    repo: { owner: 'o', repo: 'r' },
    defaultBranch: 'main',
    onDefaultBranch: w.onDefaultBranch,
    judgedCommit: 'c1',
    agentCommit: w.onDefaultBranch ? 'c1' : HEAD,
    agentPaths: w.agentPaths ? ['agent/**'] : [],
    bounds: { runs: 5, maxAgeDays: 30, now: NOW },
    own: w.onDefaultBranch ? null : { ref: OWN_REF, head: HEAD }
  }
  const loaded = await loadBaseline(deps, args)
  const found = w.thisRun.map((i) => makeFinding('high', { ...WEAKNESSES[i], finding_id: `t${i}`, attacks: [] }))
  const policy = applyPolicy({
    findings: found,
    runId: 'this',
    categoriesCompleted: CATEGORIES,
    baseline: loaded.baseline,
    windows: loaded.windows,
    minSeverity: 'low',
    accepted: [],
    failOn: w.failOn,
    today: '2026-11-26'
  })
  return decide({
    status: 'completed',
    verdict: found.length > 0 ? 'fail' : 'pass',
    minSeverity: 'low',
    categoriesPlanned: CATEGORIES,
    categoriesCompleted: CATEGORIES,
    ingestIncomplete: false,
    findings: found,
    coverageReadable: true,
    waived: policy.waived,
    baselineUncovered: policy.diff.uncovered,
    unreproduced: policy.unreproducedBlocking,
    evidenceGaps: loaded.gaps
  }).result
}

/** Every subset of up to 6 of the failure points (64 subsets a window). */
function subsets<T>(xs: readonly T[]): T[][] {
  const out: T[][] = []
  for (let mask = 0; mask < 1 << xs.length; mask++) out.push(xs.filter((_, i) => (mask & (1 << i)) !== 0))
  return out
}

describe('no read failure makes a verdict laxer', () => {
  it('every subset of read failures, in random windows: never a pass where every read succeeding does not pass', async () => {
    let failingPasses = 0
    let blockedByGaps = 0
    await fc.assert(
      fc.asyncProperty(windowArb, fc.integer({ min: 0, max: 1_000_000 }), async (w, pick) => {
        const full = await verdict(w, new Set())
        const points = failurePoints(w)
        // up to 6 of the points, chosen by `pick`, every subset of them
        const chosen = points.filter((_, i) => ((pick >> i) & 1) === 1 || points.length <= 6).slice(0, 6)
        for (const failing of subsets(chosen)) {
          const got = await verdict(w, new Set(failing))
          if (full !== 'pass') expect(got).not.toBe('pass')
          if (got === 'pass') failingPasses++
          if (full === 'pass' && got === 'incomplete') blockedByGaps++
        }
      }),
      { seed: 34, numRuns: 400 }
    )
    // The property bites: full evidence passes in some windows, and failures turned some of them incomplete.
    expect(blockedByGaps).toBeGreaterThan(0)
    expect(failingPasses).toBeGreaterThan(0)
  }, 120_000)
})
