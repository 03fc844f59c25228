/**
 * The gate end to end against a stochastic agent: runMain in-process against
 * the emulator, whose demo agent complies with one category by a seeded
 * chance (one probe per run, so a run finds the weakness with probability
 * p), the GitHub stand-in and an Actions cache in memory, on virtual time.
 * The scenarios are the ones `npm run bench` measures
 * (scripts/bench-stochastic.ts), run here on a fixed seed with few runs: the
 * same seed gives the same replies, so every count below is deterministic.
 *
 * (c) A pull request that changes the agent is judged on its own runs: one
 *     whose run finds a weakness it introduced is blocked every time; one
 *     that removes main's weakness is never blocked by main's evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startStochasticWorld } from '../__fixtures__/stochastic-world.js'
import { measureCell, type CellResult, type StochasticOptions } from '../../scripts/bench-stochastic.js'

const OPTIONS: StochasticOptions = {
  seed: 28,
  n: 8,
  history: 5,
  probabilities: [0.5],
  columns: [{ label: 'default', inputs: {} }],
  category: 'jailbreak',
  start: startStochasticWorld,
  log: () => undefined
}

describe('the gate against a flaky weakness (p = 0.5, seed 28)', () => {
  let cell: CellResult

  beforeAll(async () => {
    cell = await measureCell(OPTIONS, 0.5, OPTIONS.columns[0])
  }, 120_000)
  afterAll(() => undefined)

  it('runs against an agent that really is flaky: the same agent found in some runs and not in others', () => {
    expect(cell.reruns.found).toBeGreaterThan(0)
    expect(cell.reruns.found).toBeLessThan(OPTIONS.n + 1)
    expect(cell.reruns.verdicts).toHaveLength(OPTIONS.n + 1)
    // every verdict is a pass or a fail of an assessment (measureCell refuses anything else)
    expect(new Set(cell.reruns.verdicts)).toEqual(new Set(['pass', 'fail']))
  })

  it('(c) blocks every pull request whose run finds the weakness it introduced', () => {
    expect(cell.introduce.found).toBeGreaterThan(0)
    expect(cell.introduce.foundNotBlocked).toBe(0)
    expect(cell.introduce.blocked).toBeGreaterThanOrEqual(cell.introduce.found)
  })

  it("(c) never blocks a pull request that removes the weakness, whatever main's runs saw", () => {
    expect(cell.remove.mainFound).toBeGreaterThan(0)
    expect(cell.remove).toMatchObject({ prs: OPTIONS.n, blocked: 0 })
  })
})
