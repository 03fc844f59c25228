/**
 * Where a gate's baseline comes from, and what is trusted of it: a named run
 * (baseline_run_id) only when it is a completed run of this model, its
 * findings read from the service; a stored baseline only to name its run; a
 * store that fails is no baseline (said, and warned), never a crash and never
 * a baseline.
 */
import { describe, expect, it } from '@jest/globals'
import { baselineFromRun, loadBaseline } from '../../src/baseline/load-baseline.js'
import { buildBaseline } from '../../src/baseline/baseline.js'
import type { BaselineStore } from '../../src/baseline/store.js'
import type { RunStatusResponse } from '../../src/service/contract/index.js'
import { ConfigError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const open = makeFinding('high', { category: 'jailbreak', status: 'open', attacks: [] })
const fixed = makeFinding('critical', { category: 'jailbreak', status: 'fixed', attacks: [] })

function api(run: Partial<RunStatusResponse>) {
  return fakeApi({
    getRun: () => Promise.resolve(makeRun({ status: 'completed', model_id: 'm', ...run })),
    listFindings: () => Promise.resolve({ findings: [open, fixed], count: 2 })
  })
}

const noStore: BaselineStore = {
  load: () => Promise.reject(new Error('the store is not asked when baseline_run_id is given')),
  save: () => Promise.reject(new Error('not here'))
}

describe('baseline_run_id', () => {
  it('a completed run of this model is the baseline: its open findings as the service lists them', async () => {
    const a = api({ completed_at: '2026-11-20T10:00:00Z', categories_completed: ['jailbreak', 'jailbreak'] })
    const got = await loadBaseline({ api: () => a, store: noStore, log: recordingLog() }, { modelId: 'm', baselineRunId: 'run_7' })
    expect(got.source).toBe('run run_7 (baseline_run_id)')
    expect(got.why).toBeNull()
    expect(got.baseline).toEqual(
      buildBaseline({
        modelId: 'm',
        runId: 'run_7',
        createdAt: '2026-11-20T10:00:00Z',
        commit: null,
        categoriesCompleted: ['jailbreak'],
        findings: [open]
      })
    )
    expect(a.calls).toEqual(['getRun', 'listFindings'])
  })

  it('a run without completed_at is dated with nothing', async () => {
    const got = await baselineFromRun(api({ completed_at: null }), 'm', 'run_7')
    expect('baseline' in got && got.baseline.created_at).toBe('')
  })

  it.each<[string, Partial<RunStatusResponse>, string]>([
    ['still running', { status: 'running' }, 'run run_7 is running, not completed: name a completed run of this model'],
    ['of another model', { model_id: 'other' }, 'run run_7 is a run of another model (other): name a completed run of this model']
  ])('a run %s is a configuration error naming the input', async (_name, run, message) => {
    const err = await loadBaseline(
      { api: () => api(run), store: noStore, log: recordingLog() },
      { modelId: 'm', baselineRunId: 'run_7' }
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('baseline_run_id')
    expect((err as ConfigError).message).toContain(message)
  })
})

describe('the stored baseline', () => {
  it('a store that fails is no baseline: the reason is said and warned', async () => {
    const log = recordingLog()
    const failing: BaselineStore = {
      load: () => Promise.reject(new Error('cache service down')),
      save: () => Promise.reject(new Error('no'))
    }
    const a = api({})
    const got = await loadBaseline({ api: () => a, store: failing, log }, { modelId: 'm', baselineRunId: '' })
    expect(got.baseline).toBeNull()
    expect(got.source).toBeNull()
    expect(got.why).toMatch(/^the baseline could not be read: .*cache service down/)
    expect(log.lines.filter((l) => l.level === 'warning').map((l) => l.line)).toEqual([
      expect.stringMatching(/^The baseline could not be read: .*cache service down/)
    ])
    expect(a.calls).toEqual([])
  })

  it('a store with no baseline says why, and nothing is read from the service', async () => {
    const a = api({})
    const empty: BaselineStore = {
      load: () => Promise.resolve({ baseline: null, why: 'no cache entry' }),
      save: () => Promise.reject(new Error('no'))
    }
    const got = await loadBaseline({ api: () => a, store: empty, log: recordingLog() }, { modelId: 'm', baselineRunId: '' })
    expect(got).toEqual({ baseline: null, source: null, why: 'no cache entry' })
    expect(a.calls).toEqual([])
  })

  it('a stored baseline keeps its commit; the rest is the service run read again', async () => {
    const stored = buildBaseline({
      modelId: 'm',
      runId: 'run_3',
      createdAt: 'x',
      commit: 'abc1234',
      categoriesCompleted: [],
      findings: [fixed]
    })
    const store: BaselineStore = {
      load: () => Promise.resolve({ baseline: stored, where: 'cache entry k' }),
      save: () => Promise.reject(new Error('no'))
    }
    const got = await loadBaseline(
      { api: () => api({ completed_at: '2026-11-20T10:00:00Z' }), store, log: recordingLog() },
      { modelId: 'm', baselineRunId: '' }
    )
    expect(got.source).toBe('cache entry k, its run re-read from the service')
    expect(got.why).toBeNull()
    expect(got.baseline?.commit).toBe('abc1234')
    expect(got.baseline?.created_at).toBe('2026-11-20T10:00:00Z')
    expect(got.baseline?.findings.map((f) => f.severity)).toEqual(['high'])
  })

  it('a stored baseline naming a run that is not trusted: none, and why', async () => {
    const stored = buildBaseline({ modelId: 'm', runId: 'run_3', createdAt: 'x', commit: null, categoriesCompleted: [], findings: [] })
    const store: BaselineStore = {
      load: () => Promise.resolve({ baseline: stored, where: 'cache entry k' }),
      save: () => Promise.reject(new Error('no'))
    }
    const got = await loadBaseline(
      { api: () => api({ status: 'failed' }), store, log: recordingLog() },
      { modelId: 'm', baselineRunId: '' }
    )
    expect(got).toEqual({ baseline: null, source: null, why: 'the cached baseline names run run_3 is failed, not completed: not trusted' })
  })
})
