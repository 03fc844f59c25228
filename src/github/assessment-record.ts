/**
 * Reading back what the action recorded on a pull request: the assessment
 * record of its own sticky comments (src/report/comment.ts), the input of
 * every carry-over.
 *
 * Only comments written by the token's own user count, by exact login, as
 * GraphQL `viewer` tells it (an installation token, the GITHUB_TOKEN
 * included, is refused GET /user but may ask `viewer`), else GET /user.
 * When neither tells the login, no record is trusted and the step assesses:
 * any bot, or a person quoting a marker, could have written a record.
 * A record is as trustworthy as the token's identity: every workflow of the
 * repository that writes with the GITHUB_TOKEN writes as the same user.
 */
import { AbortedError, GitHubError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import { isRecord } from '../util/text.js'
import { readAssessmentRecord, type AssessmentRecord } from '../report/comment.js'
import type { GitHubDeps, RequestFn } from './transport.js'
import type { IssuesApi } from './issues-api.js'
import { retryingCalls } from './transport.js'
import { MAX_PAGES, type PullRequestRef } from './sticky-comment.js'

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

/**
 * The token's login: GraphQL viewer (one call, whatever the token), else GET
 * /user; null when neither tells (or both fail).
 */
export async function tokenLogin(issues: IssuesApi, viewer: ViewerApi, log: Log): Promise<string | null> {
  for (const ask of [() => viewer.viewerLogin(), () => issues.authenticatedLogin()]) {
    try {
      const login = await ask()
      if (login !== null) return login
    } catch (err) {
      if (err instanceof AbortedError) throw err
      log.debug(`Could not ask GitHub for the token's login: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return null
}

export interface FoundRecord {
  record: AssessmentRecord
  commentId: number
  url: string
  /** The comment's marker line: a report written under it replaces this comment. */
  marker: string
}

/**
 * Every record among the comments `login` wrote on the pull request, in
 * comment order (recordsOfAgent picks the agent's). Empty when `login` is
 * null (who wrote what cannot be told).
 */
export async function findAssessmentRecords(issues: IssuesApi, pr: PullRequestRef, login: string | null, log: Log): Promise<FoundRecord[]> {
  if (login === null) {
    log.info("GitHub did not tell this token's login, so no recorded assessment is trusted: the step assesses.")
    return []
  }
  const found: FoundRecord[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, hasNext } = await issues.listComments(pr, pr.number, page)
    for (const c of items) {
      if (c.user?.login !== login) continue
      const record = readAssessmentRecord(c.body)
      if (record !== null) found.push({ record, commentId: c.id, url: c.html_url, marker: c.body.split('\n', 1)[0].replace(/\r$/, '') })
    }
    if (!hasNext || items.length === 0) break
  }
  return found
}
