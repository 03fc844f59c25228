/**
 * Stage guard secrets: a target's secrets (target_credential, the query
 * values of its URL, where a deployment protection bypass travels) never go to
 * code from outside this repository (a fork's head, a commit on no branch
 * here), which anyone may write: the step fails closed, before any target is
 * registered or assessed, unless allow_outside_code_secrets says so. Whether
 * the code is outside is outsideCode's one answer (src/pipeline/code-origin.ts);
 * this stage gathers its evidence: the event, and for a deployed commit (or
 * the commit a status, check_run or check_suite event names) the pull
 * requests holding it and the branches that may hold it.
 */
import type { GitHubClient } from '../../github/github-client.js'
import { splitRepository } from '../../github/event-target.js'
import { outsideCode, type CodeEvidence } from '../../pipeline/code-origin.js'
import { shortSha } from '../../util/text.js'
import type { PipelineEvent } from '../../pipeline/event.js'
import { AbortedError, ConfigError, describeFailure } from '../../util/errors.js'
import { envInputReader, queryValues, type ActionInputs } from '../inputs/read-inputs.js'
import type { StepContext } from './stage-context.js'
import { githubReads } from './github-reads.js'

/** Branches asked at most whether they hold a deployed commit. */
const MAX_BRANCHES_ASKED = 3

/** The inputs whose secrets the target would carry to its host: empty when it carries none. */
export function targetSecretInputs(inputs: ActionInputs, env: NodeJS.ProcessEnv): string[] {
  if (inputs.target.kind !== 'endpoint') return []
  const { endpoint } = inputs.target
  const out: string[] = []
  if (endpoint.credential !== null) out.push('target_credential')
  if (queryValues(endpoint.endpointUrl).length > 0) {
    out.push(queryValues(envInputReader(env)('endpoint_url')).length > 0 ? 'endpoint_url' : 'endpoint_path')
  }
  return out
}

/** Refuses (ConfigError) to send the target's secrets to code from outside this repository. */
export async function guardSecrets(ctx: StepContext, inputs: ActionInputs, event: PipelineEvent): Promise<void> {
  const secrets = targetSecretInputs(inputs, ctx.io.env)
  if (secrets.length === 0) return
  if (inputs.allowOutsideCodeSecrets) {
    ctx.io.log.info(`allow_outside_code_secrets is true: ${secrets.join(' and ')} go to the target whoever wrote its code.`)
    return
  }
  const reason = outsideCode(await codeEvidence(ctx, inputs, event))
  if (reason === null) return
  const what = secrets.map((s) => (s === 'target_credential' ? 'target_credential' : `the query values of ${s}`)).join(' and ')
  throw new ConfigError(
    secrets[0],
    `${what} would go to code from outside this repository: ${reason}. Nothing is registered or assessed. Assess it without them, or set allow_outside_code_secrets: true to accept that the code's author receives them`
  )
}

/** What tells where the event's code comes from. */
export async function codeEvidence(ctx: StepContext, inputs: ActionInputs, event: PipelineEvent): Promise<CodeEvidence> {
  const repository = ctx.io.env.GITHUB_REPOSITORY ?? ''
  const repo = splitRepository(repository)
  switch (event.kind) {
    case 'pull_request':
      return { kind: 'head', of: `pull request #${event.number}`, headRepo: event.headRepo, repository }
    case 'deployment':
    case 'deployment_invalid':
    case 'deployment_skipped': {
      // A deployment whose URL cannot be used still deployed a commit: endpoint_url given for it reaches that code.
      const sha = event.sha
      if (sha === null) return { kind: 'unknown', why: 'the deployment event names no commit' }
      if (repo === undefined) return { kind: 'unknown', why: 'GITHUB_REPOSITORY is not set' }
      return withGitHub(ctx, inputs, (gh) => heldCommit(gh, repo, sha, [event.ref]))
    }
    case 'other':
      if (event.namedCommit !== undefined) return namedCommitEvidence(ctx, inputs, event.namedCommit)
      if (event.runHeadRepo !== undefined)
        return { kind: 'head', of: 'the triggering workflow run', headRepo: event.runHeadRepo, repository }
      return commentEvidence(ctx, inputs, event.commentedPull, repository)
    default:
      return { kind: 'this_repository' }
  }
}

async function withGitHub(
  ctx: StepContext,
  inputs: ActionInputs,
  read: (gh: GitHubClient) => Promise<CodeEvidence>
): Promise<CodeEvidence> {
  const gh = await githubReads(ctx, inputs.githubToken)
  if (gh === null) return { kind: 'unknown', why: 'github_token is empty, so GitHub cannot be asked' }
  try {
    return await read(gh)
  } catch (err) {
    if (err instanceof AbortedError) throw err
    return { kind: 'unknown', why: `GitHub could not be asked: ${describeFailure(err)}` }
  }
}

interface Repo {
  owner: string
  repo: string
}

/** issue_comment: on a pull request, its head; elsewhere the default branch's code. */
function commentEvidence(
  ctx: StepContext,
  inputs: ActionInputs,
  number: number | null,
  repository: string
): Promise<CodeEvidence> | CodeEvidence {
  if (number === null) return { kind: 'this_repository' }
  const repo = splitRepository(repository)
  if (repo === undefined) return { kind: 'unknown', why: 'GITHUB_REPOSITORY is not set' }
  return withGitHub(ctx, inputs, (gh) => commentedPull(gh, repo, number, repository))
}

/** status, check_run, check_suite: the commit the event is about, judged as a deployed one. */
function namedCommitEvidence(
  ctx: StepContext,
  inputs: ActionInputs,
  named: { sha: string | null; branches: string[] }
): Promise<CodeEvidence> | CodeEvidence {
  const { sha } = named
  if (sha === null) return { kind: 'unknown', why: 'the event names no commit' }
  const repo = splitRepository(ctx.io.env.GITHUB_REPOSITORY ?? '')
  if (repo === undefined) return { kind: 'unknown', why: 'GITHUB_REPOSITORY is not set' }
  const of = `the commit ${shortSha(sha)} that the event names`
  return withGitHub(ctx, inputs, async (gh) => ({ ...(await heldCommit(gh, repo, sha, named.branches)), of }))
}

/**
 * A commit an event names: held by a branch the event names, or the head
 * branch here of a pull request whose head it is.
 */
async function heldCommit(gh: GitHubClient, repo: Repo, sha: string, refs: readonly (string | null)[]): Promise<CodeEvidence> {
  const here = `${repo.owner}/${repo.repo}`.toLowerCase()
  const pulls = (await gh.pullsOfCommit(repo, sha)).filter((p) => p.headSha === sha)
  const fork = pulls.find((p) => p.headRepo?.toLowerCase() !== here)
  const heads = pulls.filter((p) => p.headRepo?.toLowerCase() === here).map((p) => p.headRef)
  const candidates = [...refs, ...heads].filter((b): b is string => b !== null && b !== '' && !/^[0-9a-f]{40}$/i.test(b))
  const asked = [...new Set(candidates)].slice(0, MAX_BRANCHES_ASKED)
  let heldBy: string | null = null
  for (const branch of asked) {
    if (await gh.branchHolds(repo, branch, sha)) {
      heldBy = branch
      break
    }
  }
  return { kind: 'commit', sha, asked, heldBy, forkPull: fork ? { number: fork.number, headRepo: fork.headRepo } : null }
}

/** issue_comment on a pull request: its head branch's repository. */
async function commentedPull(gh: GitHubClient, repo: Repo, number: number, repository: string): Promise<CodeEvidence> {
  const pull = await gh.getPull(repo, number)
  if (pull === null) return { kind: 'unknown', why: `pull request #${number} was not found` }
  return { kind: 'head', of: `pull request #${number}`, headRepo: pull.headRepo, repository }
}
