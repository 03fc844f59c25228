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
import { removeActionWorkDirs, type ActionRun } from '../__fixtures__/action-runner.js'
import {
  agentKey,
  BASE_SHA,
  comment,
  defaultBranchRun,
  HEAD_SHA,
  inCachedWorld,
  prRun,
  reportOf,
  states,
  type CachedWorld
} from '../__fixtures__/cached-world.js'
import { evidenceKey } from '../../src/evidence/records.js'

afterAll(removeActionWorkDirs)

const ACCEPTED = '.github/agent-security-accepted.yml'
const nextYear = new Date(Date.now() + 180 * 86_400_000).toISOString().slice(0, 10)

function acceptance(category: string, expires = nextYear, extra = ''): string {
  return `  - category: ${category}\n    reason_code: accepted_risk\n    explanation: Reviewed by the security team; staff-only agent.\n    owner: "@octo-org/ai-team"\n    severity_at_most: any\n    expires: ${expires}\n${extra}`
}
const acceptedFile = (...entries: string[]) => `version: 1\naccepted:\n${entries.join('')}`

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

describe('adoption is not eviction, through the bundle', () => {
  // Hex SHAs: the stand-in's status routes take no other (BASE_SHA is not one).
  const C0 = 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0'
  const C1 = 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1'
  interface Spent {
    result: string
    assessments_spent?: number | null
    confirmation?: { run_ids: string[] } | null
  }

  it.concurrent("main's first push after a pull request's run saw the weaknesses: judged on its own run, one assessment", () =>
    inCachedWorld(
      async (w) => {
        w.gh.addCommit(C0, null, ['README.md'])
        w.gh.setBranch('main', C0)
        // A pull request's run saw the demo agent's weaknesses; the service lists it among the model's runs.
        expect((await prRun(w)).main.outputs.result).toBe('fail')
        w.emu.demoAgent.setAllVulnerable(false)
        w.gh.addCommit(C1, C0, ['README.md'])
        w.gh.setBranch('main', C1)
        const r = await defaultBranchRun(w, {}, {}, { sha: C1, runId: '101' })
        const rep = JSON.parse(readFileSync(r.main.outputs.report_path, 'utf8')) as Spent
        expect(rep.result).toBe('pass')
        expect(rep.assessments_spent).toBe(1)
        expect(rep.confirmation?.run_ids ?? []).toEqual([])
        expect(r.main.stdout).toContain(
          "First assessment recorded by the default branch: judged on this run alone; nothing from other branches' runs presumed."
        )
        // Its own commit status, the sign its next push reads: pending, then its result.
        expect(w.gh.git.statuses.filter((s) => s.sha === C1).map((s) => s.state)).toEqual(['pending', 'success'])
        expect(r.main.code).toBe(0)
      },
      { baseline: false }
    )
  )
})
