/**
 * A local stand-in for the GitHub REST API, for tests: a real HTTP server on
 * 127.0.0.1 (port 0) serving the issue and comment endpoints the action uses,
 * the commits, pull requests, statuses and comparisons of
 * github-standin-git.ts, and GraphQL's viewer, with GitHub's pagination
 * (per_page/page, Link rel="next"/"last"), its error bodies, a read-only mode
 * (every write answers 403 like a fork PR's token) and injectable failures.
 *
 * The state is keyed by issue/PR number alone: any owner/repo is served
 * unless `repository` names the only one (others then answer 404, like a
 * repository the token cannot see).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { addCommit, createGitState, routeGit, type GitState, type StandinCommit, type StandinPull } from './github-standin-git.js'

export interface StandinUser {
  login: string
  type: 'User' | 'Bot'
}

export interface StandinComment {
  id: number
  body: string
  user: StandinUser
  html_url: string
}

export interface StandinIssue {
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  state_reason?: string | null
  html_url: string
  user: StandinUser
  pull_request?: { url: string; html_url: string }
}

export interface StandinRequest {
  method: string
  /** Path without the query string. */
  path: string
  /** Every parameter the request had (look names up through `param`, as one may be missing). */
  query: Record<string, string>
  auth: string | null
  body: unknown
  /** The request's headers, names in lower case (as Node gives them). */
  headers: Record<string, string>
}

/** A query parameter of the request, undefined when it was not sent. */
function param(req: StandinRequest, name: string): string | undefined {
  const query: Partial<Record<string, string>> = req.query
  return query[name]
}

export interface Failure {
  /** 0 resets the connection without an answer. */
  status: number
  headers?: Record<string, string>
  body?: unknown
}

export interface StandinOptions {
  /** Largest page served (GitHub: 100). */
  perPage?: number
  /** Called for every authenticated request; a Failure answers instead of the handler. */
  failWith?: (req: StandinRequest) => Failure | undefined
  /**
   * When set, the one repository served: any other answers 404 like a
   * repository the token cannot see. Unset: any owner/repo is served, from the
   * one state (comments keyed by issue number).
   */
  repository?: string
  /** Who writes comments and issues. Default github-actions[bot], as with the GITHUB_TOKEN. */
  actor?: StandinUser
  /**
   * 'installation' (default): GET /user answers 403 like the GITHUB_TOKEN.
   * 'user': GET /user answers the actor, like a personal access token.
   */
  tokenKind?: 'installation' | 'user'
  /** Whether GraphQL's `viewer` tells the actor's login (default true, as for every token kind); false answers 403. */
  graphqlViewer?: boolean
}

/** An Actions cache entry as GET /repos/{o}/{r}/actions/caches lists it. */
export interface ListedCacheEntry {
  key: string
  ref: string
  created_at: string
  id: number
}

export interface GitHubStandin {
  url: string
  /**
   * The Actions caches of the repository (GET /repos/{o}/{r}/actions/caches, `key` a prefix,
   * `ref` exact), e.g. a cache stand-in's listCaches; unset: none.
   */
  setActionsCaches(list: (q: { key?: string; ref?: string }) => ListedCacheEntry[]): void
  /** Files served by the contents API, by commit SHA (or branch name) then path. */
  files: Map<string, Map<string, string>>
  /** Puts a file at a commit, as if committed there. */
  setFile(ref: string, path: string, text: string): void
  state: { comments: Map<number, StandinComment[]>; issues: StandinIssue[] }
  /** Commits, pull requests and statuses (github-standin-git.ts). */
  git: GitState
  /** Adds a commit with its parent (null: a root) and the paths it changes. */
  addCommit(sha: string, parent: string | null, files: string[], renamedFrom?: Record<string, string>): StandinCommit
  /** Points a branch of this repository at a commit (as a push would). */
  setBranch(name: string, sha: string): void
  /** Adds a pull request (open, not merged, base main, head commits [headSha] unless given; headRepo: a fork's). */
  seedPull(fields: Partial<StandinPull> & { number: number; headSha: string }): StandinPull
  requests: StandinRequest[]
  /** The next `times` (default 1) requests matching method and path answer `status` (0: connection reset). */
  failNext(method: string, pathPattern: RegExp, status: number, times?: number, headers?: Record<string, string>): void
  /** Every write answers 403 "Resource not accessible by integration", as with a fork PR's token. */
  setReadOnly(on: boolean): void
  /** Adds a comment as if written on GitHub (default author: the actor). */
  seedComment(issueNumber: number, body: string, user?: StandinUser): StandinComment
  /** Adds an issue (or a pull request with `pullRequest`) as if opened on GitHub. */
  seedIssue(fields: {
    title: string
    body: string | null
    state?: 'open' | 'closed'
    user?: StandinUser
    pullRequest?: boolean
  }): StandinIssue
  stop(): Promise<void>
}

const DOCS = 'https://docs.github.com/rest'

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {}
  ) {
    super(message)
  }
}

export async function startGitHubStandin(opts: StandinOptions = {}): Promise<GitHubStandin> {
  const maxPerPage = opts.perPage ?? 100
  const only = opts.repository
  // Where html_url values point: the last repository asked for (or the one served).
  let [owner, repo] = (only ?? 'octo/agent').split('/') as [string, string]
  const actor: StandinUser = opts.actor ?? { login: 'github-actions[bot]', type: 'Bot' }
  const tokenKind = opts.tokenKind ?? 'installation'
  const state = { comments: new Map<number, StandinComment[]>(), issues: [] as StandinIssue[] }
  const git = createGitState()
  const requests: StandinRequest[] = []
  const pending: { method: string; pattern: RegExp; status: number; times: number; headers: Record<string, string> }[] = []
  let readOnly = false
  const files = new Map<string, Map<string, string>>()
  let nextCommentId = 1_000_001
  let url = ''

  const webUrl = 'https://github.com'
  const issueHtml = (n: number): string => {
    const found = state.issues.find((i) => i.number === n)
    return `${webUrl}/${owner}/${repo}/${found?.pull_request ? 'pull' : 'issues'}/${n}`
  }
  const nextIssueNumber = (): number => {
    const used = [...state.issues.map((i) => i.number), ...state.comments.keys()]
    return used.length === 0 ? 1 : Math.max(...used) + 1
  }

  function seedComment(issueNumber: number, body: string, user: StandinUser = actor): StandinComment {
    const id = nextCommentId++
    const comment: StandinComment = { id, body, user: { ...user }, html_url: `${issueHtml(issueNumber)}#issuecomment-${id}` }
    const list = state.comments.get(issueNumber) ?? []
    list.push(comment)
    state.comments.set(issueNumber, list)
    return comment
  }

  function seedIssue(fields: {
    title: string
    body: string | null
    state?: 'open' | 'closed'
    user?: StandinUser
    pullRequest?: boolean
  }): StandinIssue {
    const number = nextIssueNumber()
    const issue: StandinIssue = {
      number,
      title: fields.title,
      body: fields.body,
      state: fields.state ?? 'open',
      state_reason: null,
      html_url: `${webUrl}/${owner}/${repo}/${fields.pullRequest ? 'pull' : 'issues'}/${number}`,
      user: { ...(fields.user ?? actor) }
    }
    if (fields.pullRequest) {
      issue.pull_request = { url: `${url}/repos/${owner}/${repo}/pulls/${number}`, html_url: issue.html_url }
    }
    state.issues.push(issue)
    if (!state.comments.has(number)) state.comments.set(number, [])
    return issue
  }

  const commentJson = (c: StandinComment, issueNumber: number): Record<string, unknown> => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${url}/repos/${owner}/${repo}/issues/comments/${c.id}`,
    html_url: c.html_url,
    issue_url: `${url}/repos/${owner}/${repo}/issues/${issueNumber}`,
    body: c.body,
    user: { login: c.user.login, type: c.user.type },
    author_association: c.user.type === 'Bot' ? 'NONE' : 'MEMBER'
  })

  const issueJson = (i: StandinIssue): Record<string, unknown> => ({
    id: 5_000_000 + i.number,
    number: i.number,
    url: `${url}/repos/${owner}/${repo}/issues/${i.number}`,
    html_url: i.html_url,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.state_reason ?? null,
    user: { login: i.user.login, type: i.user.type },
    comments: state.comments.get(i.number)?.length ?? 0,
    ...(i.pull_request ? { pull_request: i.pull_request } : {})
  })

  function paginate<T>(res: ServerResponse, req: StandinRequest, items: T[]): T[] {
    const perPage = Math.min(maxPerPage, Math.max(1, Number(param(req, 'per_page') ?? 30) || 30))
    const page = Math.max(1, Math.floor(Number(param(req, 'page') ?? 1)) || 1)
    const last = Math.max(1, Math.ceil(items.length / perPage))
    const link = (p: number): string => {
      const q = new URLSearchParams({ ...req.query, per_page: String(perPage), page: String(p) })
      return `${url}${req.path}?${q.toString()}`
    }
    const rels: string[] = []
    if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`)
    if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`)
    if (page < last) rels.push(`<${link(last)}>; rel="last"`)
    if (page > 1) rels.push(`<${link(1)}>; rel="first"`)
    if (rels.length > 0) res.setHeader('link', rels.join(', '))
    return items.slice((page - 1) * perPage, page * perPage)
  }

  function requireText(body: unknown, field: string, resource: string, max = 65536): string {
    const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined
    if (typeof value !== 'string' || value === '') {
      throw new HttpFailure(422, 'Validation Failed', { errors: [{ resource, code: 'missing_field', field }] })
    }
    if (value.length > max) {
      throw new HttpFailure(422, 'Validation Failed', {
        errors: [{ resource, code: 'custom', field, message: `${field} is too long (maximum is ${max} characters)` }]
      })
    }
    return value
  }

  let actionsCaches: (q: { key?: string; ref?: string }) => ListedCacheEntry[] = () => []
  function route(req: StandinRequest, res: ServerResponse): { status: number; body: unknown } {
    const m = req.method
    if (m === 'GET' && req.path === '/user') {
      if (tokenKind === 'installation') throw new HttpFailure(403, 'Resource not accessible by integration')
      return { status: 200, body: { login: actor.login, id: 1, type: actor.type } }
    }
    if (m === 'POST' && req.path === '/graphql') {
      const query = (req.body as Record<string, unknown> | undefined)?.query
      if (typeof query !== 'string' || !/\bviewer\s*\{\s*login\s*\}/.test(query)) {
        return { status: 200, body: { errors: [{ message: 'the stand-in answers only { viewer { login } }' }] } }
      }
      if (opts.graphqlViewer === false) throw new HttpFailure(403, 'Resource not accessible by integration')
      return { status: 200, body: { data: { viewer: { login: actor.login } } } }
    }
    const parts = /^\/repos\/([^/]+)\/([^/]+)(\/.*)$/.exec(req.path)
    if (!parts) throw new HttpFailure(404, 'Not Found')
    const [askedOwner, askedRepo] = [decodeURIComponent(parts[1]), decodeURIComponent(parts[2])]
    if (only !== undefined && `${askedOwner}/${askedRepo}` !== only) throw new HttpFailure(404, 'Not Found')
    ;[owner, repo] = [askedOwner, askedRepo]
    const rest = parts[3]
    const isWrite = m !== 'GET'
    if (isWrite && readOnly) throw new HttpFailure(403, 'Resource not accessible by integration')

    const gitAnswer = routeGit(git, {
      method: m,
      rest,
      body: req.body,
      url,
      owner,
      repo,
      paginate: (items) => paginate(res, req, items),
      fail: (status, message, extra) => {
        throw new HttpFailure(status, message, extra)
      },
      page: Math.max(1, Math.floor(Number(param(req, 'page') ?? 1)) || 1),
      param: (name) => param(req, name),
      actor
    })
    if (gitAnswer) return gitAnswer

    if (rest === '/actions/caches' && m === 'GET') {
      const all = actionsCaches({ key: param(req, 'key'), ref: param(req, 'ref') })
      const perPage = Math.min(100, Number(param(req, 'per_page') ?? 30) || 30)
      return { status: 200, body: { total_count: all.length, actions_caches: all.slice(0, perPage) } }
    }

    const contents = /^\/contents\/(.+)$/.exec(rest)
    if (contents && m === 'GET') {
      const path = decodeURIComponent(contents.at(1) ?? '')
      const ref = (req.query as Partial<Record<string, string>>).ref ?? 'main'
      const text = files.get(ref)?.get(path)
      if (text === undefined) throw new HttpFailure(404, 'Not Found')
      const buf = Buffer.from(text, 'utf8')
      return {
        status: 200,
        body: {
          type: 'file',
          encoding: 'base64',
          size: buf.length,
          name: path.split('/').pop(),
          path,
          sha: `blob-${buf.length}`,
          content: buf.toString('base64').replace(/(.{60})/g, '$1\n')
        }
      }
    }
    let hit = /^\/issues\/(\d+)\/comments$/.exec(rest)
    if (hit) {
      const n = Number(hit[1])
      if (m === 'GET') {
        const list = state.comments.get(n) ?? []
        return { status: 200, body: paginate(res, req, list).map((c) => commentJson(c, n)) }
      }
      if (m === 'POST') {
        const text = requireText(req.body, 'body', 'IssueComment')
        return { status: 201, body: commentJson(seedComment(n, text), n) }
      }
    }
    hit = /^\/issues\/comments\/(\d+)$/.exec(rest)
    if (hit && m === 'PATCH') {
      const id = Number(hit[1])
      for (const [n, list] of state.comments) {
        const c = list.find((x) => x.id === id)
        if (c) {
          c.body = requireText(req.body, 'body', 'IssueComment')
          return { status: 200, body: commentJson(c, n) }
        }
      }
      throw new HttpFailure(404, 'Not Found')
    }
    if (rest === '/issues') {
      if (m === 'GET') {
        const wanted = param(req, 'state') ?? 'open'
        const list = state.issues.filter((i) => wanted === 'all' || i.state === wanted).sort((a, b) => b.number - a.number)
        return { status: 200, body: paginate(res, req, list).map(issueJson) }
      }
      if (m === 'POST') {
        const title = requireText(req.body, 'title', 'Issue', 256)
        const body = (req.body as Record<string, unknown>).body
        const issue = seedIssue({ title, body: typeof body === 'string' ? body : null })
        return { status: 201, body: issueJson(issue) }
      }
    }
    hit = /^\/issues\/(\d+)$/.exec(rest)
    if (hit && m === 'PATCH') {
      const issue = state.issues.find((i) => i.number === Number(hit[1]))
      if (!issue) throw new HttpFailure(404, 'Not Found')
      const b = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>
      if (typeof b.title === 'string') issue.title = b.title
      if (typeof b.body === 'string') issue.body = b.body
      if (b.state === 'open' || b.state === 'closed') {
        issue.state = b.state
        issue.state_reason = b.state === 'closed' ? (typeof b.state_reason === 'string' ? b.state_reason : 'completed') : 'reopened'
      }
      return { status: 200, body: issueJson(issue) }
    }
    throw new HttpFailure(404, 'Not Found')
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.statusCode = status
    res.setHeader('content-type', 'application/json; charset=utf-8')
    res.setHeader('x-github-media-type', 'github.v3; format=json')
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v)
    res.end(body === undefined ? '' : JSON.stringify(body))
  }

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    if (text === '') return undefined
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://standin')
      const body = await readBody(req)
      const authHeader = typeof req.headers.authorization === 'string' ? req.headers.authorization : null
      const record: StandinRequest = {
        method: req.method ?? 'GET',
        path: u.pathname,
        query: Object.fromEntries(u.searchParams),
        auth: authHeader,
        body,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]))
      }
      requests.push(record)
      if (authHeader === null || !/^(token|bearer) \S+$/i.test(authHeader)) {
        send(res, 401, { message: 'Requires authentication', documentation_url: DOCS, status: '401' })
        return
      }
      const index = pending.findIndex((p) => p.method === record.method && p.pattern.test(record.path))
      let failure: Failure | undefined
      if (index >= 0) {
        const p = pending[index]
        failure = { status: p.status, headers: p.headers }
        if (--p.times <= 0) pending.splice(index, 1)
      } else {
        failure = opts.failWith?.(record)
      }
      if (failure) {
        if (failure.status === 0) {
          req.socket.destroy()
          return
        }
        const message = failure.status >= 500 ? 'Server Error' : failure.status === 403 ? 'Resource not accessible by integration' : 'Error'
        send(res, failure.status, failure.body ?? { message, documentation_url: DOCS, status: String(failure.status) }, failure.headers)
        return
      }
      try {
        const out = route(record, res)
        send(res, out.status, out.body)
      } catch (err) {
        if (err instanceof HttpFailure) {
          send(res, err.status, { message: err.message, ...err.extra, documentation_url: DOCS, status: String(err.status) })
          return
        }
        send(res, 500, { message: `stand-in bug: ${err instanceof Error ? err.message : String(err)}` })
      }
    })()
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      resolve()
    })
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    files,
    setFile(ref, path, text) {
      const at = files.get(ref) ?? new Map<string, string>()
      at.set(path, text)
      files.set(ref, at)
    },
    state,
    git,
    addCommit: (sha, parent, files, renamedFrom) => addCommit(git, sha, parent, files, renamedFrom),
    setBranch(name, sha) {
      git.branches.set(name, sha)
    },
    seedPull(fields) {
      const pull: StandinPull = {
        state: 'open',
        merged: false,
        headRef: `feature-${fields.number}`,
        baseRef: 'main',
        commits: [fields.headSha],
        ...fields
      }
      git.pulls.push(pull)
      return pull
    },
    requests,
    failNext(method, pathPattern, status, times = 1, headers = {}) {
      pending.push({ method: method.toUpperCase(), pattern: pathPattern, status, times, headers })
    },
    setReadOnly(on) {
      readOnly = on
    },
    setActionsCaches(list) {
      actionsCaches = list
    },
    seedComment,
    seedIssue,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          if (err) reject(err)
          else resolve()
        })
        server.closeAllConnections()
      })
  }
}
