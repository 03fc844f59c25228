/**
 * Following a validation that is running (ours, answered `validating`, or
 * someone else's, met as a 409) through the findings list of its run, until
 * the finding's status leaves `fixed` or, for someone else's, until its
 * replays visibly end.
 */
import type { Finding } from '../service/contract/index.js'
import { callOptions, type Candidate } from './candidates.js'
import { attacksOf, NOT_ATTEMPTED_DETAIL, outcomeOfStatus, safeId, type Attempt } from './outcomes.js'
import type { ValidateModeDeps } from './validate-types.js'

/** Interval bounds while following a validation through the findings list. */
export const FOLLOW_POLL_MIN_MS = 2_000
export const FOLLOW_POLL_MAX_MS = 15_000
/** How far the service's clock may be behind ours when comparing last_replayed_at with the moment of a 409. */
export const REPLAY_CLOCK_SKEW_MS = 5_000

/** follow() saw the other validation end with the status still `fixed`. */
export const ASK_AGAIN = 'ask-again' as const

export type FollowDeps = ValidateModeDeps & { random: () => number }

/**
 * Every attack of `now` was replayed after `sinceMs` (our clock, less the
 * skew allowed) or after what `before` showed, and none is pending: the
 * validation running at `sinceMs` has ended. False when the finding has no
 * attacks (nothing to see).
 */
export function replaysEndedSince(now: Finding, before: Finding, sinceMs: number): boolean {
  if (now.attacks.length === 0) return false
  const prev = new Map(before.attacks.map((a) => [a.attack_id, a.last_replayed_at]))
  return now.attacks.every((a) => {
    if (a.last_replay_status === 'pending' || a.last_replayed_at === null) return false
    const at = Date.parse(a.last_replayed_at)
    if (Number.isNaN(at)) return false
    if (at >= sinceMs - REPLAY_CLOCK_SKEW_MS) return true
    const was = prev.get(a.attack_id)
    if (was === undefined) return false
    const wasAt = was === null ? Number.NEGATIVE_INFINITY : Date.parse(was)
    return !Number.isNaN(wasAt) && at > wasAt
  })
}

/** The finding as the findings list of its run shows it now; null when it is gone. */
export async function readBack(deps: ValidateModeDeps, c: Candidate): Promise<Finding | null> {
  const res = await deps.api.listFindings(c.runId, {}, callOptions(deps))
  return res.findings.find((f) => f.finding_id === c.finding.finding_id) ?? null
}

function followDelay(step: number, random: () => number): number {
  const base = Math.min(FOLLOW_POLL_MAX_MS, FOLLOW_POLL_MIN_MS * 1.5 ** step)
  return Math.round(base * (0.8 + 0.4 * random()))
}

/**
 * Follow a running validation (ours or someone else's) until the status
 * leaves `fixed`. With `othersSince` (the moment of a 409: someone else's
 * validation), also until its replays visibly end with the status still
 * `fixed`: then ASK_AGAIN.
 */
export async function follow(deps: FollowDeps, c: Candidate, why: string, othersSince?: number): Promise<Attempt | typeof ASK_AGAIN> {
  const { clock, deadline, log } = deps
  const since = clock.now()
  let lastLog = since
  let last = c.finding
  log.info(`  ${why}; following it through the findings list of run ${safeId(c.runId)}.`)
  for (let step = 0; ; step++) {
    const delay = followDelay(step, deps.random)
    if (delay >= deadline.remainingMs()) {
      return {
        outcome: 'not_attempted',
        detail: NOT_ATTEMPTED_DETAIL.stillValidating,
        finding_status: last.status,
        attacks: attacksOf(last)
      }
    }
    await clock.sleep(delay, deps.signal)
    const now = await readBack(deps, c)
    if (now === null) {
      return {
        outcome: 'not_attempted',
        detail: `the finding disappeared from the findings list of run ${safeId(c.runId)} while validating`,
        finding_status: null,
        attacks: attacksOf(last)
      }
    }
    last = now
    const done = outcomeOfStatus(now)
    if (done) return done
    if (othersSince !== undefined && replaysEndedSince(now, c.finding, othersSince)) {
      log.info(
        `  The other validation has ended (every attack replayed since the 409: ${now.attacks.map((a) => `${safeId(a.attack_id)} ${safeId(a.last_replay_status)}`).join(', ')}), but the finding still reads fixed; asking for a validation again.`
      )
      return ASK_AGAIN
    }
    if (clock.now() - lastLog >= 30_000) {
      log.info(`  Still validating (${Math.round((clock.now() - since) / 1000)} s so far)…`)
      lastLog = clock.now()
    }
  }
}
