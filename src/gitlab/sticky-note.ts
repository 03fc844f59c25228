/**
 * The sticky merge-request note: one per model, found by the same hidden
 * marker as the GitHub comment (src/report/comment.ts) and owned by the same
 * rule (isOwnedComment in src/github/ownership.ts: written by the token's own
 * user, here as GitLab's GET /user names it), edited in place on the next run.
 *
 * - A note holding the marker that another user wrote is left alone, and a
 *   system note is never ours.
 * - When the token's user cannot be read, no note is written: without it no
 *   note can be told ours, and a new one could duplicate ours.
 * - Every page of notes is read (oldest first), up to MAX_PAGES, following
 *   GitLab's Link header.
 * - A create whose answer was lost is looked for before it is sent again.
 *
 * Writing the note never changes the gate's result: a failure is a warning
 * that says why and how to fix it, and the outcome is `skipped`.
 */
import { AbortedError, describeFailure, GitLabError, RemoteError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { isOwnedComment } from '../github/ownership.js'
import { hasMarker, MAX_PAGES, withMarker, type CommentBody } from '../github/sticky-comment.js'
import { GITLAB_NOTE_LIMIT, type GitLabNote, type GitLabUser, type MergeRequestRef, type NotesApi } from './notes-api.js'

export interface NoteOutcome {
  action: 'created' | 'updated' | 'skipped'
  noteId: number | null
  reason?: string
}

/** Whether a note holding the marker is ours: the one rule of an owned comment, with GitLab's username as the login. */
export function ownsNote(note: GitLabNote, own: GitLabUser): boolean {
  return !note.system && isOwnedComment(note.author ? { login: note.author.username } : null, own.username)
}

/** The first note of ours holding the marker, searched through every page. */
export async function findStickyNote(
  api: NotesApi,
  mr: MergeRequestRef,
  marker: string,
  own: GitLabUser,
  log: Log
): Promise<GitLabNote | null> {
  let next: string | null = null
  for (let read = 0; read < MAX_PAGES; read++) {
    const page: { items: GitLabNote[]; next: string | null } = await api.listNotes(mr, next)
    for (const note of page.items) {
      if (!hasMarker(note.body, marker)) continue
      if (ownsNote(note, own)) return note
      log.debug(`Note ${note.id} holds the marker but was not written by this token's user; left alone.`)
    }
    if (page.items.length === 0 || page.next === null) return null
    next = page.next
  }
  if (next !== null) log.debug(`No sticky note found in the first ${MAX_PAGES} pages of notes; a new one is added.`)
  return null
}

const TOKEN_HINT =
  'Fix: give the job a token of a user or bot with at least the Reporter role in the project and the `api` scope ' +
  '(a project access token in a masked CI/CD variable, GITLAB_TOKEN); CI_JOB_TOKEN cannot write notes.'

/** The warning for a note that could not be read or written, and the short reason of the outcome. */
export function explainNoteFailure(err: unknown, mr: MergeRequestRef): { warning: string; reason: string } {
  const where = `merge request !${mr.iid} of project ${mr.projectId}`
  const head = `Could not write the note on ${where} (the gate's result is unchanged)`
  const said = describeFailure(err)
  if (err instanceof GitLabError && err.status === 401)
    return {
      warning: `${head}: GitLab answered 401, the token is not valid or has expired (${said}). ${TOKEN_HINT}`,
      reason: 'unauthorized (401)'
    }
  if (err instanceof GitLabError && err.status === 403)
    return {
      warning: `${head}: GitLab answered 403, the token may not write notes there (${said}). ${TOKEN_HINT}`,
      reason: 'forbidden (403)'
    }
  if (err instanceof GitLabError && err.status === 404)
    return {
      warning: `${head}: GitLab answered 404, the merge request is not visible to the token (${said}). ${TOKEN_HINT}`,
      reason: 'not found (404)'
    }
  return { warning: `${head}: ${said}`, reason: 'GitLab failed' }
}

/** The note's text: the marker first, within GitLab's limit (a longer body is a bug of the renderer). */
function noteText(body: CommentBody, existing: string | null, marker: string): string {
  const text = withMarker(typeof body === 'string' ? body : body(existing), marker)
  if (text.length > GITLAB_NOTE_LIMIT)
    throw new Error(`note body of ${text.length} characters is over GitLab's limit of ${GITLAB_NOTE_LIMIT}`)
  return text
}

export async function postStickyNote(
  api: NotesApi,
  mr: MergeRequestRef,
  body: CommentBody,
  marker: string,
  log: Log
): Promise<NoteOutcome> {
  try {
    let own: GitLabUser
    try {
      own = await api.currentUser()
    } catch (err) {
      if (err instanceof AbortedError) throw err
      const why = `GitLab did not say who the token's user is (GET /user: ${describeFailure(err)}), so no note can be told ours`
      log.warning(`Could not write the merge-request note (the gate's result is unchanged): ${why}. ${TOKEN_HINT}`)
      return { action: 'skipped', noteId: null, reason: 'the token user is unknown' }
    }
    const existing = await findStickyNote(api, mr, marker, own, log)
    if (existing) {
      const updated = await api.updateNote(mr, existing.id, noteText(body, existing.body, marker))
      return { action: 'updated', noteId: updated.id }
    }
    const created = await api.createNote(mr, noteText(body, null, marker), () => findStickyNote(api, mr, marker, own, log))
    return { action: 'created', noteId: created.id }
  } catch (err) {
    if (err instanceof AbortedError) throw err
    // A GitLab failure, or the budget running out while a rate limit is waited out (DeadlineExceededError).
    if (!(err instanceof RemoteError)) throw err
    const { warning, reason } = explainNoteFailure(err, mr)
    log.warning(warning)
    return { action: 'skipped', noteId: null, reason }
  }
}
