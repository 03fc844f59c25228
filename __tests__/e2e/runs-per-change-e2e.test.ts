/**
 * runs_per_change end to end: runMain in-process against the emulator's
 * flaky demo agent, the GitHub stand-in and an Actions cache in memory
 * (__tests__/__fixtures__/stochastic-world.ts), on a fixed seed. The
 * jailbreak stream of seed 4 at p = 0.5 answers miss, hit, miss: the step's
 * own run misses the weakness and the second run draws it.
 *
 * - An agent with no evidence of its own (it may have changed): three full
 *   runs, pooled; the weakness only the second saw blocks, every run counted.
 * - An agent unchanged since its evidence (a README push after main's run):
 *   one run, as before.
 * - The budget cutting the runs short: incomplete with the reason, never a pass.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { startStochasticWorld, type StochasticWorld } from '../__fixtures__/stochastic-world.js'

const CATEGORY = 'jailbreak'
const THREE = { runs_per_change: '3' }
let world: StochasticWorld | null = null

afterEach(async () => {
  await world?.stop()
  world = null
})

const triggers = (w: StochasticWorld): number => w.emu.requestLog.filter((e) => e.endpoint === 'triggerRun').length

describe('runs_per_change: N full runs when the agent may have changed, pooled', () => {
  it('a weakness only the second of three runs drew blocks; the three runs are counted', async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0.5, seed: 4 })
    const w = world
    const before = triggers(w)
    const r = await w.gate({ on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs: THREE })
    expect(triggers(w) - before).toBe(3)
    expect(r.foundThisRun).toBe(false)
    expect(r.result).toBe('fail')
    const text = r.summary.replace(/\\/g, '')
    expect(text).toMatch(/jailbreak` `weakness [0-9a-f]{12}` · not reproduced in this run, still blocks · seen in 1 of the last 3 runs/)
    expect(text).toMatch(
      /Assessments spent by this step: 3 \(assessed run \S+ of \w+[^;]*; 2 further full runs of this agent change \(runs_per_change\)\)/
    )
    // What a pass means is said on a pass only.
    expect(text).not.toMatch(/a weakness landing 30 % of the time passes/)
  }, 120_000)

  it('an agent unchanged since its evidence: one run, as with runs_per_change 1', async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0, seed: 4 })
    const w = world
    const first = await w.gate({ on: 'main', failOn: 'any', inputs: THREE })
    expect(first.result).toBe('pass')
    expect(first.summary).toMatch(/Assessments spent by this step: 3 /)
    const before = triggers(w)
    const r = await w.gate({ on: 'main', failOn: 'any', inputs: THREE })
    expect(triggers(w) - before).toBe(1)
    expect(r.result).toBe('pass')
    const text = r.summary.replace(/\\/g, '')
    expect(text).toMatch(/Assessments spent by this step: 1 \(/)
    expect(text).toMatch(/passes one run 70 % of the time/)
  }, 120_000)

  it("on main: the weakness only a further run drew is named by the step's record, so the next run of the unchanged agent still blocks", async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0.5, seed: 4 })
    const w = world
    const first = await w.gate({ on: 'main', failOn: 'any', inputs: THREE })
    expect(first).toMatchObject({ result: 'fail', foundThisRun: false })
    w.setP(0)
    const before = triggers(w)
    const next = await w.gate({ on: 'main', failOn: 'any', inputs: THREE })
    expect(triggers(w) - before).toBe(1)
    expect(next).toMatchObject({ result: 'fail', foundThisRun: false })
    expect(next.summary).toMatch(/not reproduced in this run/)
  }, 120_000)

  it('the budget cutting the runs short: incomplete with the reason, never a pass', async () => {
    world = await startStochasticWorld({ category: CATEGORY, p: 0, seed: 4 })
    const w = world
    w.emu.control.setLimits({ triggersPerMinute: 1_000_000, dailyAssessmentBudget: w.emu.control.runs().length + 2 })
    const r = await w.gate({ on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs: THREE })
    expect(r.foundThisRun).toBe(false)
    expect(r.result).toBe('incomplete')
    const text = r.summary.replace(/\\/g, '')
    expect(text).toMatch(
      /runs_per_change: 2 of 3 runs of this agent change assessed \(The daily assessment budget is used up; .*UTC\)\), so a weakness the others would have drawn cannot be ruled out/
    )
    expect(text).toMatch(/Assessments spent by this step: 2 \(/)
  }, 120_000)
})
