/**
 * Publishing to GitLab: the sticky merge-request note of a merge-request
 * pipeline. Never changes the gate's result: every failure here is a warning
 * that says how to fix it.
 */
import type { PublishArgs, PublishDeps, Published } from '../github/publish.js'
import { Deadline, type Clock } from '../util/clock.js'
import type { Log } from '../util/log.js'
import { readGitLabCi, type GitLabCi } from './ci-context.js'
import { secretsAtRisk } from './fork-rule.js'
import { notesApi } from './notes-api.js'
import { postStickyNote, type NoteOutcome } from './sticky-note.js'
import { gitlabCalls } from './transport.js'

export interface GitLabPublishDeps {
  log: Log
  clock: Clock
  signal?: AbortSignal
  random?: () => number
  /** Timeout of one request (tests). */
  requestTimeoutMs?: number
}

export interface GitLabPublishArgs {
  ci: GitLabCi
  /** A token with the `api` scope (GITLAB_TOKEN); empty: no note. */
  token: string
  marker: string
  /** Rendered only when a note will be written; given the body it replaces (null when none). */
  noteBody: (existing: string | null) => string
}

export interface GitLabPublished {
  outcome: NoteOutcome | null
  /** The note's address on the merge request's page, when one was written and the page is known. */
  noteUrl: string | null
}

/**
 * GitLab calls get their own short budget: they must not hold the job for long, yet leave room for the one wait a
 * rate limit asks without saying when it lifts (a minute, GITLAB_RATE_LIMIT_WAIT_MS) and the calls around it.
 */
export const GITLAB_BUDGET_MS = 150_000

export async function publishToGitLab(deps: GitLabPublishDeps, args: GitLabPublishArgs): Promise<GitLabPublished> {
  const { log } = deps
  const none: GitLabPublished = { outcome: null, noteUrl: null }
  const mr = args.ci.mergeRequest
  if (args.ci.mergeRequestGap !== null) {
    log.warning(`No merge-request note: ${args.ci.mergeRequestGap}.`)
    return none
  }
  if (mr === null) {
    log.info('Not a merge-request pipeline: no merge-request note (the report files hold the result).')
    return none
  }
  if (secretsAtRisk(args.ci)) {
    log.warning("No merge-request note: this pipeline runs a fork's code, and the token is not used there.")
    return none
  }
  if (args.token === '') {
    log.warning('GITLAB_TOKEN is empty, so no merge-request note can be written: set it to a token with the `api` scope.')
    return none
  }
  if (args.ci.apiUrl === null) {
    log.warning('Neither CI_API_V4_URL nor CI_SERVER_URL holds an http(s) URL, so GitLab cannot be reached: no merge-request note.')
    return none
  }
  const api = notesApi(
    gitlabCalls({
      token: args.token,
      apiUrl: args.ci.apiUrl,
      clock: deps.clock,
      deadline: Deadline.after(deps.clock, GITLAB_BUDGET_MS),
      signal: deps.signal,
      log,
      random: deps.random,
      requestTimeoutMs: deps.requestTimeoutMs
    }),
    args.ci.apiUrl
  )
  const outcome = await postStickyNote(api, mr, args.noteBody, args.marker, log)
  const noteUrl = outcome.noteId !== null && mr.webUrl !== null ? `${mr.webUrl}#note_${outcome.noteId}` : null
  if (outcome.action !== 'skipped') log.info(`Merge-request note ${outcome.action}${noteUrl ? `: ${noteUrl}` : ''}`)
  return { outcome, noteUrl }
}

/**
 * The merge-request note in place of the GitHub comment, for a shell whose job
 * runs in GitLab CI: the same arguments as publishToGitHub (the report's
 * marker and body), the token from GITLAB_TOKEN, the note's address as the
 * comment's. `comment: off` writes nothing.
 */
export async function publishNoteInsteadOfComment(deps: PublishDeps, args: PublishArgs): Promise<Published> {
  if (args.inputs.comment === 'off') return { commentUrl: null, issueUrl: null }
  const out = await publishToGitLab(
    { log: deps.log, clock: deps.clock, signal: deps.signal, random: deps.random },
    { ci: readGitLabCi(deps.env), token: deps.env.GITLAB_TOKEN ?? '', marker: args.marker, noteBody: args.commentBody }
  )
  return { commentUrl: out.noteUrl, issueUrl: null }
}
