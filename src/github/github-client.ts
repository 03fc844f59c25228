/**
 * The GitHub client the action uses: every API file's calls over one retrying
 * transport. To add a REST call, write it as its own file over `Call` (see
 * contents-api.ts for the shape), then add its interface to `GitHubClient` and
 * its calls to `githubClientOver`.
 */
import { actionsCachesApiOver, type ActionsCachesApi } from './actions-caches.js'
import { viewerApiOver, type ViewerApi } from './viewer.js'
import { branchesApiOver, type BranchesApi } from './branch-holds.js'
import { branchCommitsApiOver, type BranchCommitsApi } from './branch-commits.js'
import { statusesApiOver, type StatusesApi } from './commit-status.js'
import { compareApiOver, type CompareApi } from './compare.js'
import { contentsApi, type ContentsApi } from './contents-api.js'
import { issuesApi, type IssuesApi } from './issues-api.js'
import { pullsApiOver, type PullsApi } from './pulls.js'
import { loadOctokitRequest, retryingCalls, type GitHubDeps, type RequestFn } from './transport.js'

/** The calls of PR pipelines: pull requests of a commit, commit statuses, compare, branches holding a commit, the token's own login. */
export type PipelineApi = PullsApi & StatusesApi & CompareApi & BranchesApi & ViewerApi

export type GitHubClient = IssuesApi & ContentsApi & PipelineApi & ActionsCachesApi & BranchCommitsApi

/** The client over any Octokit-like `request` function (tests may pass their own). */
export function githubClientOver(request: RequestFn, deps: GitHubDeps): GitHubClient {
  const call = retryingCalls(request, deps)
  return {
    ...issuesApi(call),
    ...contentsApi(call),
    ...pullsApiOver(call),
    ...statusesApiOver(call),
    ...compareApiOver(call),
    ...branchesApiOver(call),
    ...branchCommitsApiOver(call),
    ...actionsCachesApiOver(call),
    ...viewerApiOver(request, deps)
  }
}

/** The client over the real @actions/github, loaded on first use. */
export async function createGitHubClient(deps: GitHubDeps): Promise<GitHubClient> {
  return githubClientOver(await loadOctokitRequest(deps), deps)
}
