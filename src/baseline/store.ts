/**
 * Where baselines are kept, behind one interface so the gate is tested
 * without GitHub, and the real store: GitHub's Actions cache through
 * @actions/cache (loaded only when a baseline is read or saved: it brings the
 * Azure storage SDK). See docs/baseline.md for why the cache.
 *
 * Scoping is GitHub's: a cache saved by a run on the default branch can be
 * restored by every branch and pull request of the repository; a cache saved
 * by a pull request only by that pull request. The gate saves only on the
 * default branch, and restores by prefix (newest first).
 */
import { mkdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Log } from '../util/log.js'
import { parseBaseline, type Baseline } from './baseline.js'

export type LoadResult = { baseline: Baseline; where: string } | { baseline: null; why: string }

export interface BaselineStore {
  load(modelId: string): Promise<LoadResult>
  save(baseline: Baseline): Promise<{ saved: boolean; where: string }>
}

/** The part of @actions/cache used here. */
export interface CacheModule {
  isFeatureAvailable(): boolean
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>
  saveCache(paths: string[], key: string): Promise<number>
}

export const CACHE_KEY_PREFIX = 'asas-gate-baseline-v1'

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100)
}

/** The file cached (relative to the working directory, which is the workspace on a runner: the cache version hashes this path). */
export function baselineFile(modelId: string): string {
  return join('.asas-gate-baseline', `${safe(modelId)}.json`)
}

/** Keys: one per saving run (cache entries are immutable), restored by the model's prefix. */
export function cacheKeys(modelId: string, env: NodeJS.ProcessEnv): { key: string; restorePrefix: string } {
  const restorePrefix = `${CACHE_KEY_PREFIX}-${safe(modelId)}-`
  return { key: `${restorePrefix}${safe(env.GITHUB_RUN_ID ?? 'local')}-${safe(env.GITHUB_RUN_ATTEMPT ?? '1')}`, restorePrefix }
}

/**
 * Whether the runner offers a cache service at all (what @actions/cache's
 * isFeatureAvailable reads), checked before loading the package.
 */
export function cacheServiceConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.ACTIONS_CACHE_URL) || Boolean(env.ACTIONS_RESULTS_URL)
}

const UNAVAILABLE: CacheModule = {
  isFeatureAvailable: () => false,
  restoreCache: () => Promise.resolve(undefined),
  saveCache: () => Promise.resolve(-1)
}

export function actionsCacheStore(deps: {
  env: NodeJS.ProcessEnv
  log: Log
  cwd?: string
  loadCache?: () => Promise<CacheModule>
}): BaselineStore {
  const cwd = deps.cwd ?? process.cwd()
  // The package (and the Azure SDK it brings) is loaded only when a cache service is there to talk to.
  const load = deps.loadCache ?? (async () => (cacheServiceConfigured(deps.env) ? await import('@actions/cache') : UNAVAILABLE))
  /** The file is only a vehicle: never leave it in the workspace (a later step could commit it). */
  const cleanUp = async (file: string): Promise<void> => {
    await rm(join(cwd, file), { force: true })
    await rmdir(join(cwd, dirname(file))).catch(() => undefined)
  }
  return {
    async load(modelId) {
      const cache = await load()
      if (!cache.isFeatureAvailable())
        return {
          baseline: null,
          why: 'the Actions cache service is not available to this job (ACTIONS_CACHE_URL / ACTIONS_RESULTS_URL unset)'
        }
      const file = baselineFile(modelId)
      const { restorePrefix } = cacheKeys(modelId, deps.env)
      await rm(join(cwd, file), { force: true })
      let hit: string | undefined
      try {
        hit = await cache.restoreCache([file], restorePrefix, [restorePrefix])
      } catch (err) {
        return { baseline: null, why: `the Actions cache could not be read: ${err instanceof Error ? err.message : String(err)}` }
      }
      if (hit === undefined) return { baseline: null, why: 'no baseline saved by the default branch yet (no cache entry)' }
      let text: string
      try {
        text = await readFile(join(cwd, file), 'utf8')
      } catch {
        return { baseline: null, why: `the cache entry ${hit} holds no baseline file` }
      } finally {
        await cleanUp(file)
      }
      const parsed = parseBaseline(text)
      if ('error' in parsed) return { baseline: null, why: `cache entry ${hit}: ${parsed.error}` }
      if (parsed.baseline.model_id !== modelId) return { baseline: null, why: `cache entry ${hit} holds the baseline of another model` }
      return { baseline: parsed.baseline, where: `Actions cache entry ${hit}` }
    },
    async save(baseline) {
      const cache = await load()
      if (!cache.isFeatureAvailable()) {
        deps.log.warning('The baseline was not saved: the Actions cache service is not available to this job.')
        return { saved: false, where: '' }
      }
      const file = baselineFile(baseline.model_id)
      await mkdir(dirname(join(cwd, file)), { recursive: true })
      await writeFile(join(cwd, file), JSON.stringify(baseline), 'utf8')
      const { key } = cacheKeys(baseline.model_id, deps.env)
      try {
        const id = await cache.saveCache([file], key)
        return { saved: id !== -1, where: `Actions cache entry ${key}` }
      } catch (err) {
        deps.log.warning(`The baseline was not saved to the Actions cache: ${err instanceof Error ? err.message : String(err)}`)
        return { saved: false, where: '' }
      } finally {
        await cleanUp(file)
      }
    }
  }
}
