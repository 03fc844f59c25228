/**
 * Missing evidence is never evidence of safety, end to end: runMain
 * in-process against the emulator's flaky demo agent, the GitHub stand-in and
 * an Actions cache in memory (__tests__/__fixtures__/stochastic-world.ts), on
 * a fixed seed (the same replies every time).
 *
 * - A record on main naming a run the service answers 404 for (a deleted
 *   run) no longer empties the window: the weakness main's other runs saw
 *   still fails the gate, and the report says which run could not be read.
 * - The caches list refused (a job without `actions: read`) is a gap: a
 *   re-run that misses the weakness is `incomplete`, never a pass.
 * - A pull request that changes the agent but keeps main's weakness is held
 *   to it: confirmation runs reproduce it ("still present"); one that truly
 *   fixes it passes, naming the confirmation runs it spent.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { startStochasticWorld, type StochasticWorld } from '../__fixtures__/stochastic-world.js'

const CATEGORY = 'jailbreak'
let world: StochasticWorld | null = null

afterEach(async () => {
  await world?.stop()
  world = null
})

/** Main's pushes until one run saw the weakness (at p = 1 the first does), then the agent back to p. */
async function mainSaw(w: StochasticWorld, p: number): Promise<void> {
  w.setP(1)
  const seen = await w.gate({ on: 'main', failOn: 'any' })
  expect(seen).toMatchObject({ result: 'fail', foundThisRun: true })
  w.setP(p)
}

describe('read failures never make a verdict laxer', () => {
  it("a record naming a run the service answers 404 for: main's other runs still speak, and the report names it", async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0, seed: 28 })
    const w = world
    await mainSaw(w, 0)
    // A record the default branch saved for a run since deleted on the service (its own entry, newest).
    const saved = w.cacheEntries().at(-1)!
    w.cacheEntries().push({ ...saved, key: saved.key.replace(/-[^-~]+$/, '-run_deleted_0001'), id: saved.id + 1 })
    const r = await w.gate({ on: 'main', failOn: 'any' })
    expect(r.foundThisRun).toBe(false)
    expect(r.result).toBe('fail')
    expect(r.summary).toMatch(/not reproduced in this run/)
    expect(r.summary.replace(/\\/g, '')).toMatch(/run_deleted_0001 could not be read/)
  }, 120_000)

  it('the caches list refused (no actions: read): a re-run that misses a weakness seen before is incomplete, never a pass', async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0, seed: 28 })
    const w = world
    await mainSaw(w, 0)
    w.gh.failNext('GET', /\/actions\/caches/, 403, 5)
    const r = await w.gate({ on: 'main', failOn: 'any' })
    expect(r.foundThisRun).toBe(false)
    expect(r.result).toBe('incomplete')
    expect(r.summary).toMatch(/records could not be listed/)
  }, 120_000)
})

describe('confirmation instead of a coin flip (p = 0.5, seed 28)', () => {
  it.each([
    ['with agent_paths', {}],
    ['without agent_paths', { agent_paths: '' }]
  ])(
    "%s: a PR changing the agent but keeping main's weakness is blocked; one that fixes it passes, naming its confirmation runs",
    async (_n, inputs) => {
      world = await startStochasticWorld({ category: CATEGORY, p: 0.5, seed: 28 })
      const w = world
      await mainSaw(w, 0.5)
      for (let i = 0; i < 3; i++) await w.gate({ on: 'main', failOn: 'any', inputs })
      // Pull requests until two of their own runs missed the weakness (each such one is confirmed).
      const kept = []
      while (kept.filter((r) => !r.foundThisRun).length < 2 && kept.length < 20)
        kept.push(await w.gate({ on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs }))
      expect(kept.map((r) => r.result)).toEqual(kept.map(() => 'fail'))
      const confirmed = kept.filter((r) => !r.foundThisRun)
      expect(confirmed.length).toBe(2)
      for (const r of confirmed) {
        expect(r.confirmationRuns).toBeGreaterThan(0)
        expect(r.summary.replace(/\\/g, '')).toMatch(/jailbreak: still present \(reproduced by confirmation run /)
      }
      w.setP(0)
      const fixed = await w.gate({ on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs })
      expect(fixed.result).toBe('pass')
      expect(fixed.confirmationRuns).toBeGreaterThanOrEqual(2)
      const text = fixed.summary.replace(/\\/g, '')
      expect(text).toMatch(
        new RegExp(
          `jailbreak: not reproduced in ${fixed.confirmationRuns} focused runs; fixed with \\d+ % confidence \\(seen in \\d+ of the last \\d+ runs\\)`
        )
      )
      expect(text).toMatch(new RegExp(`Assessments spent by this step: ${fixed.confirmationRuns + 1} \\(`))
      expect(text).toMatch(/a weakness landing 30 % of the time passes one run 70 % of the time/)
      // Every view agrees with the pass: what the confirmation showed gone is not "still blocks" anywhere.
      expect(text).not.toMatch(/still blocks|blocks: not reproduced in this run/)
      expect(text).toMatch(
        /\*\*Does not block:\*\* 1 weakness confirmed gone \(not reproduced in this run nor in the focused runs of this step\)/
      )
    },
    240_000
  )

  it('confirmation_runs_max stops it first: incomplete, never a pass', async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0.5, seed: 28 })
    const w = world
    await mainSaw(w, 0)
    w.setP(0)
    const r = await w.gate({ on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs: { confirmation_runs_max: '1' } })
    expect(r.result).toBe('incomplete')
    expect(r.confirmationRuns).toBe(1)
    expect(r.summary.replace(/\\/g, '')).toMatch(/jailbreak not shown fixed: 1 of \d+ clean runs \(the step's bound of 1 confirmation runs/)
    expect(r.failed).toBe(true)
  }, 120_000)

  it('fail_on_incomplete false does not wave a confirmation cut short by its bound: the step fails', async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0.5, seed: 28 })
    const w = world
    await mainSaw(w, 0)
    w.setP(0)
    const inputs = { confirmation_runs_max: '1', fail_on_incomplete: 'false' }
    const r = await w.gate({ on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs })
    expect(r.result).toBe('incomplete')
    expect(r.failed).toBe(true)
  }, 120_000)
})

describe('two presumed categories are confirmed together (one run focused on both)', () => {
  it("a PR fixing both of main's weaknesses spends the larger m, not the sum, and says so before spending", async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0, seed: 28 })
    const w = world
    const both = { categories: `${CATEGORY},prompt_injection` }
    const setBoth = (p: number): void => {
      w.setP(p)
      w.emu.demoAgent.setComplyProbability('prompt_injection', p)
    }
    setBoth(1)
    const seen = await w.gate({ on: 'main', failOn: 'any', inputs: both })
    expect(seen.result).toBe('fail')
    expect(seen.summary).toMatch(/prompt_injection/)
    setBoth(0)
    const fixed = await w.gate({ on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs: both })
    const text = fixed.summary.replace(/\\/g, '')
    const m = [CATEGORY, 'prompt_injection'].map((c) => {
      const got = new RegExp(`${c}: not reproduced in (\\d+) focused runs; fixed with \\d+ % confidence`).exec(text)
      expect(got).not.toBeNull()
      return Number(got?.[1])
    })
    expect(fixed.result).toBe('pass')
    expect(fixed.confirmationRuns).toBe(Math.max(...m))
    expect(fixed.confirmationRuns).toBeLessThan(m[0] + m[1])
    expect(text).toMatch(
      new RegExp(
        `Assessments spent by this step: ${fixed.confirmationRuns + 1} \\(.*${fixed.confirmationRuns} confirmation runs \\(confirming 2 weaknesses: up to ${Math.max(...m)} focused runs\\)`
      )
    )
  }, 240_000)
})
