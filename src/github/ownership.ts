/**
 * What this action's token wrote: the token's exact login, and "an owned
 * comment" (or issue), the one rule the sticky comment, the tracking issue
 * and the assessment records ask.
 *
 * The login comes from GraphQL `viewer` (one call, whatever the token: the
 * GITHUB_TOKEN, an installation token, is refused GET /user with a 403), else
 * GET /user (a personal token where GraphQL does not answer). When neither
 * tells, nothing is owned: no bot user, nor a person quoting a marker, can
 * make the action edit or trust what they wrote.
 */
import { AbortedError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import type { ViewerApi } from './viewer.js'
import type { GitHubUser, IssuesApi } from './issues-api.js'

/** Whether an item (comment or issue) was written by this action's token: its author's login is the token's exact login. */
export function isOwnedComment(author: GitHubUser | null | undefined, tokenLogin: string | null): boolean {
  return tokenLogin !== null && author?.login === tokenLogin
}

/**
 * The token's login: GraphQL viewer, else GET /user; null when neither tells
 * (or both fail).
 */
export async function tokenLogin(issues: Pick<IssuesApi, 'authenticatedLogin'>, viewer: ViewerApi, log: Log): Promise<string | null> {
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

/** The token's login asked at most once, and only when some item holds the marker. */
export function tokenLoginOnce(api: IssuesApi & ViewerApi, log: Log): () => Promise<string | null> {
  let cached: Promise<string | null> | undefined
  return () => (cached ??= tokenLogin(api, api, log))
}
