/**
 * mode: overview through the bundle, as the runner runs it on a schedule:
 * the emulator's demo fleet (a stale agent, agents never assessed), GitHub's
 * stand-in for the tracking issue. The page is the job summary, one issue
 * kept up to date, the JSON report; reads only; a 429 storm is waited out;
 * a run that cannot be read is named; a target given is a mistake.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { removeActionWorkDirs, runAction, type ActionRun } from '../__fixtures__/action-runner.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'
import { OVERVIEW_MARKER } from '../../src/action/stages/report-overview.js'

afterAll(removeActionWorkDirs)

const GH_TOKEN = 'ghs_e2e_overview_token_789'
const FLEET = { fleet: { agents: 5, runs: 6, seed: 3 } }

function overviewStep(w: World, extra: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    inputs: { mode: 'overview', api_key: w.emu.keys.readonly, base_url: w.emu.url, issue: 'update', evidence_max_age_days: '14', ...extra },
    githubToken: GH_TOKEN,
    eventName: 'schedule',
    eventPayload: { schedule: '0 6 * * 1', repository: { full_name: 'octo-org/agent-app', default_branch: 'main' } },
    env: { GITHUB_API_URL: w.gh.url, GITHUB_REF: 'refs/heads/main' },
    killAfterMs: 120_000
  })
}

/** The page's JSON, as the report file holds it. */
const pageOf = (run: ActionRun): { verdict: Record<string, unknown>; unreadable: unknown[] } =>
  JSON.parse(readFileSync(run.main.outputs.report_path, 'utf8')) as { verdict: Record<string, unknown>; unreadable: unknown[] }

describe('mode: overview through the bundle', () => {
  it('names the stale and the never-assessed agents, fails the step, reads only, and keeps one tracking issue', async () => {
    await inWorld(async (w) => {
      const before = w.emu.requestLog.length
      const first = await overviewStep(w)
      expect(first.main.code).not.toBe(0)
      const page = pageOf(first)
      expect(page.verdict).toMatchObject({ agents: 6, stale: 1, never: 2, unreadable: 0 })
      expect(first.main.outputs).toMatchObject({ result: page.verdict.failing === 0 ? 'incomplete' : 'fail', assessments_spent: '0' })
      expect(first.main.summary).toContain(String(page.verdict.headline))
      expect(first.main.summary).toContain('Sales copilot')
      // Reads only: not one request that changes anything at the service.
      expect(new Set(w.emu.requestLog.slice(before).map((e) => e.method))).toEqual(new Set(['GET']))
      // One issue, marked, created by the first run and rewritten (not duplicated) by the next.
      const ours = () => w.gh.state.issues.filter((i) => (i.body ?? '').includes(OVERVIEW_MARKER))
      expect(ours()).toHaveLength(1)
      expect(ours()[0].state).toBe('open')
      const second = await overviewStep(w)
      expect(second.main.code).not.toBe(0)
      expect(ours()).toHaveLength(1)
      expect(ours()[0].state).toBe('open')
      expect(ours()[0].body).toContain(String(page.verdict.headline))
    }, FLEET)
  }, 240_000)

  it('waits out a 429 storm and draws the same page', async () => {
    await inWorld(async (w) => {
      const calm = pageOf(await overviewStep(w, { issue: 'off' }))
      w.emu.control.setFaults({ seed: 9, rate: 0.4, kinds: ['burst429'], retryAfterSeconds: 0, burstLength: 2, maxFaults: 4 })
      const before = w.emu.requestLog.length
      const stormy = await overviewStep(w, { issue: 'off' })
      expect(w.emu.requestLog.slice(before).filter((e) => e.status === 429).length).toBeGreaterThan(0)
      expect(pageOf(stormy).verdict).toEqual(calm.verdict)
      expect(stormy.main.stdout).toMatch(/\[6\/6\] /)
    }, FLEET)
  }, 240_000)

  it('names every run it could not read, and never reads as clear', async () => {
    await inWorld(
      async (w) => {
        // Every read of a run answers with a body that is not JSON: no run can be read (each is retried until
        // timeout_minutes, then named).
        w.emu.control.setFaults({ seed: 1, rate: 0, endpoints: { getRun: 1 }, kinds: ['non_json'] })
        const run = await overviewStep(w, { issue: 'off', timeout_minutes: '0.25' })
        const page = pageOf(run)
        expect(page.unreadable.length).toBeGreaterThan(0)
        expect(run.main.outputs.result).not.toBe('pass')
        expect(run.main.code).not.toBe(0)
        expect(run.main.summary).toContain('Not read')
      },
      { fleet: { agents: 2, runs: 2, seed: 3 } }
    )
  }, 240_000)

  it('refuses a target in one line naming the input, and reads nothing', async () => {
    await inWorld(async (w) => {
      const before = w.emu.requestLog.length
      const run = await overviewStep(w, { model_id: w.emu.demoModelId })
      expect(run.main.code).not.toBe(0)
      expect(run.main.stdout).toMatch(/::error::Configuration error in input 'model_id': is not used by mode 'overview'/)
      expect(run.main.stdout).not.toMatch(/\n\s+at /)
      expect(w.emu.requestLog.length).toBe(before)
    }, FLEET)
  }, 60_000)
})
