/**
 * The baseline restored from the Actions cache is trusted only to name a run:
 * a pull request can save a cache entry of its own (restored before the base
 * branch's), so the findings are read again from the service.
 */
import { describe, expect, it } from '@jest/globals'
import { loadBaseline } from '../../src/baseline/load-baseline.js'
import { buildBaseline } from '../../src/baseline/baseline.js'
import type { BaselineStore } from '../../src/baseline/store.js'
import type { RunStatusResponse } from '../../src/service/contract/index.js'
import { ConfigError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun, makeRunListItem } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const serviceFinding = makeFinding('high', { category: 'jailbreak', description: 'the real weakness', attacks: [] })
const plantedFinding = makeFinding('critical', { category: 'prompt_injection', description: 'planted by a pull request', attacks: [] })

function storeWith(runId: string): BaselineStore {
  const planted = buildBaseline({
    modelId: 'm',
    runId,
    createdAt: '2026-11-20T00:00:00Z',
    commit: 'abc1234',
    categoriesCompleted: ['prompt_injection', 'jailbreak'],
    findings: [plantedFinding]
  })
  return {
    load: () => Promise.resolve({ baseline: planted, where: 'the Actions cache', why: null }),
    save: () => Promise.reject(new Error('not here'))
  }
}

function api(run: Partial<RunStatusResponse>) {
  return fakeApi({
    getRun: () => Promise.resolve(makeRun({ status: 'completed', model_id: 'm', ...run })),
    listFindings: () => Promise.resolve({ findings: [serviceFinding], count: 1 })
  })
}

describe('loadBaseline', () => {
  it('reads the findings of the cached run again from the service, never the cached fingerprints', async () => {
    const got = await loadBaseline(
      { api: () => api({ model_id: 'm' }), store: storeWith('run_base'), log: recordingLog() },
      { modelId: 'm', baselineRunId: '' }
    )
    expect(got.baseline?.run_id).toBe('run_base')
    expect(got.baseline?.findings.map((f) => f.category)).toEqual(['jailbreak'])
    expect(got.source).toMatch(/re-read from the service/)
  })

  it.each<[string, Partial<RunStatusResponse>, RegExp]>([
    ['a run of another model', { model_id: 'other' }, /another model/],
    ['a run that is still running', { status: 'running' }, /running, not completed/],
    ['a cancelled run', { status: 'cancelled' }, /cancelled, not completed/]
  ])('does not trust a cached baseline naming %s: no baseline, and why', async (_what, run, why) => {
    const got = await loadBaseline(
      { api: () => api(run), store: storeWith('run_x'), log: recordingLog() },
      { modelId: 'm', baselineRunId: '' }
    )
    expect(got.baseline).toBeNull()
    expect(got.why).toMatch(why)
  })

  it('baseline_run_id naming a run of another model is a configuration error naming the input', async () => {
    await expect(
      loadBaseline(
        { api: () => api({ model_id: 'other' }), store: storeWith('run_x'), log: recordingLog() },
        { modelId: 'm', baselineRunId: 'run_x' }
      )
    ).rejects.toThrow(ConfigError)
  })

  describe('when GET /run names no model', () => {
    function unnamed(listed: string[]) {
      const asked: unknown[] = []
      const a = fakeApi({
        getRun: () => Promise.resolve(makeRun({ status: 'completed', model_id: undefined })),
        listRuns: (modelId, query) => {
          asked.push({ modelId, ...query })
          const runs = listed.map((id) => makeRunListItem({ run_id: id, status: 'completed' }))
          return Promise.resolve({ runs, total: runs.length, returned: runs.length })
        },
        listFindings: () => Promise.resolve({ findings: [serviceFinding], count: 1 })
      })
      return { a, asked }
    }

    it('takes a run the model lists among its completed runs (asking for the most the list gives)', async () => {
      const { a, asked } = unnamed(['run_other', 'run_base'])
      const got = await loadBaseline(
        { api: () => a, store: storeWith('run_base'), log: recordingLog() },
        { modelId: 'm', baselineRunId: '' }
      )
      expect(got.baseline?.run_id).toBe('run_base')
      expect(asked).toEqual([{ modelId: 'm', status: 'completed', limit: 100 }])
    })

    it('does not trust a cached run the model does not list', async () => {
      const { a } = unnamed(['run_other'])
      const got = await loadBaseline({ api: () => a, store: storeWith('run_x'), log: recordingLog() }, { modelId: 'm', baselineRunId: '' })
      expect(got.baseline).toBeNull()
      expect(got.why).toMatch(/run_x is not among the 100 most recent completed runs of this model/)
      expect(a.calls).not.toContain('listFindings')
    })

    it('refuses a baseline_run_id the model does not list, naming the input', async () => {
      const { a } = unnamed([])
      const err = await loadBaseline(
        { api: () => a, store: storeWith('run_x'), log: recordingLog() },
        { modelId: 'm', baselineRunId: 'run_x' }
      ).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ConfigError)
      expect((err as ConfigError).input).toBe('baseline_run_id')
    })
  })
})
