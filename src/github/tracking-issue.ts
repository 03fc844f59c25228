/**
 * The tracking issue of events without a pull request: one open issue per
 * model_id, found by a hidden marker in its body. A failing (or incomplete)
 * run creates it or updates it with the latest report; a passing run closes
 * it with a comment. Needs `issues: write`; without it a warning says so and
 * the outcome is `skipped`. Never changes the gate's result.
 */
import { AbortedError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { explainGitHubFailure, type FailureExplanation } from './explain-failure.js'
import type { Issue, IssuesApi } from './issues-api.js'
import type { RepoRef } from './transport.js'
import { hasMarker, MAX_PAGES, withMarker, type CommentBody } from './sticky-comment.js'
import type { ViewerApi } from './viewer.js'
import { isOwnedComment, tokenLoginOnce } from './ownership.js'

export interface TrackingOutcome {
  action: 'created' | 'updated' | 'closed' | 'none' | 'skipped'
  url: string | null
  reason?: string
}

export interface TrackingArgs {
  /** Hidden marker holding the model_id. */
  marker: string
  title: string
  /** The latest report (issue body when failing, closing comment when passing), or a function of the open issue's body. */
  body: CommentBody
  /** The run failed or is incomplete. */
  failing: boolean
}

/** The first open issue of ours (not a pull request) holding the marker, searched through every page. */
export async function findTrackingIssue(
  api: IssuesApi,
  repo: RepoRef,
  marker: string,
  ownLogin: () => Promise<string | null>,
  log: Log
): Promise<Issue | null> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, hasNext } = await api.listOpenIssues(repo, page)
    for (const issue of items) {
      if (issue.pull_request !== undefined || issue.state !== 'open') continue
      if (!hasMarker(issue.body, marker)) continue
      if (isOwnedComment(issue.user, await ownLogin())) return issue
      log.debug(`Issue #${issue.number} holds the marker but was not opened by this action's token; left alone.`)
    }
    if (!hasNext || items.length === 0) return null
  }
  log.debug(`No tracking issue found in the first ${MAX_PAGES} pages of open issues.`)
  return null
}

export function explainIssueFailure(err: unknown, repo: RepoRef): FailureExplanation {
  const head = `Could not keep the tracking issue in ${repo.owner}/${repo.repo} (the gate's result is unchanged)`
  return explainGitHubFailure(err, head, (e, said) => {
    if (e.status === 403 || e.status === 404) {
      return {
        warning:
          `${head}: GitHub answered ${e.status}, the token may not write issues (${said}). ` +
          'Fix: give the job `permissions: issues: write`, or set the input `issue: off`.',
        reason: `${e.status === 403 ? 'forbidden (403)' : 'not found (404)'}: the token needs issues: write`
      }
    }
    if (e.status === 410) {
      return {
        warning: `${head}: issues are disabled in this repository (${said}). Fix: enable Issues in the repository settings, or set the input \`issue: off\`.`,
        reason: 'issues are disabled (410)'
      }
    }
    return null
  })
}

export async function syncTrackingIssue(api: IssuesApi & ViewerApi, repo: RepoRef, args: TrackingArgs, log: Log): Promise<TrackingOutcome> {
  const ref: RepoRef = { owner: repo.owner, repo: repo.repo }
  const ownLogin = tokenLoginOnce(api, log)
  try {
    const open = await findTrackingIssue(api, ref, args.marker, ownLogin, log)
    const bodyFor = (existing: string | null): string => (typeof args.body === 'string' ? args.body : args.body(existing))
    if (args.failing) {
      const body = withMarker(bodyFor(open ? (open.body ?? '') : null), args.marker)
      if (open) {
        const updated = await api.updateIssue(ref, open.number, { title: args.title, body })
        return { action: 'updated', url: updated.html_url || open.html_url }
      }
      // A create whose answer was lost may have taken effect: look again before repeating it.
      const created = await api.createIssue(ref, { title: args.title, body }, () => findTrackingIssue(api, ref, args.marker, ownLogin, log))
      return { action: 'created', url: created.html_url }
    }
    if (!open) return { action: 'none', url: null }
    await api.createComment(ref, open.number, bodyFor(open.body ?? ''))
    const closed = await api.updateIssue(ref, open.number, { state: 'closed', state_reason: 'completed' })
    return { action: 'closed', url: closed.html_url || open.html_url }
  } catch (err) {
    if (err instanceof AbortedError) throw err
    const { warning, reason } = explainIssueFailure(err, ref)
    log.warning(warning)
    return { action: 'skipped', url: null, reason }
  }
}
