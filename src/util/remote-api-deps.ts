/**
 * What a client of a code host's REST API (GitHub, GitLab) is given: the
 * token, the API's root, the clock and deadline, the caller's signal, the log,
 * the randomness of the backoff, the timeout of one attempt and, for tests, the
 * retry policy.
 */
import type { Clock, Deadline } from './clock.js'
import type { Log } from './log.js'
import type { RetryContext, RetryPolicy } from './retry-policy.js'

export interface RemoteApiDeps {
  token: string
  /** The REST API's root, e.g. https://api.github.com (GITHUB_API_URL) or https://gitlab.example.com/api/v4 (CI_API_V4_URL). */
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

/** How a code host's calls are retried: the deps' clock, deadline, signal and policy, each retry logged as `<host>: ...`. */
export function remoteRetryContext(deps: RemoteApiDeps, host: string): RetryContext {
  return {
    clock: deps.clock,
    deadline: deps.deadline,
    signal: deps.signal,
    random: deps.random,
    policy: deps.policy,
    onRetry: ({ attempt, delayMs, error }) => {
      deps.log.info(`${host}: ${error.describe()}; retrying (attempt ${attempt + 1}) in ${(delayMs / 1000).toFixed(1)} s`)
    }
  }
}
