/**
 * What a GitLab pipeline may do, by the same rules as a GitHub workflow
 * (src/github/write-rule.ts): shared targets, dismissals and the baseline are
 * written only from the default branch on push, schedule or a manual run
 * (GitLab's `web`, as workflow_dispatch); a pipeline of a merge request is a
 * pull request, which writes only the profile of its own preview. And no
 * secret reaches a fork's code: a pipeline of a merge request, whatever its
 * source (the merge-request pipeline, its child pipelines, a downstream
 * pipeline given its variables), that runs the code of another project in
 * the target project (where the job holds the target's CI/CD variables) is
 * refused before anything is sent; so is one whose variables cannot tell.
 *
 * Pure: the CI context (./ci-context.ts) in.
 */
import { WRITING_EVENTS, type WriteStanding } from '../github/write-rule.js'
import { outsideCode, type CodeEvidence } from '../pipeline/code-origin.js'
import { ConfigError } from '../util/errors.js'
import { inGitLabJob, readGitLabCi, type GitLabCi } from './ci-context.js'

/** GitLab's pipeline sources with a GitHub event of the same meaning. */
const SAME_AS_GITHUB: Readonly<Partial<Record<string, string>>> = { push: 'push', schedule: 'schedule', web: 'workflow_dispatch' }

/** A mirrored GitHub pull request's pipeline: a proposed change whose source GitLab does not name. */
const MIRRORED_PULL_REQUEST = 'external_pull_request_event'

/**
 * What a pipeline says of where its code comes from, as the one rule of
 * outside code (src/pipeline/code-origin.ts) reads it: a merge request's
 * head is in its source project, whatever the pipeline's source; a merge
 * request whose variables do not say enough, or a mirrored pull request,
 * cannot be told (outside, fail closed); any other pipeline runs a ref of
 * this project.
 */
export function codeEvidence(ci: GitLabCi): CodeEvidence {
  if (ci.pipelineSource === MIRRORED_PULL_REQUEST)
    return { kind: 'unknown', why: 'a mirrored pull request, whose source GitLab does not name' }
  if (ci.mergeRequestGap !== null) return { kind: 'unknown', why: ci.mergeRequestGap }
  const mr = ci.mergeRequest
  if (mr === null) return { kind: 'this_repository' }
  return { kind: 'head', of: `merge request !${mr.iid}`, headRepo: `project ${mr.sourceProjectId}`, repository: `project ${mr.projectId}` }
}

/** Whether the pipeline runs code from outside the project (outsideCode of codeEvidence). */
export function runsOutsideCode(ci: GitLabCi): boolean {
  return outsideCode(codeEvidence(ci)) !== null
}

/**
 * Why the job's secrets are at risk: the reason its code is from outside, when
 * the job holds the variables of a project whose code it is not running (a
 * fork's code in the target project, or code that cannot be told); null when
 * they are not.
 */
function riskToSecrets(ci: GitLabCi): string | null {
  return ci.projectId !== ci.mergeRequest?.sourceProjectId ? outsideCode(codeEvidence(ci)) : null
}

/** Whether the job holds the variables of a project whose code it is not running (a fork's code in the target project). */
export function secretsAtRisk(ci: GitLabCi): boolean {
  return riskToSecrets(ci) !== null
}

/** Where the pipeline stands for the write rule: any pipeline of a merge request (or one that cannot be told) as a pull request. */
export function gitlabWriteStanding(ci: GitLabCi): WriteStanding {
  if (ci.pipelineSource === MIRRORED_PULL_REQUEST || ci.mergeRequest !== null || ci.mergeRequestGap !== null)
    return { kind: 'pull_request', number: ci.mergeRequest?.iid ?? null }
  const event = SAME_AS_GITHUB[ci.pipelineSource]
  if (WRITING_EVENTS.has(event ?? '') && ci.commitBranch !== null && ci.commitBranch === ci.defaultBranch)
    return { kind: 'default-branch', branch: ci.commitBranch }
  return { kind: 'other', eventName: ci.pipelineSource || 'unknown', ref: ci.commitBranch !== null ? `refs/heads/${ci.commitBranch}` : '' }
}

/**
 * The refusal of a job that holds a secret while it runs a fork's code, naming
 * the first secret set (e.g. ASAS_API_KEY, GITLAB_TOKEN); null when it may go on.
 */
export function forkSecretRefusal(ci: GitLabCi, secrets: readonly { name: string; value: string | undefined }[]): ConfigError | null {
  const why = riskToSecrets(ci)
  const held = secrets.find((s) => s.value !== undefined && s.value !== '')
  if (why === null || held === undefined) return null
  return new ConfigError(
    held.name,
    `is set in a pipeline of project ${ci.projectId ?? '(unknown)'} that runs code from outside it (${why}), where that code can read it. ` +
      "Let a fork's merge requests run their pipelines in the fork (GitLab's default: the target's variables stay out), " +
      'or assess the change once merged; this job stops before sending anything'
  )
}

/** forkSecretRefusal of a GitLab CI job's environment; null outside GitLab CI. */
export function gitlabJobRefusal(
  env: NodeJS.ProcessEnv,
  secrets: readonly { name: string; value: string | undefined }[]
): ConfigError | null {
  return inGitLabJob(env) ? forkSecretRefusal(readGitLabCi(env), secrets) : null
}
