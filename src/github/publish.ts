/**
 * Publishing to GitHub: the sticky PR comment on pull-request events, the
 * tracking issue on other events. Never changes the gate's result: every
 * failure here is a warning that says how to fix it. The GitHub client
 * (@actions/github) is loaded only when there is something to post.
 */
import { readFile } from 'node:fs/promises'
import { Deadline, type Clock } from '../util/clock.js'
import { describeFailure } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { nonEmpty } from '../util/text.js'
import { parseJsonFile } from '../util/parse-file.js'
import { splitRepository, targetFromEvent } from './event-target.js'
import { createGitHubClient } from './github-client.js'
import { postStickyComment, type CommentMode, type PullRequestRef } from './sticky-comment.js'
import { syncTrackingIssue } from './tracking-issue.js'

export interface PublishDeps {
  /** The runner's environment (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL). */
  env: NodeJS.ProcessEnv
  log: Log
  clock: Clock
  signal: AbortSignal
  random?: () => number
}

/** The inputs that say what to write (`comment`, `issue`, `github_token`). */
export interface PublishSettings {
  comment: CommentMode
  issue: 'off' | 'update'
  githubToken: string
}

export interface PublishArgs {
  inputs: PublishSettings
  marker: string
  /** Rendered only when a comment or issue will be written; given the body it replaces (null when none). */
  commentBody: (existing: string | null) => string
  issueTitle: string
  failing: boolean
  /**
   * The pull request to comment on when the event is not one (a deployment of
   * its commit runs on the default branch); absent: the event's.
   */
  pullRequest?: PullRequestRef | null
}

export interface Published {
  commentUrl: string | null
  issueUrl: string | null
}

/** GitHub calls get their own short budget: they must not hold the check for long. */
const GITHUB_BUDGET_MS = 60_000

/**
 * The event payload (GITHUB_EVENT_PATH): its value (null when no path is set),
 * or why it cannot be read (no such file, not JSON, nested deeper than any real one).
 */
export async function readEventFile(path: string | undefined): Promise<{ ok: true; value: unknown } | { ok: false; why: string }> {
  if (!path) return { ok: true, value: null }
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    return { ok: false, why: `it cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` }
  }
  const parsed = parseJsonFile(text)
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, why: `it ${parsed.why.slice(0, 200)}` }
}

/**
 * The event payload, or null when it cannot be read. The main step reads it
 * first with readEventFile and fails closed when it cannot: later readers see
 * the same file.
 */
export async function readEventPayload(path: string | undefined): Promise<unknown> {
  const read = await readEventFile(path)
  return read.ok ? read.value : null
}

export async function publishToGitHub(deps: PublishDeps, args: PublishArgs): Promise<Published> {
  const { env, log } = deps
  const none: Published = { commentUrl: null, issueUrl: null }
  const target = args.pullRequest
    ? { kind: 'pull_request' as const, ...args.pullRequest }
    : targetFromEvent(env.GITHUB_EVENT_NAME ?? '', await readEventPayload(env.GITHUB_EVENT_PATH), env.GITHUB_REPOSITORY ?? '')
  const wantComment = target.kind === 'pull_request' && args.inputs.comment !== 'off'
  const wantIssue = target.kind === 'none' && args.inputs.issue === 'update'
  if (!wantComment && !wantIssue) {
    if (target.kind === 'none' && args.inputs.comment !== 'off')
      log.info(`No pull request for event '${target.eventName}': the report is in the job summary.`)
    return none
  }
  if (args.inputs.githubToken === '') {
    log.warning('github_token is empty, so no comment or issue can be written: leave github_token at its default (${{ github.token }}).')
    return none
  }
  try {
    const api = await createGitHubClient({
      token: args.inputs.githubToken,
      apiUrl: nonEmpty(env.GITHUB_API_URL) ?? 'https://api.github.com',
      clock: deps.clock,
      deadline: Deadline.after(deps.clock, GITHUB_BUDGET_MS),
      signal: deps.signal,
      log,
      random: deps.random
    })
    if (target.kind === 'pull_request') {
      const out = await postStickyComment(api, target, args.commentBody, args.marker, args.inputs.comment, log)
      if (out.url) log.info(`PR comment ${out.action}: ${out.url}`)
      return { commentUrl: out.url, issueUrl: null }
    }
    const repository = splitRepository(env.GITHUB_REPOSITORY)
    if (!repository) {
      log.warning('GITHUB_REPOSITORY is not set (or not owner/repo), so the tracking issue cannot be kept.')
      return none
    }
    const out = await syncTrackingIssue(
      api,
      repository,
      { marker: args.marker, title: args.issueTitle, body: args.commentBody, failing: args.failing },
      log
    )
    if (out.url) log.info(`Tracking issue ${out.action}: ${out.url}`)
    return { commentUrl: null, issueUrl: out.url }
  } catch (err) {
    log.warning(`Could not publish to GitHub (the gate's result is unchanged): ${describeFailure(err)}`)
    return none
  }
}
