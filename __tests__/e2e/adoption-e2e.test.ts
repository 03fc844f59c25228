/**
 * Adoption is not eviction, end to end: runMain in-process against the
 * emulator's flaky demo agent, the GitHub stand-in (commits, statuses) and an
 * Actions cache in memory (__tests__/__fixtures__/stochastic-world.ts).
 *
 * - The default branch's first push after pull requests saw a weakness of the
 *   model: judged on its own run (one assessment), nothing presumed, the
 *   report says so in one line; it sets its commit status, the durable sign.
 * - A push after the records were evicted (the sign on an earlier commit of
 *   main): the service's list is presumed, as strict as before.
 * - The statuses unreadable: strict, saying how to fix it.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { ADOPTION_LINE } from '../../src/evidence/adoption.js'
import { startStochasticWorld, type StochasticWorld } from '../__fixtures__/stochastic-world.js'

const CATEGORY = 'jailbreak'
const AGENT_CHANGE = ['agent/prompt.md']
let world: StochasticWorld | null = null

afterEach(async () => {
  await world?.stop()
  world = null
})

/** Two pull requests whose runs saw the weakness (the agent complying), then the agent fixed; main never ran the gate. */
async function pullRequestsSaw(): Promise<StochasticWorld> {
  world = await startStochasticWorld({ category: CATEGORY, p: 1, seed: 28 })
  const w = world
  for (let i = 0; i < 2; i++) expect(await w.gate({ on: 'pr', failOn: 'any', files: AGENT_CHANGE })).toMatchObject({ result: 'fail' })
  w.setP(0)
  return w
}

const plain = (s: string): string => s.replace(/\\/g, '')
const mainStatuses = (w: StochasticWorld): string[] => w.gh.git.statuses.map((s) => `${s.context} ${s.state}`)

describe('the default branch that never recorded is judged on its own run', () => {
  it('first push to main after pull requests saw a weakness: one assessment, nothing presumed, the line said', async () => {
    const w = await pullRequestsSaw()
    const r = await w.gate({ on: 'main', failOn: 'any' })
    expect(r.foundThisRun).toBe(false)
    expect(r.result).toBe('pass')
    expect(r.assessmentsSpent).toBe(1)
    expect(r.confirmationRuns).toBe(0)
    expect(plain(r.summary)).toContain(ADOPTION_LINE.replace(/\.$/, ''))
    // It left the sign: its own commit status, pending then its result.
    expect(mainStatuses(w).filter((s) => s.startsWith('agent-security/'))).toEqual([
      expect.stringMatching(/ pending$/),
      expect.stringMatching(/ success$/)
    ])
  }, 120_000)

  it('the same first push whose own run sees the weakness fails on it', async () => {
    const w = await pullRequestsSaw()
    w.setP(1)
    const r = await w.gate({ on: 'main', failOn: 'any' })
    expect(r).toMatchObject({ result: 'fail', foundThisRun: true, assessmentsSpent: 1, confirmationRuns: 0 })
  }, 120_000)

  it('runs_per_change 3: at most 1 + 3 assessments', async () => {
    const w = await pullRequestsSaw()
    const r = await w.gate({ on: 'main', failOn: 'any', inputs: { runs_per_change: '3' } })
    expect(r.result).toBe('pass')
    expect(r.confirmationRuns).toBe(0)
    expect(r.assessmentsSpent).toBeLessThanOrEqual(4)
  }, 120_000)
})

describe('records gone after the default branch recorded stay strict', () => {
  it('evicted (the sign on an earlier commit of main): what the service lists is presumed, as before', async () => {
    const w = await pullRequestsSaw()
    w.setP(1)
    expect(await w.gate({ on: 'main', failOn: 'any' })).toMatchObject({ result: 'fail', foundThisRun: true })
    w.setP(0)
    // A pull request flooded the cache: main's records are gone, its commit status is not.
    w.cacheEntries().splice(0)
    const r = await w.gate({ on: 'main', failOn: 'any', inputs: { confirmation_runs_max: '0' } })
    expect(r.foundThisRun).toBe(false)
    expect(r.result).toBe('incomplete')
    expect(plain(r.summary)).toMatch(/most recent completed runs? holding findings (was|were) read from the service/)
    expect(plain(r.summary)).not.toContain(ADOPTION_LINE.replace(/\.$/, ''))
    // The sign was read and found, not merely unreadable.
    expect(plain(r.summary)).not.toMatch(/could not be told/)
  }, 120_000)

  it("evicted, the next run a nightly one at the same head: the first run's status on that commit is the sign", async () => {
    const w = await pullRequestsSaw()
    expect(await w.gate({ on: 'main', failOn: 'any' })).toMatchObject({ result: 'pass', assessmentsSpent: 1 })
    w.cacheEntries().splice(0)
    const r = await w.gate({ on: 'main', schedule: true, failOn: 'any', inputs: { confirmation_runs_max: '0' } })
    expect(r.result).toBe('incomplete')
    expect(plain(r.summary)).toMatch(/most recent completed runs? holding findings (was|were) read from the service/)
    expect(plain(r.summary)).not.toMatch(/could not be told/)
  }, 120_000)

  it('the statuses unreadable (403): strict, saying how to fix it', async () => {
    const w = await pullRequestsSaw()
    // main ran once before (no record kept), so there is an earlier commit whose statuses are read.
    await w.gate({ on: 'main', failOn: 'any', inputs: { evidence_runs: '1' } })
    w.cacheEntries().splice(0)
    // One refusal: the sign's read (the step's own check of its context after its result reads them again).
    w.gh.failNext('GET', /\/commits\/[0-9a-f]+\/statuses$/, 403, 1)
    const r = await w.gate({ on: 'main', failOn: 'any', inputs: { confirmation_runs_max: '0' } })
    expect(r.result).toBe('incomplete')
    expect(plain(r.summary)).toMatch(/could not be told .*statuses: write/)
  }, 120_000)

  it('this push cannot set its own status (403): the sign is not trusted, strict', async () => {
    const w = await pullRequestsSaw()
    w.gh.failNext('POST', /\/statuses\/[0-9a-f]+$/, 403, 5)
    const r = await w.gate({ on: 'main', failOn: 'any', inputs: { confirmation_runs_max: '0' } })
    expect(r.result).toBe('incomplete')
    expect(plain(r.summary)).toMatch(/could not set its own commit status/)
  }, 120_000)
})
