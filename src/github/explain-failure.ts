/**
 * A failed GitHub write explained for the warning that replaces it: what
 * GitHub said, why, and how to fix it. Publishing never changes the gate's
 * result, so this text is all the user gets.
 */
import { RemoteError } from '../util/errors.js'

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
