/**
 * The one way this action talks to GitHub's REST API: each attempt under its
 * own request timeout, failures as GitHubErrors (./github-error.ts), the
 * whole under the one retry policy (../util/retry-policy.ts), which waits as
 * GitHub's rate limits ask. Every API file (issues-api.ts, contents-api.ts...)
 * is a set of `Call`s over this transport; a new REST call is a new such file.
 *
 * The real client (@actions/github, which pulls in Octokit and undici) is
 * imported lazily, only when there is something to send; tests pass their own
 * `request` or point the real one at a stand-in server.
 */
import { AbortedError, type RemoteError } from '../util/errors.js'
import { withRetry } from '../util/retry-policy.js'
import { toGitHubError } from './github-error.js'
import { remoteRetryContext, type RemoteApiDeps } from '../util/remote-api-deps.js'

export type GitHubDeps = RemoteApiDeps

export interface RepoRef {
  owner: string
  repo: string
}

/** `/repos/{owner}/{repo}` with both parts encoded: the start of an endpoint as messages name it. */
export const repoPath = (r: RepoRef): string => `/repos/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.repo)}`

/** A successful answer as Octokit gives it. */
export interface GitHubResponse {
  status: number
  headers: Record<string, unknown>
  data: unknown
}

/** The subset of the Octokit client used here (keeps the types free of Octokit's). */
export type RequestFn = (route: string, params: Record<string, unknown>) => Promise<GitHubResponse>

/** Reads a successful answer; throws a GitHubError naming `endpoint` when it is not what the call expects. */
export type ReadResponse<T> = (res: Pick<GitHubResponse, 'headers' | 'data'>, endpoint: string) => T

/**
 * A create that may have taken effect although no success was seen (reset,
 * timeout, 5xx): before sending it again, look for what it would have made.
 */
export type FindExisting<T> = () => Promise<T | null>

/**
 * One GitHub call over the retrying transport: method and path (for messages,
 * e.g. `GET` and `/repos/o/r/commits/abc/pulls`), the Octokit route and its
 * params, how to read the answer, and for a create how to find what an
 * ambiguous attempt made.
 */
export type Call = <T>(
  method: string,
  path: string,
  route: string,
  params: Record<string, unknown>,
  read: ReadResponse<T>,
  findExisting?: FindExisting<T>
) => Promise<T>

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000

/** The REST API version every request names (X-GitHub-Api-Version), as GitHub documents its calls. */
export const GITHUB_API_VERSION = '2022-11-28'

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
      remoteRetryContext(deps, 'GitHub')
    )
  }
}

/**
 * The real `request`: @actions/github's getOctokit, loaded on first use, with
 * its base URL from `apiUrl` and its log routed to ours.
 */
export async function loadOctokitRequest(deps: GitHubDeps): Promise<RequestFn> {
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
    }
  })
  // Octokit ignores a `headers` option of its constructor: the header goes with every request.
  return octokit.request.defaults({ headers: { 'x-github-api-version': GITHUB_API_VERSION } })
}
