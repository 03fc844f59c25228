/**
 * Which pull request (if any) an event is about. Pure: the event name, its
 * payload (the JSON at GITHUB_EVENT_PATH) and GITHUB_REPOSITORY in, a target
 * out. Only pull_request and pull_request_target carry a PR to comment on;
 * every other event (push, schedule, workflow_dispatch, issue_comment, ...)
 * has none, and the report goes to the job summary (and the tracking issue).
 */
import { isRecord } from '../util/text.js'

export type EventTarget =
  | { kind: 'pull_request'; owner: string; repo: string; number: number }
  | {
      kind: 'none'
      eventName: string
      /** Why a PR event still has no target (unreadable payload or repository). */
      reason?: string
    }

/** Whether this runs in a GitHub Actions job (the runner sets GITHUB_ACTIONS=true in every step). */
export function inGitHubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true'
}

/** Events whose payload is a pull request the workflow runs for. */
export const PULL_REQUEST_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target'])

function prNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined
}

// GitHub owner and repository names: letters, digits, '-', '_', '.'.
const NAME = /^[A-Za-z0-9_.-]+$/

/** GITHUB_REPOSITORY ('owner/repo') checked and split; undefined when it is unset or not of that form. */
export function splitRepository(full: unknown): { owner: string; repo: string } | undefined {
  if (typeof full !== 'string') return undefined
  const parts = full.trim().split('/')
  if (parts.length !== 2) return undefined
  const [owner, repo] = parts as [string, string]
  if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..') return undefined
  return { owner, repo }
}

export function targetFromEvent(eventName: string, payload: unknown, repository: string): EventTarget {
  if (!PULL_REQUEST_EVENTS.has(eventName)) return { kind: 'none', eventName }
  const body = isRecord(payload) ? payload : {}
  const pr = isRecord(body.pull_request) ? body.pull_request : undefined
  const number = prNumber(pr?.number) ?? prNumber(body.number)
  if (number === undefined) {
    return { kind: 'none', eventName, reason: 'the event payload holds no pull request number' }
  }
  const repoFromPayload = isRecord(body.repository) ? splitRepository(body.repository.full_name) : undefined
  const where = splitRepository(repository) ?? repoFromPayload
  if (where === undefined) {
    return { kind: 'none', eventName, reason: 'GITHUB_REPOSITORY is not set or not of the form owner/repo' }
  }
  return { kind: 'pull_request', owner: where.owner, repo: where.repo, number }
}

/**
 * The commit a run assesses: the pull request's head (GITHUB_SHA is the merge
 * commit on pull_request events), else GITHUB_SHA. Hex only, else null.
 */
export function assessedCommit(payload: unknown, githubSha: string | undefined): string | null {
  const body = isRecord(payload) ? payload : {}
  const pr = isRecord(body.pull_request) ? body.pull_request : undefined
  const head = pr && isRecord(pr.head) ? pr.head.sha : undefined
  for (const sha of [head, githubSha]) if (typeof sha === 'string' && /^[0-9a-f]{7,64}$/i.test(sha)) return sha.toLowerCase()
  return null
}

/**
 * The repository's default branch as the event's payload names it
 * (`repository.default_branch`); null when it names none. The one reading of
 * "the default branch": nothing else takes it from a payload.
 */
export function defaultBranchOf(payload: unknown): string | null {
  const repository = isRecord(payload) && isRecord(payload.repository) ? payload.repository : {}
  const branch = repository.default_branch
  return typeof branch === 'string' && branch !== '' ? branch : null
}

/** Whether `ref` (e.g. GITHUB_REF) is the default branch the payload names; false when it names none. */
export function isDefaultBranchRef(payload: unknown, ref: string): boolean {
  const branch = defaultBranchOf(payload)
  return branch !== null && ref === `refs/heads/${branch}`
}
