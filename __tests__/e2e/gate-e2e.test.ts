/**
 * End to end: the bundled dist/index.js spawned as the runner does (INPUT_*
 * variables, GITHUB_* files, then the post step), against the emulator over
 * real HTTP and a local stand-in for the GitHub API, on Node 24 and on the
 * machine's Node. Every scenario's stdout, stderr, outputs, summary, comment
 * and report are scanned for the key and the target credentials.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { runAction, type ActionRun, type RunOptions } from '../__fixtures__/action-runner.js'
import { runtimes } from '../__fixtures__/node-runtimes.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { startGitHubStandin } from '../__fixtures__/github-standin.js'
import { DEFAULT_VULNERABLE } from '../../src/emulator/taxonomy.js'
import { stopStarted } from '../__fixtures__/teardown.js'

type Standin = Awaited<ReturnType<typeof startGitHubStandin>>

let emu: Emulator
let gh: Standin
const GH_TOKEN = 'ghs_e2e_token_value_123'

beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 60, attacksPerCategory: 2 })
  gh = await startGitHubStandin()
})
afterAll(async () => {
  await stopStarted(emu, gh)
})
/** The demo agent's default vulnerabilities: one high and one medium finding. */
function defaultVulnerabilities(): void {
  emu.demoAgent.setAllVulnerable(false)
  for (const c of DEFAULT_VULNERABLE) emu.demoAgent.setVulnerable(c, true)
}

beforeEach(() => {
  defaultVulnerabilities()
  emu.control.setFaults(null)
  emu.control.setCategoryDurationMs(60)
  emu.demoAgent.setAvailable(true)
  emu.demoAgent.setReplyDelayMs(0)
})

const prEvent = { pull_request: { number: 7 }, number: 7, repository: { full_name: 'octo-org/agent-app' } }

function baseInputs(extra: Record<string, string> = {}): Record<string, string> {
  return { model_id: emu.demoModelId, api_key: emu.keys.full, base_url: emu.url, ...extra }
}

function run(nodePath: string, opts: Partial<RunOptions> & { inputs: Record<string, string> }): Promise<ActionRun> {
  return runAction({
    nodePath,
    githubToken: GH_TOKEN,
    env: { GITHUB_API_URL: gh.url },
    killAfterMs: 60_000,
    ...opts
  })
}

/** What the runner shows of a step's stdout: it consumes ::add-mask:: commands and never displays them. */
function shown(stdout: string): string {
  return stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n')
}

/** Everything a user or a reviewer could see of a run. */
function everythingVisible(r: ActionRun): string {
  const report =
    r.main.outputs.report_path && existsSync(r.main.outputs.report_path) ? readFileSync(r.main.outputs.report_path, 'utf8') : ''
  const comments = [...gh.state.comments.values()].flat().map((c) => c.body)
  return [
    shown(r.main.stdout),
    r.main.stderr,
    shown(r.post.stdout),
    r.post.stderr,
    JSON.stringify(r.main.outputs),
    r.main.summary,
    report,
    ...comments
  ].join('\n')
}

function expectNoSecrets(r: ActionRun): void {
  const text = everythingVisible(r)
  for (const secret of [emu.keys.full, GH_TOKEN, ...emu.control.registeredCredentials()]) {
    expect(text.includes(secret) ? `leaked ${secret.slice(0, 4)}…` : 'clean').toBe('clean')
  }
}

async function waitFor<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v) return v
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const RUNTIMES = runtimes()

describe.each(RUNTIMES.map((r) => [r.name, r] as const))('bundled action on %s', (_name, rt) => {
  it('passes on a clean agent, with outputs, summary, report and a sticky comment', async () => {
    emu.demoAgent.setAllVulnerable(false)
    try {
      const r = await run(rt.path, { inputs: baseInputs(), eventName: 'pull_request', eventPayload: prEvent })
      expect(r.main.code).toBe(0)
      expect(r.main.outputs).toMatchObject({ result: 'pass', status: 'completed', verdict: 'pass', findings_count: '0' })
      expect(JSON.parse(r.main.outputs.categories_planned)).toEqual(JSON.parse(r.main.outputs.categories_completed))
      expect(r.main.stdout).toMatch(/categories done/)
      expect(r.main.summary).toMatch(/pass/i)
      expect(existsSync(r.main.outputs.report_path)).toBe(true)
      expect(r.main.outputs.comment_url).toMatch(/^https?:\/\//)
      expectNoSecrets(r)
    } finally {
      defaultVulnerabilities()
    }
  })

  it('fails on a vulnerable agent and updates the same sticky comment', async () => {
    const before = (gh.state.comments.get(7) ?? []).length
    const r1 = await run(rt.path, { inputs: baseInputs(), eventName: 'pull_request', eventPayload: prEvent })
    const r2 = await run(rt.path, { inputs: baseInputs(), eventName: 'pull_request', eventPayload: prEvent })
    for (const r of [r1, r2]) {
      expect(r.main.code).toBe(1)
      expect(r.main.outputs).toMatchObject({ result: 'fail', status: 'completed', verdict: 'fail' })
      expect(Number(r.main.outputs.findings_count)).toBeGreaterThan(0)
      expect(r.main.stdout).toMatch(/::error/)
      expectNoSecrets(r)
    }
    const comments = gh.state.comments.get(7) ?? []
    expect(comments.length).toBeLessThanOrEqual(Math.max(before, 1))
    expect(r2.main.outputs.comment_url).toBe(r1.main.outputs.comment_url)
  })

  it('reports redacted findings when the plan withholds proof, with the same verdict', async () => {
    const r = await run(rt.path, { inputs: baseInputs({ model_id: emu.demoModels.redacted, api_key: emu.keys.redacted }) })
    expect(r.main.outputs).toMatchObject({ result: 'fail', verdict: 'fail' })
    expect(Number(r.main.outputs.findings_count)).toBeGreaterThan(0)
    expect(r.main.summary).toMatch(/redacted/i)
    expect(r.main.summary).toMatch(/withholds the proof/i)
    expectNoSecrets(r)
  })

  it('is incomplete when the agent goes away mid-run (status error, categories missing)', async () => {
    emu.control.setCategoryDurationMs(400)
    const r = await run(rt.path, {
      inputs: baseInputs({ min_severity: 'critical' }),
      onSpawn: (_child, out) => {
        void waitFor('a category to complete', () => /Run \S+: running, [1-9]\d*\/\d+ categories done/.test(out.stdout())).then(() => {
          emu.demoAgent.setAvailable(false)
        })
      }
    })
    expect(r.main.outputs.result).toBe('incomplete')
    expect(r.main.outputs.status).toBe('error')
    expect(JSON.parse(r.main.outputs.categories_completed).length).toBeLessThan(JSON.parse(r.main.outputs.categories_planned).length)
    expect(r.main.code).toBe(1)
    expectNoSecrets(r)
  })

  it('is incomplete when someone else cancels the run mid-way', async () => {
    emu.control.setCategoryDurationMs(400)
    const r = await run(rt.path, {
      inputs: baseInputs({ min_severity: 'critical' }),
      onSpawn: (_child, out) => {
        void waitFor('a category to complete', () => /Run (\S+): running, [1-9]\d*\/\d+ categories done/.exec(out.stdout())).then((m) =>
          fetch(`${emu.url}/api/v1/run/${m[1]}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${emu.keys.full}` } })
        )
      }
    })
    expect(r.main.outputs.status).toBe('cancelled')
    expect(r.main.outputs.result).toBe('incomplete')
    expect(JSON.parse(r.main.outputs.categories_completed).length).toBeLessThan(JSON.parse(r.main.outputs.categories_planned).length)
    expect(r.main.code).toBe(1)
    expect(r.main.stdout).toMatch(/::error::Result: incomplete: coverage incomplete: .*run cancelled/)
    expectNoSecrets(r)
  })

  it('warns instead of failing on incomplete coverage when fail_on_incomplete is false', async () => {
    emu.demoAgent.setAllVulnerable(false)
    emu.control.setIngestIncomplete(emu.demoModelId, true)
    try {
      const r = await run(rt.path, { inputs: baseInputs({ fail_on_incomplete: 'false' }) })
      expect(r.main.outputs.result).toBe('incomplete')
      expect(r.main.code).toBe(0)
      expect(r.main.stdout).toMatch(/::warning::.*ingest incomplete/)
    } finally {
      emu.control.setIngestIncomplete(emu.demoModelId, false)
    }
  })

  it('cancels the run and fails with error when timeout_minutes runs out', async () => {
    emu.control.setCategoryDurationMs(5_000)
    const r = await run(rt.path, { inputs: baseInputs({ timeout_minutes: '0.03' }) })
    expect(r.main.code).toBe(1)
    expect(r.main.outputs.result).toBe('error')
    expect(r.main.stdout).toMatch(/Cancelling run/)
    const runId = r.main.outputs.run_id
    const stored = emu.control.runs().find((x) => x.run_id === runId)
    expect(stored?.status).toBe('cancelled')
    expectNoSecrets(r)
  })

  it('cancels the run on SIGINT (job cancelled)', async () => {
    emu.control.setCategoryDurationMs(5_000)
    const r = await run(rt.path, {
      inputs: baseInputs(),
      onSpawn: (child, out) => {
        void waitFor('the run to start', () => /Run \S+ started/.test(out.stdout())).then(() => child.kill('SIGINT'))
      }
    })
    expect(r.main.code).not.toBe(0)
    expect(r.main.stdout).toMatch(/Received SIGINT/)
    const runId = r.main.state.run_id
    expect(runId).toBeTruthy()
    await waitFor('the run to be cancelled', () => emu.control.runs().find((x) => x.run_id === runId)?.status === 'cancelled')
    expectNoSecrets(r)
  })

  it('the post step cancels the run when the main step was killed before it could', async () => {
    emu.control.setCategoryDurationMs(5_000)
    const r = await run(rt.path, {
      inputs: baseInputs(),
      onSpawn: (child, out) => {
        void waitFor('the run to start', () => /Run \S+ started/.test(out.stdout())).then(() => child.kill('SIGKILL'))
      }
    })
    expect(r.main.signal).toBe('SIGKILL')
    const runId = r.main.state.run_id
    expect(runId).toBeTruthy()
    expect(r.post.code).toBe(0)
    expect(r.post.stdout).toContain(`Post step: cancel of run ${runId} requested`)
    await waitFor('the run to be cancelled', () => emu.control.runs().find((x) => x.run_id === runId)?.status === 'cancelled')
    expectNoSecrets(r)
  })

  it('waits for another run of the model (409 run_active), then triggers its own', async () => {
    emu.control.setCategoryDurationMs(150)
    const other = await fetch(`${emu.url}/api/v1/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model_id: emu.demoModelId })
    })
    expect(other.status).toBe(202)
    const otherId = ((await other.json()) as { run_id: string }).run_id
    const r = await run(rt.path, { inputs: baseInputs() })
    expect(r.main.stdout).toMatch(/Another assessment of model .* is running/)
    expect(r.main.outputs.run_id).not.toBe(otherId)
    expect(r.main.outputs.status).toBe('completed')
    expectNoSecrets(r)
  })

  it('waits as Retry-After says on 429 and then triggers', async () => {
    emu.control.setFaults({
      seed: 1,
      rate: 0,
      endpoints: { triggerRun: 1 },
      kinds: ['burst429'],
      retryAfterSeconds: 1,
      burstLength: 1,
      maxFaults: 1
    })
    const r = await run(rt.path, { inputs: baseInputs() })
    expect(r.main.stdout).toMatch(/the service asked to retry after 1 s: retrying in 1 s/)
    expect(r.main.outputs.status).toBe('completed')
    expectNoSecrets(r)
  })

  it('keeps one tracking issue on scheduled runs: created on fail, updated, closed on pass', async () => {
    const scheduled = {
      inputs: baseInputs({ issue: 'update', model_id: emu.demoModels.other, api_key: emu.keys.other }),
      eventName: 'schedule',
      eventPayload: { schedule: '17 3 * * *' }
    }
    const openIssues = () => gh.state.issues.filter((i) => i.state === 'open' && (i.body ?? '').includes(emu.demoModels.other))
    const r1 = await run(rt.path, scheduled)
    expect(r1.main.outputs.result).toBe('fail')
    expect(openIssues()).toHaveLength(1)
    const issueNumber = openIssues()[0].number
    const r2 = await run(rt.path, scheduled)
    expect(r2.main.stdout).toMatch(/Tracking issue updated/)
    expect(openIssues().map((i) => i.number)).toEqual([issueNumber])
    emu.demoAgent.setAllVulnerable(false)
    const r3 = await run(rt.path, scheduled)
    expect(r3.main.outputs.result).toBe('pass')
    expect(openIssues()).toHaveLength(0)
    expect(gh.state.issues.find((i) => i.number === issueNumber)?.state).toBe('closed')
    expect((gh.state.comments.get(issueNumber) ?? []).length).toBeGreaterThan(0)
    for (const r of [r1, r2, r3]) expectNoSecrets(r)
  })

  it('validate mode re-runs the attacks of fixed findings and reports them resolved', async () => {
    const model = emu.demoModelId
    const gate = await run(rt.path, { inputs: baseInputs({ model_id: model }) })
    expect(gate.main.outputs.result).toBe('fail')
    const headers = { authorization: `Bearer ${emu.keys.full}`, 'content-type': 'application/json' }
    const list = (await (await fetch(`${emu.url}/api/v1/run/${gate.main.outputs.run_id}/findings?status=open`, { headers })).json()) as {
      findings: { finding_id: string }[]
    }
    expect(list.findings.length).toBeGreaterThan(0)
    for (const f of list.findings) {
      const closed = await fetch(`${emu.url}/api/v1/findings/${f.finding_id}/close`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ status: 'fixed', explanation: 'hardened the system prompt' })
      })
      expect(closed.status).toBe(200)
    }
    emu.demoAgent.setAllVulnerable(false)
    const r = await run(rt.path, { inputs: baseInputs({ model_id: model, mode: 'validate', max_runs: '5' }) })
    expect(r.main.code).toBe(0)
    expect(Number(r.main.outputs.resolved_count)).toBeGreaterThanOrEqual(list.findings.length)
    expect(r.main.outputs.still_broken_count).toBe('0')
    expect(r.main.summary).toMatch(/resolved/i)
    expectNoSecrets(r)
  })

  it('explains a spent monthly allowance as a service failure: endpoint, status, code, when it resets', async () => {
    emu.control.exhaustAllowance('full', true)
    try {
      const r = await run(rt.path, { inputs: baseInputs() })
      expect(r.main.code).toBe(1)
      expect(r.main.outputs.result).toBe('error')
      const errors = r.main.stdout.split('\n').filter((l) => l.startsWith('::error'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/POST \/api\/v1\/run HTTP 403 allowance_exhausted: .*resets on \d{4}-\d{2}-\d{2}/)
      expect(r.main.stdout).not.toMatch(/\n\s+at /)
      expectNoSecrets(r)
    } finally {
      emu.control.exhaustAllowance('full', false)
    }
  })

  it('tells a trial workspace to leave categories empty, as a configuration error', async () => {
    const r = await run(rt.path, {
      inputs: baseInputs({ model_id: emu.demoModels.trial, api_key: emu.keys.trial, categories: 'prompt_injection' })
    })
    expect(r.main.code).toBe(1)
    expect(r.main.stdout).toMatch(
      /::error::Configuration error in input 'categories': evaluation \(trial\) workspaces run the full taxonomy only/
    )
  })

  it.each([
    ['model_id', { model_id: '' }],
    ['api_key', { api_key: '' }],
    ['base_url', { base_url: 'http://asas.example.com' }],
    ['min_severity', { min_severity: 'urgent' }],
    ['timeout_minutes', { timeout_minutes: '0' }],
    ['fail_on_incomplete', { fail_on_incomplete: 'maybe' }],
    ['categories', { categories: 'ok, not ok' }],
    ['comment', { comment: 'always' }],
    ['mode', { mode: 'scan' }],
    ['issue', { issue: 'create' }],
    ['max_runs', { max_runs: '0' }]
  ])('rejects a bad %s with one line and sends no request', async (input, patch) => {
    const requestsBefore = emu.requestLog.length
    const r = await run(rt.path, { inputs: baseInputs(patch) })
    expect(r.main.code).toBe(1)
    expect(r.main.outputs.result).toBe('error')
    const errors = r.main.stdout.split('\n').filter((l) => l.startsWith('::error'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`Configuration error in input '${input}'`)
    expect(r.main.stdout).not.toMatch(/\n\s+at /)
    expect(emu.requestLog.length).toBe(requestsBefore)
    expectNoSecrets(r)
  })
})
