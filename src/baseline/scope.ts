/**
 * Where a run stands for the baseline and the accepted risks: its standing
 * under the write rule (src/github/write-rule.ts) and the commits to read at.
 * Pure: the event name, its payload and the environment in.
 * - pull_request: read the base branch's accepted risks (at the base SHA);
 * - default-branch: a push, schedule or manual run on the default branch: the
 *   only standing the write rule lets record the baseline;
 * - other: any other event or ref: records nothing.
 * Every kind but pull_request reads the accepted risks at `sha` (GITHUB_SHA).
 */
import { writeStanding, type WriteStanding } from '../github/write-rule.js'
import { isRecord } from '../util/text.js'

export type BaselineScope =
  | (Extract<WriteStanding, { kind: 'pull_request' }> & {
      baseRef: string
      baseSha: string | null
      headSha: string | null
      sha: string | null
    })
  | (Extract<WriteStanding, { kind: 'default-branch' }> & { sha: string | null })
  | (Extract<WriteStanding, { kind: 'other' }> & { sha: string | null })

const rec = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {})
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export function baselineScope(eventName: string, payload: unknown, env: NodeJS.ProcessEnv): BaselineScope {
  const standing = writeStanding(eventName, payload, env)
  const sha = text(env.GITHUB_SHA)
  if (standing.kind !== 'pull_request') return { ...standing, sha }
  const pr = rec(rec(payload).pull_request)
  const base = rec(pr.base)
  return {
    ...standing,
    baseRef: text(base.ref) ?? env.GITHUB_BASE_REF ?? '',
    baseSha: text(base.sha),
    headSha: text(rec(pr.head).sha),
    sha
  }
}
