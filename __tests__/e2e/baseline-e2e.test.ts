/**
 * End to end through the bundle (dist/index.js, run as the runner does)
 * against the emulator, a stand-in for the GitHub API (comments, contents at
 * a commit) and a stand-in for the runner's cache service (scoped by ref):
 * a default-branch run saves a baseline; pull-request runs gate on what they
 * changed, with accepted risks read from the base branch. Each case has its
 * own emulator and stand-ins, so the cases run concurrently; a case that
 * needs a baseline first saves one with a default-branch run of its own.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { removeActionWorkDirs, runAction, type ActionRun } from '../__fixtures__/action-runner.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'
import { startCacheStandin, type CacheStandin } from '../__fixtures__/cache-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'
import { evidenceKey } from '../../src/evidence/records.js'
import { agentIdentity } from '../../src/pipeline/identity.js'

afterAll(removeActionWorkDirs)

const GH_TOKEN = 'ghs_e2e_token_value_456'
const BASE_SHA = 'b4se5ha0000000000000000000000000000000aa'
const HEAD_SHA = 'headsha000000000000000000000000000000bbb'
const ACCEPTED = '.github/agent-security-accepted.yml'
const REPO = { full_name: 'octo-org/agent-app', default_branch: 'main' }
const nextYear = new Date(Date.now() + 180 * 86_400_000).toISOString().slice(0, 10)

/** A world with the runner's cache service too. */
interface CachedWorld extends World {
  cache: CacheStandin
}

/** Runs `body` in a fresh world with a cache stand-in; with `baseline`, after a default-branch run has saved one. */
function inCachedWorld(body: (w: CachedWorld) => Promise<void>, opts: { baseline: boolean }): Promise<void> {
  return inWorld(
    async (world) => {
      let cache: CacheStandin | undefined
      try {
        cache = await startCacheStandin()
        const c = cache
        // GitHub's caches API lists the same entries, each with the ref that saved it.
        world.gh.setActionsCaches((q) => c.listCaches(q))
        const w = { ...world, cache }
        if (opts.baseline) expect((await defaultBranchRun(w)).main.stdout).toMatch(/Baseline of run \S+ saved/)
        await body(w)
      } finally {
        await stopStarted(cache)
      }
    },
    { categoryDurationMs: 40, attacksPerCategory: 2 }
  )
}

function acceptance(category: string, expires = nextYear, extra = ''): string {
  return `  - category: ${category}\n    reason_code: accepted_risk\n    explanation: Reviewed by the security team; staff-only agent.\n    owner: "@octo-org/ai-team"\n    severity_at_most: any\n    expires: ${expires}\n${extra}`
}
const acceptedFile = (...entries: string[]) => `version: 1\naccepted:\n${entries.join('')}`

function inputs(w: CachedWorld, extra: Record<string, string> = {}): Record<string, string> {
  return { model_id: w.emu.demoModelId, api_key: w.emu.keys.full, base_url: w.emu.url, min_severity: 'medium', fail_on: 'new', ...extra }
}

/** A push to main: at BASE_SHA (run 100) unless `at` names another commit (without agent_paths, another agent). */
function defaultBranchRun(
  w: CachedWorld,
  files: Record<string, string> = {},
  extra: Record<string, string> = {},
  at: { sha: string; runId: string; killAfterMs?: number } = { sha: BASE_SHA, runId: '100' }
): Promise<ActionRun> {
  return runAction({
    inputs: inputs(w, { fail_on: 'any', ...extra }),
    githubToken: GH_TOKEN,
    eventName: 'push',
    eventPayload: { ref: 'refs/heads/main', repository: REPO },
    env: {
      GITHUB_API_URL: w.gh.url,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: at.sha,
      GITHUB_RUN_ID: at.runId,
      ACTIONS_CACHE_URL: w.cache.url,
      ACTIONS_RUNTIME_TOKEN: w.cache.token('refs/heads/main')
    },
    workspace: { files },
    killAfterMs: at.killAfterMs ?? 60_000
  })
}

function prRun(w: CachedWorld, files: Record<string, string> = {}, extra: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    inputs: inputs(w, extra),
    githubToken: GH_TOKEN,
    eventName: 'pull_request',
    eventPayload: {
      number: 7,
      pull_request: { number: 7, base: { ref: 'main', sha: BASE_SHA }, head: { sha: HEAD_SHA } },
      repository: REPO
    },
    env: {
      GITHUB_API_URL: w.gh.url,
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_SHA: HEAD_SHA,
      GITHUB_RUN_ID: '200',
      ACTIONS_CACHE_URL: w.cache.url,
      ACTIONS_RUNTIME_TOKEN: w.cache.token('refs/pull/7/merge', 'refs/heads/main')
    },
    workspace: { files },
    killAfterMs: 60_000
  })
}

interface ReportJson {
  result: string
  reason: string
  headline: string
  findings: { category: string; baseline: string | null; fingerprint: string; accepted: { reason_code: string; owner: string } | null }[]
  baseline: { available: boolean; new_count: number; known_count: number; saved: string | null; why: string | null }
  accepted_risks: { stale: { category: string }[]; expired: { category: string }[]; pr_adds: { category: string }[] } | null
}
const reportOf = (r: ActionRun): ReportJson => JSON.parse(readFileSync(r.main.outputs.report_path, 'utf8')) as ReportJson
const comment = (w: World) => [...w.gh.state.comments.values()].flat().at(-1)?.body ?? ''
const states = (rep: ReportJson) => Object.fromEntries(rep.findings.map((f) => [f.category, f.baseline]))

/** The identity the records are keyed on (the model's, as the gate derives it). */
const agentKey = (w: CachedWorld) =>
  agentIdentity({ kind: 'model', modelId: w.emu.demoModelId }, { repository: REPO.full_name, prNumber: null, ref: 'main', site: null }).key

describe('baseline from the default branch, gating on what the pull request changed', () => {
  it.concurrent(
    'a cache entry the PR saved under its own ref, naming its own earlier run, is not trusted: the new weakness still fails',
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setVulnerable('jailbreak', true)
          const first = await prRun(w)
          expect(first.main.outputs.new_count).toBe('1')
          const prRunId = (JSON.parse(readFileSync(first.main.outputs.report_path, 'utf8')) as { run: { run_id: string } }).run.run_id
          // Code the pull request runs saves an entry under the PR's ref naming that run (holding the new weakness).
          const planted = w.cache.entries.find((e) => e.scope === 'refs/heads/main')!
          w.cache.entries.push({
            ...planted,
            id: 999,
            key: evidenceKey(agentKey(w), prRunId, HEAD_SHA)!,
            scope: 'refs/pull/7/merge',
            createdAt: Date.now() + 1000
          })
          const r = await prRun(w)
          expect(r.main.outputs).toMatchObject({ result: 'fail', new_count: '1', known_count: '2' })
          expect(r.main.code).not.toBe(0)
          // The PR's own runs only add evidence: its first run saw the weakness too.
          const seen = (
            JSON.parse(readFileSync(r.main.outputs.report_path, 'utf8')) as {
              findings: { category: string; seen: { label: string } | null }[]
            }
          ).findings.find((f) => f.category === 'jailbreak')?.seen?.label
          expect(seen).toBe('2 of the last 2 runs')
          // GitHub lists the PR's entry under its own ref only: main's window holds main's run alone.
          expect(r.main.stdout).toMatch(/Baseline: 1 run of main \(Actions cache records listed on refs\/heads\/main\)/)
        },
        { baseline: true }
      ),
    90_000
  )

  it.concurrent('a PR run before any baseline says so and gates as with fail_on any', () =>
    inCachedWorld(
      async (w) => {
        const r = await prRun(w)
        expect(r.main.code).not.toBe(0)
        expect(r.main.outputs.result).toBe('fail')
        expect(reportOf(r).baseline).toMatchObject({
          available: false,
          why: expect.stringMatching(/no run recorded by the default branch yet/)
        })
        expect(r.main.outputs.new_count).toBe('')
        expect(comment(w)).toMatch(/\*\*Baseline:\*\* none \(no run recorded/)
      },
      { baseline: false }
    )
  )

  it.concurrent(
    'a default-branch run saves a baseline to the cache scope of main',
    () =>
      inCachedWorld(
        async (w) => {
          const r = await defaultBranchRun(w)
          expect(r.main.outputs.result).toBe('fail') // fail_on any: the known findings fail main itself
          const runId = (JSON.parse(readFileSync(r.main.outputs.report_path, 'utf8')) as { run: { run_id: string } }).run.run_id
          expect(reportOf(r).baseline.saved).toBe(`Actions cache entry ${evidenceKey(agentKey(w), runId, BASE_SHA)}`)
          expect(w.cache.entries.filter((e) => e.committed && e.scope === 'refs/heads/main').map((e) => e.key)).toEqual([
            evidenceKey(agentKey(w), runId, BASE_SHA)
          ])
          expect(r.main.stdout).toMatch(/Baseline of run \S+ saved/)
        },
        { baseline: false }
      ),
    60_000
  )

  it.concurrent(
    'a PR with one new vulnerability fails with fail_on new on that one only, the known ones listed as known',
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setVulnerable('jailbreak', true)
          const r = await prRun(w)
          const rep = reportOf(r)
          expect(r.main.code).not.toBe(0)
          expect(r.main.outputs.result).toBe('fail')
          expect(rep.reason).toBe('1 open finding at or above medium (1 high)')
          expect(states(rep)).toEqual({ jailbreak: 'new', prompt_injection: 'known', system_prompt_leakage: 'known' })
          expect(r.main.outputs).toMatchObject({ new_count: '1', known_count: '2', gone_count: '0', accepted_count: '0' })
          expect(rep.headline).toBe('1 new high · 2 known')
          // The title counts what blocks; the line under it what does not, and why.
          expect(comment(w)).toMatch(/fail · 1 new high · /)
          expect(comment(w)).toMatch(/\*\*Does not block:\*\* 2 known \\\(fail\\_on new: already in main's runs\\\)/)
          // SARIF and JUnit are written and named in the outputs.
          const sarif = JSON.parse(readFileSync(r.main.outputs.sarif_path, 'utf8')) as { version: string; runs: { results: unknown[] }[] }
          expect(sarif.version).toBe('2.1.0')
          expect(sarif.runs[0].results).toHaveLength(3)
          expect(readFileSync(r.main.outputs.junit_path, 'utf8')).toMatch(/<testcase [^>]*name="jailbreak"[^>]*>\s*<failure/)
        },
        { baseline: true }
      ),
    60_000
  )

  it.concurrent(
    'the same PR passes when that vulnerability is accepted on the base branch',
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setVulnerable('jailbreak', true)
          w.gh.setFile(BASE_SHA, ACCEPTED, acceptedFile(acceptance('jailbreak')))
          const r = await prRun(w, { [ACCEPTED]: acceptedFile(acceptance('jailbreak')) })
          const rep = reportOf(r)
          expect(r.main.outputs.result).toBe('pass')
          expect(r.main.code).toBe(0)
          expect(rep.findings.find((f) => f.category === 'jailbreak')?.accepted).toMatchObject({
            reason_code: 'accepted_risk',
            owner: '@octo-org/ai-team'
          })
          expect(r.main.outputs.accepted_count).toBe('1')
          expect(
            comment(w)
              .split('\n')
              .filter((l) => l.includes('Accepted'))
              .join('\n')
          ).toMatch(/\*\*Accepted:\*\* high .*accepted_risk.*owner \S*octo\S*ai\S*team, expires \d{4}-\d{2}-\d{2}/)
          expect(
            w.gh.requests.some(
              (q) => decodeURIComponent(q.path) === `/repos/octo-org/agent-app/contents/${ACCEPTED}` && q.query.ref === BASE_SHA
            )
          ).toBe(true)
        },
        { baseline: true }
      ),
    60_000
  )

  it.concurrent(
    'and fails when only the PR adds the acceptance (it applies after merge)',
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setVulnerable('jailbreak', true)
          const r = await prRun(w, { [ACCEPTED]: acceptedFile(acceptance('jailbreak')) })
          const rep = reportOf(r)
          expect(r.main.outputs.result).toBe('fail')
          expect(rep.findings.find((f) => f.category === 'jailbreak')?.accepted).toBeNull()
          expect(rep.accepted_risks?.pr_adds.map((e) => e.category)).toEqual(['jailbreak'])
          expect(comment(w)).toMatch(/This PR adds 1 acceptance:\*\* it applies after merge/)
        },
        { baseline: true }
      ),
    60_000
  )

  it.concurrent(
    'an expired acceptance fails naming it, and a stale one is listed',
    () =>
      inCachedWorld(
        async (w) => {
          w.gh.setFile(BASE_SHA, ACCEPTED, acceptedFile(acceptance('prompt_injection', '2026-01-31'), acceptance('misinformation')))
          const r = await prRun(w)
          const rep = reportOf(r)
          expect(r.main.outputs.result).toBe('fail')
          expect(rep.reason).toMatch(
            /^expired acceptance \(renew or remove\): accepted\[1\] \(line 3, prompt_injection, owner @octo-org\/ai-team\) expired on 2026-01-31$/
          )
          expect(rep.accepted_risks?.expired.map((e) => e.category)).toEqual(['prompt_injection'])
          expect(rep.accepted_risks?.stale.map((e) => e.category)).toEqual(['misinformation'])
          expect(comment(w)).toMatch(/\*\*Expired acceptance \(fails\):\*\* .*prompt_injection/)
          expect(comment(w)).toMatch(/\*\*Stale acceptance \(matches nothing\):\*\* .*misinformation/)
        },
        { baseline: true }
      ),
    60_000
  )

  it.concurrent(
    'a malformed accepted-risks file is a configuration error naming line and field, before any request to the service',
    () =>
      inCachedWorld(
        async (w) => {
          w.gh.setFile(BASE_SHA, ACCEPTED, acceptedFile(acceptance('jailbreak').replace('accepted_risk', 'because')))
          const before = w.emu.control.runs().length
          const r = await prRun(w)
          expect(r.main.outputs.result).toBe('error')
          expect(r.main.stdout).toMatch(/::error::.*accepted_risks_file.*line 4, accepted\[1\]\.reason_code: 'because' is not one of/)
          expect(w.emu.control.runs().length).toBe(before)
        },
        { baseline: true }
      ),
    60_000
  )
})

describe('missing evidence is never evidence of safety, through the bundle', () => {
  /** main's first run saw its weaknesses (the demo agent's); then the agent stops showing them, at the same commit. */
  const secondRun = async (w: CachedWorld, extra: Record<string, string> = {}): Promise<ActionRun> => {
    w.emu.demoAgent.setAllVulnerable(false)
    return defaultBranchRun(w, {}, extra)
  }

  it.concurrent(
    "a record on main naming a run the service answers 404 for: main's other run still holds its weakness, and the report names the gap",
    () =>
      inCachedWorld(
        async (w) => {
          const c = w.cache
          const deleted = evidenceKey(agentKey(w), 'run_deleted_000000001', BASE_SHA) ?? ''
          w.gh.setActionsCaches((q) => [
            ...(deleted.startsWith(q.key ?? '') && q.ref === 'refs/heads/main'
              ? [{ key: deleted, ref: 'refs/heads/main', created_at: new Date().toISOString(), id: 9999 }]
              : []),
            ...c.listCaches(q)
          ])
          const r = await secondRun(w)
          const rep = reportOf(r)
          expect(rep.result).toBe('fail')
          expect(rep.reason).toMatch(/not reproduced in this run/)
          expect(JSON.stringify(rep)).toMatch(/run_deleted_000000001 could not be read/)
          expect(r.main.code).toBe(1)
        },
        { baseline: true }
      )
  )

  it.concurrent(
    "main's records gone from the cache (GitHub deletes entries unread for 7 days): the service's runs still hold the weakness",
    () =>
      inCachedWorld(
        async (w) => {
          w.gh.setActionsCaches(() => [])
          // No confirmation runs allowed: the weakness main's first run saw cannot be shown gone.
          const r = await secondRun(w, { confirmation_runs_max: '0' })
          const rep = reportOf(r)
          expect(rep.result).toBe('incomplete')
          expect(rep.reason).toMatch(/not shown fixed/)
          expect(JSON.stringify(rep)).toMatch(
            /No record of main is listed .*most recent completed run holding findings was read from the service/
          )
          expect(r.main.code).toBe(1)
        },
        { baseline: true }
      )
  )

  /** A push to main at `sha` (another commit: without agent_paths, another agent). */
  const pushRun = (w: CachedWorld, sha: string, runId: string, extra: Record<string, string>): Promise<ActionRun> =>
    defaultBranchRun(w, {}, extra, { sha, runId, killAfterMs: 90_000 })
  // Confidence 0.5 keeps the runs few: m is 3 for "1 of 2 runs", 7 at the rate floor; two categories to confirm.
  const confirming = { confidence: '0.5', confirmation_runs_max: '10' }

  it.concurrent(
    "the agent fixed after main saw two weaknesses, main's record kept: the next push confirms both gone and records",
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setAllVulnerable(false)
          const r = await pushRun(w, 'c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2', '101', confirming)
          expect(reportOf(r).result).toBe('pass')
          expect(reportOf(r).baseline.saved).not.toBeNull()
        },
        { baseline: true }
      ),
    120_000
  )

  // Main's record evicted after the agent was fixed: the service list's whole page is the sample its rates are taken
  // from (the clean runs with those holding findings), so each category is confirmed as with the record kept, and the
  // push records again. (Taken from the runs read for their findings alone, every rate was the floor and m the largest:
  // two categories went past the bound, every push was incomplete and recorded nothing.)
  it.concurrent(
    "the agent fixed after main saw two weaknesses, main's record evicted: main records again within two pushes",
    () =>
      inCachedWorld(
        async (w) => {
          w.cache.entries.splice(0)
          w.emu.demoAgent.setAllVulnerable(false)
          const first = reportOf(await pushRun(w, 'c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2', '101', confirming))
          const second = reportOf(await pushRun(w, 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3', '102', confirming))
          expect([first.baseline.saved, second.baseline.saved]).not.toEqual([null, null])
        },
        { baseline: true }
      ),
    180_000
  )

  it.concurrent(
    "main's record evicted, a confirmation ran at the same commit: the pass line says the records were gone, not to set agent_paths",
    () =>
      inCachedWorld(
        async (w) => {
          w.cache.entries.splice(0)
          const r = await secondRun(w, { confirmation_runs_max: '2' })
          const rep = JSON.parse(readFileSync(r.main.outputs.report_path, 'utf8')) as { detection: string; confirmation: unknown }
          expect(rep.confirmation).not.toBeNull()
          // agent_paths would change nothing here: the service list's runs name no commit, so they are confirmed whatever it says.
          expect(rep.detection).not.toMatch(/agent_paths/)
          expect(rep.detection).toMatch(/records of main were gone/)
        },
        { baseline: true }
      )
  )

  it.concurrent('the caches list refused (no actions: read): a run missing a weakness seen before is incomplete, never a pass', () =>
    inCachedWorld(
      async (w) => {
        w.gh.failNext('GET', /\/actions\/caches/, 403, 10)
        const r = await secondRun(w)
        const rep = reportOf(r)
        expect(rep.result).toBe('incomplete')
        expect(rep.reason).toMatch(/records could not be listed/)
        expect(r.main.code).toBe(1)
      },
      { baseline: true }
    )
  )
})
