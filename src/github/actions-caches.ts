/**
 * The Actions caches of a repository as GitHub's REST API lists them
 * (GET /repos/{owner}/{repo}/actions/caches, permission `actions: read`):
 * each entry with the ref that saved it. The ref is GitHub's own record of
 * which branch's workflow run saved the entry, so a pull request cannot write
 * an entry listed on the default branch: the one source the evidence window
 * trusts to tie a recorded run to the default branch.
 */
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { PER_PAGE } from './pages.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

export interface ListedCache {
  key: string
  /** The ref whose workflow run saved it (refs/heads/<branch>, refs/pull/<n>/merge). */
  ref: string
  /** ISO time it was created. */
  createdAt: string
}

export interface ActionsCachesApi {
  /** The newest entries (at most 100) whose key starts with `keyPrefix`, saved on `ref`, newest first. */
  listCaches(repo: RepoRef, query: { keyPrefix: string; ref: string }): Promise<ListedCache[]>
}

function readCaches(res: { data: unknown }, endpoint: string): ListedCache[] {
  const d = res.data
  if (!isRecord(d) || !Array.isArray(d.actions_caches))
    throw new GitHubError({ endpoint, message: 'GitHub answered the cache list without actions_caches', transient: true })
  const entries: unknown[] = d.actions_caches
  return entries.flatMap((e) =>
    isRecord(e) && typeof e.key === 'string' && typeof e.ref === 'string'
      ? [{ key: e.key, ref: e.ref, createdAt: typeof e.created_at === 'string' ? e.created_at : '' }]
      : []
  )
}

export function actionsCachesApiOver(call: Call): ActionsCachesApi {
  return {
    listCaches: (r, q) =>
      call(
        'GET',
        `${repoPath(r)}/actions/caches`,
        'GET /repos/{owner}/{repo}/actions/caches',
        { owner: r.owner, repo: r.repo, key: q.keyPrefix, ref: q.ref, sort: 'created_at', direction: 'desc', per_page: PER_PAGE },
        readCaches
      )
  }
}
