/**
 * Reading the evidence a gate run is held against, before the run: a named run of the service (baseline_run_id),
 * else the default branch's window, the runs its records name (see src/evidence/records.ts for which records are
 * trusted), each read again from the service. No window is not a failure: the gate says why and runs as with
 * fail_on any (stricter).
 */
import type { ActionsCachesApi, ListedCache } from '../github/actions-caches.js'
import type { CompareApi } from '../github/compare.js'
import type { RepoRef } from '../github/transport.js'
import { agentFilesAmong } from '../pipeline/changed-paths.js'
import type { Log } from '../util/log.js'
import { ConfigError, describeFailure } from '../util/errors.js'
import { oneLine, plural } from '../util/text.js'
import type { EvidenceWindows } from './judge-evidence.js'
import { holdsOpenFinding, poolEvidence, type Provenance, type RunEvidence } from './pool.js'
import { readRunEvidence, RUN_LIST_PAGE, runReads, type RunReader, type RunReads } from './read-runs.js'
import { branchRef, defaultBranchRecords, evidenceKeyPrefix, MAX_HOLDERS, recordsOnRef, type EvidenceRecord } from './records.js'
import { commitsToCompare, holdersToRead, recordsToRead, sameAgentRecords, withinAge, type WindowBounds } from './window.js'
import { baselineOfPool, type Baseline } from './baseline.js'
import { cleanListedRuns, ledgerNote, ledgerRunsToRead, recordsGoneWhy } from './service-ledger.js'
import { recordsGoneOnPush, type OwnStatus, type SignReads } from './adoption.js'
import type { WindowCost } from './window.js'

export type { WindowCost } from './window.js'

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
  /**
   * Evidence that could not be read (a recorded run or holder the service would not give, the caches list refused or
   * failing, a comparison that failed): only what failed is left out, and each line keeps the result from being a pass
   * (it is `incomplete` at best), since what went unread may hold a weakness.
   */
  gaps: string[]
  /** Runs only the service's list vouches for (read from it, or held with PRESUMED_MARK): a record names them so only. */
  serviceList?: string[]
}

export interface EvidenceDeps {
  api: () => RunReader
  /** GitHub's caches list and comparisons; null when github_token is empty. */
  github: (ActionsCachesApi & CompareApi) | null
  log: Log
  now: () => number
  /** The sign that the default branch recorded before (adoption.ts); absent or null: it cannot be read (strict). */
  signs?: SignReads | null
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
  /**
   * The commit of the agent this run assesses (a pull request's head; GITHUB_SHA elsewhere): a weakness seen only by
   * runs of another agent (a change under agent_paths since; without agent_paths, another commit) is presumed, for a
   * confirmation to show gone. Absent: judgedCommit.
   */
  agentCommit?: string | null
  agentPaths: readonly string[]
  bounds: WindowBounds
  /** A pull request's own ref and head: its own recorded runs are its agent's window; null elsewhere. */
  own?: { ref: string; head: string | null } | null
  /** On a push to the default branch: its commit status, the sign adoption.ts reads; absent: records gone are evicted (strict). */
  ownStatus?: OwnStatus | null
}

const NO_WINDOWS: EvidenceWindows = { agent: null, base: null }
type Marks = ReadonlyMap<string, boolean>

/** One reading of the evidence: what it cost, the gaps it met, and the comparisons made (each asked once). */
interface Reading {
  deps: EvidenceDeps
  args: EvidenceArgs
  cost: WindowCost
  gaps: string[]
  notes: string[]
  /** `${base}...${head}` -> whether the agent changed (null: the comparison failed). */
  compared: Map<string, boolean | null>
}

export async function loadBaseline(deps: EvidenceDeps, args: EvidenceArgs): Promise<LoadedBaseline> {
  const started = deps.now()
  const cost: WindowCost = { serviceRequests: 0, githubRequests: 0, runsRead: 0, holdersRead: 0, ms: 0 }
  const done = (l: Omit<LoadedBaseline, 'cost'>): LoadedBaseline => ({ ...l, cost: { ...cost, ms: deps.now() - started } })
  if (args.baselineRunId !== '') {
    const reads = runReads(deps.api(), args.modelId)
    // The run the workflow names as main's baseline counts as the default branch's own (docs/baseline.md).
    const read = await readRunEvidence(reads, args.baselineRunId, 'default-branch')
    cost.serviceRequests = reads.requests
    if ('problem' in read) throw new ConfigError('baseline_run_id', `${read.problem}: name a completed run of this model`)
    cost.runsRead = 1
    const pool = poolEvidence([read.run])
    return done({
      baseline: baselineOfPool(pool, args.modelId, null),
      source: `run ${args.baselineRunId} (baseline_run_id)`,
      why: null,
      windows: { agent: null, base: pool },
      notes: [],
      gaps: []
    })
  }
  const r: Reading = { deps, args, cost, gaps: [], notes: [], compared: new Map() }
  try {
    const { recordsGone, ...main } = await loadWindow(r)
    const own = await loadOwnWindow(r)
    // The default branch's own lineage only: a pull request reads no other run of the model (service-ledger.ts).
    const ledger = recordsGone === null || !args.onDefaultBranch || args.bounds.runs <= 1 ? [] : await unlessAdopted(r, recordsGone)
    const runs = [...own, ...ledger]
    const agent = { pool: poolEvidence(runs), scope: ledger.length > 0 ? ('model' as const) : ('agent' as const) }
    return done({
      ...main,
      why: ledger.length > 0 && main.baseline === null ? recordsGoneWhy(args.defaultBranch ?? 'main') : main.why,
      windows: runs.length === 0 ? main.windows : { ...main.windows, agent },
      notes: r.notes,
      gaps: r.gaps,
      serviceList: [...(main.serviceList ?? []), ...ledger.map((x) => x.runId)]
    })
  } catch (err) {
    deps.log.warning(`The baseline could not be read: ${describeFailure(err)}`)
    const why = `the baseline could not be read: ${describeFailure(err)}`
    return done({
      baseline: null,
      source: null,
      why,
      windows: NO_WINDOWS,
      notes: r.notes,
      gaps: [...r.gaps, `${why}, so a weakness seen earlier cannot be ruled out`]
    })
  }
}

/** The agent's records listed on `ref`, or null (a gap said) when the caches list is refused or fails. */
async function listRecords(r: Reading, ref: string, whose: string): Promise<ListedCache[] | null> {
  const { deps, args } = r
  if (deps.github === null || args.repo === null) return null
  r.cost.githubRequests++
  try {
    return await deps.github.listCaches(args.repo, { keyPrefix: evidenceKeyPrefix(args.agentKey), ref })
  } catch (err) {
    r.gaps.push(`${whose} records could not be listed (${describeFailure(err)}), so a weakness seen in them cannot be ruled out`)
    return null
  }
}

/**
 * The default branch's records (the newest K within the age bound) read again from the service and pooled.
 * `recordsGone` says why no record was listed when the list itself was read (entries deleted or evicted, or none saved
 * yet): the service's list of the model's runs is read instead (readLedger), unless this is adoption (adoption.ts).
 */
async function loadWindow(r: Reading): Promise<Omit<LoadedBaseline, 'cost' | 'notes' | 'gaps'> & { recordsGone: string | null }> {
  const { deps, args } = r
  const none = (why: string, recordsGone: string | null = null) => ({ baseline: null, source: null, why, windows: NO_WINDOWS, recordsGone })
  if (deps.github === null || args.repo === null || args.defaultBranch === null)
    return none(
      deps.github === null
        ? "github_token is empty, so the default branch's records (the Actions caches API) cannot be listed"
        : 'the repository or its default branch is unknown to this event, so no record can be tied to the default branch'
    )
  const ref = branchRef(args.defaultBranch)
  const listed = await listRecords(r, ref, "the default branch's")
  if (listed === null) return none(`the default branch's records could not be listed`)
  const { records, refused } = defaultBranchRecords(listed, args.agentKey, args.defaultBranch)
  if (refused > 0) r.notes.push(`${plural(refused, 'record')} not saved on ${ref} not trusted.`)
  // On the default branch this run is the newest of its window: K - 1 earlier runs (at least one for fail_on new).
  const limit = args.onDefaultBranch ? Math.max(args.bounds.runs - 1, 1) : args.bounds.runs
  const recent = recordsToRead(records, limit, args.bounds)
  if (recent.length === 0) {
    const why =
      records.length === 0
        ? 'no run recorded by the default branch yet (no cache entry listed on it)'
        : 'no recorded run of the default branch is within the window'
    return none(why, `No record of ${args.defaultBranch} is listed (never saved, or deleted by GitHub: entries unread for 7 days)`)
  }
  // What fail_on new compares with: main's agent, up to its last change. The lineage: every recent run, marked.
  const kept = new Set((await sameAgent(r, recent, limit)).map((x) => x.runId))
  const marks = await agentMarks(r, recent, args.agentCommit === undefined ? args.judgedCommit : args.agentCommit)
  const runs = await readRuns(r, recent, marks, 'default-branch')
  if (runs.length === 0) return none(`none of the ${plural(recent.length, 'recorded run')} of the default branch could be trusted`)
  // Holders are named by records the default branch saved: its own observations, as those records are.
  const held = await readHolders(r, recent, marks, 'default-branch')
  const base = poolEvidence([...runs, ...held])
  const baselineRuns = runs.filter((x) => kept.has(x.runId))
  // K = 1: this run alone is its agent's evidence, holders too are main's window only.
  const agentRuns = args.onDefaultBranch && args.bounds.runs > 1 ? [...runs.slice(0, args.bounds.runs - 1), ...held] : []
  return {
    baseline:
      baselineRuns.length > 0 ? baselineOfPool(poolEvidence([...baselineRuns, ...held]), args.modelId, recent[0]?.commit ?? null) : null,
    recordsGone: null,
    serviceList: held.filter((x) => x.provenance === 'service-list').map((x) => x.runId),
    source: `${plural(runs.length, 'run')} of ${args.defaultBranch}${held.length > 0 ? ` and ${plural(held.length, 'earlier run')} holding findings still open` : ''} (Actions cache records listed on ${ref}), re-read from the service`,
    why: baselineRuns.length > 0 ? null : 'every recorded run of the default branch is of an earlier agent (agent_paths changed since)',
    windows: {
      agent: agentRuns.length > 0 ? { pool: poolEvidence(agentRuns), scope: 'main' } : null,
      base,
      lineage: args.bounds.runs > 1
    }
  }
}

/**
 * A pull request's own window: the runs recorded under its own ref, across its pushes (the newest K - 1), each marked
 * whether it is of the agent judged now. A pull request can write these records, so they only name runs: each is read
 * again from the service, whose close of a finding (validated fixed, dismissed) counts whoever recorded the run
 * (poolEvidence: one rule).
 */
async function loadOwnWindow(r: Reading): Promise<RunEvidence[]> {
  const { deps, args } = r
  const own = args.own
  if (!own || deps.github === null || args.repo === null || args.bounds.runs <= 1 || own.head === null) return []
  const listed = await listRecords(r, own.ref, "this pull request's own")
  if (listed === null) return []
  const recent = recordsToRead(recordsOnRef(listed, args.agentKey, own.ref), args.bounds.runs - 1, args.bounds)
  if (recent.length === 0) return []
  const marks = await agentMarks(r, recent, own.head)
  const runs = await readRuns(r, recent, marks, 'own-lineage')
  if (runs.length === 0) return []
  return [...runs, ...(await readHolders(r, recent, marks, 'own-lineage'))]
}

/**
 * On the default branch, no record of it listed: the model's runs the service lists (service-ledger.ts), read like
 * recorded runs of another agent (presumed until confirmed gone). A list it cannot read is a gap; beyond it, said.
 */
async function readLedger(r: Reading, why: string): Promise<RunEvidence[]> {
  const { deps, args } = r
  r.cost.serviceRequests++
  let list: Awaited<ReturnType<RunReader['listRuns']>>
  try {
    list = await deps.api().listRuns(args.modelId, { status: 'completed', limit: RUN_LIST_PAGE })
  } catch (err) {
    r.gaps.push(
      `${why}, and the model's runs could not be listed (${describeFailure(err)}), so a weakness seen in them cannot be ruled out`
    )
    return []
  }
  // Every run of the page holding findings: newer ones holding only low findings must not push out an older weakness.
  const chosen = ledgerRunsToRead(list, args.bounds)
  r.notes.push(...chosen.unread.map((u) => `${why}: ${u}.`))
  if (chosen.toRead.length === 0) return []
  const targets = chosen.toRead.map((runId) => ({ runId, commit: null }))
  // The list itself shows them to be the model's runs: a second listing (GET /run naming no model) could miss one a newer run pushed off.
  const runs = await readRuns(r, targets, new Map(), 'service-list', { listed: new Set(list.runs.map((x) => x.run_id)) })
  if (runs.length === 0) return []
  r.notes.push(ledgerNote(runs.length, why))
  // The whole page is the sample: the runs holding findings with those that hold none (not chosen for their sightings).
  return [...runs, ...cleanListedRuns(list, args.bounds)]
}

/** No record of the default branch listed on its push: adoption reads nothing more; eviction (or cannot tell) reads the ledger. */
async function unlessAdopted(r: Reading, why: string): Promise<RunEvidence[]> {
  const { args } = r
  const gone = await recordsGoneOnPush(r.deps.signs ?? null, args.ownStatus ?? null, { ...args, cost: r.cost })
  if (gone.line !== null) r.notes.push(gone.line)
  return gone.kind === 'adoption' ? [] : readLedger(r, why)
}

/** Whether files under agent_paths changed from `base` to `head` (asked once each); null when the comparison failed (a gap said). */
async function agentChanged(r: Reading, base: string, head: string): Promise<boolean | null> {
  const { deps, args } = r
  const key = `${base}...${head}`
  if (r.compared.has(key)) return r.compared.get(key) ?? null
  let changed: boolean | null = null
  if (deps.github !== null && args.repo !== null) {
    r.cost.githubRequests++
    try {
      const files = await deps.github.changedFiles(args.repo, base, head)
      changed = files.kind === 'everything' || agentFilesAmong(args.agentPaths, files.files).length > 0
    } catch (err) {
      r.gaps.push(`whether agent_paths changed since ${base.slice(0, 12)} could not be told (${describeFailure(err)})`)
    }
  }
  r.compared.set(key, changed)
  return changed
}

/** The records of main's agent: with agent_paths, up to the first commit the agent changed since; without, every one. */
async function sameAgent(r: Reading, records: EvidenceRecord[], limit: number): Promise<EvidenceRecord[]> {
  const { args } = r
  const judged = args.judgedCommit ?? records[0]?.commit ?? null
  if (args.agentPaths.length === 0 || r.deps.github === null || args.repo === null) return records
  if (judged === null) {
    // No commit to compare with: whether the agent changed since cannot be told, so no record is the same agent's.
    if (records.length > 0)
      r.notes.push(`${plural(records.length, 'recorded run')} left out: no commit to tell whether agent_paths changed since.`)
    return []
  }
  const changed = new Map<string, boolean>()
  for (const commit of commitsToCompare(records, limit)) {
    const agentChangedSince = commit === judged ? false : ((await agentChanged(r, commit, judged)) ?? true)
    changed.set(commit, agentChangedSince)
    if (agentChangedSince) break
  }
  const kept = sameAgentRecords(records, changed)
  if (kept.length < records.length)
    r.notes.push(
      `${plural(records.length - kept.length, 'recorded run')} of an earlier agent left out of the baseline (agent_paths changed since).`
    )
  return kept
}

/**
 * Per recorded commit, whether its run is of the agent judged now (`judged`): with agent_paths, no change under them
 * between the two (every commit compared); without, the same commit. A record without a commit, or a comparison that
 * failed, is of another agent (its weaknesses presumed).
 */
async function agentMarks(r: Reading, records: readonly EvidenceRecord[], judged: string | null): Promise<Map<string, boolean>> {
  const marks = new Map<string, boolean>()
  for (const { commit } of records) {
    if (commit === null || marks.has(commit)) continue
    if (judged === null || commit === judged || r.args.agentPaths.length === 0) marks.set(commit, commit === judged)
    else marks.set(commit, (await agentChanged(r, commit, judged)) === false)
  }
  return marks
}

/**
 * The recorded runs, each read again from the service: completed, of this
 * model, within the age bound (and kept by `keep`). `listed`: runs the
 * model's list already gave (of the model without a second listing).
 */
async function readRuns(
  r: Reading,
  records: readonly { runId: string; commit: string | null }[],
  marks: ReadonlyMap<string, boolean>,
  provenance: Provenance,
  o: { keep?: (run: RunEvidence) => boolean; listed?: Set<string> } = {}
): Promise<RunEvidence[]> {
  const { deps, args, cost } = r
  const keep = o.keep ?? (() => true)
  const reads: RunReads = { ...runReads(deps.api(), args.modelId), listed: o.listed ?? null }
  const runs: RunEvidence[] = []
  try {
    for (const rec of records) {
      let read: Awaited<ReturnType<typeof readRunEvidence>>
      try {
        read = await readRunEvidence(reads, rec.runId, provenance)
      } catch (err) {
        r.gaps.push(
          `recorded run ${oneLine(rec.runId, 80)} could not be read (${describeFailure(err)}), so what it saw cannot be ruled out`
        )
        continue
      }
      if ('problem' in read) {
        if (read.unplaced) r.gaps.push(`recorded ${read.problem}, so what it saw cannot be ruled out`)
        else r.notes.push(`Recorded ${read.problem}: not trusted.`)
      } else if (read.run.completedAt !== '' && !withinAge(read.run.completedAt, args.bounds))
        r.notes.push(`Recorded run ${rec.runId} completed more than ${args.bounds.maxAgeDays} days ago: left out.`)
      else if (keep(read.run)) runs.push({ ...read.run, provenance, sameAgent: rec.commit !== null && marks.get(rec.commit) === true })
    }
  } finally {
    cost.serviceRequests += reads.requests
    cost.runsRead += runs.length
  }
  return runs
}

/**
 * The holders the window's records name beyond its runs (at most MAX_HOLDERS), read like any run of the window; one is
 * kept only while it holds a finding the service has not closed. A holder is of the agent judged now when a record of
 * that agent marks it as of its own.
 */
async function readHolders(r: Reading, records: readonly EvidenceRecord[], marks: Marks, provenance: Provenance): Promise<RunEvidence[]> {
  const holders = holdersToRead(
    records,
    records.map((x) => x.runId),
    MAX_HOLDERS
  )
  if (holders.length === 0) return []
  const same = new Set(records.filter((x) => x.commit !== null && marks.get(x.commit) === true).flatMap((x) => x.sameAgentHolders))
  const SAME = 'same-agent'
  const held = await readRuns(
    r,
    holders.map((runId) => ({ runId, commit: same.has(runId) ? SAME : null })),
    new Map([[SAME, true]]),
    provenance,
    { keep: holdsOpenFinding }
  )
  r.cost.holdersRead += held.length
  // Marked as only the service's list saw it: presumed (it blocks), never the branch's own observation.
  const listed = new Set(records.flatMap((x) => x.presumedHolders ?? []))
  return held.map((run) => ({ ...run, selected: true, provenance: listed.has(run.runId) ? 'service-list' : run.provenance }))
}
