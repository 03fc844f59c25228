/**
 * GitLab's merge-request notes and the token's user, over the retrying
 * transport (./transport.ts): GET /user, GET (paginated, oldest first), POST
 * and PUT /projects/:id/merge_requests/:iid/notes. Answers are checked for
 * the fields used; anything else is a GitLabError naming the endpoint.
 */
import { z } from 'zod'
import { GitLabError } from '../util/errors.js'
import { header, type GitLabAnswer, type GitLabCall } from './transport.js'

/** GitLab's limit on a note's body, in characters. */
export const GITLAB_NOTE_LIMIT = 1_000_000

/** Notes per page asked for (GitLab's most). */
export const NOTES_PER_PAGE = 100

export interface GitLabUser {
  id: number
  username: string
}

export interface GitLabNote {
  id: number
  body: string
  author: GitLabUser | null
  /** A note GitLab wrote itself (a push, a label change): never ours. */
  system: boolean
}

export interface MergeRequestRef {
  /** The merge request's project: its numeric id or its URL-encoded path. */
  projectId: string
  iid: number
}

export interface NotesPage {
  items: GitLabNote[]
  /** The next page's number (x-next-page), null on the last page. */
  nextPage: number | null
}

export interface NotesApi {
  currentUser(): Promise<GitLabUser>
  listNotes(mr: MergeRequestRef, page: number): Promise<NotesPage>
  createNote(mr: MergeRequestRef, body: string, findExisting?: () => Promise<GitLabNote | null>): Promise<GitLabNote>
  updateNote(mr: MergeRequestRef, noteId: number, body: string): Promise<GitLabNote>
}

const User = z.object({ id: z.number().int(), username: z.string().min(1) })
const Note = z.object({
  id: z.number().int().positive(),
  body: z.string(),
  author: User.nullable().optional(),
  system: z.boolean().optional()
})

function parse<S extends z.ZodType>(schema: S, answer: GitLabAnswer, endpoint: string): z.infer<S> {
  const out = schema.safeParse(answer.data)
  if (out.success) return out.data
  const at = out.error.issues[0]?.path.join('.') ?? ''
  throw new GitLabError({
    endpoint,
    status: answer.status,
    code: 'malformed_response',
    message: `the answer does not hold what was expected${at ? ` (at ${at})` : ''}`,
    transient: false
  })
}

function toNote(n: z.infer<typeof Note>): GitLabNote {
  return { id: n.id, body: n.body, author: n.author ?? null, system: n.system ?? false }
}

const notesPath = (mr: MergeRequestRef): string => `/projects/${encodeURIComponent(mr.projectId)}/merge_requests/${mr.iid}/notes`

/** The next page's number from x-next-page (empty on the last page). */
function nextPageOf(answer: GitLabAnswer): number | null {
  const n = Number(header(answer.headers, 'x-next-page') ?? '')
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

export function notesApi(call: GitLabCall): NotesApi {
  return {
    currentUser: () => call('GET', '/user', undefined, (a, e) => parse(User, a, e)),
    listNotes: (mr, page) =>
      call('GET', `${notesPath(mr)}?sort=asc&order_by=created_at&per_page=${NOTES_PER_PAGE}&page=${page}`, undefined, (a, e) => ({
        items: parse(z.array(Note), a, e).map(toNote),
        nextPage: nextPageOf(a)
      })),
    createNote: (mr, body, findExisting) => call('POST', notesPath(mr), { body }, (a, e) => toNote(parse(Note, a, e)), findExisting),
    updateNote: (mr, noteId, body) => call('PUT', `${notesPath(mr)}/${noteId}`, { body }, (a, e) => toNote(parse(Note, a, e)))
  }
}
