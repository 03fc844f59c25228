/**
 * What a client of a code host's REST API (GitHub, GitLab) is given: the
 * token, the API's root, the clock and deadline, the caller's signal, the log,
 * the randomness of the backoff, the timeout of one attempt and, for tests, the
 * retry policy.
 */
import type { Clock, Deadline } from './clock.js'
import type { Log } from './log.js'
import type { RetryPolicy } from './retry-policy.js'

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
