/**
 * The Actions cache store: the real @actions/cache against a local stand-in
 * of the runner's cache service (its v1 protocol), and the adapter alone with
 * a fake module for the paths the stand-in cannot show.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionsCacheStore, cacheServiceConfigured, type CacheModule } from '../../src/evidence/record-store.js'
import { evidenceKeyPrefix, parseEvidenceKey } from '../../src/evidence/records.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { startCacheStandin, type CacheStandin } from '../__fixtures__/cache-standin.js'
import { makeFinding } from '../__fixtures__/builders.js'

const baseline = (runId: string, modelId = 'mdl_1') =>
  buildBaseline({
    modelId,
    runId,
    createdAt: '2026-11-23T00:00:00Z',
    commit: 'abc1234',
    categoriesCompleted: ['prompt_injection'],
    findings: [makeFinding('high')]
  })

describe('actionsCacheStore with @actions/cache and a cache stand-in', () => {
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
  beforeAll(async () => {
    cache = await startCacheStandin()
    for (const v of VARS) saved[v] = process.env[v]
  })
  afterAll(async () => {
    for (const v of VARS) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- an environment variable is unset only by deleting its key (assigning undefined stores 'undefined')
      if (saved[v] === undefined) delete process.env[v]
      else process.env[v] = saved[v]
    }
    process.chdir(startDir)
    await cache.stop()
  })
  // @actions/cache reads process.env and resolves paths from the working directory
  // (the workspace on a runner): each "job" sets its own.
  function job(ref: string, base?: string, runId = '1') {
    const dir = mkdtempSync(join(tmpdir(), 'asas-cache-'))
    process.env.ACTIONS_CACHE_URL = cache.url
    process.env.ACTIONS_RUNTIME_TOKEN = cache.token(ref, base)
    process.env.GITHUB_SERVER_URL = 'https://github.com'
    process.env.GITHUB_WORKSPACE = dir
    process.chdir(dir)
    delete process.env.ACTIONS_CACHE_SERVICE_V2
    delete process.env.ACTIONS_RESULTS_URL
    return actionsCacheStore({ env: { ...process.env, GITHUB_RUN_ID: runId, GITHUB_RUN_ATTEMPT: '1' }, log: recordingLog() })
  }

  const AGENT = 'model:mdl_1'

  it('records a run on the ref that saved it, and the caches API lists it there with the run and its holders in its key', async () => {
    expect((await job('refs/heads/main', undefined, '10').save(baseline('run_a'), AGENT, [])).saved).toBe(true)
    expect((await job('refs/heads/main', undefined, '11').save(baseline('run_b'), AGENT, ['run_a', 'run-0'])).saved).toBe(true)
    const listed = cache.listCaches({ key: evidenceKeyPrefix(AGENT), ref: 'refs/heads/main' })
    expect(listed.map((e) => parseEvidenceKey(e.key, AGENT))).toEqual([
      { runId: 'run_b', commit: 'abc1234', holders: ['run_a', 'run-0'], sameAgentHolders: [], presumedHolders: [] },
      { runId: 'run_a', commit: 'abc1234', holders: [], sameAgentHolders: [], presumedHolders: [] }
    ])
    // The file was only a vehicle: nothing is left in the workspace.
    expect(readdirSync(process.cwd())).toEqual([])
  })

  it("lists a pull request's own entry under its own ref, never the default branch's", async () => {
    expect((await job('refs/pull/4/merge', 'refs/heads/main', '20').save(baseline('run_pr4'), AGENT, [])).saved).toBe(true)
    const onMain = cache.listCaches({ key: evidenceKeyPrefix(AGENT), ref: 'refs/heads/main' }).map((e) => e.key)
    expect(onMain.some((k) => k.endsWith('-run_pr4'))).toBe(false)
    expect(cache.listCaches({ key: evidenceKeyPrefix(AGENT), ref: 'refs/pull/4/merge' })).toHaveLength(1)
  })
})

describe('actionsCacheStore with a fake module', () => {
  let calls: string[]
  const fake =
    (over: Partial<CacheModule> = {}): (() => Promise<CacheModule>) =>
    async () => ({
      isFeatureAvailable: () => true,
      restoreCache: async (_p, key, restore) => {
        calls.push(`restore ${key} ${restore?.join(',')}`)
        return undefined
      },
      saveCache: async (_p, key) => {
        calls.push(`save ${key}`)
        return 1
      },
      ...over
    })
  beforeEach(() => {
    calls = []
  })
  const cwd = () => mkdtempSync(join(tmpdir(), 'asas-cache-'))

  it('keys a save by the agent, the commit and the run, and restores nothing', async () => {
    const store = actionsCacheStore({ env: {}, log: recordingLog(), cwd: cwd(), loadCache: fake() })
    await store.save(baseline('r'), 'model:mdl_1', [])
    expect(calls).toEqual([`save ${evidenceKeyPrefix('model:mdl_1')}abc1234-r`])
  })

  it('records nothing for a run id a key cannot carry', async () => {
    const store = actionsCacheStore({ env: {}, log: recordingLog(), cwd: cwd(), loadCache: fake() })
    expect(await store.save(baseline('run/with,comma'), 'model:mdl_1', [])).toEqual({ saved: false, where: '' })
    expect(calls).toEqual([])
  })

  it('does not load @actions/cache when the runner offers no cache service', async () => {
    const store = actionsCacheStore({ env: {}, log: recordingLog(), cwd: cwd() })
    expect(await store.save(baseline('r'), 'model:mdl_1', [])).toEqual({ saved: false, where: '' })
    expect(cacheServiceConfigured({ ACTIONS_CACHE_URL: 'http://x/' })).toBe(true)
  })

  it('does not fail the step when the save throws', async () => {
    const log = recordingLog()
    const store = actionsCacheStore({
      env: {},
      log,
      cwd: cwd(),
      loadCache: fake({ saveCache: async () => Promise.reject(new Error('quota')) })
    })
    expect(await store.save(baseline('r'), 'model:mdl_1', [])).toEqual({ saved: false, where: '' })
  })
})
