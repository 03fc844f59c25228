/**
 * What `fail_on_incomplete: false` waves and what it never does, how
 * confirmation spends its runs, and a validated fix closing a weakness in a
 * pull request, end to end through the bundle (dist/index.js, run as the
 * runner does) against the emulator, the GitHub stand-in and the runner's
 * cache service. Each case has its own world, so they run concurrently.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { removeActionWorkDirs } from '../__fixtures__/action-runner.js'
import { api, waitFor } from '../__fixtures__/emulator-helpers.js'
import { startServiceProxy, type ServiceProxy } from '../__fixtures__/service-proxy.js'
import { stopStarted } from '../__fixtures__/teardown.js'
import { defaultBranchRun, inCachedWorld, prRun, reportOf, states, type CachedWorld } from '../__fixtures__/cached-world.js'

afterAll(removeActionWorkDirs)

const WAIVED = { fail_on_incomplete: 'false' }

/** Main's run that saved the baseline (inCachedWorld with baseline: its only run so far). */
const firstRunOf = (w: CachedWorld): string => {
  const runs = w.emu.control.runs()
  expect(runs).toHaveLength(1)
  return runs[0].run_id
}

describe('fail_on_incomplete false waves coverage gaps only, through the bundle', () => {
  it.concurrent(
    "main's recorded run answered 503 on every read, this run misses its weakness: the step does not pass",
    () =>
      inCachedWorld(
        async (w) => {
          const held = firstRunOf(w)
          let proxy: ServiceProxy | undefined
          try {
            proxy = await startServiceProxy(w.emu.url, (path) => (path.includes(`/run/${held}`) ? 503 : null))
            w.emu.demoAgent.setAllVulnerable(false)
            const r = await defaultBranchRun(
              w,
              {},
              { ...WAIVED, base_url: proxy.url },
              { sha: 'b4se5ha0000000000000000000000000000000aa', runId: '101', killAfterMs: 120_000 }
            )
            expect(proxy.refused.length).toBeGreaterThan(0)
            expect(['incomplete', 'fail']).toContain(r.main.outputs.result)
            expect(r.main.code).not.toBe(0)
            expect(JSON.stringify(reportOf(r))).toMatch(new RegExp(`${held}[^"]*could not be read`))
          } finally {
            await stopStarted(proxy)
          }
        },
        { baseline: true }
      ),
    180_000
  )

  it.concurrent(
    'a confirmation cut short by confirmation_runs_max: incomplete, and the step does not pass',
    () =>
      inCachedWorld(
        async (w) => {
          // main's records gone: its weaknesses are read from the service's list, presumed until confirmed gone.
          w.gh.setActionsCaches(() => [])
          w.emu.demoAgent.setAllVulnerable(false)
          const r = await defaultBranchRun(w, {}, { ...WAIVED, confirmation_runs_max: '1' })
          const rep = reportOf(r)
          expect(rep.result).toBe('incomplete')
          expect(rep.confirmation?.run_ids).toHaveLength(1)
          expect(rep.reason).toMatch(/not shown fixed/)
          expect(r.main.code).not.toBe(0)
        },
        { baseline: true }
      ),
    120_000
  )
})

describe('confirmation spends the larger m, not the sum, through the bundle', () => {
  it.concurrent(
    'two presumed weaknesses in two categories, confirmed by one run focused on both: runs at the emulator = 1 + max(m)',
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setAllVulnerable(false)
          const before = w.emu.control.runs().length
          // Another commit of main (without agent_paths, another agent): main's two weaknesses are presumed.
          const at = { sha: 'c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2', runId: '101', killAfterMs: 120_000 }
          const r = await defaultBranchRun(w, {}, { confidence: '0.5', confirmation_runs_max: '20' }, at)
          const rep = reportOf(r)
          expect(rep.result).toBe('pass')
          const text = r.main.summary.replace(/\\/g, '')
          const m = ['prompt_injection', 'system_prompt_leakage'].map((c) => {
            const got = new RegExp(`${c}: not reproduced in (\\d+) focused runs`).exec(text)
            expect(got).not.toBeNull()
            return Number(got?.[1])
          })
          const spent = w.emu.control.runs().length - before
          expect(spent).toBe(1 + Math.max(...m))
          expect(spent).toBeLessThan(1 + m[0] + m[1])
          expect(rep.confirmation?.run_ids).toHaveLength(Math.max(...m))
          expect(r.main.outputs.assessments_spent).toBe(String(spent))
        },
        { baseline: true }
      ),
    180_000
  )
})

/** The pull request's run's finding of `category`, closed as fixed and validated by a replay on the service. */
async function validateFix(w: CachedWorld, runId: string, category: string): Promise<void> {
  const list = await api(w.emu, 'GET', `/api/v1/run/${runId}/findings`)
  const finding = (list.json.findings as { finding_id: string; category: string }[]).find((f) => f.category === category)
  expect(finding).toBeDefined()
  const id = finding?.finding_id ?? ''
  expect(
    (await api(w.emu, 'PATCH', `/api/v1/findings/${id}/close`, { body: { status: 'fixed', explanation: 'guard added' } })).status
  ).toBe(200)
  expect((await api(w.emu, 'POST', `/api/v1/findings/${id}/validate`)).status).toBe(200)
  await waitFor('the replay to validate the fix', async () => {
    const f = await api(w.emu, 'GET', `/api/v1/run/${runId}/findings`)
    return (f.json.findings as { finding_id: string; status: string }[]).find((x) => x.finding_id === id)?.status === 'FIXED_VERIFIED'
  })
}

describe('a validated fix closes a weakness in a pull request, through the bundle', () => {
  it.concurrent(
    "the PR's run saw it, a re-run missed it (held), the service validated the fix: the next re-run passes",
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setVulnerable('jailbreak', true)
          const first = await prRun(w)
          expect(first.main.outputs).toMatchObject({ result: 'fail', new_count: '1' })
          w.emu.demoAgent.setVulnerable('jailbreak', false)
          const held = await prRun(w)
          expect(held.main.outputs.result).toBe('fail')
          expect(reportOf(held).reason).toMatch(/not reproduced in this run/)
          expect(held.main.code).not.toBe(0)
          await validateFix(w, reportOf(first).run.run_id, 'jailbreak')
          const fixed = await prRun(w)
          expect(states(reportOf(fixed))).not.toHaveProperty('jailbreak')
          expect(fixed.main.outputs.result).toBe('pass')
          expect(fixed.main.code).toBe(0)
        },
        { baseline: true }
      ),
    240_000
  )
})
