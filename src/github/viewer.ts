/**
 * Who the token is: GraphQL's `viewer { login }`, the one question the
 * definition of an owned comment (ownership.ts) asks of GitHub beside the
 * REST user. A leaf, so the comment, the record and the tracking issue can
 * all ask it without importing one another.
 */
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import type { GitHubDeps, RequestFn } from './transport.js'
import { retryingCalls } from './transport.js'

export interface ViewerApi {
  /** POST /graphql `{ viewer { login } }`: the token's login; null when GitHub does not tell. */
  viewerLogin(): Promise<string | null>
}

/** The GraphQL endpoint's base: https://api.github.com, or https://HOST/api for GitHub Enterprise Server (REST at /api/v3). */
export function graphqlBaseUrl(apiUrl: string): string {
  return apiUrl.replace(/\/+$/, '').replace(/\/api\/v3$/, '/api')
}

export function viewerApiOver(request: RequestFn, deps: GitHubDeps): ViewerApi {
  const call = retryingCalls(request, deps)
  return {
    async viewerLogin() {
      try {
        return await call(
          'POST',
          '/graphql',
          'POST /graphql',
          { baseUrl: graphqlBaseUrl(deps.apiUrl), query: 'query { viewer { login } }' },
          (res) => {
            const data = isRecord(res.data) && isRecord(res.data.data) ? res.data.data : {}
            const viewer = isRecord(data.viewer) ? data.viewer : {}
            return typeof viewer.login === 'string' && viewer.login !== '' ? viewer.login : null
          }
        )
      } catch (err) {
        if (err instanceof GitHubError && err.status !== undefined && err.status >= 400 && err.status < 500) return null
        throw err
      }
    }
  }
}
