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
import { AbortedError, ConfigError, GitHubError, RemoteError } from '../util/errors.js'
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
  /** The agent that sets it (AgentIdentity.statusOwner), named in the target URL's fragment (statusTargetUrl); null: none. */
  owner: string | null
}

/** A status of a commit as GitHub lists it: its context, and the agent it names. */
export interface ListedStatus {
  context: string
  /** statusOwnerIn(target_url, description): null when it names none. */
  owner: string | null
  /** Its target URL as listed (null: none; absent where a caller built it without one). */
  targetUrl?: string | null
  /** Its state and description as listed (absent where a caller built it without them). */
  state?: string
  description?: string | null
  /** The login of the token that set it (GitHub's `creator`; null: not told). */
  creator?: string | null
}

/** How many statuses one list call reads: the newest of the commit. */
export const STATUSES_READ = 100

export interface StatusesApi {
  /** POST /repos/{o}/{r}/statuses/{sha}. Repeating it is harmless: the latest status of a context wins. */
  setCommitStatus(repo: RepoRef, status: CommitStatus): Promise<{ id: number | null }>
  /** GET /repos/{o}/{r}/commits/{sha}/statuses: the commit's STATUSES_READ newest statuses, newest first (one call). */
  listCommitStatuses(repo: RepoRef, sha: string): Promise<ListedStatus[]>
}

/** `agent-security/<name>`, the name on one line and clipped. */
export function statusContext(name: string): string {
  return `${STATUS_CONTEXT_PREFIX}${oneLine(name, CONTEXT_NAME_MAX) || 'agent'}`
}

/**
 * One line of at most 140 characters (code points, as GitHub counts), clipped
 * with an ellipsis. Every character is the reader's: the agent that set it is
 * named in the target URL (statusTargetUrl), not here.
 */
export function statusDescription(text: string): string {
  const chars = Array.from(oneLine(text, 2000))
  return chars.length <= STATUS_DESCRIPTION_MAX ? chars.join('') : `${chars.slice(0, STATUS_DESCRIPTION_MAX - 1).join('')}…`
}

/**
 * A status of a cause and its fix, within 140 characters: the fix whole
 * ("Re-run the job."), the cause clipped before it when both do not fit, so
 * the reader always learns what to do.
 */
export function causeAndFix(cause: string, fix: string): string {
  const tail = Array.from(oneLine(fix, 2000))
  const head = Array.from(oneLine(cause, 2000).replace(/[.;:,\s]+$/, ''))
  const room = STATUS_DESCRIPTION_MAX - tail.length - 2
  if (tail.length === 0) return statusDescription(head.join(''))
  const shown = head.length <= room ? head.join('') : `${head.slice(0, Math.max(0, room - 1)).join('')}…`
  return statusDescription(`${shown}. ${tail.join('')}`)
}

/** The fragment that names a status's agent in its target URL. */
const OWNER_FRAGMENT = /#agent-([0-9a-f]{8})$/

/**
 * The target URL as set: the job's URL with the agent in its fragment
 * (`…/jobs/1#agent-1a2b3c4d`), which the page ignores and statusOwnerIn reads
 * back; without a job URL there is nothing to link to, and the status names
 * no agent (it counts as another's, see otherStatusOwners).
 */
export function statusTargetUrl(targetUrl: string | null, owner: string | null): string | null {
  if (targetUrl === null || owner === null) return targetUrl
  return `${targetUrl.replace(/#.*$/, '')}#agent-${owner}`
}

/**
 * The description of a step that ended without a result: the cause and the
 * fix first, so GitHub's 140 characters keep them. A service refusal with a
 * hint (a spent allowance with its reset date, a budget with its retry time)
 * leads with the hint, the status and code after it; a refusal of the
 * pipeline (a merge queue with nothing to carry over) leads with what it
 * refused and how to get past it, not as a configuration mistake of the
 * input it names; `line` otherwise (describeFailure's).
 */
export function failureStatus(err: unknown, line: string): string {
  if (err instanceof RemoteError && err.hint) {
    const code = [err.status === undefined ? null : `HTTP ${err.status}`, err.code ?? null].filter((x) => x !== null).join(' ')
    return `${err.hint.replace(/[.\s]+$/, '')}${code === '' ? '' : ` (${code})`}.`
  }
  if (err instanceof ConfigError && err.summary !== undefined) {
    const fix = /(?:^|[.;] )((?:Let|Give|Use|Set|Add|Run|Re-run|Push|Merge)\b[^]*)$/.exec(err.message)?.[1]
    const head = err.summary.charAt(0).toUpperCase() + err.summary.slice(1)
    return fix === undefined ? `${head}: ${err.message}` : `${head}. ${fix.replace(/[.\s]+$/, '')}.`
  }
  return line
}

/**
 * The agent a listed status names: in its target URL's fragment
 * (statusTargetUrl), or at its description's end as versions before 1.1 named
 * it (`… [agent 1a2b3c4d]`); null when it names none.
 */
export function statusOwnerIn(targetUrl: string | null, description: string | null): string | null {
  return OWNER_FRAGMENT.exec(targetUrl ?? '')?.[1] ?? /\[agent ([0-9a-f]{8})\]$/.exec(description ?? '')?.[1] ?? null
}

/**
 * The other agents that set `context` on the commit, as `listed` shows them:
 * a status naming another owner, or none (another tool, or a version of
 * this action that did not name its agent: it cannot be told apart, so it
 * counts as another).
 */
export function otherStatusOwners(listed: readonly ListedStatus[], context: string, owner: string): string[] {
  const others = listed.filter((s) => s.context === context && s.owner !== owner).map((s) => s.owner ?? 'unnamed')
  return [...new Set(others)]
}

/** The statuses of `context` naming `owner` (statusOwnerIn), in the order listed: this agent's own, as otherStatusOwners tells others. */
export function ownStatuses(listed: readonly ListedStatus[], context: string, owner: string): ListedStatus[] {
  return listed.filter((s) => s.context === context && s.owner === owner)
}

function readStatuses(res: { data: unknown }, endpoint: string): ListedStatus[] {
  if (!Array.isArray(res.data))
    throw new GitHubError({ endpoint, message: 'GitHub answered the status list without a list', transient: true })
  return res.data.filter(isRecord).map((s) => {
    const targetUrl = typeof s.target_url === 'string' ? s.target_url : null
    const description = typeof s.description === 'string' ? s.description : null
    const creator = isRecord(s.creator) && typeof s.creator.login === 'string' ? s.creator.login : null
    return {
      context: typeof s.context === 'string' ? s.context : '',
      owner: statusOwnerIn(targetUrl, description),
      targetUrl,
      state: typeof s.state === 'string' ? s.state : '',
      description,
      creator
    }
  })
}

const withTargetUrl = (url: string | null): { target_url?: string } => (url === null ? {} : { target_url: url })

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
          ...withTargetUrl(statusTargetUrl(s.targetUrl, s.owner))
        },
        (res) => ({ id: isRecord(res.data) && typeof res.data.id === 'number' ? res.data.id : null })
      )
    },
    listCommitStatuses(r, sha) {
      return call(
        'GET',
        `${repoPath(r)}/commits/${sha}/statuses`,
        'GET /repos/{owner}/{repo}/commits/{ref}/statuses',
        { owner: r.owner, repo: r.repo, ref: sha, per_page: STATUSES_READ },
        readStatuses
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
