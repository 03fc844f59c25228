/**
 * The files changed between two commits (GET /repos/{o}/{r}/compare/{base}...{head}),
 * for "assess only when the agent changed". Whenever the list may be
 * incomplete, the answer is "everything changed", so the step assesses:
 * - GitHub lists at most 300 files of a comparison: 300 or more is everything;
 * - the comparison pages through its commits (100 a page); files are read
 *   from every page that has them, and past the last page read, everything;
 * - the base must be an ancestor of the head (status ahead or identical): a
 *   rewritten history (diverged, behind) compares against a merge base, which
 *   would hide what changed on the assessed side;
 * - a base GitHub no longer knows (force-pushed away) is everything too.
 */
import type { ChangedFiles } from '../pipeline/changed-paths.js'
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { hasNextLink, PER_PAGE } from './pages.js'
import { headerValue as header } from './github-error.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

export interface CompareApi {
  changedFiles(repo: RepoRef, base: string, head: string): Promise<ChangedFiles>
}

/** GitHub's cap on the files of one comparison. */
export const COMPARE_FILES_CAP = 300
/** Pages of commits read at most (100 each). */
const MAX_PAGES = 30

interface ComparePage {
  status: string | null
  /** null: the page has no file list. */
  files: string[] | null
  hasNext: boolean
}

function readComparePage(res: { headers: Record<string, unknown>; data: unknown }, endpoint: string): ComparePage {
  const d = res.data
  if (!isRecord(d)) throw new GitHubError({ endpoint, message: 'GitHub answered the comparison without a body', transient: true })
  let files: string[] | null = null
  if (Array.isArray(d.files)) {
    const entries: unknown[] = d.files
    files = entries.flatMap((f) =>
      isRecord(f) ? [f.filename, f.previous_filename].filter((n): n is string => typeof n === 'string' && n !== '') : []
    )
  }
  return { status: typeof d.status === 'string' ? d.status : null, files, hasNext: hasNextLink(header(res.headers, 'link')) }
}

const short = (sha: string): string => sha.slice(0, 7)

export function compareApiOver(call: Call): CompareApi {
  return {
    async changedFiles(r, base, head) {
      const files = new Set<string>()
      const path = `${repoPath(r)}/compare/${base}...${head}`
      for (let page = 1; page <= MAX_PAGES; page++) {
        let got: ComparePage
        try {
          got = await call(
            'GET',
            path,
            'GET /repos/{owner}/{repo}/compare/{basehead}',
            { owner: r.owner, repo: r.repo, basehead: `${base}...${head}`, per_page: PER_PAGE, page },
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
        if (page === 1) {
          if (got.status !== 'ahead' && got.status !== 'identical') {
            return {
              kind: 'everything',
              reason: `${short(base)} is not an ancestor of ${short(head)} (${got.status ?? 'no status'}): the history was rewritten`
            }
          }
          if (got.files === null) return { kind: 'everything', reason: 'GitHub listed no files for the comparison' }
        }
        for (const f of got.files ?? []) files.add(f)
        if (files.size >= COMPARE_FILES_CAP) {
          return { kind: 'everything', reason: `${COMPARE_FILES_CAP} or more files changed, more than GitHub lists` }
        }
        if (!got.hasNext) return { kind: 'files', files: [...files].sort() }
      }
      return { kind: 'everything', reason: `more than ${MAX_PAGES * PER_PAGE} commits since ${short(base)}` }
    }
  }
}
