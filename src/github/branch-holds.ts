/**
 * Whether a branch of the repository holds a commit: GET
 * /repos/{o}/{r}/compare/{branch}...{sha}, whose status is `identical` when
 * the commit is the branch's head and `behind` when it is an ancestor of it
 * (GitHub compares commits of the whole repository network, forks included,
 * so a fork's commit compares too: `ahead` or `diverged`, never held).
 */
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

export interface BranchesApi {
  /** True when `branch` holds `sha`; false when it does not, or GitHub knows no such branch or commit (404, 422). */
  branchHolds(repo: RepoRef, branch: string, sha: string): Promise<boolean>
}

export function branchesApiOver(call: Call): BranchesApi {
  return {
    async branchHolds(r, branch, sha) {
      try {
        const status = await call(
          'GET',
          `${repoPath(r)}/compare/${branch}...${sha}`,
          'GET /repos/{owner}/{repo}/compare/{basehead}',
          // One commit a page: only the status is read.
          { owner: r.owner, repo: r.repo, basehead: `${branch}...${sha}`, per_page: 1, page: 1 },
          (res) => (isRecord(res.data) && typeof res.data.status === 'string' ? res.data.status : null)
        )
        return status === 'identical' || status === 'behind'
      } catch (err) {
        if (err instanceof GitHubError && (err.status === 404 || err.status === 422)) return false
        throw err
      }
    }
  }
}
