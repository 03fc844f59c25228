/**
 * A file's text at a commit, read through the contents API: how the
 * accepted-risks file of a pull request's base branch is read, since the
 * checkout is the pull request's own.
 */
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

/** GET /repos/{owner}/{repo}/contents/{path}?ref=: a file's text at a commit, or null when it does not exist there. */
export interface ContentsApi {
  getFileText(repo: RepoRef, path: string, ref: string): Promise<string | null>
}

/** The ContentsApi over the retrying transport's `call`. */
export function contentsApi(call: Call): ContentsApi {
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
    }
  }
}
