/**
 * The gate end to end against a stochastic agent: runMain in-process against
 * the emulator, whose demo agent complies with one category by a seeded
 * chance (one probe per run, so a run finds the weakness with probability
 * p), the GitHub stand-in and an Actions cache in memory, on virtual time.
 * The scenarios are the ones `npm run bench` measures
 * (scripts/bench-stochastic.ts), run here on a fixed seed with few runs: the
 * same seed gives the same replies, so every count below is deterministic.
 *
 * With the evidence window at its default (evidence_runs 5):
 * (a) re-runs of one unchanged agent: once the weakness has been seen, no
 *     re-run passes while it is open (nobody fixes or dismisses it), so the
 *     verdict changes once at most; at p = 0.3 too, where more than K runs in
 *     a row miss it (the last K runs alone would forget it: the records'
 *     holders carry it on);
 * (b) pull requests that do not touch the agent are never blocked as "new"
 *     by main's flaky weakness, though their own runs see it;
 * (c) a pull request that changes the agent is judged on its own runs: one
 *     whose run finds a weakness it introduced is blocked every time; one
 *     that removes main's weakness is never blocked by main's evidence.
 * The same scenarios with evidence_runs 1 (one run's findings as the whole
 * truth, as before the window) flip and block falsely on this seed: the
 * checks can tell the two apart.
 *
 * Without agent_paths (every other commit may have changed the agent):
 * (f) re-runs of one commit (the same GITHUB_SHA, the next run attempt) are
 *     the same agent: once seen, no re-run passes;
 * (c), (e) main is pushed until its window holds the weakness, so every
 *     fixing pull request is confirmed (and passes) and every kept one
 *     starts from a main that holds it.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { startStochasticWorld } from '../__fixtures__/stochastic-world.js'
import { measureCell, type CellResult, type StochasticOptions } from '../../scripts/bench-stochastic.js'
import { INPUT_DEFAULTS } from '../../src/action/inputs/defaults.js'

const OPTIONS: StochasticOptions = {
  seed: 28,
  n: 8,
  history: 5,
  probabilities: [0.5],
  columns: [
    { label: 'default', inputs: {} },
    { label: 'K=1', inputs: { evidence_runs: '1' } }
  ],
  category: 'jailbreak',
  start: startStochasticWorld,
  log: () => undefined
}

describe('the gate against a flaky weakness (p = 0.5, seed 28)', () => {
  let cell: CellResult
  let oneRun: CellResult

  beforeAll(async () => {
    cell = await measureCell(OPTIONS, 0.5, OPTIONS.columns[0])
    oneRun = await measureCell(OPTIONS, 0.5, OPTIONS.columns[1])
  }, 240_000)

  it('runs against an agent that really is flaky: the same agent found in some runs and not in others', () => {
    expect(cell.reruns.found).toBeGreaterThan(0)
    expect(cell.reruns.found).toBeLessThan(OPTIONS.n + 1)
    expect(cell.reruns.verdicts).toHaveLength(OPTIONS.n + 1)
    // every verdict is a pass or a fail of an assessment (measureCell refuses anything else); one run alone sees both
    expect(cell.reruns.verdicts.every((v) => v === 'pass' || v === 'fail')).toBe(true)
    expect(new Set(oneRun.reruns.verdicts)).toEqual(new Set(['pass', 'fail']))
  })

  it('(a) never passes a re-run once the weakness has been seen: the verdict changes once at most', () => {
    const first = cell.reruns.verdicts.indexOf('fail')
    expect(first).toBeGreaterThanOrEqual(0)
    expect(cell.reruns.verdicts.slice(first)).toEqual(cell.reruns.verdicts.slice(first).map(() => 'fail'))
    expect(cell.reruns.passesAfterSeen).toBe(0)
    expect(cell.reruns.flip).toBeLessThanOrEqual(1 / OPTIONS.n)
    // one run's findings alone: the same replies make passes after the weakness was seen
    expect(oneRun.reruns.found).toBe(cell.reruns.found)
    expect(oneRun.reruns.passesAfterSeen).toBeGreaterThan(0)
  })

  it("(b) blocks no pull request that does not touch the agent, though their runs see main's weakness", () => {
    expect(cell.unrelated.mainFound).toBeGreaterThan(0)
    expect(cell.unrelated.foundByPr).toBeGreaterThan(0)
    expect(cell.unrelated.blocked).toBe(0)
    // main's newest run alone as the baseline: some of them are blocked as new
    expect(oneRun.unrelated.blocked).toBeGreaterThan(0)
  })

  it('(c) blocks every pull request whose run finds the weakness it introduced', () => {
    expect(cell.introduce.found).toBeGreaterThan(0)
    expect(cell.introduce.foundNotBlocked).toBe(0)
    expect(cell.introduce.blocked).toBeGreaterThanOrEqual(cell.introduce.found)
  })

  it("(c) never blocks a pull request that removes the weakness, whatever main's runs saw", () => {
    expect(cell.remove.mainFound).toBeGreaterThan(0)
    expect(cell.remove).toMatchObject({ prs: OPTIONS.n, blocked: 0 })
    expect(oneRun.remove.blocked).toBe(0)
  })
})

describe('the gate against a weakness seen less often than once in K runs (p = 0.3, seed 28)', () => {
  const RARE: StochasticOptions = { ...OPTIONS, n: 20, history: 3, probabilities: [0.3], columns: [OPTIONS.columns[0]] }
  let cell: CellResult

  beforeAll(async () => {
    cell = await measureCell(RARE, 0.3, RARE.columns[0])
  }, 240_000)

  it('(a) passes no re-run once the weakness was seen, though more than K runs in a row then missed it', () => {
    expect(cell.reruns.found).toBeGreaterThan(0)
    expect(cell.reruns.longestMissAfterSeen).toBeGreaterThan(Number(INPUT_DEFAULTS.evidence_runs))
    expect(cell.reruns.passesAfterSeen).toBe(0)
    expect(cell.reruns.flip).toBeLessThanOrEqual(1 / RARE.n)
    // report.json says the window read holders beyond its K runs, at most 5 a gate
    expect(cell.cost.windowHolders).toBeGreaterThan(0)
    expect(cell.cost.windowHolders).toBeLessThanOrEqual(5 * cell.cost.gates)
  })

  it('(b) and (c) still hold', () => {
    expect(cell.unrelated.blocked).toBe(0)
    expect(cell.introduce.foundNotBlocked).toBe(0)
    expect(cell.remove.blocked).toBe(0)
  })
})

describe('re-runs of one commit and confirmation against a main holding the weakness (p = 0.5, seed 28, no agent_paths)', () => {
  const CONFIRMING: StochasticOptions = {
    ...OPTIONS,
    n: 8,
    history: 3,
    probabilities: [0.5],
    columns: [{ label: 'no agent_paths', inputs: { agent_paths: '' }, confirmation: true }]
  }
  let cell: CellResult

  beforeAll(async () => {
    cell = await measureCell(CONFIRMING, 0.5, CONFIRMING.columns[0])
  }, 240_000)

  it('(f) never passes a re-run of the same commit once the weakness was seen, though each re-run is a new run of the agent', () => {
    const f = cell.rerunsOfOne
    expect(f).not.toBeNull()
    expect(f?.verdicts).toHaveLength(CONFIRMING.n + 1)
    expect(f?.found).toBeGreaterThan(0)
    expect(f?.found).toBeLessThan(CONFIRMING.n + 1)
    expect(f?.passesAfterSeen).toBe(0)
    expect(f?.otherFlips).toBe(0)
  })

  it('(c) and (e) start every pull request from a main whose window holds the weakness: a fix spends confirmation runs and passes', () => {
    expect(cell.remove).toMatchObject({ prs: CONFIRMING.n, fromHeld: CONFIRMING.n, blocked: 0 })
    expect(cell.remove.confirmRuns.every((m) => m > 0)).toBe(true)
    expect(cell.keep).toMatchObject({ prs: CONFIRMING.n, fromHeld: CONFIRMING.n })
    expect(cell.keep?.mainPushes).toBeGreaterThanOrEqual(CONFIRMING.history)
  })
})
