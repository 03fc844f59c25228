/**
 * Where a run stands for the baseline and the accepted risks: its standing
 * under the write rule (src/github/write-rule.ts) and the commits to read at.
 * Pure: the event name, its payload and the environment in.
 * - pull_request: read the base branch's accepted risks (at the base SHA);
 * - default-branch: a push, schedule or manual run on the default branch: the
 *   only standing the write rule lets record the baseline;
 * - other: any other event or ref: records nothing.
 * Every kind but pull_request reads the accepted risks at `sha`, the one rule
 * of where they are read: GITHUB_SHA, except where that commit holds a pull
 * request's own changes. A merge group's commit is the queued pull requests
 * merged onto the base, so its queue's base_sha is read. A deployment event's
 * commit (deployment_status's GITHUB_SHA, a Vercel dispatch's git.sha) is
 * often a pull request's head, and the pull request may aim at any branch,
 * whose file nobody reviewed for main: the default branch is read there,
 * never the pull request's base branch (a full ref name, which the contents
 * API takes and the report names "the branch <name>"); no default branch
 * named: nothing is accepted.
 */
import { defaultBranchOf } from '../github/event-target.js'
import { writeStanding, type WriteStanding } from '../github/write-rule.js'
import { isRecord } from '../util/text.js'

/** Every kind also names the repository's default branch as the event payload does (null when it names none). */
export type BaselineScope = { defaultBranch?: string | null } & (
  | (Extract<WriteStanding, { kind: 'pull_request' }> & {
      baseRef: string
      baseSha: string | null
      headSha: string | null
      sha: string | null
    })
  | (Extract<WriteStanding, { kind: 'default-branch' }> & { sha: string | null })
  | (Extract<WriteStanding, { kind: 'other' }> & { sha: string | null })
)

const rec = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {})
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export function baselineScope(eventName: string, payload: unknown, env: NodeJS.ProcessEnv): BaselineScope {
  const standing = writeStanding(eventName, payload, env)
  const defaultBranch = defaultBranchOf(payload)
  if (standing.kind !== 'pull_request') return { ...standing, defaultBranch, sha: trustedCommit(eventName, payload, env) }
  const sha = text(env.GITHUB_SHA)
  const pr = rec(rec(payload).pull_request)
  const base = rec(pr.base)
  return {
    ...standing,
    defaultBranch,
    baseRef: text(base.ref) ?? env.GITHUB_BASE_REF ?? '',
    baseSha: text(base.sha),
    headSha: text(rec(pr.head).sha),
    sha
  }
}

/** The commit (or branch) whose accepted risks a run that is not a pull request reads; null: none can be trusted. */
function trustedCommit(eventName: string, payload: unknown, env: NodeJS.ProcessEnv): string | null {
  const p = rec(payload)
  if (eventName === 'merge_group') return text(rec(p.merge_group).base_sha)
  if (eventName === 'deployment_status' || eventName === 'repository_dispatch') {
    const branch = defaultBranchOf(p)
    return branch === null ? null : `refs/heads/${branch}`
  }
  return text(env.GITHUB_SHA)
}
