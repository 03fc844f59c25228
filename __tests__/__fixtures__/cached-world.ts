/**
 * A world for end-to-end runs of the bundle that keep records (the runner's
 * Actions cache): the emulator, the GitHub stand-in and a stand-in for the
 * runner's cache service whose entries GitHub's caches API lists, each with
 * the ref that saved it. Pushes and pull-request runs of one repository, run
 * as the runner does (action-runner.ts).
 */
import { expect } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { runAction, type ActionRun } from './action-runner.js'
import { inWorld, type World } from './e2e-world.js'
import { startCacheStandin, type CacheStandin } from './cache-standin.js'
import { stopStarted } from './teardown.js'
import { agentIdentity } from '../../src/pipeline/identity.js'

export const GH_TOKEN = 'ghs_e2e_token_value_456'
export const BASE_SHA = 'b4se5ha0000000000000000000000000000000aa'
export const HEAD_SHA = 'headsha000000000000000000000000000000bbb'
export const REPO = { full_name: 'octo-org/agent-app', default_branch: 'main' }
export const PR_REF = 'refs/pull/7/merge'

/** A world with the runner's cache service too. */
export interface CachedWorld extends World {
  cache: CacheStandin
}

/** Runs `body` in a fresh world with a cache stand-in; with `baseline`, after a default-branch run has saved one. */
export function inCachedWorld(body: (w: CachedWorld) => Promise<void>, opts: { baseline: boolean }): Promise<void> {
  return inWorld(
    async (world) => {
      let cache: CacheStandin | undefined
      try {
        cache = await startCacheStandin()
        const c = cache
        // GitHub's caches API lists the same entries, each with the ref that saved it.
        world.gh.setActionsCaches((q) => c.listCaches(q))
        const w = { ...world, cache }
        if (opts.baseline) expect((await defaultBranchRun(w)).main.stdout).toMatch(/Baseline of run \S+ saved/)
        await body(w)
      } finally {
        await stopStarted(cache)
      }
    },
    { categoryDurationMs: 40, attacksPerCategory: 2 }
  )
}

export function inputs(w: CachedWorld, extra: Record<string, string> = {}): Record<string, string> {
  return { model_id: w.emu.demoModelId, api_key: w.emu.keys.full, base_url: w.emu.url, min_severity: 'medium', fail_on: 'new', ...extra }
}

/** A push to `ref` (fail_on any unless `extra` says otherwise) at `at.sha`, as run `at.runId`. */
export function pushRun(
  w: CachedWorld,
  ref: string,
  at: { sha: string; runId: string; killAfterMs?: number },
  extra: Record<string, string> = {},
  files: Record<string, string> = {}
): Promise<ActionRun> {
  return runAction({
    inputs: inputs(w, { fail_on: 'any', ...extra }),
    githubToken: GH_TOKEN,
    eventName: 'push',
    eventPayload: { ref, repository: REPO },
    env: {
      GITHUB_API_URL: w.gh.url,
      GITHUB_REF: ref,
      GITHUB_SHA: at.sha,
      GITHUB_RUN_ID: at.runId,
      ACTIONS_CACHE_URL: w.cache.url,
      ACTIONS_RUNTIME_TOKEN: w.cache.token(ref)
    },
    workspace: { files },
    killAfterMs: at.killAfterMs ?? 60_000
  })
}

/** A push to main: at BASE_SHA (run 100) unless `at` names another commit (without agent_paths, another agent). */
export function defaultBranchRun(
  w: CachedWorld,
  files: Record<string, string> = {},
  extra: Record<string, string> = {},
  at: { sha: string; runId: string; killAfterMs?: number } = { sha: BASE_SHA, runId: '100' }
): Promise<ActionRun> {
  return pushRun(w, 'refs/heads/main', at, extra, files)
}

/** A run of pull request 7 (head HEAD_SHA, base main at BASE_SHA), fail_on new unless `extra` says otherwise. */
export function prRun(
  w: CachedWorld,
  files: Record<string, string> = {},
  extra: Record<string, string> = {},
  killAfterMs = 60_000
): Promise<ActionRun> {
  return runAction({
    inputs: inputs(w, extra),
    githubToken: GH_TOKEN,
    eventName: 'pull_request',
    eventPayload: {
      number: 7,
      pull_request: { number: 7, base: { ref: 'main', sha: BASE_SHA }, head: { sha: HEAD_SHA } },
      repository: REPO
    },
    env: {
      GITHUB_API_URL: w.gh.url,
      GITHUB_REF: PR_REF,
      GITHUB_SHA: HEAD_SHA,
      GITHUB_RUN_ID: '200',
      ACTIONS_CACHE_URL: w.cache.url,
      ACTIONS_RUNTIME_TOKEN: w.cache.token(PR_REF, 'refs/heads/main')
    },
    workspace: { files },
    killAfterMs
  })
}

export interface ReportJson {
  result: string
  reason: string
  headline: string
  findings: {
    category: string
    baseline: string | null
    fingerprint: string
    accepted: { reason_code: string; owner: string } | null
    seen: { label: string } | null
  }[]
  baseline: { available: boolean; new_count: number; known_count: number; saved: string | null; why: string | null }
  accepted_risks: { stale: { category: string }[]; expired: { category: string }[]; pr_adds: { category: string }[] } | null
  run: { run_id: string }
  detection: string
  confirmation: { lines: string[]; run_ids: string[] } | null
  assessments_spent: number | null
}
export const reportOf = (r: ActionRun): ReportJson => JSON.parse(readFileSync(r.main.outputs.report_path, 'utf8')) as ReportJson
export const comment = (w: World): string => [...w.gh.state.comments.values()].flat().at(-1)?.body ?? ''
export const states = (rep: ReportJson): Record<string, string | null> =>
  Object.fromEntries(rep.findings.map((f) => [f.category, f.baseline]))

/** The identity the records are keyed on (the model's, as the gate derives it). */
export const agentKey = (w: CachedWorld): string =>
  agentIdentity({ kind: 'model', modelId: w.emu.demoModelId }, { repository: REPO.full_name, prNumber: null, ref: 'main', site: null }).key
