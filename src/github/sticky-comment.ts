/**
 * The sticky PR comment: one per model_id, found by a hidden marker in its
 * body, edited in place on the next run (`update`), or a new one per run
 * (`new`), or none (`off`).
 *
 * Writing the comment never changes the gate's result: a comment that cannot
 * be written (403 on a fork PR's read-only token, missing
 * `pull-requests: write`, 404, anything after retries) is a warning that says
 * why and how to fix it, and the outcome is `skipped`.
 */
import { AbortedError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { explainGitHubFailure, type FailureExplanation } from './explain-failure.js'
import type { ViewerApi } from './viewer.js'
import type { IssueComment, IssuesApi } from './issues-api.js'
import { isOwnedComment, tokenLoginOnce } from './ownership.js'
import type { RepoRef } from './transport.js'

/**
 * Thrown by a body function that finds the comment it would replace is no
 * longer what its writer read (the collector's compare before writing): the
 * write is skipped, and said as such, not as a failure.
 */
export class CommentChanged extends Error {
  override name = 'CommentChanged'
}

/** The values of the `comment` input. */
export const COMMENT_MODES = ['update', 'new', 'off'] as const
export type CommentMode = (typeof COMMENT_MODES)[number]

/**
 * A body, or a function of the body it replaces (null when there is none), so
 * a report can say what the previous result was.
 */
export type CommentBody = string | ((existing: string | null) => string)

export interface CommentOutcome {
  action: 'created' | 'updated' | 'skipped'
  url: string | null
  reason?: string
}

export interface PullRequestRef extends RepoRef {
  number: number
}

/** Pages read at most when looking for the marker (100 per page). */
export const MAX_PAGES = 100

/** The body with the marker in it (prepended when the renderer did not put it there). */
export function withMarker(body: string, marker: string): string {
  return hasMarker(body, marker) ? body : `${marker}\n${body}`
}

/**
 * Whether a body is ours for this marker: the marker opens it. Anchored, so a
 * finding that quotes another model's marker inside our comment cannot make
 * that comment look like the other model's.
 */
export function hasMarker(body: string | null | undefined, marker: string): boolean {
  return (body ?? '').trimStart().startsWith(marker)
}

/** The first comment of ours holding the marker, searched through every page. */
export async function findStickyComment(
  api: IssuesApi,
  target: PullRequestRef,
  marker: string,
  ownLogin: () => Promise<string | null>,
  log: Log
): Promise<IssueComment | null> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, hasNext } = await api.listComments(target, target.number, page)
    for (const comment of items) {
      if (!hasMarker(comment.body, marker)) continue
      if (isOwnedComment(comment.user, await ownLogin())) return comment
      log.debug(`Comment ${comment.id} holds the marker but was not written by this action's token; left alone.`)
    }
    if (!hasNext || items.length === 0) return null
  }
  log.debug(`No sticky comment found in the first ${MAX_PAGES} pages of comments; a new one is added.`)
  return null
}

const FORK_HINT =
  'On pull requests from forks the GITHUB_TOKEN is read-only whatever `permissions:` says: accept the job summary alone there, ' +
  "or use `pull_request_target` with care (it runs with a write token and secrets: never check out or run the fork's code in that job)."

/** The warning line for a comment that could not be read or written, and the short reason for the outcome. */
export function explainCommentFailure(err: unknown, target: PullRequestRef): FailureExplanation {
  const where = `${target.owner}/${target.repo}#${target.number}`
  const head = `Could not write the PR comment on ${where} (the gate's result is unchanged)`
  return explainGitHubFailure(err, head, (e, said) => {
    if (e.status === 403) {
      return {
        warning:
          `${head}: GitHub answered 403, the token may not write to pull requests (${said}). ` +
          'Fix: give the job `permissions: pull-requests: write`. ' +
          FORK_HINT,
        reason: 'forbidden (403): the token cannot write pull request comments'
      }
    }
    if (e.status === 404) {
      return {
        warning:
          `${head}: GitHub answered 404, the pull request is not visible to the token (${said}). ` +
          'Fix: give the job `permissions: pull-requests: write` (a private repository hides what the token may not read), and check GITHUB_REPOSITORY and github_token. ' +
          FORK_HINT,
        reason: 'not found (404): the token cannot see the pull request'
      }
    }
    return null
  })
}

export async function postStickyComment(
  api: IssuesApi & ViewerApi,
  target: PullRequestRef,
  body: CommentBody,
  marker: string,
  mode: CommentMode,
  log: Log
): Promise<CommentOutcome> {
  if (mode === 'off') return { action: 'skipped', url: null, reason: 'comment is off' }
  const textFor = (existing: string | null): string => withMarker(typeof body === 'string' ? body : body(existing), marker)
  const ref: PullRequestRef = { owner: target.owner, repo: target.repo, number: target.number }
  try {
    if (mode === 'new') {
      const created = await api.createComment(ref, ref.number, textFor(null))
      return { action: 'created', url: created.html_url }
    }
    const ownLogin = tokenLoginOnce(api, log)
    const existing = await findStickyComment(api, ref, marker, ownLogin, log)
    if (existing) {
      const updated = await api.updateComment(ref, existing.id, textFor(existing.body))
      return { action: 'updated', url: updated.html_url || existing.html_url }
    }
    // A create whose answer was lost may have taken effect: look again before repeating it.
    const created = await api.createComment(ref, ref.number, textFor(null), () => findStickyComment(api, ref, marker, ownLogin, log))
    return { action: 'created', url: created.html_url }
  } catch (err) {
    if (err instanceof AbortedError) throw err
    if (err instanceof CommentChanged) {
      log.info(err.message)
      return { action: 'skipped', url: null, reason: 'the comment changed since it was read' }
    }
    const { warning, reason } = explainCommentFailure(err, ref)
    log.warning(warning)
    return { action: 'skipped', url: null, reason }
  }
}
