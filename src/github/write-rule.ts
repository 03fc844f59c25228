/**
 * The one rule for every write a run makes beyond its own report: a target's
 * profile (profile_file), dismissals on the service (sync_dismissals) and the
 * baseline later runs gate against.
 *
 *   Shared targets, dismissals and the baseline are written only from the
 *   default branch on push, schedule or workflow_dispatch; a pull request
 *   writes only the profile of its own preview, and the records of its own
 *   runs under its own ref (they only add evidence to its own window).
 *
 * Only those events on the default branch run the default branch's own code.
 * Every other event may run a pull request's: pull_request runs it, and
 * pull_request_target, issue_comment, workflow_run and the rest run on the
 * default branch's ref while the workflow may check the pull request out. A
 * pull request's own preview (a target found or registered by endpoint_url
 * whose name holds `pr-<number>`) is its own to write. The workflow may widen
 * the profile rule with allow_shared_profile_sync; nothing widens the others.
 *
 * Pure: the event name, its payload and the environment in.
 */
import { isPullRequestName } from '../target/naming.js'
import type { ResolvedTarget } from '../target/target-spec.js'
import { ConfigError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import { defaultBranchOf, isDefaultBranchRef, PULL_REQUEST_EVENTS, targetFromEvent } from './event-target.js'

/** Events that run the code of the ref they run on (a branch's own workflow). */
export const WRITING_EVENTS: ReadonlySet<string> = new Set(['push', 'schedule', 'workflow_dispatch'])

/** The rule in one line, for messages and the docs. */
export const WRITE_RULE =
  'shared targets, dismissals and the baseline are written only from the default branch on push, schedule or workflow_dispatch'

/** Where a run stands for writes. */
export type WriteStanding =
  /** A push, schedule or workflow_dispatch whose GITHUB_REF is the repository's default branch. */
  | { kind: 'default-branch'; branch: string }
  /** pull_request or pull_request_target (number null when the payload holds none). */
  | { kind: 'pull_request'; number: number | null }
  /** Anything else: another branch or tag, or an event that may check out a pull request's code. */
  | { kind: 'other'; eventName: string; ref: string }

export type ServiceWrite =
  | { kind: 'baseline' }
  /**
   * The record of a pull request's own run, saved under `ref` (GITHUB_REF): it
   * only adds evidence to the pull request's own window. pull_request_target
   * runs on the base branch's ref, whose records make main's verdicts laxer:
   * only the pull request's own ref (refs/pull/<n>/merge) may hold one.
   */
  | { kind: 'own-record'; ref: string }
  | { kind: 'dismissals' }
  | { kind: 'profile'; target: ResolvedTarget; allowShared: boolean }

export function writeStanding(eventName: string, payload: unknown, env: NodeJS.ProcessEnv): WriteStanding {
  if (PULL_REQUEST_EVENTS.has(eventName)) {
    const event = targetFromEvent(eventName, payload, env.GITHUB_REPOSITORY ?? '')
    return { kind: 'pull_request', number: event.kind === 'pull_request' ? event.number : null }
  }
  const ref = env.GITHUB_REF ?? ''
  const defaultBranch = defaultBranchOf(payload)
  if (WRITING_EVENTS.has(eventName) && defaultBranch !== null && isDefaultBranchRef(payload, ref))
    return { kind: 'default-branch', branch: defaultBranch }
  return { kind: 'other', eventName, ref }
}

/** The ref a pull_request run is on (GITHUB_REF), which only that pull request's runs save cache entries under. */
export function pullRequestRef(number: number): string {
  return `refs/pull/${number}/merge`
}

/** The run, as a refusal names it (the default branch is never refused). */
function describeRun(standing: Exclude<WriteStanding, { kind: 'default-branch' }>): string {
  switch (standing.kind) {
    case 'pull_request':
      return standing.number === null ? 'this pull request' : `pull request #${standing.number}`
    case 'other':
      return `this ${oneLine(standing.eventName, 40) || 'unnamed'} run on ${oneLine(standing.ref, 100) || 'an unknown ref'}`
  }
}

/** True when `target` is the pull request's own preview, found or registered by endpoint_url. */
function isOwnPreview(standing: WriteStanding, target: ResolvedTarget): boolean {
  return (
    standing.kind === 'pull_request' &&
    standing.number !== null &&
    target.outcome !== 'given' &&
    target.name !== null &&
    isPullRequestName(target.name, standing.number)
  )
}

/** Why `write` may not be made from where the run stands, in one phrase; null when it may. */
export function writeRefusal(standing: WriteStanding, write: ServiceWrite): string | null {
  if (standing.kind === 'default-branch') return null
  const run = describeRun(standing)
  switch (write.kind) {
    case 'baseline':
      return `${run} may run a pull request's code, and the baseline is recorded only from the default branch on push, schedule or workflow_dispatch`
    case 'own-record':
      return standing.kind === 'pull_request' && standing.number !== null && write.ref === pullRequestRef(standing.number)
        ? null
        : `${run} may run a pull request's code on a ref that is not its own (${oneLine(write.ref, 100) || 'none'}), and runs are recorded only from the default branch or a pull request's own ref`
    case 'dismissals':
      return `${run} may run a pull request's code, and acceptances are written to the service only from the default branch on push, schedule or workflow_dispatch`
    case 'profile': {
      if (write.allowShared || isOwnPreview(standing, write.target)) return null
      const t = write.target
      const what = t.name !== null ? `target '${oneLine(t.name, 200)}' (model ${t.modelId})` : `model ${t.modelId} (given by model_id)`
      const own =
        standing.kind === 'pull_request' && standing.number !== null
          ? `may sync the profile of its own preview only (a target registered by endpoint_url whose name holds pr-${standing.number}, as the default name does), and ${what} is shared`
          : `may run a pull request's code, and ${what} is shared`
      return `${run} ${own}`
    }
  }
}

/** The profile sync's refusal, as the configuration error naming the input that widens the rule; null when it may sync. */
export function profileWriteRefusal(standing: WriteStanding, target: ResolvedTarget, allowShared: boolean): ConfigError | null {
  const why = writeRefusal(standing, { kind: 'profile', target, allowShared })
  if (why === null) return null
  return new ConfigError(
    'allow_shared_profile_sync',
    `${why}: ${WRITE_RULE}. Sync it from a push to the default branch, or set allow_shared_profile_sync: true if runs not on it may rewrite its profile`
  )
}
