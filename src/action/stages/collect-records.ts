/**
 * The collector's reading (collect.ts): the pending records of this agent on
 * the open pull requests, each in an owned comment (isOwnedComment), and the
 * order they are collected in.
 */
import type { GitHubClient } from '../../github/github-client.js'
import { isOwnedComment } from '../../github/ownership.js'
import type { PullSummary } from '../../github/pulls.js'
import { MAX_PAGES } from '../../github/sticky-comment.js'
import { readPendingRecord, type PendingRecord } from '../../report/pending.js'

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

/** Every owned comment of this agent holding a pending record, on the open pull requests. */
export async function pendingRecords(
  gh: GitHubClient,
  repo: { owner: string; repo: string },
  login: string,
  marker: string
): Promise<Found[]> {
  const out: Found[] = []
  for (const pull of await gh.listOpenPulls(repo)) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { items, hasNext } = await gh.listComments(repo, pull.number, page)
      for (const c of items) {
        const pending = isOwnedComment(c.user, login) ? readPendingRecord(c.body, marker) : null
        if (pending !== null) out.push({ pull, pending })
      }
      if (!hasNext || items.length === 0) break
    }
  }
  return out
}
