/**
 * Adoption is not eviction. A push to the default branch that finds no record
 * of it listed (records.ts) either comes after the records were deleted or
 * evicted (a pull request can fill the Actions cache to push them out), or
 * the default branch never recorded: the team just adopted the gate. After an
 * eviction the service's list of the model's runs is presumed
 * (service-ledger.ts), as strict as ever; at adoption the push is judged on
 * its own run (and runs_per_change), and nothing other branches' runs saw is
 * presumed.
 *
 * What tells them apart is a sign a pull request cannot remove: every run of
 * the gate on the default branch sets its commit status
 * (`agent-security/<name>`, naming its agent in the target URL: commit_status
 * auto, set-commit-status.ts) on the pushed commit, and GitHub never deletes
 * a commit's statuses. So: this agent's status on an earlier commit of the
 * default branch within the age bound is an eviction; none on every commit
 * read is an adoption, and only when this push could set its own status (the
 * sign's writer works here, so earlier pushes would have left it); anything
 * else (a read failing, more commits than read, the status not set) cannot be
 * told and stays strict. A pull request can only add statuses: never laxer.
 */
import { ownStatuses, STATUSES_READ, type ListedStatus } from '../github/commit-status.js'
import type { RepoRef } from '../github/transport.js'
import { describeFailure } from '../util/errors.js'
import { plural } from '../util/text.js'

/**
 * How many of the default branch's newest commits (within the age bound) are read for the sign: one page of the
 * commit list, then one status list each, newest first, until the sign is found (so only adoption reads them all).
 */
export const SIGN_COMMITS = 100

/** What the statuses of the default branch's recent commits showed. */
export type SignReading =
  | { kind: 'found'; commit: string }
  | { kind: 'none'; commitsRead: number }
  /** More commits within the age bound than SIGN_COMMITS, or a commit with more statuses than one list shows. */
  | { kind: 'beyond'; why: string }
  | { kind: 'unreadable'; why: string }

/**
 * Whether this push set its own commit status (the sign's writer), and why not; `targetUrl`: the run its status
 * links (statusTargetUrl without the fragment), so this run's own status on its commit is not taken for an earlier one.
 */
export type SignWrite = { set: true; targetUrl: string | null } | { set: false; why: string }

export type RecordsGone =
  | { kind: 'adoption'; line: string }
  /** Eviction, or cannot be told: the service's list is presumed, as before. */
  | { kind: 'strict'; line: string | null }

/** The report's one line at adoption. */
export const ADOPTION_LINE =
  "First assessment recorded by the default branch: judged on this run alone; nothing from other branches' runs presumed."

const FIX = 'give the job `permissions: statuses: write` and leave commit_status at auto'

/** Adoption or strict, from the sign's reads and whether this push could set its own status. Pure. */
export function recordsGoneKind(read: SignReading, write: SignWrite): RecordsGone {
  switch (read.kind) {
    case 'found':
      return { kind: 'strict', line: null }
    case 'unreadable':
      return {
        kind: 'strict',
        line: `Whether the default branch recorded before could not be told (${read.why}), so its records are taken as evicted: ${FIX}.`
      }
    case 'beyond':
      return {
        kind: 'strict',
        line: `Whether the default branch recorded before could not be told (${read.why}), so its records are taken as evicted.`
      }
    case 'none':
      if (!write.set)
        return {
          kind: 'strict',
          line: `No sign that the default branch recorded before, but this push could not set its own commit status (${write.why}), so the sign cannot be trusted and its records are taken as evicted: ${FIX}.`
        }
      return { kind: 'adoption', line: ADOPTION_LINE }
  }
}

/** The reads of the sign (GitHub's commit list and commit statuses). */
export interface SignReads {
  listBranchCommits(repo: RepoRef, branch: string, o: { since: string; limit: number }): Promise<string[]>
  listCommitStatuses(repo: RepoRef, sha: string): Promise<ListedStatus[]>
}

export interface SignQuery {
  repo: RepoRef
  branch: string
  /** statusContext of this agent, and its AgentIdentity.statusOwner. */
  context: string
  owner: string
  /** This push's commit: a status of this agent there is a sign only when set by another run (not `thisRun`). */
  judged: string | null
  /** The run this push's status links (its target URL without the fragment); null: it links none. */
  thisRun: string | null
  /** ISO 8601: the age bound's start. */
  since: string
}

/** The sign, read: the default branch's newest commits, then each one's statuses until this agent's is found. Counts requests in `cost`. */
export async function readSign(reads: SignReads, q: SignQuery, cost: { githubRequests: number }): Promise<SignReading> {
  let commits: string[]
  try {
    cost.githubRequests++
    commits = await reads.listBranchCommits(q.repo, q.branch, { since: q.since, limit: SIGN_COMMITS })
  } catch (err) {
    return { kind: 'unreadable', why: `the commits of ${q.branch} could not be listed: ${describeFailure(err)}` }
  }
  // This push's own commit too (a nightly run at an unchanged head): there, another run's status is the sign.
  const toRead = q.judged !== null && !commits.includes(q.judged) ? [q.judged, ...commits] : commits
  for (const sha of toRead) {
    let listed: ListedStatus[]
    try {
      cost.githubRequests++
      listed = await reads.listCommitStatuses(q.repo, sha)
    } catch (err) {
      return { kind: 'unreadable', why: `the statuses of ${sha.slice(0, 7)} could not be read: ${describeFailure(err)}` }
    }
    const earlier = sha === q.judged ? listed.filter((x) => (x.targetUrl ?? null)?.replace(/#.*$/, '') !== q.thisRun) : listed
    if (ownStatuses(earlier, q.context, q.owner).length > 0) return { kind: 'found', commit: sha }
    if (listed.length >= STATUSES_READ)
      return {
        kind: 'beyond',
        why: `${sha.slice(0, 7)} has ${STATUSES_READ} statuses or more, and only the newest ${STATUSES_READ} can be read`
      }
  }
  // A full page: older commits within the age bound may hold it.
  if (commits.length >= SIGN_COMMITS)
    return {
      kind: 'beyond',
      why: `${q.branch} has ${plural(SIGN_COMMITS, 'commit')} or more within the age bound, and only the newest ${SIGN_COMMITS} are read`
    }
  return { kind: 'none', commitsRead: toRead.length }
}

/** This push's own commit status: its context and agent, and whether it could be set. */
export interface OwnStatus {
  context: string
  owner: string
  write: SignWrite
}

/**
 * The edge: on a push to the default branch with no record listed, adoption
 * or strict. Without the reads, this push's status, the repository, the
 * branch or the commit, it cannot be told: strict, said.
 */
export async function recordsGoneOnPush(
  reads: SignReads | null,
  own: OwnStatus | null,
  a: {
    repo: RepoRef | null
    defaultBranch: string | null
    judgedCommit: string | null
    bounds: { maxAgeDays: number; now: number }
    cost: { githubRequests: number }
  }
): Promise<RecordsGone> {
  if (own === null) return { kind: 'strict', line: null }
  if (reads === null || a.repo === null || a.defaultBranch === null)
    return recordsGoneKind({ kind: 'unreadable', why: 'github_token is empty or the repository is unknown' }, own.write)
  // Without its own write, no read can make it adoption: spare them.
  if (!own.write.set) return recordsGoneKind({ kind: 'none', commitsRead: 0 }, own.write)
  const since = new Date(a.bounds.now - a.bounds.maxAgeDays * 86_400_000).toISOString()
  const thisRun = own.write.targetUrl
  const q = { repo: a.repo, branch: a.defaultBranch, context: own.context, owner: own.owner, judged: a.judgedCommit, thisRun, since }
  return recordsGoneKind(await readSign(reads, q, a.cost), own.write)
}
