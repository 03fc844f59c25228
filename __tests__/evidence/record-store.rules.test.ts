/**
 * The rules of the Actions cache store, one row per rule: the file cached
 * stays inside its own folder of the working directory whatever the model id
 * holds, it is the baseline and is never left behind; a record is saved only
 * when the cache service takes it; every other outcome says why, and no
 * failure fails the step.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { actionsCacheStore, baselineFile, cacheServiceConfigured, type CacheModule } from '../../src/evidence/record-store.js'
import { evidenceKey } from '../../src/evidence/records.js'
import { makeFinding } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const AGENT = 'model:m'
const baseline = (runId = 'run_1', modelId = 'm') =>
  buildBaseline({ modelId, runId, createdAt: '', commit: 'abc1234', categoriesCompleted: ['a'], findings: [makeFinding('high')] })

describe('baselineFile: one folder, one file, whatever the model id holds', () => {
  it.each<[string, string, string]>([
    ['a plain id', 'mdl_1.v-2', join('.asas-gate-baseline', 'mdl_1.v-2.json')],
    ['path separators and other marks become _', '../x/y\\z:w *', join('.asas-gate-baseline', '.._x_y_z_w__.json')],
    ['a long id is cut to 100 characters', 'm'.repeat(150), join('.asas-gate-baseline', `${'m'.repeat(100)}.json`)]
  ])('%s', (_rule, modelId, file) => {
    expect(baselineFile(modelId)).toBe(file)
  })
})

describe('cacheServiceConfigured: either of the runner variables names a cache service', () => {
  it.each<[NodeJS.ProcessEnv, boolean]>([
    [{}, false],
    [{ ACTIONS_CACHE_URL: '', ACTIONS_RESULTS_URL: '' }, false],
    [{ ACTIONS_CACHE_URL: 'http://cache/' }, true],
    [{ ACTIONS_RESULTS_URL: 'http://results/' }, true]
  ])('%j: %s', (env, configured) => {
    expect(cacheServiceConfigured(env)).toBe(configured)
  })
})

describe('actionsCacheStore.save', () => {
  const workspace = () => mkdtempSync(join(tmpdir(), 'asas-store-'))
  const module = (over: Partial<CacheModule> = {}): CacheModule => ({
    isFeatureAvailable: () => true,
    restoreCache: () => Promise.reject(new Error('nothing is restored')),
    saveCache: () => Promise.resolve(7),
    ...over
  })

  it('caches the baseline as a file of the working directory given, under the record key, and removes it after', async () => {
    const cwd = workspace()
    const seen: { paths: string[]; key: string; text: string }[] = []
    const save = (paths: string[], key: string) => {
      seen.push({ paths, key, text: readFileSync(join(cwd, paths[0] ?? ''), 'utf8') })
      return Promise.resolve(7)
    }
    const log = recordingLog()
    const store = actionsCacheStore({ env: {}, log, cwd, loadCache: () => Promise.resolve(module({ saveCache: save })) })
    const key = evidenceKey(AGENT, 'run_1', 'abc1234', ['run_0']) ?? ''
    expect(await store.save(baseline(), AGENT, ['run_0'])).toEqual({ saved: true, where: `Actions cache entry ${key}` })
    expect(seen).toEqual([{ paths: [baselineFile('m')], key, text: JSON.stringify(baseline()) }])
    expect(readdirSync(cwd)).toEqual([])
    expect(log.lines).toEqual([])
  })

  it('leaves the folder when it holds something else, and removes only its own file', async () => {
    const cwd = workspace()
    mkdirSync(join(cwd, '.asas-gate-baseline'))
    writeFileSync(join(cwd, '.asas-gate-baseline', 'other.txt'), 'kept')
    const store = actionsCacheStore({ env: {}, log: recordingLog(), cwd, loadCache: () => Promise.resolve(module()) })
    expect((await store.save(baseline(), AGENT, [])).saved).toBe(true)
    expect(readdirSync(join(cwd, '.asas-gate-baseline'))).toEqual(['other.txt'])
  })

  it.each<[string, NodeJS.ProcessEnv, Partial<CacheModule> | null, string, string | null]>([
    [
      'no cache service on the runner: nothing loaded, nothing written',
      {},
      null,
      'run_1',
      'The baseline was not saved: the Actions cache service is not available to this job.'
    ],
    [
      'the module says the service is not available',
      { ACTIONS_CACHE_URL: 'http://cache/' },
      { isFeatureAvailable: () => false },
      'run_1',
      'The baseline was not saved: the Actions cache service is not available to this job.'
    ],
    ['a run id no cache key can carry', {}, {}, 'run/1', 'The run was not recorded: its id cannot be carried by a cache key.'],
    [
      'the save throws an Error',
      {},
      { saveCache: () => Promise.reject(new Error('quota exceeded')) },
      'run_1',
      'The baseline was not saved to the Actions cache: quota exceeded'
    ],
    [
      'the save throws something else',
      {},
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a dependency may throw what is no Error
      { saveCache: () => Promise.reject('reserved by another job') },
      'run_1',
      'The baseline was not saved to the Actions cache: reserved by another job'
    ],
    ['the service takes no entry (id -1)', {}, { saveCache: () => Promise.resolve(-1) }, 'run_1', null]
  ])('%s: not saved, and why', async (_rule, env, over, runId, warning) => {
    const cwd = workspace()
    const log = recordingLog()
    const loadCache = over === null ? undefined : () => Promise.resolve(module(over))
    const store = actionsCacheStore({ env, log, cwd, loadCache })
    const got = await store.save(baseline(runId), AGENT, [])
    expect(got.saved).toBe(false)
    if (warning === null) expect(got.where).toBe(`Actions cache entry ${evidenceKey(AGENT, runId, 'abc1234') ?? ''}`)
    else expect(got).toEqual({ saved: false, where: '' })
    expect(log.lines).toEqual(warning === null ? [] : [{ level: 'warning', line: warning }])
    expect(existsSync(join(cwd, '.asas-gate-baseline'))).toBe(false)
  })
})
