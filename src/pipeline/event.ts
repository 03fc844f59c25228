/**
 * What the triggering event says about the agent to assess. Pure: the event
 * name, its payload (the JSON at GITHUB_EVENT_PATH) and the runner's
 * environment in, one PipelineEvent out.
 *
 * - deployment_status (state success) and repository_dispatch from Vercel
 *   (`vercel.deployment.ready` / `vercel.deployment.success`) carry a
 *   deployment: its URL, the commit deployed and the environment. These runs
 *   happen on the default branch, not on the pull request: the commit is the
 *   only link to it.
 * - A deployment event in any other state carries nothing to assess yet: it
 *   is skipped (not assessed), which is neither a pass nor a failure.
 * - A deployment event that says "ready" but whose URL or commit cannot be
 *   used is `deployment_invalid`: the step fails closed unless endpoint_url
 *   is given.
 * - merge_group names the queued pull request in its head ref
 *   (`refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>`).
 * - pull_request, push and the rest: what the carry-over decisions need.
 */
import { isDefaultBranchRef } from '../github/event-target.js'
import { isLoopbackHost } from '../service/base-url.js'
import { isRecord, shortSha } from '../util/text.js'

export type DeploymentSource = 'deployment_status' | 'vercel'

export type PipelineEvent =
  | {
      kind: 'deployment'
      eventName: string
      source: DeploymentSource
      /** The deployment's URL: https (http for a loopback host), without credentials. */
      endpointUrl: string
      /** The commit deployed (lower-case hex). */
      sha: string
      /** The deployment's environment name (e.g. Preview, production); null when the event does not say. */
      environment: string | null
      /** Vercel's project (client_payload.project: its name, else its id); null when the event does not say. */
      project: string | null
      /** The branch (or tag) deployed, without refs/heads/; null when the event does not say. */
      ref: string | null
    }
  /** ref: the branch (or tag) deployed, as on a ready deployment: where its code comes from still matters (outsideCode). */
  | { kind: 'deployment_skipped'; eventName: string; source: DeploymentSource; sha: string | null; ref: string | null; reason: string }
  | { kind: 'deployment_invalid'; eventName: string; source: DeploymentSource; sha: string | null; ref: string | null; reason: string }
  | {
      kind: 'pull_request'
      eventName: string
      number: number
      headSha: string | null
      baseSha: string | null
      /** Branch name, without refs/heads/. */
      baseRef: string | null
      /** The repository of the head branch (owner/name); null when the payload names none (a deleted fork). */
      headRepo: string | null
    }
  | {
      kind: 'merge_group'
      eventName: string
      /** The queued pull requests named by the head ref (empty when it names none: see reason). */
      prNumbers: number[]
      /** The queue's commit (the one this run checks). */
      headSha: string | null
      /** Its parent: the base branch, or the queue entry ahead. */
      baseSha: string | null
      baseRef: string | null
      reason?: string
    }
  | {
      kind: 'push'
      eventName: string
      ref: string
      sha: string | null
      onDefaultBranch: boolean
      /** A merge queue's branch (gh-readonly-queue/...): SARIF uploads and baselines skip these. */
      queueRef: boolean
    }
  | {
      kind: 'other'
      eventName: string
      ref: string
      sha: string | null
      onDefaultBranch: boolean
      /** issue_comment on a pull request, or a review of one (PULL_REQUEST_ACTIVITY): its number (its head may be a fork's). */
      commentedPull: number | null
      /** workflow_run: the repository of the triggering run's head (null: none named); undefined on other events. */
      runHeadRepo?: string | null
      /** status, check_run, check_suite: the commit named (null: none) and the branches named for it; undefined elsewhere. */
      namedCommit?: { sha: string | null; branches: string[] }
    }
  /** The payload cannot be read (not JSON, nested past the bound): the step fails closed. */
  | { kind: 'unreadable'; eventName: string; sha: string | null; reason: string }

/** The event types of Vercel's repository_dispatch that mean "a deployment is up and can be assessed". */
export const VERCEL_READY_TYPES: readonly string[] = ['vercel.deployment.ready', 'vercel.deployment.success']

const VERCEL_PREFIX = 'vercel.deployment.'
/** States of a Vercel payload (client_payload.state.type) that contradict a ready deployment. */
/** Deployment states that may still become success (GitHub's deployment_status states). */
const PENDING_STATES: ReadonlySet<string> = new Set(['pending', 'queued', 'in_progress'])
const VERCEL_NOT_READY_STATES = new Set(['pending', 'error', 'failed', 'canceled', 'skipped', 'ignored'])
/** Events about a pull request that GitHub runs on its merge commit (GITHUB_SHA), as pull_request does: its head may be a fork's. */
const PULL_REQUEST_ACTIVITY: ReadonlySet<string> = new Set([
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_review_thread'
])
const QUEUE_PREFIX = 'refs/heads/gh-readonly-queue/'
const QUEUE_REF = /^(?:refs\/heads\/)?gh-readonly-queue\/(.+)\/pr-(\d{1,9})-([0-9a-f]{40}|[0-9a-f]{64})$/

const rec = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {})
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

/** A full commit SHA (40 or 64 hex), lower case; null otherwise. */
export function commitSha(v: unknown): string | null {
  const s = text(v)
  return s !== null && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(s) ? s.toLowerCase() : null
}

const branchName = (ref: string | null): string | null => (ref === null ? null : ref.replace(/^refs\/heads\//, ''))

/**
 * A deployment's URL made usable, or why not. A bare host (`app-abc.vercel.app`,
 * as Vercel's API writes deployment URLs) gets https://. Only https (the
 * protection bypass in endpoint_path's query must not cross a network in
 * clear), plain http for a loopback host only (a preview on the service's own
 * machine), and no user or password in it (a credential goes in
 * target_credential, masked).
 */
export function deploymentUrl(raw: unknown): { url: string } | { error: string } {
  const given = text(raw)
  if (given === null) return { error: 'the event carries no deployment URL' }
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(given) ? given : `https://${given}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return { error: 'the deployment URL of the event is not a URL' }
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { error: 'the deployment URL of the event is plain http: only https is assessed (plain http for a loopback host only)' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { error: `the deployment URL of the event has scheme '${url.protocol.slice(0, 20)}', not https` }
  }
  if (url.username !== '' || url.password !== '') return { error: 'the deployment URL of the event carries credentials' }
  if (url.hostname === '') return { error: 'the deployment URL of the event has no host' }
  return { url: url.href }
}

/**
 * The agent's endpoint at a deployment: the deployment URL with `path` (which
 * may carry a query, e.g. `/api/chat`) in place of its path. Empty path: the
 * deployment URL as it is.
 */
export function endpointAt(deployment: string, path: string): string {
  if (path === '') return deployment
  const base = new URL(deployment)
  if (!path.startsWith('/')) throw new Error(`endpointAt: path must start with '/': ${path.slice(0, 40)}`)
  return `${base.origin}${path}`
}

function onDefault(payload: Record<string, unknown>, ref: string): boolean {
  return isDefaultBranchRef(payload, ref)
}

function fromDeploymentStatus(eventName: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv): PipelineEvent {
  if (!isRecord(payload.deployment_status)) return unreadableEvent(eventName, 'it has no deployment_status object', env)
  const status = payload.deployment_status
  const deployment = rec(payload.deployment)
  const sha = commitSha(deployment.sha)
  const environment = text(status.environment) ?? text(deployment.environment)
  const state = text(status.state) ?? 'unknown'
  const ref = branchName(text(deployment.ref))
  const source: DeploymentSource = 'deployment_status'
  const what = `the deployment${sha ? ` of ${shortSha(sha)}` : ''}${environment ? ` to ${environment}` : ''}`
  if (state !== 'success') {
    return {
      kind: 'deployment_skipped',
      eventName,
      source,
      sha,
      ref,
      reason: `${what} is ${state.slice(0, 40)}, not success: ${PENDING_STATES.has(state) ? 'nothing to assess yet' : 'nothing to assess'}`
    }
  }
  if (sha === null) return { kind: 'deployment_invalid', eventName, source, sha, ref, reason: 'the event names no commit (deployment.sha)' }
  // environment_url only: target_url is the page about the deployment (often its log on GitHub or the platform), not the preview.
  const url = deploymentUrl(status.environment_url)
  if ('error' in url) {
    return { kind: 'deployment_invalid', eventName, source, sha, ref, reason: `${url.error} (deployment_status.environment_url)` }
  }
  return {
    kind: 'deployment',
    eventName,
    source,
    endpointUrl: url.url,
    sha,
    environment,
    project: null,
    ref
  }
}

function fromRepositoryDispatch(eventName: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv): PipelineEvent {
  const type = text(payload.action) ?? ''
  if (!type.startsWith(VERCEL_PREFIX)) return other(eventName, payload, env)
  if (!isRecord(payload.client_payload))
    return unreadableEvent(eventName, `Vercel's ${type.slice(0, 60)} has no client_payload object`, env)
  const client = payload.client_payload
  const sha = commitSha(rec(client.git).sha)
  const environment = text(client.environment)
  const state = text(rec(client.state).type)
  const ref = branchName(text(rec(client.git).ref))
  const source: DeploymentSource = 'vercel'
  const shown = type.slice(0, 60)
  if (!VERCEL_READY_TYPES.includes(type)) {
    return {
      kind: 'deployment_skipped',
      eventName,
      source,
      sha,
      ref,
      reason: `Vercel sent ${shown}, not a ready deployment: nothing to assess`
    }
  }
  if (state !== null && VERCEL_NOT_READY_STATES.has(state)) {
    return {
      kind: 'deployment_skipped',
      eventName,
      source,
      sha,
      ref,
      reason: `Vercel sent ${shown} with state ${state}: nothing to assess`
    }
  }
  if (sha === null)
    return { kind: 'deployment_invalid', eventName, source, sha, ref, reason: 'the event names no commit (client_payload.git.sha)' }
  const url = deploymentUrl(client.url)
  if ('error' in url) return { kind: 'deployment_invalid', eventName, source, sha, ref, reason: `${url.error} (client_payload.url)` }
  const project =
    typeof client.project === 'string' ? text(client.project) : (text(rec(client.project).name) ?? text(rec(client.project).id))
  return {
    kind: 'deployment',
    eventName,
    source,
    endpointUrl: url.url,
    sha,
    environment,
    project,
    ref
  }
}

/** The pull request named by a merge queue's head ref, with the base branch it names. */
export function parseQueueRef(ref: string): { base: string; prNumber: number } | null {
  const m = QUEUE_REF.exec(ref)
  if (!m) return null
  const prNumber = Number(m[2])
  return prNumber > 0 ? { base: m[1], prNumber } : null
}

function fromMergeGroup(eventName: string, payload: Record<string, unknown>): PipelineEvent {
  const group = rec(payload.merge_group)
  const headRef = text(group.head_ref)
  const parsed = headRef === null ? null : parseQueueRef(headRef)
  const base = {
    kind: 'merge_group' as const,
    eventName,
    headSha: commitSha(group.head_sha),
    baseSha: commitSha(group.base_sha),
    baseRef: branchName(text(group.base_ref)) ?? parsed?.base ?? null
  }
  if (parsed === null) {
    const reason =
      headRef === null
        ? 'the event has no merge_group.head_ref'
        : 'merge_group.head_ref is not of the form refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>'
    return { ...base, prNumbers: [], reason }
  }
  return { ...base, prNumbers: [parsed.prNumber] }
}

function fromPullRequest(eventName: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv): PipelineEvent {
  const pr = rec(payload.pull_request)
  const number = [pr.number, payload.number].find((n): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0)
  // Read as another event, its code would count as this repository's: a fork's head must not.
  if (number === undefined) return unreadableEvent(eventName, 'it names no pull request number (pull_request.number)', env)
  const head = rec(pr.head)
  const base = rec(pr.base)
  return {
    kind: 'pull_request',
    eventName,
    number,
    headSha: commitSha(head.sha),
    baseSha: commitSha(base.sha),
    baseRef: branchName(text(base.ref)),
    headRepo: text(rec(head.repo).full_name)
  }
}

function other(eventName: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv): PipelineEvent {
  const ref = env.GITHUB_REF ?? ''
  const issue = rec(payload.issue)
  const commented =
    eventName === 'issue_comment' && isRecord(issue.pull_request) && typeof issue.number === 'number'
      ? issue.number
      : PULL_REQUEST_ACTIVITY.has(eventName) && typeof rec(payload.pull_request).number === 'number'
        ? (rec(payload.pull_request).number as number)
        : null
  const run = eventName === 'workflow_run' ? rec(payload.workflow_run) : null
  const named = namedCommitOf(eventName, payload)
  return {
    kind: 'other',
    eventName,
    ref,
    sha: commitSha(env.GITHUB_SHA),
    onDefaultBranch: onDefault(payload, ref),
    commentedPull: commented !== null && Number.isSafeInteger(commented) && commented > 0 ? commented : null,
    ...(run === null ? {} : { runHeadRepo: text(rec(run.head_repository).full_name) }),
    ...(named === null ? {} : { namedCommit: named })
  }
}

/** The commit a status, check_run or check_suite event is about, with the branches it names; null on other events. */
function namedCommitOf(eventName: string, payload: Record<string, unknown>): { sha: string | null; branches: string[] } | null {
  const names = (vs: unknown[]): string[] => vs.map((v) => branchName(text(v))).filter((b): b is string => b !== null)
  const run = rec(payload.check_run)
  const suite = rec(eventName === 'check_run' ? run.check_suite : payload.check_suite)
  if (eventName === 'status')
    return { sha: commitSha(payload.sha), branches: names(Array.isArray(payload.branches) ? payload.branches.map((b) => rec(b).name) : []) }
  if (eventName !== 'check_run' && eventName !== 'check_suite') return null
  return { sha: commitSha(run.head_sha) ?? commitSha(suite.head_sha), branches: names([suite.head_branch]) }
}

function fromPush(eventName: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv): PipelineEvent {
  const ref = text(payload.ref) ?? env.GITHUB_REF ?? ''
  // A deleted branch's push has an all-zero `after`: there is no commit to assess.
  const after = commitSha(payload.after)
  const sha = after !== null && /^0+$/.test(after) ? null : (after ?? commitSha(env.GITHUB_SHA))
  return { kind: 'push', eventName, ref, sha, onDefaultBranch: onDefault(payload, ref), queueRef: ref.startsWith(QUEUE_PREFIX) }
}

/**
 * The event as the pipeline sees it. Never throws: a payload that is not an object (GITHUB_EVENT_PATH
 * unset: null reads as an empty one), a deployment event without its own object, or a pull request
 * event naming no pull request number, is `unreadable`.
 */
export function readPipelineEvent(eventName: string, payload: unknown, env: NodeJS.ProcessEnv): PipelineEvent {
  if (payload !== null && !isRecord(payload)) return unreadableEvent(eventName, 'it is not a JSON object', env)
  const body = rec(payload)
  switch (eventName) {
    case 'deployment_status':
      return fromDeploymentStatus(eventName, body, env)
    case 'repository_dispatch':
      return fromRepositoryDispatch(eventName, body, env)
    case 'merge_group':
      return fromMergeGroup(eventName, body)
    case 'pull_request':
    case 'pull_request_target':
      return fromPullRequest(eventName, body, env)
    case 'push':
      return fromPush(eventName, body, env)
    default:
      return other(eventName, body, env)
  }
}

/**
 * An event whose payload cannot be read. Its commit, for the status that says
 * so: GITHUB_SHA where GitHub documents it as the event's commit (the deployed
 * one on deployment_status, the pushed one on push); none on events where it
 * is another (repository_dispatch: the default branch's; a pull request: the
 * merge commit).
 */
export function unreadableEvent(eventName: string, why: string, env: NodeJS.ProcessEnv): PipelineEvent {
  const own = !['repository_dispatch', 'merge_group', 'pull_request', 'pull_request_target'].includes(eventName)
  return {
    kind: 'unreadable',
    eventName,
    sha: own ? commitSha(env.GITHUB_SHA) : null,
    reason: `the payload of the ${eventName.slice(0, 40) || 'unnamed'} event (GITHUB_EVENT_PATH) cannot be used: ${why}`
  }
}

/** The commit a pipeline event is about: the deployed one, the PR's head, the queue's commit or the pushed one. */
export function eventCommit(e: PipelineEvent): string | null {
  switch (e.kind) {
    case 'deployment':
    case 'deployment_skipped':
    case 'deployment_invalid':
    case 'push':
    case 'other':
    case 'unreadable':
      return e.sha
    case 'pull_request':
    case 'merge_group':
      return e.headSha
  }
}
