/**
 * Where a run stands for the baseline and the accepted risks. Pure: the event
 * name, its payload and the environment in.
 * - pull_request: read the base branch's baseline and accepted risks (at the base SHA);
 * - default-branch: a push, schedule or manual run on the default branch: it records the baseline;
 * - other: any other ref: reads the default branch's baseline, records nothing.
 */
export type BaselineScope =
  | { kind: 'pull_request'; baseRef: string; baseSha: string | null; headSha: string | null }
  | { kind: 'default-branch'; branch: string; sha: string | null }
  | { kind: 'other'; ref: string; sha: string | null }

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export function baselineScope(eventName: string, payload: unknown, env: NodeJS.ProcessEnv): BaselineScope {
  const body = rec(payload)
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const pr = rec(body.pull_request)
    const base = rec(pr.base)
    const head = rec(pr.head)
    return { kind: 'pull_request', baseRef: text(base.ref) ?? env.GITHUB_BASE_REF ?? '', baseSha: text(base.sha), headSha: text(head.sha) }
  }
  const ref = env.GITHUB_REF ?? ''
  const defaultBranch = text(rec(body.repository).default_branch)
  const sha = text(env.GITHUB_SHA)
  // Only events that run the default branch's own code record: issue_comment or workflow_run also run on the
  // default branch's ref, but a workflow may check out a pull request's code there.
  const recording = eventName === 'push' || eventName === 'schedule' || eventName === 'workflow_dispatch'
  if (recording && defaultBranch !== null && ref === `refs/heads/${defaultBranch}`)
    return { kind: 'default-branch', branch: defaultBranch, sha }
  return { kind: 'other', ref, sha }
}
