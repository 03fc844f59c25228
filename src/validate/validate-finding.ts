/**
 * Validating one finding: POST /findings/{id}/validate, and what each answer
 * means.
 * - Verdicts resolved / still_broken / not_eligible are final; `validating`
 *   is followed through the findings list until the finding's status leaves
 *   `fixed`, within the deadline (follow.ts).
 * - 409 validation_in_progress: someone else's validation of the finding is
 *   running: follow it the same way, never start another while it runs. What
 *   a still_broken validation leaves behind is not shown (the status may stay
 *   `fixed`), so the attacks are watched too: once every attack's
 *   last_replay_status is no longer pending and its last_replayed_at has
 *   moved past the moment of the 409, the other validation has visibly
 *   ended; if the status still says `fixed`, POST validate is asked again
 *   (its verdict is then ours) rather than waiting out the deadline.
 * - 429: wait per Retry-After if it fits in timeout_minutes, then retry; else
 *   this and every remaining finding is not attempted (StopAll).
 * - 403 proof_withheld: the same answer holds for every finding (StopAll).
 * - 422 replay_unwireable, 404: this finding is not attempted (explained).
 * - An ambiguous failure may have started a replay: the finding's status is
 *   read back before trying again (the client never retries validate, since
 *   each call spends a replay run).
 * - Other service errors propagate.
 */
import type { FindingStatus, ValidateFindingResponse } from '../service/contract/index.js'
import { ServiceError } from '../util/errors.js'
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from '../util/retry-policy.js'
import { callOptions, type Candidate } from './candidates.js'
import { ASK_AGAIN, follow, readBack, type FollowDeps } from './follow.js'
import { attacksOf, fromVerdict, NOT_ATTEMPTED_DETAIL, outcomeOfStatus, safeId, StopAll, timedOut, type Attempt } from './outcomes.js'
import type { ValidateModeDeps } from './validate-types.js'

/** The shortest wait after a 429 that gave no usable Retry-After. */
const MIN_429_WAIT_MS = 1_000
/** Attempts of one validate call after ambiguous failures (each one read back first). */
const MAX_AMBIGUOUS_ATTEMPTS = 3
/** Times POST validate is asked again after another validation visibly ended with the status still `fixed`. */
const MAX_ASK_AGAIN = 2

/** The answer to a refused or unanswered call: ask POST validate again. */
const RETRY = 'retry' as const

/** What one finding's validation has spent so far. */
interface Tries {
  ambiguous: number
  capWaits: number
  askedAgain: number
}

/** Validate one finding; throws StopAll when the rest cannot be tried either. */
export async function validateFinding(deps: ValidateModeDeps, c: Candidate): Promise<Attempt> {
  const d: FollowDeps = { ...deps, random: deps.random ?? Math.random }
  const tries: Tries = { ambiguous: 0, capWaits: 0, askedAgain: 0 }
  for (;;) {
    let res: ValidateFindingResponse
    try {
      res = await d.api.validateFinding(c.finding.finding_id, callOptions(d))
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err
      const next = await afterRefusal(d, c, err, tries)
      if (next === RETRY) continue
      return next
    }
    const out = fromVerdict(res)
    if (out !== 'validating') return out
    const replay = res.replay_run_id ? ` (run ${safeId(res.replay_run_id)})` : ''
    const followed = await follow(d, c, `The replay${replay} did not finish quickly (verdict validating)`)
    // Without the moment of a 409 follow() never answers ASK_AGAIN.
    if (followed === ASK_AGAIN) continue
    return followed
  }
}

/** What a service error to POST validate means for this finding (or, thrown as StopAll, for the rest). */
async function afterRefusal(d: FollowDeps, c: Candidate, err: ServiceError, tries: Tries): Promise<Attempt | typeof RETRY> {
  const notAttempted = (detail: string, status: FindingStatus | null = c.finding.status): Attempt => ({
    outcome: 'not_attempted',
    detail,
    finding_status: status,
    attacks: attacksOf(c.finding)
  })
  if (err.status === 409 && (err.code === 'validation_in_progress' || err.code === undefined)) {
    const watch = tries.askedAgain < MAX_ASK_AGAIN ? d.clock.now() : undefined
    const followed = await follow(d, c, 'A validation of this finding is already running (409); not starting another', watch)
    if (followed !== ASK_AGAIN) return followed
    tries.askedAgain += 1
    return RETRY
  }
  if (err.status === 429) return waitForCap(d, c, err, tries)
  if (err.status === 403 && err.code === 'proof_withheld')
    throw new StopAll(notAttempted(NOT_ATTEMPTED_DETAIL.proofWithheld), NOT_ATTEMPTED_DETAIL.proofWithheld)
  if (err.status === 422) return notAttempted(`${NOT_ATTEMPTED_DETAIL.unwireable} (service: ${err.serviceMessage})`)
  if (err.status === 404) return notAttempted(NOT_ATTEMPTED_DETAIL.notFound, null)
  if (err.ambiguous || err.transient) return afterAmbiguous(d, c, err, tries)
  throw err
}

/** 429: wait as the service asks when that fits in timeout_minutes; else this and the rest are not attempted. */
async function waitForCap(d: FollowDeps, c: Candidate, err: ServiceError, tries: Tries): Promise<typeof RETRY> {
  const wait = Math.max(MIN_429_WAIT_MS, err.retryAfterMs ?? backoffDelayMs(tries.capWaits + 1, DEFAULT_RETRY_POLICY, d.random))
  if (wait >= d.deadline.remainingMs()) {
    const detail = `${NOT_ATTEMPTED_DETAIL.capReached}: ${err.serviceMessage} (retry after ${Math.ceil(wait / 1000)} s, beyond timeout_minutes)`
    throw new StopAll(
      { outcome: 'not_attempted', detail, finding_status: c.finding.status, attacks: attacksOf(c.finding) },
      NOT_ATTEMPTED_DETAIL.capReached
    )
  }
  tries.capWaits += 1
  d.log.info(
    `  Replay limit reached (429${err.code ? ` ${err.code}` : ''}: ${err.serviceMessage}); waiting ${Math.ceil(wait / 1000)} s${err.retryAfterMs !== undefined ? ' as the service asks' : ''}.`
  )
  await d.clock.sleep(wait, d.signal)
  return RETRY
}

/** No clear answer: the request may have started a replay, so the finding is read back before another attempt. */
async function afterAmbiguous(d: FollowDeps, c: Candidate, err: ServiceError, tries: Tries): Promise<Attempt | typeof RETRY> {
  if (tries.ambiguous + 1 >= MAX_AMBIGUOUS_ATTEMPTS) {
    throw err.withDetail({
      hint: `validation of finding ${safeId(c.finding.finding_id)} got no clear answer after ${MAX_AMBIGUOUS_ATTEMPTS} attempts`
    })
  }
  tries.ambiguous += 1
  const delay = backoffDelayMs(tries.ambiguous, DEFAULT_RETRY_POLICY, d.random)
  if (delay >= d.deadline.remainingMs()) throw timedOut(c.finding)
  d.log.info(`  No clear answer (${err.describe()}); checking the finding's status before trying again.`)
  await d.clock.sleep(delay, d.signal)
  const now = await readBack(d, c)
  if (now === null)
    return { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.notFound, finding_status: null, attacks: attacksOf(c.finding) }
  // Still fixed: nothing ran, or a replay runs now (the next attempt then meets 409 and follows it).
  return outcomeOfStatus(now) ?? RETRY
}
