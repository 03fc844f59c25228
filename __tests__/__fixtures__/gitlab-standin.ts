/**
 * A local stand-in for GitLab's REST API (v4), for tests: a real HTTP server
 * on 127.0.0.1 (port 0) serving what the merge-request note uses, as GitLab
 * documents it:
 * - authentication by the PRIVATE-TOKEN header (or Authorization: Bearer);
 *   no or an unknown token answers 401 `{"message":"401 Unauthorized"}`;
 * - GET /user: the token's user (any token scope that may call the API);
 * - GET /projects/:id/merge_requests/:iid/notes: offset pagination (page,
 *   per_page up to 100, default 20) with x-page, x-per-page, x-next-page
 *   (empty on the last page), x-prev-page, x-total, x-total-pages and Link,
 *   whose URLs carry every parameter of the request with the route's own (as
 *   GitLab's example shows: `notes?id=8&noteable_id=8&page=3&per_page=3`), on
 *   GitLab's external URL (`externalUrl`: a GitLab whose external_url is
 *   another host gives links there); sort asc|desc (default desc) by
 *   created_at; system notes listed too;
 * - POST .../notes `{body}`: 201 with the note; a blank body or one over
 *   1,000,000 characters answers 400;
 * - PUT .../notes/:note_id `{body}`: 200; another user's note answers 403
 *   `{"message":"403 Forbidden"}`, a system note too;
 * - a project (by numeric id or URL-encoded path) or merge request that does
 *   not exist answers 404 `{"message":"404 Project Not Found"}` / `404 Not found`;
 * - injectable failures: a status with headers (429 with Retry-After or
 *   RateLimit-Reset, or bare: GitLab's note creation limit sends neither and
 *   "access to the endpoint is allowed after one minute"), or 0 for a
 *   connection reset.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface GitLabStandinUser {
  id: number
  username: string
  bot?: boolean
}

export interface GitLabStandinNote {
  id: number
  body: string
  author: GitLabStandinUser
  system: boolean
  created_at: string
}

export interface GitLabStandinRequest {
  method: string
  /** Path under /api/v4, without the query string. */
  path: string
  query: Partial<Record<string, string>>
  token: string | null
  body: unknown
}

export interface GitLabStandinOptions {
  /** Tokens and the users they authenticate as. */
  tokens: Record<string, GitLabStandinUser>
  /** Projects: numeric id → path (namespace/name). */
  projects?: Record<string, string>
  /** GitLab's external URL, which its Link headers are built on; default: the stand-in's own address. */
  externalUrl?: string
}

export interface GitLabStandin {
  /** The API root, as CI_API_V4_URL (…/api/v4). */
  apiUrl: string
  /** The server's root, as CI_SERVER_URL. */
  serverUrl: string
  /** Notes by `<projectId>!<iid>`. */
  notes: Map<string, GitLabStandinNote[]>
  requests: GitLabStandinRequest[]
  /** Opens a merge request (no notes yet). */
  openMergeRequest(projectId: string, iid: number): void
  /** Adds a note as if written on GitLab. */
  seedNote(projectId: string, iid: number, body: string, author: GitLabStandinUser, system?: boolean): GitLabStandinNote
  /** The next `times` requests matching method and path answer `status` (0: connection reset) with `headers`. */
  failNext(method: string, pathPattern: RegExp, status: number, times?: number, headers?: Record<string, string>): void
  stop(): Promise<void>
}

const NOTE_LIMIT = 1_000_000

class Answer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {}
  ) {
    super(`HTTP ${status}`)
  }
}

const fail = (status: number, message: unknown): Answer => new Answer(status, { message })

function readRequestBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    req.on('error', reject)
  })
}

export async function startGitLabStandin(opts: GitLabStandinOptions): Promise<GitLabStandin> {
  const projects = opts.projects ?? { '1': 'acme/shop' }
  const notes = new Map<string, GitLabStandinNote[]>()
  const requests: GitLabStandinRequest[] = []
  const pending: { method: string; pattern: RegExp; status: number; times: number; headers: Record<string, string> }[] = []
  let nextId = 9001
  let clock = Date.parse('2026-11-26T12:00:00Z')

  /** The project's numeric id from an id or a (decoded) path; null when there is none. */
  const projectOf = (raw: string): string | null => {
    if (raw in projects) return raw
    return Object.entries(projects).find(([, path]) => path === raw)?.[0] ?? null
  }
  const mrKey = (projectId: string, iid: number): string => `${projectId}!${iid}`

  function seedNote(projectId: string, iid: number, body: string, author: GitLabStandinUser, system = false): GitLabStandinNote {
    const list = notes.get(mrKey(projectId, iid)) ?? []
    clock += 1000
    const note: GitLabStandinNote = { id: nextId++, body, author: { ...author }, system, created_at: new Date(clock).toISOString() }
    list.push(note)
    notes.set(mrKey(projectId, iid), list)
    return note
  }

  const noteJson = (n: GitLabStandinNote, iid: number): Record<string, unknown> => ({
    id: n.id,
    type: null,
    body: n.body,
    author: { id: n.author.id, username: n.author.username, name: n.author.username, state: 'active' },
    created_at: n.created_at,
    updated_at: n.created_at,
    system: n.system,
    noteable_type: 'MergeRequest',
    noteable_iid: iid,
    resolvable: false,
    confidential: false,
    internal: false
  })

  function checkBody(body: unknown): string {
    const text = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).body : undefined
    if (typeof text !== 'string' || text.trim() === '') throw fail(400, '400 Bad request - Note {:note=>["can\'t be blank"]}')
    if (text.length > NOTE_LIMIT) throw fail(400, { note: [`is too long (maximum is ${NOTE_LIMIT} characters)`] })
    return text
  }

  /** One page of a list, with GitLab's offset pagination headers. */
  function page(all: unknown[], req: GitLabStandinRequest, base: string, routeParams: Record<string, string>): Answer {
    const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? '20') || 20))
    const pageNo = Math.max(1, Number(req.query.page ?? '1') || 1)
    const totalPages = Math.max(1, Math.ceil(all.length / perPage))
    const items = all.slice((pageNo - 1) * perPage, pageNo * perPage)
    const link = (p: number, rel: string): string => {
      const q = new URLSearchParams({ ...routeParams, ...req.query, page: String(p), per_page: String(perPage) } as Record<string, string>)
      return `<${base}${req.path}?${q.toString()}>; rel="${rel}"`
    }
    const links = [...(pageNo < totalPages ? [link(pageNo + 1, 'next')] : []), link(1, 'first'), link(totalPages, 'last')]
    return new Answer(200, items, {
      'x-page': String(pageNo),
      'x-per-page': String(perPage),
      'x-next-page': pageNo < totalPages ? String(pageNo + 1) : '',
      'x-prev-page': pageNo > 1 ? String(pageNo - 1) : '',
      'x-total': String(all.length),
      'x-total-pages': String(totalPages),
      link: links.join(', ')
    })
  }

  function route(req: GitLabStandinRequest, user: GitLabStandinUser, base: string): Answer {
    if (req.method === 'GET' && req.path === '/user')
      return new Answer(200, { ...user, name: user.username, state: 'active', bot: user.bot ?? false })
    const m = /^\/projects\/([^/]+)\/merge_requests\/(\d+)\/notes(?:\/(\d+))?$/.exec(req.path) as [string, string, string, string?] | null
    if (!m) throw fail(404, '404 Not Found')
    const projectId = projectOf(decodeURIComponent(m[1]))
    if (projectId === null) throw fail(404, '404 Project Not Found')
    const iid = Number(m[2])
    const list = notes.get(mrKey(projectId, iid))
    if (!list) throw fail(404, '404 Not found')
    if (m[3] === undefined && req.method === 'GET') {
      const sorted = [...list].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)
      if (req.query.sort !== 'asc') sorted.reverse()
      return page(
        sorted.map((n) => noteJson(n, iid)),
        req,
        base,
        { id: decodeURIComponent(m[1]), noteable_id: m[2] }
      )
    }
    if (m[3] === undefined && req.method === 'POST')
      return new Answer(201, noteJson(seedNote(projectId, iid, checkBody(req.body), user), iid))
    const note = list.find((n) => n.id === Number(m[3]))
    if (!note) throw fail(404, '404 Note Not Found')
    if (req.method === 'GET') return new Answer(200, noteJson(note, iid))
    if (req.method !== 'PUT') throw fail(405, '405 Method Not Allowed')
    if (note.system || note.author.id !== user.id) throw fail(403, '403 Forbidden')
    note.body = checkBody(req.body)
    return new Answer(200, noteJson(note, iid))
  }

  async function handle(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const url = new URL(req.url ?? '/', base)
    const text = await readRequestBody(req)
    const auth = req.headers['private-token'] ?? /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null
    const sent: GitLabStandinRequest = {
      method: req.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v4/, ''),
      query: Object.fromEntries(url.searchParams),
      token: typeof auth === 'string' ? auth : null,
      body: text === '' ? undefined : (JSON.parse(text) as unknown)
    }
    requests.push(sent)
    const send = (a: Answer): void => {
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers })
      res.end(JSON.stringify(a.body))
    }
    const injected = pending.find((p) => p.times > 0 && p.method === sent.method && p.pattern.test(sent.path))
    if (injected) {
      injected.times -= 1
      if (injected.status === 0) {
        req.socket.destroy()
        return
      }
      send(new Answer(injected.status, { message: `${injected.status} injected` }, injected.headers))
      return
    }
    const tokens: Partial<Record<string, GitLabStandinUser>> = opts.tokens
    const user = sent.token !== null ? tokens[sent.token] : undefined
    if (!url.pathname.startsWith('/api/v4/')) {
      send(fail(404, '404 Not Found'))
      return
    }
    if (!user) {
      send(fail(401, '401 Unauthorized'))
      return
    }
    try {
      send(route(sent, user, `${opts.externalUrl ?? base}/api/v4`))
    } catch (err) {
      if (err instanceof Answer) send(err)
      else send(fail(500, String(err)))
    }
  }

  let base = ''
  const server = createServer((req, res) => {
    handle(req, res, base).catch((err: unknown) => {
      res.writeHead(500)
      res.end(String(err))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    apiUrl: `${base}/api/v4`,
    serverUrl: base,
    notes,
    requests,
    openMergeRequest: (projectId, iid) => {
      if (!notes.has(mrKey(projectId, iid))) notes.set(mrKey(projectId, iid), [])
    },
    seedNote,
    failNext: (method, pattern, status, times = 1, headers = {}) => {
      pending.push({ method, pattern, status, times, headers })
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      })
  }
}
