/**
 * End to end: the bundled dist/index.js spawned as the runner does (INPUT_*
 * variables, GITHUB_* files, then the post step), against the emulator over
 * real HTTP and a local stand-in for the GitHub API, on Node 24 and on the
 * machine's Node. Every scenario's stdout, stderr, outputs, summary, comment
 * and report are scanned for the key and the target credentials.
 *
 * Each case gets its own emulator and GitHub stand-in (a world), so the cases
 * run concurrently: a gate run mostly waits on its poll schedule, and no case
 * sees another's runs, comments, request log or switches.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { removeActionWorkDirs, runAction, type ActionRun, type RunOptions } from '../__fixtures__/action-runner.js'
import { runtimes } from '../__fixtures__/node-runtimes.js'
import { inWorld as inBareWorld, type World } from '../__fixtures__/e2e-world.js'
import type { EmulatorOptions } from '../../src/emulator/server.js'

afterAll(removeActionWorkDirs)

const GH_TOKEN = 'ghs_e2e_token_value_123'

/** A world whose runs spend 60 ms on each category, two attacks each, unless `emulator` says otherwise. */
function inWorld(body: (w: World) => Promise<void>, emulator: EmulatorOptions = {}): Promise<void> {
  return inBareWorld(body, { categoryDurationMs: 60, attacksPerCategory: 2, ...emulator })
}

const prEvent = { pull_request: { number: 7 }, number: 7, repository: { full_name: 'octo-org/agent-app' } }

function baseInputs(w: World, extra: Record<string, string> = {}): Record<string, string> {
  return { model_id: w.emu.demoModelId, api_key: w.emu.keys.full, base_url: w.emu.url, ...extra }
}

/** What the runner shows of a step's stdout: it consumes ::add-mask:: commands and never displays them. */
function shown(stdout: string): string {
  return stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n')
}

/** Everything a user or a reviewer could see of a run. */
function everythingVisible(w: World, r: ActionRun): string {
  const report =
    r.main.outputs.report_path && existsSync(r.main.outputs.report_path) ? readFileSync(r.main.outputs.report_path, 'utf8') : ''
  const comments = [...w.gh.state.comments.values()].flat().map((c) => c.body)
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

function expectNoSecrets(w: World, r: ActionRun): void {
  const text = everythingVisible(w, r)
  for (const secret of [w.emu.keys.full, GH_TOKEN, ...w.emu.control.registeredCredentials()]) {
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
  function run(w: World, opts: Partial<RunOptions> & { inputs: Record<string, string> }): Promise<ActionRun> {
    return runAction({
      nodePath: rt.path,
      githubToken: GH_TOKEN,
      env: { GITHUB_API_URL: w.gh.url },
      killAfterMs: 60_000,
      ...opts
    })
  }

  // The cases with several runs first: they are the longest, and start before the queue of shorter ones.
  it.concurrent('keeps one tracking issue on scheduled runs: created on fail, updated, closed on pass', () =>
    inWorld(async (w) => {
      const scheduled = {
        inputs: baseInputs(w, { issue: 'update', model_id: w.emu.demoModels.other, api_key: w.emu.keys.other }),
        eventName: 'schedule',
        eventPayload: { schedule: '17 3 * * *' }
      }
      const openIssues = () => w.gh.state.issues.filter((i) => i.state === 'open' && (i.body ?? '').includes(w.emu.demoModels.other))
      const r1 = await run(w, scheduled)
      expect(r1.main.outputs.result).toBe('fail')
      expect(openIssues()).toHaveLength(1)
      const issueNumber = openIssues()[0].number
      const r2 = await run(w, scheduled)
      expect(r2.main.stdout).toMatch(/Tracking issue updated/)
      expect(openIssues().map((i) => i.number)).toEqual([issueNumber])
      w.emu.demoAgent.setAllVulnerable(false)
      const r3 = await run(w, scheduled)
      expect(r3.main.outputs.result).toBe('pass')
      expect(openIssues()).toHaveLength(0)
      expect(w.gh.state.issues.find((i) => i.number === issueNumber)?.state).toBe('closed')
      expect((w.gh.state.comments.get(issueNumber) ?? []).length).toBeGreaterThan(0)
      for (const r of [r1, r2, r3]) expectNoSecrets(w, r)
    })
  )

  it.concurrent('fails on a vulnerable agent and updates the same sticky comment', () =>
    inWorld(async (w) => {
      const before = (w.gh.state.comments.get(7) ?? []).length
      const r1 = await run(w, { inputs: baseInputs(w), eventName: 'pull_request', eventPayload: prEvent })
      const r2 = await run(w, { inputs: baseInputs(w), eventName: 'pull_request', eventPayload: prEvent })
      for (const r of [r1, r2]) {
        expect(r.main.code).toBe(1)
        expect(r.main.outputs).toMatchObject({ result: 'fail', status: 'completed', service_verdict: 'fail' })
        expect(Number(r.main.outputs.findings_count)).toBeGreaterThan(0)
        expect(r.main.stdout).toMatch(/::error/)
        expectNoSecrets(w, r)
      }
      const comments = w.gh.state.comments.get(7) ?? []
      expect(comments.length).toBeLessThanOrEqual(Math.max(before, 1))
      expect(r2.main.outputs.comment_url).toBe(r1.main.outputs.comment_url)
    })
  )

  it.concurrent('validate mode re-runs the attacks of fixed findings and reports them resolved', () =>
    inWorld(async (w) => {
      const model = w.emu.demoModelId
      const gate = await run(w, { inputs: baseInputs(w, { model_id: model }) })
      expect(gate.main.outputs.result).toBe('fail')
      const headers = { authorization: `Bearer ${w.emu.keys.full}`, 'content-type': 'application/json' }
      const list = (await (
        await fetch(`${w.emu.url}/api/v1/run/${gate.main.outputs.run_id}/findings?status=open`, { headers })
      ).json()) as {
        findings: { finding_id: string }[]
      }
      expect(list.findings.length).toBeGreaterThan(0)
      for (const f of list.findings) {
        const closed = await fetch(`${w.emu.url}/api/v1/findings/${f.finding_id}/close`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ status: 'fixed', explanation: 'hardened the system prompt' })
        })
        expect(closed.status).toBe(200)
      }
      w.emu.demoAgent.setAllVulnerable(false)
      const r = await run(w, { inputs: baseInputs(w, { model_id: model, mode: 'validate', max_runs: '5' }) })
      expect(r.main.code).toBe(0)
      expect(Number(r.main.outputs.resolved_count)).toBeGreaterThanOrEqual(list.findings.length)
      expect(r.main.outputs.still_broken_count).toBe('0')
      expect(r.main.summary).toMatch(/resolved/i)
      expectNoSecrets(w, r)
    })
  )

  it.concurrent('passes on a clean agent, with outputs, summary, report and a sticky comment', () =>
    inWorld(async (w) => {
      w.emu.demoAgent.setAllVulnerable(false)
      const r = await run(w, { inputs: baseInputs(w), eventName: 'pull_request', eventPayload: prEvent })
      expect(r.main.code).toBe(0)
      expect(r.main.outputs).toMatchObject({ result: 'pass', status: 'completed', service_verdict: 'pass', findings_count: '0' })
      expect(JSON.parse(r.main.outputs.categories_planned)).toEqual(JSON.parse(r.main.outputs.categories_completed))
      expect(r.main.stdout).toMatch(/categories done/)
      expect(r.main.summary).toMatch(/pass/i)
      expect(existsSync(r.main.outputs.report_path)).toBe(true)
      expect(r.main.outputs.comment_url).toMatch(/^https?:\/\//)
      expectNoSecrets(w, r)
    })
  )

  it.concurrent('reports redacted findings when the plan withholds proof, with the same verdict', () =>
    inWorld(async (w) => {
      const r = await run(w, { inputs: baseInputs(w, { model_id: w.emu.demoModels.redacted, api_key: w.emu.keys.redacted }) })
      expect(r.main.outputs).toMatchObject({ result: 'fail', service_verdict: 'fail' })
      expect(Number(r.main.outputs.findings_count)).toBeGreaterThan(0)
      expect(r.main.summary).toMatch(/redacted/i)
      expect(r.main.summary).toMatch(/withholds the proof/i)
      expectNoSecrets(w, r)
    })
  )

  // Categories of a second: the agent goes away (or the run is cancelled) long before the run could end by itself.
  it.concurrent('is incomplete when the agent goes away mid-run (status error, categories missing)', () =>
    inWorld(
      async (w) => {
        const r = await run(w, {
          inputs: baseInputs(w, { min_severity: 'critical' }),
          onSpawn: (_child, out) => {
            void waitFor('a category to complete', () => /Run \S+: running, [1-9]\d*\/\d+ categories done/.test(out.stdout())).then(() => {
              w.emu.demoAgent.setAvailable(false)
            })
          }
        })
        expect(r.main.outputs.result).toBe('incomplete')
        expect(r.main.outputs.status).toBe('error')
        expect(JSON.parse(r.main.outputs.categories_completed).length).toBeLessThan(JSON.parse(r.main.outputs.categories_planned).length)
        expect(r.main.code).toBe(1)
        expectNoSecrets(w, r)
      },
      { categoryDurationMs: 1_000 }
    )
  )

  it.concurrent('is incomplete when someone else cancels the run mid-way', () =>
    inWorld(
      async (w) => {
        const r = await run(w, {
          inputs: baseInputs(w, { min_severity: 'critical' }),
          onSpawn: (_child, out) => {
            void waitFor('a category to complete', () => /Run (\S+): running, [1-9]\d*\/\d+ categories done/.exec(out.stdout())).then((m) =>
              fetch(`${w.emu.url}/api/v1/run/${m[1]}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${w.emu.keys.full}` } })
            )
          }
        })
        expect(r.main.outputs.status).toBe('cancelled')
        expect(r.main.outputs.result).toBe('incomplete')
        expect(JSON.parse(r.main.outputs.categories_completed).length).toBeLessThan(JSON.parse(r.main.outputs.categories_planned).length)
        expect(r.main.code).toBe(1)
        expect(r.main.stdout).toMatch(/::error::Result: incomplete: coverage incomplete: .*run cancelled/)
        expectNoSecrets(w, r)
      },
      { categoryDurationMs: 1_000 }
    )
  )

  it.concurrent('warns instead of failing on incomplete coverage when fail_on_incomplete is false', () =>
    inWorld(async (w) => {
      w.emu.demoAgent.setAllVulnerable(false)
      w.emu.control.setIngestIncomplete(w.emu.demoModelId, true)
      const r = await run(w, { inputs: baseInputs(w, { fail_on_incomplete: 'false' }) })
      expect(r.main.outputs.result).toBe('incomplete')
      expect(r.main.code).toBe(0)
      expect(r.main.stdout).toMatch(/::warning::.*ingest incomplete/)
    })
  )

  it.concurrent('cancels the run and fails with error when timeout_minutes runs out', () =>
    inWorld(
      async (w) => {
        const r = await run(w, { inputs: baseInputs(w, { timeout_minutes: '0.03' }) })
        expect(r.main.code).toBe(1)
        expect(r.main.outputs.result).toBe('error')
        expect(r.main.stdout).toMatch(/Cancelling run/)
        const runId = r.main.outputs.run_id
        const stored = w.emu.control.runs().find((x) => x.run_id === runId)
        expect(stored?.status).toBe('cancelled')
        expectNoSecrets(w, r)
      },
      { categoryDurationMs: 5_000 }
    )
  )

  it.concurrent('cancels the run on SIGINT (job cancelled)', () =>
    inWorld(
      async (w) => {
        const r = await run(w, {
          inputs: baseInputs(w),
          onSpawn: (child, out) => {
            void waitFor('the run to start', () => /Run \S+ started/.test(out.stdout())).then(() => child.kill('SIGINT'))
          }
        })
        expect(r.main.code).not.toBe(0)
        expect(r.main.stdout).toMatch(/Received SIGINT/)
        const runId = r.main.state.run_id
        expect(runId).toBeTruthy()
        await waitFor('the run to be cancelled', () => w.emu.control.runs().find((x) => x.run_id === runId)?.status === 'cancelled')
        expectNoSecrets(w, r)
      },
      { categoryDurationMs: 5_000 }
    )
  )

  it.concurrent('the post step cancels the run when the main step was killed before it could', () =>
    inWorld(
      async (w) => {
        const r = await run(w, {
          inputs: baseInputs(w),
          onSpawn: (child, out) => {
            void waitFor('the run to start', () => /Run \S+ started/.test(out.stdout())).then(() => child.kill('SIGKILL'))
          }
        })
        expect(r.main.signal).toBe('SIGKILL')
        const runId = r.main.state.run_id
        expect(runId).toBeTruthy()
        expect(r.post.code).toBe(0)
        expect(r.post.stdout).toContain(`Post step: cancel of run ${runId} requested`)
        await waitFor('the run to be cancelled', () => w.emu.control.runs().find((x) => x.run_id === runId)?.status === 'cancelled')
        expectNoSecrets(w, r)
      },
      { categoryDurationMs: 5_000 }
    )
  )

  it.concurrent('waits for another run of the model (409 run_active), then triggers its own', () =>
    inWorld(
      async (w) => {
        const other = await fetch(`${w.emu.url}/api/v1/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${w.emu.keys.full}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model_id: w.emu.demoModelId })
        })
        expect(other.status).toBe(202)
        const otherId = ((await other.json()) as { run_id: string }).run_id
        const r = await run(w, {
          inputs: baseInputs(w),
          onSpawn: (_child, out) => {
            // Seen: the rest of the other run, and our own, go quickly.
            void waitFor('the action to see the other run', () => /Another assessment of model .* is running/.test(out.stdout())).then(
              () => {
                w.emu.control.setCategoryDurationMs(60)
              }
            )
          }
        })
        expect(r.main.stdout).toMatch(/Another assessment of model .* is running/)
        expect(r.main.outputs.run_id).not.toBe(otherId)
        expect(r.main.outputs.status).toBe('completed')
        expectNoSecrets(w, r)
      },
      // The other run lasts ten seconds unless the action has seen it, however long the action takes to start.
      { categoryDurationMs: 1_000 }
    )
  )

  it.concurrent('waits as Retry-After says on 429 and then triggers', () =>
    inWorld(
      async (w) => {
        const r = await run(w, { inputs: baseInputs(w) })
        expect(r.main.stdout).toMatch(/the service asked to retry after 1 s: retrying in 1 s/)
        expect(r.main.outputs.status).toBe('completed')
        expectNoSecrets(w, r)
      },
      {
        faults: { seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['burst429'], retryAfterSeconds: 1, burstLength: 1, maxFaults: 1 }
      }
    )
  )

  it.concurrent('explains a spent monthly allowance as a service failure: endpoint, status, code, when it resets', () =>
    inWorld(async (w) => {
      w.emu.control.exhaustAllowance('full', true)
      const r = await run(w, { inputs: baseInputs(w) })
      expect(r.main.code).toBe(1)
      expect(r.main.outputs.result).toBe('error')
      const errors = r.main.stdout.split('\n').filter((l) => l.startsWith('::error'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/POST \/api\/v1\/run HTTP 403 allowance_exhausted: .*resets on \d{4}-\d{2}-\d{2}/)
      expect(r.main.stdout).not.toMatch(/\n\s+at /)
      expectNoSecrets(w, r)
    })
  )

  it.concurrent('tells a trial workspace to leave categories empty, as a configuration error', () =>
    inWorld(async (w) => {
      const r = await run(w, {
        inputs: baseInputs(w, { model_id: w.emu.demoModels.trial, api_key: w.emu.keys.trial, categories: 'prompt_injection' })
      })
      expect(r.main.code).toBe(1)
      expect(r.main.stdout).toMatch(
        /::error::Configuration error in input 'categories': evaluation \(trial\) workspaces run the full taxonomy only/
      )
    })
  )

  it.concurrent.each([
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
  ])('rejects a bad %s with one line and sends no request', (input, patch) =>
    inWorld(async (w) => {
      const requestsBefore = w.emu.requestLog.length
      const r = await run(w, { inputs: baseInputs(w, patch) })
      expect(r.main.code).toBe(1)
      expect(r.main.outputs.result).toBe('error')
      const errors = r.main.stdout.split('\n').filter((l) => l.startsWith('::error'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain(`Configuration error in input '${input}'`)
      expect(r.main.stdout).not.toMatch(/\n\s+at /)
      expect(w.emu.requestLog.length).toBe(requestsBefore)
      expectNoSecrets(w, r)
    })
  )
})
