/**
 * The files changed between two commits (GET /repos/{o}/{r}/compare/{base}...{head}),
 * for "assess only when the agent changed". Whenever the list may be
 * incomplete, the answer is "everything changed", so the step assesses:
 * - GitHub lists at most 300 files of a comparison: 300 or more is everything;
 * - one request: the first page of a comparison carries the files of the
 *   whole comparison (GitHub pages only its commits), so no other is read;
 * - the base must be an ancestor of the head (status ahead or identical): a
 *   rewritten history (diverged, behind) compares against a merge base, which
 *   would hide what changed on the assessed side;
 * - a base GitHub no longer knows (force-pushed away) is everything too.
 */
import type { ChangedFiles } from '../pipeline/changed-paths.js'
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

export interface CompareApi {
  changedFiles(repo: RepoRef, base: string, head: string): Promise<ChangedFiles>
}

/** GitHub's cap on the files of one comparison. */
export const COMPARE_FILES_CAP = 300
interface ComparePage {
  status: string | null
  /** null: the page has no file list. */
  files: string[] | null
}

function readComparePage(res: { data: unknown }, endpoint: string): ComparePage {
  const d = res.data
  if (!isRecord(d)) throw new GitHubError({ endpoint, message: 'GitHub answered the comparison without a body', transient: true })
  let files: string[] | null = null
  if (Array.isArray(d.files)) {
    const entries: unknown[] = d.files
    files = entries.flatMap((f) =>
      isRecord(f) ? [f.filename, f.previous_filename].filter((n): n is string => typeof n === 'string' && n !== '') : []
    )
  }
  return { status: typeof d.status === 'string' ? d.status : null, files }
}

const short = (sha: string): string => sha.slice(0, 7)

export function compareApiOver(call: Call): CompareApi {
  return {
    async changedFiles(r, base, head) {
      const path = `${repoPath(r)}/compare/${base}...${head}`
      let got: ComparePage
      try {
        // One commit a page: the commits are not read, and the first page carries the whole comparison's files.
        got = await call(
          'GET',
          path,
          'GET /repos/{owner}/{repo}/compare/{basehead}',
          { owner: r.owner, repo: r.repo, basehead: `${base}...${head}`, per_page: 1, page: 1 },
          readComparePage
        )
      } catch (err) {
        if (err instanceof GitHubError && (err.status === 404 || err.status === 422)) {
          return {
            kind: 'everything',
            reason: `GitHub cannot compare ${short(base)} with ${short(head)} (HTTP ${err.status}): the history may have been rewritten`
          }
        }
        throw err
      }
      if (got.status !== 'ahead' && got.status !== 'identical') {
        return {
          kind: 'everything',
          reason: `${short(base)} is not an ancestor of ${short(head)} (${got.status ?? 'no status'}): the history was rewritten`
        }
      }
      if (got.files === null) return { kind: 'everything', reason: 'GitHub listed no files for the comparison' }
      const files = new Set(got.files)
      if (files.size >= COMPARE_FILES_CAP) {
        return { kind: 'everything', reason: `${COMPARE_FILES_CAP} or more files changed, more than GitHub lists` }
      }
      return { kind: 'files', files: [...files].sort() }
    }
  }
}
