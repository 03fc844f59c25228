/**
 * What one validation attempt ended in, told from the service's verdict or
 * from the finding's status once a replay has ended, and the explanations of
 * a finding not attempted.
 */
import type { Finding, ValidateFindingResponse } from '../service/contract/index.js'
import { oneLine } from '../util/text.js'
import type { ValidatedFinding } from './validate-types.js'

/** Explanations shown to the user (the detail of a not-attempted finding). */
export const NOT_ATTEMPTED_DETAIL = {
  proofWithheld:
    "proof withheld by the plan: this workspace's plan withholds the proof of findings (their attacks), and validation replays those attacks, so it needs a plan that includes proof",
  unwireable:
    'the target cannot be wired for replay: validation re-sends the attacks to the live target, which must be reachable from the service over the HTTP transport with a valid endpoint_url, response_field and credentials in its agent config',
  notFound: 'the service no longer knows this finding (404): it was deleted or belongs to another workspace',
  capReached: 'daily replay cap or concurrency limit reached',
  stillValidating: 'still validating when timeout_minutes ran out',
  timedOutBefore: 'timeout_minutes ran out before this finding could be validated',
  timedOutWhile: 'timed out while validating'
} as const

/** A finding's outcome, without the fields that name it. */
export type Attempt = Omit<ValidatedFinding, 'finding_id' | 'category' | 'severity' | 'run_id'>

/** Ends this finding and all those after it with the same explanation. */
export class StopAll extends Error {
  constructor(
    readonly here: Attempt,
    readonly rest: string
  ) {
    super(rest)
  }
}

/** timeout_minutes ran out while validating `f`: it, and every finding after it, is not attempted. */
export function timedOut(f: Finding): StopAll {
  return new StopAll(
    { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.timedOutWhile, finding_status: f.status, attacks: attacksOf(f) },
    NOT_ATTEMPTED_DETAIL.timedOutBefore
  )
}

/** The attacks of a finding as a validation reports them. */
export function attacksOf(f: Finding): ValidatedFinding['attacks'] {
  return f.attacks.map((a) => ({ attack_id: a.attack_id, last_replay_status: a.last_replay_status }))
}

/** A service id, shown on one line. */
export function safeId(id: string): string {
  return oneLine(id, 80)
}

/** "2 attacks still reproduce, 1 could not be judged" from a finding after replay. */
function brokenDetail(f: Finding): string {
  const reproduced = f.attacks.filter((a) => a.last_replay_status === 'reproduced').length
  const inconclusive = f.attacks.filter((a) => a.last_replay_status === 'inconclusive').length
  const parts: string[] = []
  if (reproduced > 0)
    parts.push(
      `${reproduced} of ${f.attacks.length} attack${f.attacks.length === 1 ? '' : 's'} still reproduce${reproduced === 1 ? 's' : ''}`
    )
  if (inconclusive > 0) parts.push(`${inconclusive} could not be judged`)
  const what = parts.length > 0 ? parts.join(', ') : 'at least one attack still reproduces or could not be judged'
  return `${what}; the finding is ${f.status === 'open' ? 'open again' : `now ${safeId(f.status)}`}`
}

/** The outcome told by a finding's status once a validation has ended. Null while it is still `fixed`. */
export function outcomeOfStatus(f: Finding): Attempt | null {
  switch (f.status) {
    case 'fixed':
      return null
    case 'FIXED_VERIFIED':
      return {
        outcome: 'resolved',
        detail: 'no attack reproduces any more; the finding is now FIXED_VERIFIED',
        finding_status: f.status,
        attacks: attacksOf(f)
      }
    case 'open':
      return { outcome: 'still_broken', detail: brokenDetail(f), finding_status: f.status, attacks: attacksOf(f) }
    case 'dismissed':
      return {
        outcome: 'not_eligible',
        detail: 'the finding was dismissed meanwhile; it is no longer marked fixed',
        finding_status: f.status,
        attacks: attacksOf(f)
      }
    default:
      // A status the description does not name (its complete set is not shown): the
      // finding left fixed without reaching FIXED_VERIFIED, so it is not resolved (fail closed).
      return {
        outcome: 'still_broken',
        detail: `the finding is now ${safeId(f.status)}, a status this action does not know; not counted as resolved`,
        finding_status: f.status,
        attacks: attacksOf(f)
      }
  }
}

/** The outcome told by the verdict of POST validate; `validating` while the replay still runs. */
export function fromVerdict(res: ValidateFindingResponse): Attempt | 'validating' {
  const f = res.finding
  const replay = res.replay_run_id ? ` (replay run ${safeId(res.replay_run_id)})` : ''
  switch (res.verdict) {
    case 'resolved':
      return {
        outcome: 'resolved',
        detail: `no attack reproduces any more; the finding is now ${safeId(f.status)}${replay}`,
        finding_status: f.status,
        attacks: attacksOf(f)
      }
    case 'still_broken':
      return { outcome: 'still_broken', detail: `${brokenDetail(f)}${replay}`, finding_status: f.status, attacks: attacksOf(f) }
    case 'not_eligible':
      return {
        outcome: 'not_eligible',
        detail: `the finding is no longer marked fixed (status ${safeId(f.status)}); no replay run was spent`,
        finding_status: f.status,
        attacks: attacksOf(f)
      }
    case 'validating':
      return 'validating'
  }
}
