/**
 * The collector's reading (collect.ts): the pending records of this agent on
 * the open pull requests, each in its sticky comment (the first owned comment
 * holding the marker: the one every step and the collector itself rewrite),
 * the order they are collected in, and whether the model is busy (modelRunning).
 */
import type { GitHubClient } from '../../github/github-client.js'
import { isOwnedComment } from '../../github/ownership.js'
import type { PullSummary } from '../../github/pulls.js'
import { hasMarker, MAX_PAGES } from '../../github/sticky-comment.js'
import { readPendingRecord, type PendingRecord } from '../../report/pending.js'
import { recordCurrent } from './collect-decision.js'
import type { StatusEdge } from './set-commit-status.js'
import type { StepContext } from './stage-context.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import { isTerminal } from '../../service/contract/index.js'
import { Deadline } from '../../util/clock.js'
import { AbortedError, describeFailure } from '../../util/errors.js'

/** A pending record as found: the pull request, its head, the comment. */
export interface Found {
  pull: PullSummary
  pending: PendingRecord
}

/** Runs to collect first, then the queued records oldest first (the model takes one at a time). */
export function inOrder(found: Found[]): Found[] {
  const at = (f: Found): string => f.pending.at ?? ''
  const queued = found.filter((f) => f.pending.runId === null).sort((a, b) => at(a).localeCompare(at(b)))
  return [...found.filter((f) => f.pending.runId !== null), ...queued]
}

/**
 * The pending record of a pull request's sticky comment of this agent: the
 * first owned comment holding the marker (as findStickyComment finds the one
 * a step rewrites), or null when it holds none. A record in any later comment
 * is never read: the comment writes would go to the sticky one, so its run
 * would set a status its comment never shows, after (and over) the sticky
 * record's own.
 */
export async function stickyPending(
  gh: GitHubClient,
  repo: { owner: string; repo: string },
  pull: number,
  login: string | null,
  marker: string
): Promise<PendingRecord | null> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, hasNext } = await gh.listComments(repo, pull, page)
    const sticky = items.find((c) => hasMarker(c.body, marker) && isOwnedComment(c.user, login))
    if (sticky !== undefined) return readPendingRecord(sticky.body, marker)
    if (!hasNext || items.length === 0) break
  }
  return null
}

/** The pending record of each open pull request's sticky comment of this agent. */
export async function pendingRecords(
  gh: GitHubClient,
  repo: { owner: string; repo: string },
  login: string,
  marker: string
): Promise<Found[]> {
  const out: Found[] = []
  for (const pull of await gh.listOpenPulls(repo)) {
    const pending = await stickyPending(gh, repo, pull.number, login, marker)
    if (pending !== null) out.push({ pull, pending })
  }
  return out
}

/** recordCurrent over the head's statuses, read once (a read that fails throws: the record stays pending). */
export async function recordIsCurrent(
  io: Pick<StepContext['io'], 'listCommitStatuses'>,
  edge: StatusEdge,
  login: string,
  runId: string
): Promise<'current' | 'newer' | 'unknown'> {
  const listed = await io.listCommitStatuses({ githubToken: edge.token, repo: edge.repo, sha: edge.sha })
  return recordCurrent(listed, { context: edge.context, owner: edge.owner, login, runId })
}

/** Whether the service lists a run of the model still going (one read; unreadable counts as busy: tried next time). */
export async function modelRunning(ctx: StepContext, inputs: ActionInputs): Promise<boolean> {
  try {
    const api = ctx.makeApi(inputs, Deadline.after(ctx.clock, 10_000))
    const list = await api.listRuns(inputs.modelId, { limit: 20 })
    return list.runs.some((r) => !isTerminal(r.status))
  } catch (err) {
    if (err instanceof AbortedError) throw err
    ctx.io.log.info(`The model's runs could not be listed (${describeFailure(err)}): the queued records wait for the next collector.`)
    return true
  }
}
