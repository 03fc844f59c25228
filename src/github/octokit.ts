/**
 * The GitHub REST calls the action makes, behind a small interface
 * (`IssuesApi`) so that the sticky comment and the tracking issue are tested
 * against a stand-in server or a fake.
 *
 * The real client (@actions/github, which pulls in Octokit and undici) is
 * imported lazily, only when there is something to post. Every call goes
 * through the one retry policy (src/retry-policy.ts) with its own request
 * timeout; Octokit's RequestError becomes a GitHubError naming the endpoint
 * (ids filled in, never a query string or a header).
 */
import type { Clock, Deadline } from '../util/clock.js'
import { AbortedError, GitHubError, RemoteError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { parseRetryAfter, withRetry, type RetryPolicy } from '../util/retry-policy.js'
import { isRecord } from '../util/text.js'

export interface GitHubDeps {
  token: string
  /** REST API base, e.g. https://api.github.com (GITHUB_API_URL). */
  apiUrl: string
  clock: Clock
  deadline?: Deadline
  signal?: AbortSignal
  log: Log
  random?: () => number
  /** Timeout of one request (one attempt). Default 30 s. */
  requestTimeoutMs?: number
  /** Override of the retry policy (tests). */
  policy?: RetryPolicy
}

export interface RepoRef {
  owner: string
  repo: string
}

export interface GitHubUser {
  login: string
  /** 'User', 'Bot' or 'Organization'. */
  type?: string
}

export interface IssueComment {
  id: number
  body: string
  user: GitHubUser | null
  html_url: string
}

export interface Issue {
  number: number
  title: string
  body: string | null
  state: string
  html_url: string
  user: GitHubUser | null
  /** Present when the "issue" is a pull request. */
  pull_request?: unknown
}

export interface Page<T> {
  items: T[]
  /** Whether the Link header announced a next page. */
  hasNext: boolean
}

/**
 * A create that may have taken effect although no success was seen (reset,
 * timeout, 5xx): before sending it again, look for what it would have made.
 */
export type FindExisting<T> = () => Promise<T | null>

/** The REST calls used for the sticky comment and the tracking issue. */
export interface IssuesApi {
  /** GET /user: the login of the token's user, or null when the token cannot tell (installation tokens get 403). */
  authenticatedLogin(): Promise<string | null>
  /** GET /repos/{owner}/{repo}/issues/{n}/comments, one page of 100 (page from 1). */
  listComments(repo: RepoRef, issueNumber: number, page: number): Promise<Page<IssueComment>>
  createComment(repo: RepoRef, issueNumber: number, body: string, findExisting?: FindExisting<IssueComment>): Promise<IssueComment>
  updateComment(repo: RepoRef, commentId: number, body: string): Promise<IssueComment>
  /** GET /repos/{owner}/{repo}/issues?state=open, one page of 100 (pull requests included, as GitHub returns them). */
  listOpenIssues(repo: RepoRef, page: number): Promise<Page<Issue>>
  createIssue(repo: RepoRef, fields: { title: string; body: string }, findExisting?: FindExisting<Issue>): Promise<Issue>
  updateIssue(
    repo: RepoRef,
    issueNumber: number,
    fields: { title?: string; body?: string; state?: 'open' | 'closed'; state_reason?: 'completed' | 'not_planned' | 'reopened' }
  ): Promise<Issue>
}

/** GET /repos/{owner}/{repo}/contents/{path}?ref=: a file's text at a commit, or null when it does not exist there. */
export interface ContentsApi {
  getFileText(repo: RepoRef, path: string, ref: string): Promise<string | null>
}

export const PER_PAGE = 100
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000

/** Whether a Link header holds rel="next". */
export function hasNextLink(link: string | undefined | null): boolean {
  if (!link) return false
  return link.split(',').some((part) => {
    const rel = /;\s*rel="?([^";]*)"?/.exec(part)?.[1] ?? ''
    return rel.trim().split(/\s+/).includes('next')
  })
}

/** A response header by name (any case), as a string; undefined when absent. */
export function header(headers: unknown, name: string): string | undefined {
  if (!isRecord(headers)) return undefined
  const value = headers[name] ?? headers[name.toLowerCase()]
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return undefined
}

/** The shape of Octokit's RequestError that matters here (structural: no import of Octokit needed). */
interface RequestErrorLike {
  name: string
  status?: number
  message: string
  response?: { status: number; headers?: unknown; data?: unknown }
  cause?: unknown
}

function isRequestErrorLike(err: unknown): err is RequestErrorLike {
  return err instanceof Error && (err.name === 'HttpError' || err.name === 'AbortError' || 'status' in err)
}

/**
 * When GitHub asked us to wait: Retry-After first (secondary rate limits send
 * it with a 403 or 429), else x-ratelimit-reset when x-ratelimit-remaining is 0.
 */
export function githubRetryAfterMs(headers: unknown, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(header(headers, 'retry-after'), nowMs)
  if (retryAfter !== undefined) return retryAfter
  if (header(headers, 'x-ratelimit-remaining') === '0') {
    const reset = Number(header(headers, 'x-ratelimit-reset'))
    if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - nowMs) + 1000
  }
  return undefined
}

function githubMessage(data: unknown, fallback: string): string {
  if (isRecord(data) && typeof data.message === 'string') {
    const errors = Array.isArray(data.errors) ? data.errors : []
    const details = errors
      .map((e) => (isRecord(e) && typeof e.message === 'string' ? e.message : isRecord(e) && typeof e.code === 'string' ? e.code : ''))
      .filter((s) => s !== '')
    return details.length > 0 ? `${data.message}: ${details.join(', ')}` : data.message
  }
  if (typeof data === 'string' && data.trim() !== '') return data.slice(0, 300)
  return fallback
}

function githubCode(data: unknown): string | undefined {
  if (!isRecord(data) || !Array.isArray(data.errors)) return undefined
  const errors: unknown[] = data.errors
  const first = errors.find((e) => isRecord(e) && typeof e.code === 'string')
  return isRecord(first) && typeof first.code === 'string' ? first.code : undefined
}

function causeMessage(err: unknown): string | undefined {
  let cur: unknown = err
  for (let i = 0; i < 4 && cur instanceof Error; i++) {
    const code = (cur as { code?: unknown }).code
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code
    cur = cur.cause
  }
  return undefined
}

/**
 * Octokit's RequestError (or a fetch failure) as a GitHubError. `timedOut`
 * tells that our own per-request timeout fired.
 */
export function toGitHubError(err: unknown, endpoint: string, nowMs: number, timedOut = false): RemoteError {
  if (err instanceof RemoteError) return err
  if (timedOut) {
    return new GitHubError({
      endpoint,
      code: 'request_timeout',
      message: 'GitHub did not answer within the request timeout',
      transient: true,
      ambiguous: true
    })
  }
  if (!isRequestErrorLike(err) || err.response === undefined) {
    // No answer at all: connection refused or reset, DNS, TLS, aborted by the fetch layer.
    const message = err instanceof Error ? err.message : String(err)
    return new GitHubError({
      endpoint,
      code: causeMessage(err) ?? 'network_error',
      message: `no answer from GitHub: ${message}`,
      transient: true,
      ambiguous: true
    })
  }
  const status = err.response.status
  const headers = err.response.headers
  const data = err.response.data
  const retryAfterMs = githubRetryAfterMs(headers, nowMs)
  const primaryLimit = header(headers, 'x-ratelimit-remaining') === '0'
  const message = githubMessage(data, err.message || `HTTP ${status}`)
  const secondaryLimit =
    (status === 403 || status === 429) && (header(headers, 'retry-after') !== undefined || /secondary rate limit/i.test(message))
  const rateLimited = status === 429 || ((status === 403 || status === 429) && (primaryLimit || secondaryLimit))
  const code = rateLimited ? (secondaryLimit ? 'secondary_rate_limit' : 'rate_limited') : githubCode(data)
  const transient = status >= 500 || status === 408 || status === 429 || rateLimited
  return new GitHubError({
    endpoint,
    status,
    code,
    message,
    retryAfterMs,
    transient,
    ambiguous: status >= 500 || status === 408
  })
}

/** The subset of the Octokit client used here (keeps the types free of Octokit's). */
export type RequestFn = (
  route: string,
  params: Record<string, unknown>
) => Promise<{ status: number; headers: Record<string, unknown>; data: unknown }>

export function asUser(data: unknown): GitHubUser | null {
  if (!isRecord(data) || typeof data.login !== 'string') return null
  return { login: data.login, type: typeof data.type === 'string' ? data.type : undefined }
}

function asComment(data: unknown, endpoint: string): IssueComment {
  if (!isRecord(data) || typeof data.id !== 'number') {
    throw new GitHubError({ endpoint, message: 'GitHub answered without a comment id', transient: true })
  }
  const user = asUser(data.user)
  return {
    id: data.id,
    body: typeof data.body === 'string' ? data.body : '',
    user,
    html_url: typeof data.html_url === 'string' ? data.html_url : ''
  }
}

function asIssue(data: unknown, endpoint: string): Issue {
  if (!isRecord(data) || typeof data.number !== 'number') {
    throw new GitHubError({ endpoint, message: 'GitHub answered without an issue number', transient: true })
  }
  const user = asUser(data.user)
  const issue: Issue = {
    number: data.number,
    title: typeof data.title === 'string' ? data.title : '',
    body: typeof data.body === 'string' ? data.body : null,
    state: typeof data.state === 'string' ? data.state : 'open',
    html_url: typeof data.html_url === 'string' ? data.html_url : '',
    user
  }
  if (data.pull_request !== undefined && data.pull_request !== null) issue.pull_request = data.pull_request
  return issue
}

export function asList<T>(data: unknown, endpoint: string, one: (item: unknown, endpoint: string) => T): T[] {
  if (!Array.isArray(data))
    throw new GitHubError({ endpoint, message: 'GitHub answered with something other than a list', transient: true })
  return data.map((item) => one(item, endpoint))
}

/** One GitHub call: method and path (for messages), Octokit route and params, how to read the answer. */
export type Call = <T>(
  method: string,
  path: string,
  route: string,
  params: Record<string, unknown>,
  read: (res: { headers: Record<string, unknown>; data: unknown }, endpoint: string) => T,
  findExisting?: FindExisting<T>
) => Promise<T>

/**
 * The calls of `request`: each attempt with its own timeout, failures as
 * GitHubErrors, the whole under the one retry policy; before a create is sent
 * again after an ambiguous failure, `findExisting` looks for what it made.
 */
export function retryingCalls(request: RequestFn, deps: GitHubDeps): Call {
  const timeoutMs = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  return async (method, path, route, params, read, findExisting) => {
    const endpoint = `${method} ${path}`
    let last: RemoteError | undefined
    return withRetry(
      async (attempt) => {
        if (attempt > 1 && findExisting && last?.ambiguous) {
          const existing = await findExisting()
          if (existing !== null) {
            deps.log.info(`${endpoint}: the earlier attempt had taken effect; using what it created.`)
            return existing
          }
        }
        const timeout = AbortSignal.timeout(timeoutMs)
        const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout
        try {
          const res = await request(route, { ...params, request: { signal } })
          return read(res, endpoint)
        } catch (err) {
          if (deps.signal?.aborted) throw new AbortedError()
          last = toGitHubError(err, endpoint, deps.clock.now(), timeout.aborted)
          throw last
        }
      },
      {
        clock: deps.clock,
        deadline: deps.deadline,
        signal: deps.signal,
        random: deps.random,
        policy: deps.policy,
        onRetry: ({ attempt, delayMs, error }) => {
          deps.log.info(`GitHub: ${error.describe()}; retrying (attempt ${attempt + 1}) in ${(delayMs / 1000).toFixed(1)} s`)
        }
      }
    )
  }
}

export const repoPath = (r: RepoRef): string => `/repos/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.repo)}`

export const readPage =
  <T>(one: (item: unknown, endpoint: string) => T) =>
  (res: { headers: Record<string, unknown>; data: unknown }, endpoint: string): Page<T> => ({
    items: asList(res.data, endpoint, one),
    hasNext: hasNextLink(header(res.headers, 'link'))
  })

/**
 * An IssuesApi over any Octokit-like `request` function. `createIssuesApi`
 * passes the real client's; tests may pass their own.
 */
export function issuesApiOver(request: RequestFn, deps: GitHubDeps): IssuesApi & ContentsApi {
  const call = retryingCalls(request, deps)

  return {
    async getFileText(r, path, ref) {
      try {
        return await call(
          'GET',
          `${repoPath(r)}/contents/${path}`,
          'GET /repos/{owner}/{repo}/contents/{path}',
          { owner: r.owner, repo: r.repo, path, ref },
          (res, endpoint) => {
            const d = res.data
            if (!isRecord(d) || d.type !== 'file' || typeof d.content !== 'string') {
              throw new GitHubError({ endpoint, status: 200, message: `${path} is not a file at ${ref}` })
            }
            return Buffer.from(d.content, d.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8')
          }
        )
      } catch (err) {
        if (err instanceof GitHubError && err.status === 404) return null
        throw err
      }
    },

    async authenticatedLogin() {
      try {
        return await call('GET', '/user', 'GET /user', {}, (res) => {
          const d = res.data
          return isRecord(d) && typeof d.login === 'string' ? d.login : null
        })
      } catch (err) {
        if (err instanceof GitHubError && (err.status === 403 || err.status === 401 || err.status === 404)) return null
        throw err
      }
    },

    listComments(r, issueNumber, page) {
      return call(
        'GET',
        `${repoPath(r)}/issues/${issueNumber}/comments`,
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner: r.owner, repo: r.repo, issue_number: issueNumber, per_page: PER_PAGE, page },
        readPage(asComment)
      )
    },

    createComment(r, issueNumber, body, findExisting) {
      return call(
        'POST',
        `${repoPath(r)}/issues/${issueNumber}/comments`,
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner: r.owner, repo: r.repo, issue_number: issueNumber, body },
        (res, endpoint) => asComment(res.data, endpoint),
        findExisting
      )
    },

    updateComment(r, commentId, body) {
      return call(
        'PATCH',
        `${repoPath(r)}/issues/comments/${commentId}`,
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { owner: r.owner, repo: r.repo, comment_id: commentId, body },
        (res, endpoint) => asComment(res.data, endpoint)
      )
    },

    listOpenIssues(r, page) {
      return call(
        'GET',
        `${repoPath(r)}/issues`,
        'GET /repos/{owner}/{repo}/issues',
        { owner: r.owner, repo: r.repo, state: 'open', per_page: PER_PAGE, page },
        readPage(asIssue)
      )
    },

    createIssue(r, fields, findExisting) {
      return call(
        'POST',
        `${repoPath(r)}/issues`,
        'POST /repos/{owner}/{repo}/issues',
        { owner: r.owner, repo: r.repo, title: fields.title, body: fields.body },
        (res, endpoint) => asIssue(res.data, endpoint),
        findExisting
      )
    },

    updateIssue(r, issueNumber, fields) {
      return call(
        'PATCH',
        `${repoPath(r)}/issues/${issueNumber}`,
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        { owner: r.owner, repo: r.repo, issue_number: issueNumber, ...fields },
        (res, endpoint) => asIssue(res.data, endpoint)
      )
    }
  }
}

/** The IssuesApi over the real client. */
export async function createIssuesApi(deps: GitHubDeps): Promise<IssuesApi & ContentsApi> {
  return issuesApiOver(await octokitRequest(deps), deps)
}

/**
 * The real client's `request`: @actions/github's getOctokit, loaded on first
 * use, with its base URL from `apiUrl` and its log routed to ours.
 */
export async function octokitRequest(deps: GitHubDeps): Promise<RequestFn> {
  const { getOctokit } = await import('@actions/github')
  const octokit = getOctokit(deps.token, {
    baseUrl: deps.apiUrl.replace(/\/+$/, ''),
    log: {
      debug: (m: string) => {
        deps.log.debug(m)
      },
      info: (m: string) => {
        deps.log.debug(m)
      },
      warn: (m: string) => {
        deps.log.warning(m)
      },
      error: (m: string) => {
        deps.log.debug(m)
      }
    },
    headers: { 'x-github-api-version': '2022-11-28' }
  })
  return octokit.request
}

export interface FailureExplanation {
  warning: string
  reason: string
}

/**
 * Explain a failed GitHub write for a warning. `specific` handles what depends
 * on the write (403, 404, 410...); the rest is shared: rate limits that held,
 * 401, other service failures, and anything unexpected.
 */
export function explainGitHubFailure(
  err: unknown,
  head: string,
  specific: (err: RemoteError, said: string) => FailureExplanation | null
): FailureExplanation {
  if (!(err instanceof RemoteError)) {
    const message = err instanceof Error ? err.message : String(err)
    return { warning: `${head}: unexpected error: ${message}`, reason: 'unexpected error' }
  }
  const said = err.describe()
  if (err.code === 'rate_limited' || err.code === 'secondary_rate_limit') {
    return { warning: `${head}: GitHub's rate limit held after retries (${said}).`, reason: 'rate limited' }
  }
  const own = specific(err, said)
  if (own) return own
  if (err.status === 401) {
    return {
      warning: `${head}: GitHub answered 401, the token was refused (${said}). Fix: leave github_token at its default (\${{ github.token }}) or pass a valid token.`,
      reason: 'unauthorized (401)'
    }
  }
  return { warning: `${head}: ${said}`, reason: err.status !== undefined ? `HTTP ${err.status}` : (err.code ?? 'network error') }
}
