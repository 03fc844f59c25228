/**
 * A baseline a pull request wrote: GitHub restores a pull request's own cache
 * entries before its base branch's, and code the pull request runs can save
 * one. An entry saved under the pull request's ref, naming its own earlier run
 * (completed, of the same model, already holding its new weakness), must never
 * become the baseline: only entries the caches API lists on the default branch
 * name runs the gate trusts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionsCacheStore } from '../../src/evidence/record-store.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { loadBaseline } from '../../src/evidence/load-evidence.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { startCacheStandin, type CacheStandin } from '../__fixtures__/cache-standin.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun } from '../__fixtures__/builders.js'

const AGENT = 'model:mdl_1'
const weakness = makeFinding('critical', { category: 'prompt_injection', description: 'the PR added a shell tool', attacks: [] })

describe('a cache entry a pull request saved', () => {
  let cache: CacheStandin
  const saved: Record<string, string | undefined> = {}
  const VARS = [
    'ACTIONS_CACHE_URL',
    'ACTIONS_RUNTIME_TOKEN',
    'ACTIONS_CACHE_SERVICE_V2',
    'ACTIONS_RESULTS_URL',
    'GITHUB_SERVER_URL',
    'GITHUB_WORKSPACE'
  ]
  const startDir = process.cwd()
  const dirs: string[] = []
  beforeAll(async () => {
    cache = await startCacheStandin()
    for (const v of VARS) saved[v] = process.env[v]
  })
  afterAll(async () => {
    for (const v of VARS) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- an environment variable is unset only by deleting its key
      if (saved[v] === undefined) delete process.env[v]
      else process.env[v] = saved[v]
    }
    process.chdir(startDir)
    await cache.stop()
  })
  function job(ref: string, base: string | undefined, runId: string) {
    const dir = mkdtempSync(join(tmpdir(), 'asas-cache-'))
    dirs.push(dir)
    process.env.ACTIONS_CACHE_URL = cache.url
    process.env.ACTIONS_RUNTIME_TOKEN = cache.token(ref, base)
    process.env.GITHUB_SERVER_URL = 'https://github.com'
    process.env.GITHUB_WORKSPACE = dir
    process.chdir(dir)
    delete process.env.ACTIONS_CACHE_SERVICE_V2
    delete process.env.ACTIONS_RESULTS_URL
    return actionsCacheStore({ env: { ...process.env, GITHUB_RUN_ID: runId, GITHUB_RUN_ATTEMPT: '1' }, log: recordingLog() })
  }
  const baselineOf = (runId: string) =>
    buildBaseline({
      modelId: 'mdl_1',
      runId,
      createdAt: '2026-11-23T00:00:00Z',
      commit: 'abc',
      categoriesCompleted: ['prompt_injection'],
      findings: []
    })

  it("is never the baseline, even naming the PR's own completed run of the model", async () => {
    expect((await job('refs/heads/main', undefined, '10').save(baselineOf('run_main'), AGENT, [])).saved).toBe(true)
    // Code the pull request runs saves an entry under its own ref, naming its own earlier run.
    expect((await job('refs/pull/3/merge', 'refs/heads/main', '30').save(baselineOf('run_pr'), AGENT, [])).saved).toBe(true)
    const api = fakeApi({
      getRun: (id: string) =>
        Promise.resolve(makeRun({ run_id: id, status: 'completed', model_id: 'mdl_1', completed_at: new Date().toISOString() })),
      listFindings: (id: string) => Promise.resolve(id === 'run_pr' ? { findings: [weakness], count: 1 } : { findings: [], count: 0 })
    })
    // GitHub's caches API, over the same entries: each listed with the ref that saved it.
    const github = {
      listCaches: (_r: unknown, q: { keyPrefix: string; ref: string }) =>
        Promise.resolve(
          cache.listCaches({ key: q.keyPrefix, ref: q.ref }).map((e) => ({ key: e.key, ref: e.ref, createdAt: e.created_at }))
        ),
      changedFiles: () => Promise.reject(new Error('not compared'))
    }
    const got = await loadBaseline(
      { api: () => api, github, log: recordingLog(), now: () => Date.now() },
      {
        modelId: 'mdl_1',
        agentKey: AGENT,
        baselineRunId: '',
        repo: { owner: 'o', repo: 'r' },
        defaultBranch: 'main',
        onDefaultBranch: false,
        judgedCommit: null,
        agentPaths: [],
        bounds: { runs: 5, maxAgeDays: 30, now: Date.now() }
      }
    )
    expect(got.windows.base?.runIds).toEqual(['run_main'])
    expect(got.baseline?.findings.map((f) => f.description) ?? []).not.toContain('the PR added a shell tool')
    expect(api.calls.filter((c) => c === 'getRun')).toEqual(['getRun'])
  })
})
