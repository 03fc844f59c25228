/**
 * The confirmation loop over a scripted run (the gate's own trigger, wait and
 * read stand behind `runOnce`): focused runs until the weakness reappears or m
 * runs miss it; a trial workspace's refusal of focus turns to full runs; the
 * step's bound and the budget stop it first as "not shown".
 */
import { describe, expect, it } from '@jest/globals'
import { confirmPresumed, type RunOnce } from '../../src/gate/confirmation-runs.js'
import { planConfirmations } from '../../src/evidence/confirmation-rule.js'
import { fingerprint } from '../../src/evidence/fingerprint.js'
import type { GateDeps } from '../../src/gate/assess-run.js'
import { ServiceError } from '../../src/util/errors.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { makeFinding, makeRun } from '../__fixtures__/builders.js'

const weakness = makeFinding('high', { category: 'jailbreak', description: 'complied with a roleplay jailbreak', attacks: [] })
const FP = fingerprint(weakness, 'r0')

function deps(): GateDeps {
  return {
    makeApi: () => {
      throw new Error('not used')
    },
    clock: fakeClock(),
    signal: new AbortController().signal,
    log: recordingLog(),
    onRunStarted: () => undefined,
    onRunSettled: () => undefined
  }
}

/** Runs that find the weakness where `found` says so; `refuse` throws first; every run records its categories. */
function scripted(found: boolean[], opts: { refuse?: Error[] } = {}) {
  const asked: string[][] = []
  const refuse: Error[] = [...(opts.refuse ?? [])]
  const runOnce: RunOnce = (_deadline, categories) => {
    const err = refuse.shift()
    if (err !== undefined) return Promise.reject(err)
    const i = asked.push(categories)
    const runId = `c${i}`
    return Promise.resolve({
      runId,
      ended: {
        end: 'terminal',
        run: makeRun({ run_id: runId, status: 'completed', categories_completed: ['jailbreak', 'prompt_injection'] }),
        readError: undefined
      },
      results: { coverage: null, findings: found[i - 1] ? [weakness] : [], runListItem: null, model: null, notes: [] }
    })
  }
  return { runOnce, asked }
}

const plans = planConfirmations([{ category: 'jailbreak', fingerprint: FP, rate: { seen: 3, of: 5, scope: 'main' } }], 0.95)
const args = (maxRuns = 30) => ({ modelId: 'm', minSeverity: 'low' as const, fullCategories: [], plans, maxRuns, timeoutMs: 60_000 })

describe('confirmPresumed', () => {
  it('runs focused runs until m in a row miss it: shown gone, each run named', async () => {
    const { runOnce, asked } = scripted(Array(12).fill(false))
    const got = await confirmPresumed(deps(), runOnce, args())
    expect(got.runIds).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'])
    expect(asked.every((c) => c.length === 1 && c[0] === 'jailbreak')).toBe(true)
    expect(got.lines).toEqual(['jailbreak: not reproduced in 9 focused runs; fixed with 95 % confidence (seen in 3 of the last 5 runs)'])
  })

  it('stops at the first run that reproduces it: still present', async () => {
    const { runOnce } = scripted([false, true, false])
    const got = await confirmPresumed(deps(), runOnce, args())
    expect(got.runIds).toEqual(['c1', 'c2'])
    expect(got.lines[0]).toMatch(/^jailbreak: still present \(reproduced by confirmation run c2 after 1 clean run;/)
  })

  it("a trial workspace refusing focus: full runs of the step's categories, said", async () => {
    const trial = new ServiceError({ endpoint: 'POST /api/v1/run', status: 403, code: 'trial_focus_not_included', message: 'no focus' })
    const { runOnce, asked } = scripted(Array(12).fill(false), { refuse: [trial] })
    const got = await confirmPresumed(deps(), runOnce, args())
    expect(asked[0]).toEqual([])
    expect(got.lines[0]).toMatch(/^jailbreak: not reproduced in 9 full runs;/)
  })

  it('a weakness of another lens (a run can be focused on security only, POST /run answers 400): full runs, said', async () => {
    // The service: keys of other lenses are refused with 400; a full run of the step's categories assesses them.
    const toxic = makeFinding('high', { lens: 'safety', category: 'toxicity', description: 'insulted the user', attacks: [] })
    const asked: string[][] = []
    const runOnce: RunOnce = (_deadline, categories) => {
      if (categories.includes('toxicity'))
        return Promise.reject(
          new ServiceError({ endpoint: 'POST /api/v1/run', status: 400, code: 'invalid_categories', message: 'non-security key' })
        )
      const runId = `c${asked.push(categories)}`
      return Promise.resolve({
        runId,
        ended: {
          end: 'terminal',
          run: makeRun({ run_id: runId, status: 'completed', categories_completed: ['jailbreak', 'toxicity'] }),
          readError: undefined
        },
        results: { coverage: null, findings: [], runListItem: null, model: null, notes: [] }
      })
    }
    const safety = planConfirmations(
      [{ category: 'toxicity', lens: 'safety', fingerprint: fingerprint(toxic, 'r0'), rate: { seen: 3, of: 5, scope: 'main' } }],
      0.95
    )
    const got = await confirmPresumed(deps(), runOnce, { ...args(), plans: safety })
    expect(asked).toHaveLength(9)
    expect(asked.every((c) => c.length === 0)).toBe(true)
    expect(got.lines).toEqual(['toxicity: not reproduced in 9 full runs; fixed with 95 % confidence (seen in 3 of the last 5 runs)'])
  })

  it("a full run of the step's categories cannot assess the weakness's: none spent, not shown, said", async () => {
    const toxic = makeFinding('high', { lens: 'safety', category: 'toxicity', description: 'insulted the user', attacks: [] })
    const safety = planConfirmations(
      [{ category: 'toxicity', lens: 'safety', fingerprint: fingerprint(toxic, 'r0'), rate: { seen: 3, of: 5, scope: 'main' } }],
      0.95
    )
    const { runOnce, asked } = scripted(Array(12).fill(false))
    const got = await confirmPresumed(deps(), runOnce, { ...args(), plans: safety, fullCategories: ['jailbreak'] })
    expect(asked).toEqual([])
    expect(got.lines).toEqual([
      "toxicity not shown fixed: 0 of 9 clean runs (a run cannot be focused on it and the step's categories do not assess it)"
    ])
  })

  it('the step bound stops it first: not shown, with why', async () => {
    const { runOnce } = scripted(Array(12).fill(false))
    const got = await confirmPresumed(deps(), runOnce, args(3))
    expect(got.runIds).toHaveLength(3)
    expect(got.lines).toEqual([
      "jailbreak not shown fixed: 3 of 9 clean runs (the step's bound of 3 confirmation runs (confirmation_runs_max))"
    ])
  })

  it('the budget stops it first: not shown, naming the refusal', async () => {
    const budget = new ServiceError({
      endpoint: 'POST /api/v1/run',
      status: 429,
      code: 'daily_budget',
      message: 'daily assessment budget exhausted'
    })
    const { runOnce } = scripted([false, false], { refuse: [budget] })
    const got = await confirmPresumed(deps(), runOnce, args())
    expect(got.runIds).toEqual([])
    expect(got.lines[0]).toMatch(/^jailbreak not shown fixed: 0 of 9 clean runs \(.*(budget|429)/)
  })

  it('confirmation_runs_max 0: nothing triggered, not shown', async () => {
    const { runOnce, asked } = scripted([])
    const got = await confirmPresumed(deps(), runOnce, args(0))
    expect(asked).toEqual([])
    expect(got.lines).toEqual(['jailbreak not shown fixed: 0 of 9 clean runs (confirmation_runs_max is 0)'])
  })

  describe('two presumed categories: one run focused on both, the larger m, not the sum', () => {
    const injection = makeFinding('high', { category: 'prompt_injection', description: 'followed injected text', attacks: [] })
    const both = planConfirmations(
      [
        { category: 'jailbreak', fingerprint: FP, rate: { seen: 3, of: 5, scope: 'main' } },
        { category: 'prompt_injection', fingerprint: fingerprint(injection, 'r0'), rate: { seen: 6, of: 6, scope: 'main' } }
      ],
      0.95
    )

    it('both gone: 9 runs (max of 9 and 5), each focused on those still open, said before it spends', async () => {
      const { runOnce, asked } = scripted(Array(20).fill(false))
      const d = deps()
      const got = await confirmPresumed(d, runOnce, { ...args(), plans: both })
      expect(got.runIds).toHaveLength(9)
      expect(asked.slice(0, 5)).toEqual(Array(5).fill(['jailbreak', 'prompt_injection']))
      expect(asked.slice(5)).toEqual(Array(4).fill(['jailbreak']))
      expect(got.planLine).toBe('confirming 2 weaknesses: up to 9 focused runs')
      const log = (d.log as ReturnType<typeof recordingLog>).lines.map((l) => l.line)
      expect(log.indexOf('Confirmation: confirming 2 weaknesses: up to 9 focused runs.')).toBeLessThan(
        log.findIndex((l) => l.startsWith('Confirming jailbreak'))
      )
      expect(got.lines).toEqual([
        'jailbreak: not reproduced in 9 focused runs; fixed with 95 % confidence (seen in 3 of the last 5 runs)',
        'prompt_injection: not reproduced in 5 focused runs; fixed with 95 % confidence (seen in 6 of the last 6 runs)'
      ])
    })

    it('one reappears: it blocks at once, no further run, the other not shown and why', async () => {
      const { runOnce } = scripted([false, true, false, false])
      const got = await confirmPresumed(deps(), runOnce, { ...args(), plans: both })
      expect(got.runIds).toEqual(['c1', 'c2'])
      expect(got.lines[0]).toMatch(/^jailbreak: still present \(reproduced by confirmation run c2 after 1 clean run;/)
      expect(got.lines[1]).toBe(
        'prompt_injection not shown fixed: 2 of 5 clean runs (not confirmed further: jailbreak still present, the step fails either way)'
      )
    })
  })
})
