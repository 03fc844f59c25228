/**
 * End to end through the bundle (dist/index.js, run as the runner does)
 * against the emulator, a stand-in for the GitHub API (comments, contents at
 * a commit) and a stand-in for the runner's cache service (scoped by ref):
 * a default-branch run saves a baseline; pull-request runs gate on what they
 * changed, with accepted risks read from the base branch. The cases run in
 * order: the first default-branch run saves the baseline the later ones read.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { runAction, type ActionRun } from '../__fixtures__/action-runner.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { startGitHubStandin } from '../__fixtures__/github-standin.js'
import { startCacheStandin, type CacheStandin } from '../__fixtures__/cache-standin.js'
import { DEFAULT_VULNERABLE } from '../../src/emulator/taxonomy.js'

type Standin = Awaited<ReturnType<typeof startGitHubStandin>>

let emu: Emulator
let gh: Standin
let cache: CacheStandin
const GH_TOKEN = 'ghs_e2e_token_value_456'
const BASE_SHA = 'b4se5ha0000000000000000000000000000000aa'
const HEAD_SHA = 'headsha000000000000000000000000000000bbb'
const ACCEPTED = '.github/agent-security-accepted.yml'
const REPO = { full_name: 'octo-org/agent-app', default_branch: 'main' }
const nextYear = new Date(Date.now() + 180 * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 40, attacksPerCategory: 2 })
  gh = await startGitHubStandin()
  cache = await startCacheStandin()
})
afterAll(async () => {
  await emu.stop()
  await gh.stop()
  await cache.stop()
})
beforeEach(() => {
  emu.demoAgent.setAllVulnerable(false)
  for (const c of DEFAULT_VULNERABLE) emu.demoAgent.setVulnerable(c, true)
  gh.files.clear()
})

function acceptance(category: string, expires = nextYear, extra = ''): string {
  return `  - category: ${category}\n    reason_code: accepted_risk\n    explanation: Reviewed by the security team; staff-only agent.\n    owner: "@octo-org/ai-team"\n    severity_at_most: any\n    expires: ${expires}\n${extra}`
}
const acceptedFile = (...entries: string[]) => `version: 1\naccepted:\n${entries.join('')}`

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return { model_id: emu.demoModelId, api_key: emu.keys.full, base_url: emu.url, min_severity: 'medium', fail_on: 'new', ...extra }
}

function defaultBranchRun(files: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    inputs: inputs({ fail_on: 'any' }),
    githubToken: GH_TOKEN,
    eventName: 'push',
    eventPayload: { ref: 'refs/heads/main', repository: REPO },
    env: {
      GITHUB_API_URL: gh.url,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: BASE_SHA,
      GITHUB_RUN_ID: '100',
      ACTIONS_CACHE_URL: cache.url,
      ACTIONS_RUNTIME_TOKEN: cache.token('refs/heads/main')
    },
    workspace: { files },
    killAfterMs: 60_000
  })
}

function prRun(files: Record<string, string> = {}, extra: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    inputs: inputs(extra),
    githubToken: GH_TOKEN,
    eventName: 'pull_request',
    eventPayload: {
      number: 7,
      pull_request: { number: 7, base: { ref: 'main', sha: BASE_SHA }, head: { sha: HEAD_SHA } },
      repository: REPO
    },
    env: {
      GITHUB_API_URL: gh.url,
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_SHA: HEAD_SHA,
      GITHUB_RUN_ID: '200',
      ACTIONS_CACHE_URL: cache.url,
      ACTIONS_RUNTIME_TOKEN: cache.token('refs/pull/7/merge', 'refs/heads/main')
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
const comment = () => [...gh.state.comments.values()].flat().at(-1)?.body ?? ''
const states = (rep: ReportJson) => Object.fromEntries(rep.findings.map((f) => [f.category, f.baseline]))

describe('baseline from the default branch, gating on what the pull request changed', () => {
  it('a PR run before any baseline says so and gates as with fail_on any', async () => {
    const r = await prRun()
    expect(r.main.code).not.toBe(0)
    expect(r.main.outputs.result).toBe('fail')
    expect(reportOf(r).baseline).toMatchObject({
      available: false,
      why: expect.stringMatching(/no baseline saved by the default branch yet/)
    })
    expect(r.main.outputs.new_count).toBe('')
    expect(comment()).toMatch(/\*\*Baseline:\*\* none \(no baseline saved/)
  })

  it('a default-branch run saves a baseline to the cache scope of main', async () => {
    const r = await defaultBranchRun()
    expect(r.main.outputs.result).toBe('fail') // fail_on any: the known findings fail main itself
    expect(reportOf(r).baseline.saved).toMatch(/Actions cache entry asas-gate-baseline-v1-/)
    expect(cache.entries.filter((e) => e.committed && e.scope === 'refs/heads/main').map((e) => e.key)).toEqual([
      expect.stringMatching(/^asas-gate-baseline-v1-.*-100-1$/)
    ])
    expect(r.main.stdout).toMatch(/Baseline of run \S+ saved/)
  }, 60_000)

  it('a PR with one new vulnerability fails with fail_on new on that one only, the known ones listed as known', async () => {
    emu.demoAgent.setVulnerable('jailbreak', true)
    const r = await prRun()
    const rep = reportOf(r)
    expect(r.main.code).not.toBe(0)
    expect(r.main.outputs.result).toBe('fail')
    expect(rep.reason).toBe('1 open finding at or above medium (1 high)')
    expect(states(rep)).toEqual({ jailbreak: 'new', prompt_injection: 'known', system_prompt_leakage: 'known' })
    expect(r.main.outputs).toMatchObject({ new_count: '1', known_count: '2', gone_count: '0', accepted_count: '0' })
    expect(rep.headline).toBe('1 new high · 2 known')
    expect(comment()).toMatch(/1 new high · 2 known/)
    // SARIF and JUnit are written and named in the outputs.
    const sarif = JSON.parse(readFileSync(r.main.outputs.sarif_path, 'utf8')) as { version: string; runs: { results: unknown[] }[] }
    expect(sarif.version).toBe('2.1.0')
    expect(sarif.runs[0].results).toHaveLength(3)
    expect(readFileSync(r.main.outputs.junit_path, 'utf8')).toMatch(/<testcase [^>]*name="jailbreak"[^>]*>\s*<failure/)
  }, 60_000)

  it('the same PR passes when that vulnerability is accepted on the base branch', async () => {
    emu.demoAgent.setVulnerable('jailbreak', true)
    gh.setFile(BASE_SHA, ACCEPTED, acceptedFile(acceptance('jailbreak')))
    const r = await prRun({ [ACCEPTED]: acceptedFile(acceptance('jailbreak')) })
    const rep = reportOf(r)
    expect(r.main.outputs.result).toBe('pass')
    expect(r.main.code).toBe(0)
    expect(rep.findings.find((f) => f.category === 'jailbreak')?.accepted).toMatchObject({
      reason_code: 'accepted_risk',
      owner: '@octo-org/ai-team'
    })
    expect(r.main.outputs.accepted_count).toBe('1')
    expect(
      comment()
        .split('\n')
        .filter((l) => l.includes('Accepted'))
        .join('\n')
    ).toMatch(/\*\*Accepted:\*\* high .*accepted_risk.*owner \S*octo\S*ai\S*team, expires \d{4}-\d{2}-\d{2}/)
    expect(
      gh.requests.some((q) => decodeURIComponent(q.path) === `/repos/octo-org/agent-app/contents/${ACCEPTED}` && q.query.ref === BASE_SHA)
    ).toBe(true)
  }, 60_000)

  it('and fails when only the PR adds the acceptance (it applies after merge)', async () => {
    emu.demoAgent.setVulnerable('jailbreak', true)
    const r = await prRun({ [ACCEPTED]: acceptedFile(acceptance('jailbreak')) })
    const rep = reportOf(r)
    expect(r.main.outputs.result).toBe('fail')
    expect(rep.findings.find((f) => f.category === 'jailbreak')?.accepted).toBeNull()
    expect(rep.accepted_risks?.pr_adds.map((e) => e.category)).toEqual(['jailbreak'])
    expect(comment()).toMatch(/This PR adds 1 acceptance:\*\* it applies after merge/)
  }, 60_000)

  it('an expired acceptance fails naming it, and a stale one is listed', async () => {
    gh.setFile(BASE_SHA, ACCEPTED, acceptedFile(acceptance('prompt_injection', '2026-01-31'), acceptance('misinformation')))
    const r = await prRun()
    const rep = reportOf(r)
    expect(r.main.outputs.result).toBe('fail')
    expect(rep.reason).toMatch(
      /^expired acceptance \(renew or remove\): accepted\[1\] \(line 3, prompt_injection, owner @octo-org\/ai-team\) expired on 2026-01-31$/
    )
    expect(rep.accepted_risks?.expired.map((e) => e.category)).toEqual(['prompt_injection'])
    expect(rep.accepted_risks?.stale.map((e) => e.category)).toEqual(['misinformation'])
    expect(comment()).toMatch(/\*\*Expired acceptance \(fails\):\*\* .*prompt_injection/)
    expect(comment()).toMatch(/\*\*Stale acceptance \(matches nothing\):\*\* .*misinformation/)
  }, 60_000)

  it('a malformed accepted-risks file is a configuration error naming line and field, before any request to the service', async () => {
    gh.setFile(BASE_SHA, ACCEPTED, acceptedFile(acceptance('jailbreak').replace('accepted_risk', 'because')))
    const before = emu.control.runs().length
    const r = await prRun()
    expect(r.main.outputs.result).toBe('error')
    expect(r.main.stdout).toMatch(/::error::.*accepted_risks_file.*line 4, accepted\[1\]\.reason_code: 'because' is not one of/)
    expect(emu.control.runs().length).toBe(before)
  }, 60_000)
})
