/**
 * The newest commits of a branch: GET /repos/{o}/{r}/commits?sha={branch}
 * &since={iso}&per_page={n}, newest first (GitHub lists every commit the
 * branch reaches, merged branches' included, by date). One call, one page:
 * the caller says what it does when the page is full.
 */
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

export interface BranchCommitsApi {
  /** The SHAs of the branch's newest commits since `since` (ISO 8601), at most `limit` (<= 100), newest first. */
  listBranchCommits(repo: RepoRef, branch: string, o: { since: string; limit: number }): Promise<string[]>
}

export function branchCommitsApiOver(call: Call): BranchCommitsApi {
  return {
    listBranchCommits(r, branch, o) {
      const endpoint = 'GET /repos/{owner}/{repo}/commits'
      return call(
        'GET',
        `${repoPath(r)}/commits`,
        endpoint,
        { owner: r.owner, repo: r.repo, sha: branch, since: o.since, per_page: Math.min(Math.max(o.limit, 1), 100), page: 1 },
        (res) => {
          if (!Array.isArray(res.data))
            throw new GitHubError({ endpoint, message: 'GitHub answered the commit list without a list', transient: true })
          return res.data.flatMap((c) => (isRecord(c) && typeof c.sha === 'string' && c.sha !== '' ? [c.sha] : []))
        }
      )
    }
  }
}
