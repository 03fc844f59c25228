/**
 * The replay loop: the candidates validated ONE at a time, in order. Once
 * timeout_minutes runs out, or an answer holds for every finding (a replay
 * cap beyond the deadline, proof withheld), the rest are reported not
 * attempted, with why.
 */
import { DeadlineExceededError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import type { Candidate } from './candidates.js'
import { attacksOf, NOT_ATTEMPTED_DETAIL, safeId, StopAll, timedOut, type Attempt } from './outcomes.js'
import { validateFinding } from './validate-finding.js'
import type { ValidatedFinding, ValidateModeDeps } from './validate-types.js'

export async function replayAll(deps: ValidateModeDeps, candidates: readonly Candidate[]): Promise<ValidatedFinding[]> {
  const { log, deadline } = deps
  const out: ValidatedFinding[] = []
  /** Why every finding from here on is not attempted; null while they still are. */
  let stopRest: string | null = null
  for (const [i, c] of candidates.entries()) {
    const f = c.finding
    const base = { finding_id: f.finding_id, category: f.category, severity: f.severity, run_id: c.runId }
    if (stopRest === null && deadline.expired()) stopRest = NOT_ATTEMPTED_DETAIL.timedOutBefore
    if (stopRest !== null) {
      out.push({ ...base, outcome: 'not_attempted', detail: stopRest, finding_status: f.status, attacks: attacksOf(f) })
      continue
    }
    log.info(`Validating ${i + 1}/${candidates.length}: finding ${safeId(f.finding_id)} (${oneLine(f.category, 80)}, ${f.severity})…`)
    let attempt: Attempt
    try {
      attempt = await validateFinding(deps, c)
    } catch (caught) {
      // The client's own waits (retries of a read) ran into the deadline.
      const err = caught instanceof DeadlineExceededError ? timedOut(f) : caught
      if (!(err instanceof StopAll)) throw err
      attempt = err.here
      stopRest = err.rest
      log.warning(
        `Finding ${safeId(f.finding_id)}: not attempted: ${oneLine(err.here.detail)}. The remaining findings are not attempted either.`
      )
    }
    out.push({ ...base, ...attempt })
    if (stopRest === null) log.info(`  → ${attempt.outcome.replace('_', ' ')}: ${oneLine(attempt.detail)}`)
  }
  return out
}
