/**
 * Reading the evidence a gate run is held against, before the run: a named
 * run of the service (baseline_run_id), else the default branch's window,
 * the runs its records name (see src/evidence/records.ts for which records
 * are trusted), each read again from the service. No window is not a
 * failure: the gate says why and runs as with fail_on any (stricter).
 */
import type { ActionsCachesApi } from '../github/actions-caches.js'
import type { CompareApi } from '../github/compare.js'
import type { RepoRef } from '../github/transport.js'
import { agentFilesAmong } from '../pipeline/changed-paths.js'
import type { Log } from '../util/log.js'
import { ConfigError, describeFailure } from '../util/errors.js'
import { plural } from '../util/text.js'
import type { EvidenceWindows } from '../evidence/judge-evidence.js'
import { holdsOpenFinding, poolEvidence, type EvidencePool, type RunEvidence } from '../evidence/pool.js'
import { readRunEvidence, runReads, type RunReader, type RunReads } from '../evidence/read-runs.js'
import { branchRef, defaultBranchRecords, evidenceKeyPrefix, MAX_HOLDERS, recordsOnRef, type EvidenceRecord } from '../evidence/records.js'
import { commitsToCompare, holdersToRead, recordsToRead, sameAgentRecords, withinAge, type WindowBounds } from '../evidence/window.js'
import { BASELINE_SCHEMA_VERSION, type Baseline } from './baseline.js'

/** What reading the window cost: requests, never assessments. */
export interface WindowCost {
  /** Requests to the service (GET /run, GET /run/{id}/findings, at most one GET /model/{id}/run). */
  serviceRequests: number
  /** Requests to GitHub (the caches list, comparisons). */
  githubRequests: number
  /** Runs read and trusted, holders included. */
  runsRead: number
  /** Of them, holders: runs beyond the last K that hold findings still open. */
  holdersRead: number
  ms: number
}

export interface LoadedBaseline {
  /** The base window as a baseline (its open findings): what fail_on new compares with; null without one. */
  baseline: Baseline | null
  /** Where it came from. */
  source: string | null
  /** Why there is none. */
  why: string | null
  windows: EvidenceWindows
  cost: WindowCost
  /** Runs or records left out, and why. */
  notes: string[]
}

export interface EvidenceDeps {
  api: () => RunReader
  /** GitHub's caches list and comparisons; null when github_token is empty. */
  github: (ActionsCachesApi & CompareApi) | null
  log: Log
  now: () => number
}

export interface EvidenceArgs {
  modelId: string
  /** The identity of "the same agent" (records are keyed on it). */
  agentKey: string
  baselineRunId: string
  repo: RepoRef | null
  defaultBranch: string | null
  /** This run is on the default branch: main's window is this agent's too. */
  onDefaultBranch: boolean
  /** The commit main's agent is judged at (GITHUB_SHA on the default branch, the base SHA on a pull request). */
  judgedCommit: string | null
  agentPaths: readonly string[]
  bounds: WindowBounds
  /** A pull request's own ref and head: its own recorded runs are its agent's window; null elsewhere. */
  own?: { ref: string; head: string | null } | null
}

const NO_WINDOWS: EvidenceWindows = { agent: null, base: null }

export async function loadBaseline(deps: EvidenceDeps, args: EvidenceArgs): Promise<LoadedBaseline> {
  const started = deps.now()
  const cost: WindowCost = { serviceRequests: 0, githubRequests: 0, runsRead: 0, holdersRead: 0, ms: 0 }
  const done = (l: Omit<LoadedBaseline, 'cost'>): LoadedBaseline => ({ ...l, cost: { ...cost, ms: deps.now() - started } })
  if (args.baselineRunId !== '') {
    const reads = runReads(deps.api(), args.modelId)
    const read = await readRunEvidence(reads, args.baselineRunId)
    cost.serviceRequests = reads.requests
    if ('problem' in read) throw new ConfigError('baseline_run_id', `${read.problem}: name a completed run of this model`)
    cost.runsRead = 1
    const pool = poolEvidence([read.run])
    return done({
      baseline: baselineOfPool(pool, args.modelId, null),
      source: `run ${args.baselineRunId} (baseline_run_id)`,
      why: null,
      windows: { agent: null, base: pool },
      notes: []
    })
  }
  try {
    const main = await loadWindow(deps, args, cost)
    const own = await loadOwnWindow(deps, args, cost, main.notes)
    return done(own === null ? main : { ...main, windows: { ...main.windows, agent: { pool: own, scope: 'agent' } } })
  } catch (err) {
    deps.log.warning(`The baseline could not be read: ${describeFailure(err)}`)
    return done({
      baseline: null,
      source: null,
      why: `the baseline could not be read: ${describeFailure(err)}`,
      windows: NO_WINDOWS,
      notes: []
    })
  }
}

/** The default branch's records, the same agent's, read again from the service and pooled. */
async function loadWindow(deps: EvidenceDeps, args: EvidenceArgs, cost: WindowCost): Promise<Omit<LoadedBaseline, 'cost'>> {
  const none = (why: string, notes: string[] = []) => ({ baseline: null, source: null, why, windows: NO_WINDOWS, notes })
  if (deps.github === null || args.repo === null || args.defaultBranch === null)
    return none(
      deps.github === null
        ? "github_token is empty, so the default branch's records (the Actions caches API) cannot be listed"
        : 'the repository or its default branch is unknown to this event, so no record can be tied to the default branch'
    )
  const ref = branchRef(args.defaultBranch)
  cost.githubRequests++
  const listed = await deps.github.listCaches(args.repo, { keyPrefix: evidenceKeyPrefix(args.agentKey), ref })
  const { records, refused } = defaultBranchRecords(listed, args.agentKey, args.defaultBranch)
  const notes = refused > 0 ? [`${plural(refused, 'record')} not saved on ${ref} not trusted.`] : []
  // On the default branch this run is the newest of its window: K - 1 earlier runs (at least one for fail_on new).
  const limit = args.onDefaultBranch ? Math.max(args.bounds.runs - 1, 1) : args.bounds.runs
  const candidates = await sameAgent(deps, args, recordsToRead(records, limit, args.bounds), limit, cost, notes)
  if (candidates.length === 0)
    return none(
      records.length === 0
        ? 'no run recorded by the default branch yet (no cache entry listed on it)'
        : 'no recorded run of the default branch is within the window',
      notes
    )
  const runs = await readRuns(deps, args, candidates, cost, notes)
  if (runs.length === 0)
    return none(`none of the ${plural(candidates.length, 'recorded run')} of the default branch could be trusted`, notes)
  // Holders are named by records the default branch saved, so they are trusted as those records are.
  const held = await readHolders(deps, args, candidates, cost, notes)
  const base = poolEvidence([...runs, ...held])
  // K = 1: this run alone is its agent's evidence, holders too are main's window only.
  const agentRuns = args.onDefaultBranch && args.bounds.runs > 1 ? [...runs.slice(0, args.bounds.runs - 1), ...held] : []
  return {
    baseline: baselineOfPool(base, args.modelId, candidates[0]?.commit ?? null),
    source: `${plural(runs.length, 'run')} of ${args.defaultBranch}${held.length > 0 ? ` and ${plural(held.length, 'earlier run')} holding findings still open` : ''} (Actions cache records listed on ${ref}), re-read from the service`,
    why: null,
    windows: { agent: agentRuns.length > 0 ? { pool: poolEvidence(agentRuns), scope: 'main' } : null, base },
    notes
  }
}

/**
 * A pull request's own window: the runs recorded under its own ref, of the
 * same agent (with agent_paths: no change since; without: the same head
 * commit), the newest K - 1. A pull request can write these records, so they
 * only ever add evidence (each run read again from the service all the same).
 */
async function loadOwnWindow(deps: EvidenceDeps, args: EvidenceArgs, cost: WindowCost, notes: string[]): Promise<EvidencePool | null> {
  const own = args.own
  if (!own || deps.github === null || args.repo === null || args.bounds.runs <= 1 || own.head === null) return null
  cost.githubRequests++
  const listed = await deps.github.listCaches(args.repo, { keyPrefix: evidenceKeyPrefix(args.agentKey), ref: own.ref })
  const records = recordsOnRef(listed, args.agentKey, own.ref)
  const limit = args.bounds.runs - 1
  const recent = recordsToRead(records, limit, args.bounds)
  const same =
    args.agentPaths.length > 0
      ? await sameAgent(deps, { ...args, judgedCommit: own.head }, recent, limit, cost, notes)
      : recent.filter((r) => r.commit === own.head)
  if (same.length === 0) return null
  const runs = await readRuns(deps, args, same, cost, notes)
  if (runs.length === 0) return null
  return poolEvidence([...runs, ...(await readHolders(deps, args, same, cost, notes))])
}

/** The records of the same agent: with agent_paths, up to the first commit the agent changed since; without, every one. */
async function sameAgent(
  deps: EvidenceDeps,
  args: EvidenceArgs,
  records: EvidenceRecord[],
  limit: number,
  cost: WindowCost,
  notes: string[]
): Promise<EvidenceRecord[]> {
  const judged = args.judgedCommit ?? records[0]?.commit ?? null
  if (args.agentPaths.length === 0 || deps.github === null || args.repo === null) return records
  if (judged === null) {
    // No commit to compare with: whether the agent changed since cannot be told, so no record is the same agent's.
    if (records.length > 0)
      notes.push(`${plural(records.length, 'recorded run')} left out: no commit to tell whether agent_paths changed since.`)
    return []
  }
  const changed = new Map<string, boolean>()
  for (const commit of commitsToCompare(records, limit)) {
    if (commit === judged) {
      changed.set(commit, false)
      continue
    }
    cost.githubRequests++
    const files = await deps.github.changedFiles(args.repo, commit, judged)
    const agentChanged = files.kind === 'everything' || agentFilesAmong(args.agentPaths, files.files).length > 0
    changed.set(commit, agentChanged)
    if (agentChanged) break
  }
  const kept = sameAgentRecords(records, changed)
  if (kept.length < records.length)
    notes.push(`${plural(records.length - kept.length, 'recorded run')} of an earlier agent left out (agent_paths changed since).`)
  return kept
}

/** The recorded runs, each read again from the service: completed, of this model, within the age bound (and kept by `keep`). */
async function readRuns(
  deps: EvidenceDeps,
  args: EvidenceArgs,
  records: readonly { runId: string }[],
  cost: WindowCost,
  notes: string[],
  keep: (run: RunEvidence) => boolean = () => true
): Promise<RunEvidence[]> {
  const reads: RunReads = runReads(deps.api(), args.modelId)
  const runs: RunEvidence[] = []
  try {
    for (const r of records) {
      const read = await readRunEvidence(reads, r.runId)
      if ('problem' in read) notes.push(`Recorded ${read.problem}: not trusted.`)
      else if (read.run.completedAt !== '' && !withinAge(read.run.completedAt, args.bounds))
        notes.push(`Recorded run ${r.runId} completed more than ${args.bounds.maxAgeDays} days ago: left out.`)
      else if (keep(read.run)) runs.push(read.run)
    }
  } finally {
    cost.serviceRequests += reads.requests
    cost.runsRead += runs.length
  }
  return runs
}

/**
 * The holders the window's records name beyond its runs (at most MAX_HOLDERS),
 * read like any run of the window; one is kept only while it holds a finding
 * the service has not closed.
 */
async function readHolders(
  deps: EvidenceDeps,
  args: EvidenceArgs,
  records: readonly EvidenceRecord[],
  cost: WindowCost,
  notes: string[]
): Promise<RunEvidence[]> {
  const holders = holdersToRead(
    records,
    records.map((r) => r.runId),
    MAX_HOLDERS
  )
  if (holders.length === 0) return []
  const held = await readRuns(
    deps,
    args,
    holders.map((runId) => ({ runId })),
    cost,
    notes,
    holdsOpenFinding
  )
  cost.holdersRead += held.length
  return held
}

/** The open findings of a window as a baseline (fingerprints as pooled; categories of its newest run). */
export function baselineOfPool(pool: EvidencePool, modelId: string, commit: string | null): Baseline {
  return {
    schema_version: BASELINE_SCHEMA_VERSION,
    model_id: modelId,
    run_id: pool.runIds[0] ?? '',
    created_at: '',
    commit,
    categories_completed: pool.categoriesCompleted,
    findings: [...pool.findings.values()]
      .filter((p) => !p.closed)
      .map((p) => ({ fingerprint: p.fingerprint, category: p.category, severity: p.severity, lens: p.lens, description: p.description }))
  }
}
