/**
 * The further runs of an agent change over a scripted run (the gate's own
 * trigger, wait and read stand behind `runOnce`): how many are triggered,
 * pooled into the agent's window, and every way a bound stops them short
 * (timeout_minutes, the budget, a run that did not complete, cancellation)
 * leaving a gap (incomplete), never fewer runs passed off as the full set.
 */
import { describe, expect, it } from '@jest/globals'
import { assessMoreRuns } from '../../src/gate/runs-per-change-runs.js'
import type { RunOnce } from '../../src/gate/confirmation-runs.js'
import type { GateArgs, GateDeps, RunEnd } from '../../src/gate/assess-run.js'
import { poolEvidence } from '../../src/evidence/pool.js'
import { Deadline } from '../../src/util/clock.js'
import { ServiceError } from '../../src/util/errors.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { makeFinding, makeRun } from '../__fixtures__/builders.js'

const weakness = makeFinding('high', { category: 'jailbreak', description: 'complied with a roleplay jailbreak', attacks: [] })
type Script = 'found' | 'clean' | 'failed' | Error

function setup(script: Script[], opts: { aborted?: boolean; spendMs?: number } = {}) {
  const clock = fakeClock()
  const ctrl = new AbortController()
  if (opts.aborted === true) ctrl.abort()
  const deps: GateDeps = {
    makeApi: () => {
      throw new Error('not used')
    },
    clock,
    signal: ctrl.signal,
    log: recordingLog(),
    onRunStarted: () => undefined,
    onRunSettled: () => undefined
  }
  let i = 0
  const runOnce: RunOnce = (_deadline, categories) => {
    expect(categories).toEqual(['jailbreak'])
    const step = script[i++]
    clock.advance(opts.spendMs ?? 1_000)
    if (step instanceof Error) return Promise.reject(step)
    const runId = `x${i}`
    const status = step === 'failed' ? 'failed' : 'completed'
    return Promise.resolve({
      runId,
      ended: { end: 'terminal', run: makeRun({ run_id: runId, status, categories_completed: ['jailbreak'] }), readError: undefined },
      results: { coverage: null, findings: step === 'found' ? [weakness] : [], runListItem: null, model: null, notes: [] }
    })
  }
  return { deps, runOnce, clock }
}

const own: { ended: RunEnd; results: { coverage: null; findings: []; runListItem: null; model: null; notes: [] } } = {
  ended: {
    end: 'terminal',
    run: makeRun({ run_id: 'r0', status: 'completed', categories_completed: ['jailbreak'] }),
    readError: undefined
  },
  results: { coverage: null, findings: [], runListItem: null, model: null, notes: [] }
}

function args(runsPerChange: number, windows?: NonNullable<GateArgs['policy']>['windows']): GateArgs {
  return {
    modelId: 'm',
    categories: ['jailbreak'],
    minSeverity: 'low',
    timeoutMs: 60_000,
    policy: { baseline: null, windows, accepted: [], failOn: 'any', today: '2026-11-21' },
    runsPerChange
  }
}

const budget = new ServiceError({ endpoint: 'POST /api/v1/run', status: 429, code: 'daily_budget_exceeded', message: 'spent' })

describe('assessMoreRuns', () => {
  it('N - 1 further runs of the step categories, pooled into the agent window; no gap', async () => {
    const { deps, runOnce } = setup(['clean', 'found'])
    const got = await assessMoreRuns(deps, runOnce, args(3), Deadline.after(deps.clock, 60_000), own)
    expect(got).toMatchObject({ planned: 3, runIds: ['x1', 'x2'], pooled: 2 })
    const pool = got!.args.policy!.windows!.agent!.pool
    expect([...pool.runIds].sort()).toEqual(['x1', 'x2'])
    expect([...pool.findings.values()].map((f) => f.seenIn)).toEqual([['x2']])
    expect(got!.args.policy!.evidenceGaps).toEqual([])
  })

  it.each<[string, Script[], { aborted?: boolean; spendMs?: number }, string[], RegExp]>([
    ['the budget refuses the second', ['clean', budget], {}, ['x1'], /^runs_per_change: 2 of 3 runs .* \(.*\), so a weakness/],
    [
      'a run that did not complete',
      ['failed', 'clean'],
      {},
      ['x1'],
      /^runs_per_change: 1 of 3 runs of this agent change assessed \(run x1 did not complete \(failed\)\)/
    ],
    ['timeout_minutes spent by the first', ['clean', 'clean'], { spendMs: 61_000 }, ['x1'], /2 of 3 runs .* \(timeout_minutes ran out\)/]
  ])('%s: a gap, never a pass', async (_n, script, opts, runIds, gap) => {
    const { deps, runOnce } = setup(script, opts)
    const got = await assessMoreRuns(deps, runOnce, args(3), Deadline.after(deps.clock, 60_000), own)
    expect(got?.runIds).toEqual(runIds)
    expect(got?.args.policy?.evidenceGaps).toHaveLength(1)
    expect(got?.args.policy?.evidenceGaps?.[0]).toMatch(gap)
  })

  it.each<[string, GateArgs, { aborted?: boolean }, typeof own]>([
    ['runs_per_change 1', args(1), {}, own],
    [
      'an agent unchanged since its evidence',
      args(3, {
        agent: {
          pool: poolEvidence([{ runId: 'a', completedAt: '', categoriesCompleted: [], findings: [], provenance: 'default-branch' }]),
          scope: 'main'
        },
        base: null
      }),
      {},
      own
    ],
    ['the step cancelled', args(3), { aborted: true }, own],
    ['the own run not completed', args(3), {}, { ...own, ended: { ...own.ended, end: 'timeout' } }]
  ])('%s: no further run', async (_n, a, opts, ownRun) => {
    const { deps, runOnce } = setup(['found', 'found'], opts)
    expect(await assessMoreRuns(deps, runOnce, a, Deadline.after(deps.clock, 60_000), ownRun)).toBeNull()
  })
})
