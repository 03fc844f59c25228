/**
 * What a GitLab CI job is, read from GitLab's predefined variables. Pure: the
 * environment in.
 *
 * - The API root: CI_API_V4_URL, else CI_SERVER_URL + /api/v4 (http or https
 *   without credentials; anything else reads as unset).
 * - The merge request a pipeline runs for, whatever its source: a
 *   merge-request pipeline (CI_PIPELINE_SOURCE merge_request_event), and its
 *   child pipelines (`parent_pipeline`), which GitLab runs "under the same
 *   project, ref, and commit SHA" with the merge request's variables, and a
 *   downstream pipeline (`pipeline`, `trigger`) given them. The merge request
 *   lives in its target project, CI_MERGE_REQUEST_PROJECT_ID; its code comes
 *   from CI_MERGE_REQUEST_SOURCE_PROJECT_ID, another project when it comes
 *   from a fork. The pipeline itself runs in CI_PROJECT_ID: the fork's by
 *   default, the target's when a member of the target project runs it there,
 *   where the job gets the target's CI/CD variables while it runs the fork's
 *   code.
 * - A pipeline that carries merge-request variables (any CI_MERGE_REQUEST_*)
 *   without the ones that tell where its code is from (the IID and the three
 *   project ids, each a number) has a `mergeRequestGap`: it cannot be told.
 */
import { inGitHubActions } from '../github/event-target.js'

export interface GitLabMergeRequest {
  /** The merge request's project (where its notes are). */
  projectId: string
  iid: number
  /** The project its source branch is in (the fork's, for a merge request from a fork). */
  sourceProjectId: string
  /** The merge request's page (CI_MERGE_REQUEST_PROJECT_URL/-/merge_requests/iid); null when unknown. */
  webUrl: string | null
}

export interface GitLabCi {
  /** The REST API root (…/api/v4); null when neither CI_API_V4_URL nor CI_SERVER_URL is set (or a URL). */
  apiUrl: string | null
  /** The project the pipeline runs in (CI_PROJECT_ID, a number); null when unset or not a number. */
  projectId: string | null
  /** CI_PIPELINE_SOURCE: push, merge_request_event, schedule, web, api, trigger, ... */
  pipelineSource: string
  /** CI_COMMIT_BRANCH: set on branch pipelines only (not on merge-request or tag pipelines). */
  commitBranch: string | null
  defaultBranch: string | null
  commitSha: string | null
  /** The merge request the pipeline runs for (whatever its source), when its variables say it whole; else null. */
  mergeRequest: GitLabMergeRequest | null
  /**
   * Why the merge request cannot be told: merge-request variables present (or
   * a merge-request pipeline) without a number in each of CI_MERGE_REQUEST_IID,
   * CI_MERGE_REQUEST_PROJECT_ID, CI_MERGE_REQUEST_SOURCE_PROJECT_ID and
   * CI_PROJECT_ID; null when the pipeline carries none, or all of them.
   */
  mergeRequestGap: string | null
  /** CI_JOB_URL, for the report's link; null when unset. */
  jobUrl: string | null
  /** CI_CONFIG_PATH, the project's CI/CD configuration file as set (GitLab's default: .gitlab-ci.yml); null when unset. */
  configPath: string | null
}

/** A variable's value; null when unset or blank. */
const nonEmpty = (value: string | undefined): string | null => (value === undefined || value.trim() === '' ? null : value)

/** True in a GitLab CI job (GitLab sets GITLAB_CI=true in every job). */
export function isGitLabCi(env: NodeJS.ProcessEnv): boolean {
  return env.GITLAB_CI === 'true'
}

/**
 * Whether a shell runs in a GitLab CI job (GITLAB_CI=true) rather than in
 * GitHub Actions: there GitLab's rules apply, and the merge-request note
 * takes the place of the pull-request comment.
 */
export function inGitLabJob(env: NodeJS.ProcessEnv): boolean {
  return !inGitHubActions(env) && isGitLabCi(env)
}

/** An http(s) URL without credentials, query or fragment, without its trailing slashes; null otherwise. */
function httpUrl(raw: string): string | null {
  try {
    const url = new URL(raw)
    if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) return null
    return url.toString().replace(/\/+$/, '')
  } catch {
    return null
  }
}

/** A variable holding an http(s) URL (httpUrl), else null. */
function httpUrlOrNull(value: string | undefined): string | null {
  const v = nonEmpty(value)
  return v === null ? null : httpUrl(v)
}

function apiUrlOf(env: NodeJS.ProcessEnv): string | null {
  const v4 = nonEmpty(env.CI_API_V4_URL)
  if (v4 !== null) return httpUrl(v4)
  const server = nonEmpty(env.CI_SERVER_URL)
  const root = server === null ? null : httpUrl(server)
  return root === null ? null : `${root}/api/v4`
}

/** A GitLab id (a project's, an IID): a positive integer in decimal; null otherwise. */
function idOf(value: string | undefined): string | null {
  const v = value ?? ''
  return /^[1-9][0-9]{0,15}$/.test(v) ? v : null
}

/** The variables that say which merge request a pipeline runs for and where its code is from. */
const MERGE_REQUEST_IDS = [
  'CI_MERGE_REQUEST_IID',
  'CI_MERGE_REQUEST_PROJECT_ID',
  'CI_MERGE_REQUEST_SOURCE_PROJECT_ID',
  'CI_PROJECT_ID'
] as const

/** Whether the job carries any merge-request variable (CI_MERGE_REQUEST_*, set and not blank). */
function carriesMergeRequest(env: NodeJS.ProcessEnv): boolean {
  return Object.entries(env).some(([name, value]) => name.startsWith('CI_MERGE_REQUEST_') && nonEmpty(value) !== null)
}

function mergeRequestOf(env: NodeJS.ProcessEnv, pipelineSource: string): Pick<GitLabCi, 'mergeRequest' | 'mergeRequestGap'> {
  if (pipelineSource !== 'merge_request_event' && !carriesMergeRequest(env)) return { mergeRequest: null, mergeRequestGap: null }
  const ids = MERGE_REQUEST_IDS.map((name) => idOf(env[name]))
  const [iid, projectId, sourceProjectId, pipelineProjectId] = ids
  if (iid === null || projectId === null || sourceProjectId === null || pipelineProjectId === null) {
    const what = MERGE_REQUEST_IDS.filter((_, i) => ids[i] === null)
      .map((name) => `${name} ${nonEmpty(env[name]) === null ? 'unset' : 'not a number'}`)
      .join(', ')
    return {
      mergeRequest: null,
      mergeRequestGap: `a pipeline of a merge request whose variables do not say where its code is from (${what})`
    }
  }
  const projectUrl = nonEmpty(env.CI_MERGE_REQUEST_PROJECT_URL)
  return {
    mergeRequest: {
      projectId,
      iid: Number(iid),
      sourceProjectId,
      webUrl: projectUrl !== null && /^https?:\/\//.test(projectUrl) ? `${projectUrl.replace(/\/+$/, '')}/-/merge_requests/${iid}` : null
    },
    mergeRequestGap: null
  }
}

export function readGitLabCi(env: NodeJS.ProcessEnv): GitLabCi {
  const pipelineSource = nonEmpty(env.CI_PIPELINE_SOURCE) ?? ''
  return {
    apiUrl: apiUrlOf(env),
    projectId: idOf(env.CI_PROJECT_ID),
    pipelineSource,
    commitBranch: nonEmpty(env.CI_COMMIT_BRANCH),
    defaultBranch: nonEmpty(env.CI_DEFAULT_BRANCH),
    commitSha: nonEmpty(env.CI_COMMIT_SHA),
    ...mergeRequestOf(env, pipelineSource),
    jobUrl: httpUrlOrNull(env.CI_JOB_URL),
    configPath: nonEmpty(env.CI_CONFIG_PATH)
  }
}

/** The GitLab variables this code reads: what a shell that builds its step's own environment passes through. */
export const GITLAB_JOB_VARIABLES = [
  'GITLAB_CI',
  'GITLAB_TOKEN',
  'CI_API_V4_URL',
  'CI_SERVER_URL',
  'CI_PROJECT_ID',
  'CI_PIPELINE_SOURCE',
  'CI_COMMIT_BRANCH',
  'CI_DEFAULT_BRANCH',
  'CI_COMMIT_SHA',
  'CI_JOB_URL',
  'CI_CONFIG_PATH',
  'CI_MERGE_REQUEST_IID',
  'CI_MERGE_REQUEST_PROJECT_ID',
  'CI_MERGE_REQUEST_SOURCE_PROJECT_ID',
  'CI_MERGE_REQUEST_PROJECT_URL'
] as const

/**
 * The part of a step's environment a GitLab job adds, for a shell that builds
 * the step's environment itself (the command line): GitLab's variables as
 * they are (every merge-request variable among them: one present says the
 * pipeline is a merge request's), and the comment on (the merge-request note
 * takes its place). Null outside GitLab CI unless `force` (an explicit option).
 */
export function gitlabStepEnv(env: NodeJS.ProcessEnv, force = false): NodeJS.ProcessEnv | null {
  if (!force && !isGitLabCi(env)) return null
  const out: NodeJS.ProcessEnv = { GITLAB_CI: 'true', INPUT_COMMENT: 'update' }
  const passed = (name: string) => (GITLAB_JOB_VARIABLES as readonly string[]).includes(name) || name.startsWith('CI_MERGE_REQUEST_')
  for (const [name, value] of Object.entries(env)) if (name !== 'GITLAB_CI' && passed(name)) out[name] = value
  return out
}
