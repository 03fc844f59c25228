/**
 * The commit status of a deployment run: deployment_status and
 * repository_dispatch runs happen on the default branch and do not show as
 * checks on the pull request, so the result is set on the deployed commit as
 * a status `agent-security/<model or target>`: pending at the start,
 * success, failure or error at the end, with the run's summary line as its
 * description and the job as its target.
 *
 * Setting it never changes the gate's result: a status that cannot be set is
 * a warning that says why and how to fix it.
 */
import { AbortedError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { isRecord, oneLine } from '../util/text.js'
import { explainGitHubFailure, type FailureExplanation } from './explain-failure.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

export const COMMIT_STATES = ['pending', 'success', 'failure', 'error'] as const
export type CommitState = (typeof COMMIT_STATES)[number]

/** GitHub's limit on a status description, in characters. */
export const STATUS_DESCRIPTION_MAX = 140
/** The status context's prefix: one context per model or target. */
export const STATUS_CONTEXT_PREFIX = 'agent-security/'
const CONTEXT_NAME_MAX = 100

export interface CommitStatus {
  sha: string
  state: CommitState
  /** statusContext(model or target). */
  context: string
  /** At most 140 characters (statusDescription). */
  description: string
  /** The job's URL; null: none. */
  targetUrl: string | null
}

export interface StatusesApi {
  /** POST /repos/{o}/{r}/statuses/{sha}. Repeating it is harmless: the latest status of a context wins. */
  setCommitStatus(repo: RepoRef, status: CommitStatus): Promise<{ id: number | null }>
}

/** `agent-security/<name>`, the name on one line and clipped. */
export function statusContext(name: string): string {
  return `${STATUS_CONTEXT_PREFIX}${oneLine(name, CONTEXT_NAME_MAX) || 'agent'}`
}

/** One line of at most 140 characters (code points, as GitHub counts), clipped with an ellipsis. */
export function statusDescription(text: string): string {
  const chars = Array.from(oneLine(text, 2000))
  return chars.length <= STATUS_DESCRIPTION_MAX ? chars.join('') : `${chars.slice(0, STATUS_DESCRIPTION_MAX - 1).join('')}…`
}

/**
 * The final state for a result: success when the step passes, error when no
 * verdict was reached (the assessment failed to run), failure otherwise.
 */
export function statusStateFor(result: 'pass' | 'fail' | 'incomplete' | 'error', failing: boolean): CommitState {
  if (!failing) return 'success'
  return result === 'error' ? 'error' : 'failure'
}

export function statusesApiOver(call: Call): StatusesApi {
  return {
    setCommitStatus(r, s) {
      return call(
        'POST',
        `${repoPath(r)}/statuses/${s.sha}`,
        'POST /repos/{owner}/{repo}/statuses/{sha}',
        {
          owner: r.owner,
          repo: r.repo,
          sha: s.sha,
          state: s.state,
          context: s.context,
          description: statusDescription(s.description),
          ...(s.targetUrl === null ? {} : { target_url: s.targetUrl })
        },
        (res) => ({ id: isRecord(res.data) && typeof res.data.id === 'number' ? res.data.id : null })
      )
    }
  }
}

export function explainStatusFailure(err: unknown, repo: RepoRef, sha: string): FailureExplanation {
  const head = `Could not set the commit status on ${repo.owner}/${repo.repo}@${sha.slice(0, 7)} (the gate's result is unchanged)`
  return explainGitHubFailure(err, head, (e, said) => {
    if (e.status === 403 || e.status === 404) {
      return {
        warning: `${head}: GitHub answered ${e.status} (${said}). Fix: give the job \`permissions: statuses: write\`.`,
        reason: `${e.status === 403 ? 'forbidden (403)' : 'not found (404)'}: the token cannot set commit statuses`
      }
    }
    if (e.status === 422) {
      return { warning: `${head}: GitHub refused the status (${said}).`, reason: 'refused (422)' }
    }
    return null
  })
}

/** Set the status; a failure is a warning and `false`, never an error of the step (a cancellation still ends it). */
export async function postCommitStatus(api: StatusesApi, repo: RepoRef, status: CommitStatus, log: Log): Promise<boolean> {
  try {
    await api.setCommitStatus(repo, status)
    return true
  } catch (err) {
    if (err instanceof AbortedError) throw err
    log.warning(explainStatusFailure(err, repo, status.sha).warning)
    return false
  }
}
