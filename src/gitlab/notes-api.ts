/**
 * GitLab's merge-request notes and the token's user, over the retrying
 * transport (./transport.ts): GET /user, GET (paginated, oldest first), POST
 * and PUT /projects/:id/merge_requests/:iid/notes. Answers are checked for
 * the fields used; anything else is a GitLabError naming the endpoint.
 *
 * Pages are followed by the `Link` header's rel="next" URL, as GitLab's REST
 * documentation asks ("use these links instead of generating your own URLs"),
 * never by a URL built here; an answer without a Link header falls back on
 * x-next-page. A next URL outside the API root is refused (the token would
 * travel there): the list is then unread, and no note is written.
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
  /** The next page, as a path under the API root with its query (the Link header's rel="next"); null on the last page. */
  next: string | null
}

export interface NotesApi {
  currentUser(): Promise<GitLabUser>
  /** The first page of notes (`next` null), or the page a previous one named as next. */
  listNotes(mr: MergeRequestRef, next: string | null): Promise<NotesPage>
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

/** The URL of the Link header's relation `rel` (`<url>; rel="next", <url>; rel="first"`); null when there is none. */
export function linkOf(link: string | undefined, rel: string): string | null {
  for (const part of (link ?? '').split(',')) {
    const m = /^\s*<([^>]*)>((?:\s*;\s*[^;]*)*)$/.exec(part)
    if (!m) continue
    const rels = /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(m[2])?.[1]?.split(/\s+/) ?? []
    if (rels.includes(rel)) return m[1]
  }
  return null
}

/**
 * The next page as a path under `apiUrl`: the Link header's rel="next" (it must
 * be under the API root, on the same origin), else x-next-page on `path`; null on the last page.
 */
export function nextPageOf(answer: GitLabAnswer, endpoint: string, apiUrl: string, path: string): string | null {
  const link = header(answer.headers, 'link')
  if (link !== undefined && link.trim() !== '') {
    const next = linkOf(link, 'next')
    if (next === null) return null
    let url: URL
    try {
      url = new URL(next)
    } catch {
      url = new URL('invalid:')
    }
    const root = new URL(apiUrl)
    const rootPath = root.pathname.replace(/\/+$/, '')
    if (url.origin !== root.origin || !url.pathname.startsWith(`${rootPath}/`) || url.username || url.password)
      throw new GitLabError({
        endpoint,
        status: answer.status,
        code: 'foreign_next_link',
        message: `the Link header's next page is not under the API root ${apiUrl}: it is not followed (the token would go there)`,
        transient: false
      })
    return `${url.pathname.slice(rootPath.length)}${url.search}`
  }
  const n = Number(header(answer.headers, 'x-next-page') ?? '')
  if (!Number.isSafeInteger(n) || n <= 0) return null
  const u = new URL(path, 'http://x')
  u.searchParams.set('page', String(n))
  return `${u.pathname}${u.search}`
}

/** The merge request's notes, oldest first, as many a page as GitLab gives. */
const firstNotesPage = (mr: MergeRequestRef): string => `${notesPath(mr)}?sort=asc&order_by=created_at&per_page=${NOTES_PER_PAGE}&page=1`

export function notesApi(call: GitLabCall, apiUrl: string): NotesApi {
  return {
    currentUser: () => call('GET', '/user', undefined, (a, e) => parse(User, a, e)),
    listNotes: (mr, next) => {
      const path = next ?? firstNotesPage(mr)
      return call('GET', path, undefined, (a, e) => ({
        items: parse(z.array(Note), a, e).map(toNote),
        next: nextPageOf(a, e, apiUrl, path)
      }))
    },
    createNote: (mr, body, findExisting) => call('POST', notesPath(mr), { body }, (a, e) => toNote(parse(Note, a, e)), findExisting),
    updateNote: (mr, noteId, body) => call('PUT', `${notesPath(mr)}/${noteId}`, { body }, (a, e) => toNote(parse(Note, a, e)))
  }
}
