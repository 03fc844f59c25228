/**
 * Where the default branch records its runs, behind one interface so the gate
 * is tested without GitHub, and the real store: GitHub's Actions cache through
 * @actions/cache (loaded only when a record is saved: it brings the Azure
 * storage SDK). See docs/baseline.md for why the cache.
 *
 * The key is the record: it names the run (and the commit it assessed), see
 * src/evidence/records.ts. Nothing is restored: a pull request can save an
 * entry of any key under its own ref, which GitHub restores before its base
 * branch's. Records are read from GitHub's caches API, which lists each entry
 * with the ref that saved it (src/github/actions-caches.ts).
 */
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Log } from '../util/log.js'
import type { Baseline } from './baseline.js'
import { evidenceKey } from './records.js'

export interface BaselineStore {
  /**
   * Save the record of a run of the agent `agentKey`, naming the earlier runs
   * that hold findings still open it did not reproduce (see recordHolders;
   * the baseline file rides along, for people; it is never read back).
   */
  save(baseline: Baseline, agentKey: string, holders: readonly string[]): Promise<{ saved: boolean; where: string }>
}

/** The part of @actions/cache used here. */
export interface CacheModule {
  isFeatureAvailable(): boolean
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>
  saveCache(paths: string[], key: string): Promise<number>
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100)
}

/** The file cached (relative to the working directory, which is the workspace on a runner: the cache version hashes this path). */
export function baselineFile(modelId: string): string {
  return join('.asas-gate-baseline', `${safe(modelId)}.json`)
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
    async save(baseline, agentKey, holders) {
      const cache = await load()
      if (!cache.isFeatureAvailable()) {
        deps.log.warning('The baseline was not saved: the Actions cache service is not available to this job.')
        return { saved: false, where: '' }
      }
      const key = evidenceKey(agentKey, baseline.run_id, baseline.commit, holders)
      if (key === null) {
        deps.log.warning(`The run was not recorded: its id cannot be carried by a cache key.`)
        return { saved: false, where: '' }
      }
      const file = baselineFile(baseline.model_id)
      await mkdir(dirname(join(cwd, file)), { recursive: true })
      await writeFile(join(cwd, file), JSON.stringify(baseline), 'utf8')
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
