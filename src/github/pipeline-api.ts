/**
 * The GitHub calls of PR pipelines (deployment events, merge queues,
 * carry-over), over the same retrying request as the comment and the
 * tracking issue (src/github/octokit.ts): each attempt with its own timeout,
 * failures as GitHubErrors, the whole under the one retry policy.
 */
import {
  octokitRequest,
  issuesApiOver,
  retryingCalls,
  type ContentsApi,
  type GitHubDeps,
  type IssuesApi,
  type RequestFn
} from './octokit.js'
import { viewerApiOver, type ViewerApi } from './assessment-record.js'
import { statusesApiOver, type StatusesApi } from './commit-status.js'
import { compareApiOver, type CompareApi } from './compare.js'
import { pullsApiOver, type PullsApi } from './pulls.js'

export type PipelineApi = PullsApi & StatusesApi & CompareApi & ViewerApi

/** The pipeline's calls over any Octokit-like `request` (tests pass their own). */
export function pipelineApiOver(request: RequestFn, deps: GitHubDeps): PipelineApi {
  const call = retryingCalls(request, deps)
  return { ...pullsApiOver(call), ...statusesApiOver(call), ...compareApiOver(call), ...viewerApiOver(request, deps) }
}

/** Every GitHub call of the action over one real client. */
export async function createPipelineApi(deps: GitHubDeps): Promise<PipelineApi & IssuesApi & ContentsApi> {
  const request = await octokitRequest(deps)
  return { ...issuesApiOver(request, deps), ...pipelineApiOver(request, deps) }
}
