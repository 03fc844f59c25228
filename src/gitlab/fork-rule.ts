/**
 * What a GitLab pipeline may do, by the same rules as a GitHub workflow
 * (src/github/write-rule.ts): shared targets, dismissals and the baseline are
 * written only from the default branch on push, schedule or a manual run
 * (GitLab's `web`, as workflow_dispatch); a merge-request pipeline is a pull
 * request, which writes only the profile of its own preview. And no secret
 * reaches a fork's code: a merge-request pipeline that runs the code of
 * another project in the target project (where the job holds the target's
 * CI/CD variables) is refused before anything is sent.
 *
 * Pure: the CI context (./ci-context.ts) in.
 */
import { WRITING_EVENTS, type WriteStanding } from '../github/write-rule.js'
import { ConfigError } from '../util/errors.js'
import { isGitLabCi, readGitLabCi, type GitLabCi } from './ci-context.js'

/** GitLab's pipeline sources with a GitHub event of the same meaning. */
const SAME_AS_GITHUB: Readonly<Partial<Record<string, string>>> = { push: 'push', schedule: 'schedule', web: 'workflow_dispatch' }

/** Pipelines of a change proposed from outside: GitLab merge requests and mirrored GitHub pull requests. */
const PROPOSAL_SOURCES: ReadonlySet<string> = new Set(['merge_request_event', 'external_pull_request_event'])

/**
 * Whether the pipeline runs code from outside the project: a merge request
 * whose source project is not its target project, or one GitLab does not say
 * enough of (fail closed), or a mirrored pull request. The one place this
 * shell asks it.
 */
export function runsOutsideCode(ci: GitLabCi): boolean {
  if (ci.pipelineSource === 'external_pull_request_event') return true
  if (ci.pipelineSource !== 'merge_request_event') return false
  const mr = ci.mergeRequest
  return mr?.sourceProjectId == null || mr.sourceProjectId !== mr.projectId
}

/** Whether the job holds the variables of a project whose code it is not running (a fork's code in the target project). */
export function secretsAtRisk(ci: GitLabCi): boolean {
  return runsOutsideCode(ci) && (ci.projectId === null || ci.projectId !== ci.mergeRequest?.sourceProjectId)
}

/** Where the pipeline stands for the write rule. */
export function gitlabWriteStanding(ci: GitLabCi): WriteStanding {
  if (PROPOSAL_SOURCES.has(ci.pipelineSource)) return { kind: 'pull_request', number: ci.mergeRequest?.iid ?? null }
  const event = SAME_AS_GITHUB[ci.pipelineSource]
  if (event !== undefined && WRITING_EVENTS.has(event) && ci.commitBranch !== null && ci.commitBranch === ci.defaultBranch)
    return { kind: 'default-branch', branch: ci.commitBranch }
  return { kind: 'other', eventName: ci.pipelineSource || 'unknown', ref: ci.commitBranch !== null ? `refs/heads/${ci.commitBranch}` : '' }
}

/**
 * The refusal of a job that holds a secret while it runs a fork's code, naming
 * the first secret set (e.g. ASAS_API_KEY, GITLAB_TOKEN); null when it may go on.
 */
export function forkSecretRefusal(ci: GitLabCi, secrets: readonly { name: string; value: string | undefined }[]): ConfigError | null {
  if (!secretsAtRisk(ci)) return null
  const held = secrets.find((s) => s.value !== undefined && s.value !== '')
  if (held === undefined) return null
  const from = ci.mergeRequest?.sourceProjectId ? `project ${ci.mergeRequest.sourceProjectId}` : 'a project GitLab does not name'
  return new ConfigError(
    held.name,
    `is set in a merge-request pipeline that runs code from ${from} in project ${ci.projectId ?? '(unknown)'}, where that code can read it. ` +
      "Let a fork's merge requests run their pipelines in the fork (GitLab's default: the target's variables stay out), " +
      'or assess the change once merged; this job stops before sending anything'
  )
}

/**
 * Whether a shell runs in a GitLab CI job (GITLAB_CI=true) rather than in
 * GitHub Actions: there GitLab's rules apply, and the merge-request note
 * takes the place of the pull-request comment.
 */
export function inGitLabJob(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS !== 'true' && isGitLabCi(env)
}

/** forkSecretRefusal of a GitLab CI job's environment; null outside GitLab CI. */
export function gitlabJobRefusal(
  env: NodeJS.ProcessEnv,
  secrets: readonly { name: string; value: string | undefined }[]
): ConfigError | null {
  return inGitLabJob(env) ? forkSecretRefusal(readGitLabCi(env), secrets) : null
}
