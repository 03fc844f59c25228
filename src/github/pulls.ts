/**
 * Pull requests by commit and by number: which pull request a deployed
 * commit belongs to (deployment events run on the default branch, so the
 * commit is the only link), and a queued pull request's head (merge queue).
 */
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { PER_PAGE, readPage } from './pages.js'
import { repoPath, type Call, type RepoRef } from './transport.js'

export interface PullSummary {
  number: number
  state: 'open' | 'closed'
  merged: boolean
  headSha: string | null
  /** Branch names, without refs/heads/. */
  headRef: string | null
  baseRef: string | null
  /** The repository of the head branch (owner/name); null when GitHub names none (a deleted fork). */
  headRepo: string | null
  htmlUrl: string
}

export interface PullsApi {
  /**
   * GET /repos/{o}/{r}/commits/{sha}/pulls, every page: the pull requests
   * holding the commit, open ones first (those whose head it is before the
   * rest), then in GitHub's order. A commit GitHub does not know: none.
   */
  pullsOfCommit(repo: RepoRef, sha: string): Promise<PullSummary[]>
  /** GET /repos/{o}/{r}/pulls/{n}; null when there is no such pull request. */
  getPull(repo: RepoRef, number: number): Promise<PullSummary | null>
  /** GET /repos/{o}/{r}/pulls?state=open, every page (at most MAX_PAGES): the open pull requests (the collector's). */
  listOpenPulls(repo: RepoRef): Promise<PullSummary[]>
}

/** Pages read at most (100 each): a commit in more pull requests than this is not a preview's. */
const MAX_PAGES = 10

const sha = (v: unknown): string | null => (typeof v === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(v) ? v.toLowerCase() : null)
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export function asPull(data: unknown, endpoint: string): PullSummary {
  if (!isRecord(data) || typeof data.number !== 'number') {
    throw new GitHubError({ endpoint, message: 'GitHub answered without a pull request number', transient: true })
  }
  const head = isRecord(data.head) ? data.head : {}
  const base = isRecord(data.base) ? data.base : {}
  return {
    number: data.number,
    state: data.state === 'open' ? 'open' : 'closed',
    merged: typeof data.merged_at === 'string' || data.merged === true,
    headSha: sha(head.sha),
    headRef: str(head.ref),
    baseRef: str(base.ref),
    headRepo: isRecord(head.repo) ? str(head.repo.full_name) : null,
    htmlUrl: typeof data.html_url === 'string' ? data.html_url : ''
  }
}

/** Open pull requests first (those whose head is `commit` before the others); otherwise GitHub's order. */
export function orderPullsForCommit(pulls: readonly PullSummary[], commit: string): PullSummary[] {
  const rank = (p: PullSummary): number => (p.state === 'open' ? (p.headSha === commit.toLowerCase() ? 0 : 1) : 2)
  return pulls
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
    .map(({ p }) => p)
}

/** The pull request to comment on for a deployed commit: the first open one in that order; null when none is open. */
export function pullForCommit(pulls: readonly PullSummary[], commit: string): PullSummary | null {
  return orderPullsForCommit(pulls, commit).find((p) => p.state === 'open') ?? null
}

export function pullsApiOver(call: Call): PullsApi {
  return {
    async pullsOfCommit(r, commit) {
      const all: PullSummary[] = []
      try {
        for (let page = 1; page <= MAX_PAGES; page++) {
          const { items, hasNext } = await call(
            'GET',
            `${repoPath(r)}/commits/${commit}/pulls`,
            'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls',
            { owner: r.owner, repo: r.repo, commit_sha: commit, per_page: PER_PAGE, page },
            readPage(asPull)
          )
          all.push(...items)
          if (!hasNext || items.length === 0) break
        }
      } catch (err) {
        // 422: GitHub does not know the commit (it says "No commit found for SHA"): no pull request holds it.
        if (err instanceof GitHubError && err.status === 422) return []
        throw err
      }
      return orderPullsForCommit(all, commit)
    },

    async listOpenPulls(r) {
      const all: PullSummary[] = []
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { items, hasNext } = await call(
          'GET',
          `${repoPath(r)}/pulls`,
          'GET /repos/{owner}/{repo}/pulls',
          { owner: r.owner, repo: r.repo, state: 'open', per_page: PER_PAGE, page },
          readPage(asPull)
        )
        all.push(...items)
        if (!hasNext || items.length === 0) break
      }
      return all.filter((p) => p.state === 'open')
    },

    async getPull(r, number) {
      try {
        return await call(
          'GET',
          `${repoPath(r)}/pulls/${number}`,
          'GET /repos/{owner}/{repo}/pulls/{pull_number}',
          { owner: r.owner, repo: r.repo, pull_number: number },
          (res, endpoint) => asPull(res.data, endpoint)
        )
      } catch (err) {
        if (err instanceof GitHubError && err.status === 404) return null
        throw err
      }
    }
  }
}
