/**
 * `mode: validate`: re-run the attacks of every finding marked fixed among the
 * model's recent runs (POST /findings/{id}/validate, section 4.10) and report
 * which fixes hold.
 *
 * - Candidates: GET /model/{id}/run?limit=max_runs (most recent first), then
 *   GET /run/{run_id}/findings?status=fixed of each terminal run (a running run
 *   has no readable findings: skipped, as is a 409 run_in_progress). Deduped by
 *   finding_id (the most recent run wins); validated most severe first, so a
 *   daily replay cap is spent where it matters.
 * - ONE validation at a time. Verdicts resolved / still_broken / not_eligible
 *   are final; `validating` is followed through the findings list until the
 *   finding's status leaves `fixed`, within the deadline.
 * - 409 validation_in_progress: someone else's validation of the finding is
 *   running: follow it the same way, never start another while it runs. What
 *   a still_broken validation leaves behind is not shown (the status may stay
 *   `fixed`), so the attacks are watched too: once every attack's
 *   last_replay_status is no longer pending and its last_replayed_at has
 *   moved past the moment of the 409, the other validation has visibly
 *   ended; if the status still says `fixed`, POST validate is asked again
 *   (its verdict is then ours) rather than waiting out the deadline.
 * - 429 (concurrency or daily replay cap): wait per Retry-After if it fits in
 *   timeout_minutes, then retry; else this and every remaining finding is
 *   reported not attempted.
 * - 403 proof_withheld: the plan withholds proof; the same answer holds for
 *   every finding, so the rest is not tried.
 * - 422 replay_unwireable, 404: this finding is not attempted (explained).
 * - An ambiguous failure (network, 5xx, malformed answer) may have started a
 *   replay: the finding's status is read back before trying again (the client
 *   never retries validate, since each call spends a replay run).
 * - Other service errors propagate; the shell reports them.
 */
import {
  severityRank,
  type Finding,
  type FindingStatus,
  type ReplayStatus,
  type RunListItem,
  type Severity,
  type ValidateFindingResponse
} from '../service/contract/index.js'
import { DeadlineExceededError, ServiceError } from '../util/errors.js'
import { oneLine, plural } from '../util/text.js'
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from '../util/retry-policy.js'
import type { ServiceCallDeps } from '../service/service-api.js'
import { validationResult } from '../decision/validation-result.js'

export type ValidationOutcome = 'resolved' | 'still_broken' | 'not_eligible' | 'not_attempted'

export const VALIDATION_OUTCOMES: readonly ValidationOutcome[] = ['resolved', 'still_broken', 'not_eligible', 'not_attempted']

export interface ValidatedFinding {
  finding_id: string
  category: string
  severity: Severity
  /** The run whose findings list holds the finding (used to follow it). */
  run_id: string
  outcome: ValidationOutcome
  /** One line: why, e.g. "proof withheld by the plan", "timed out while validating". May quote service text. */
  detail: string
  /** The finding's status after this step, as last seen; null when unknown. */
  finding_status: FindingStatus | null
  attacks: { attack_id: string; last_replay_status: ReplayStatus }[]
}

export interface ValidateModeResult {
  findings: ValidatedFinding[]
  resolved: number
  stillBroken: number
  notEligible: number
  notAttempted: number
  /** Runs whose findings were read. */
  runsScanned: number
  /** Any still broken, or any not attempted unless failOnIncomplete is false. */
  failed: boolean
  /** One line summing the outcome (may quote the model id). */
  reason: string
}

export type ValidateModeDeps = ServiceCallDeps

export interface ValidateModeArgs {
  modelId: string
  maxRuns: number
  failOnIncomplete: boolean
}

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

/** Interval bounds while following a validation through the findings list. */
export const FOLLOW_POLL_MIN_MS = 2_000
export const FOLLOW_POLL_MAX_MS = 15_000
/** The shortest wait after a 429 that gave no usable Retry-After. */
const MIN_429_WAIT_MS = 1_000
/** Attempts of one validate call after ambiguous failures (each one read back first). */
const MAX_AMBIGUOUS_ATTEMPTS = 3
/** Times POST validate is asked again after another validation visibly ended with the status still `fixed`. */
const MAX_ASK_AGAIN = 2
/** How far the service's clock may be behind ours when comparing last_replayed_at with the moment of a 409. */
export const REPLAY_CLOCK_SKEW_MS = 5_000

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

/** follow() saw the other validation end with the status still `fixed`. */
const ASK_AGAIN = 'ask-again' as const

interface Candidate {
  finding: Finding
  runId: string
}

type Attempt = Omit<ValidatedFinding, 'finding_id' | 'category' | 'severity' | 'run_id'>

/** Ends this finding and all those after it with the same explanation. */
class StopAll extends Error {
  constructor(
    readonly here: Attempt,
    readonly rest: string
  ) {
    super(rest)
  }
}

function timedOut(f: Finding): StopAll {
  return new StopAll(
    { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.timedOutWhile, finding_status: f.status, attacks: attacksOf(f) },
    NOT_ATTEMPTED_DETAIL.timedOutBefore
  )
}

function attacksOf(f: Finding): ValidatedFinding['attacks'] {
  return f.attacks.map((a) => ({ attack_id: a.attack_id, last_replay_status: a.last_replay_status }))
}

function safeId(id: string): string {
  return oneLine(id, 80)
}

function clampMaxRuns(n: number): number {
  if (!Number.isFinite(n)) return 20
  return Math.min(100, Math.max(1, Math.trunc(n)))
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
function outcomeOfStatus(f: Finding): Attempt | null {
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

function fromVerdict(res: ValidateFindingResponse): Attempt | 'validating' {
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

class Validator {
  private readonly random: () => number

  constructor(
    private readonly deps: ValidateModeDeps,
    private readonly modelId: string
  ) {
    this.random = deps.random ?? Math.random
  }

  private get opts(): { signal?: AbortSignal } {
    return this.deps.signal ? { signal: this.deps.signal } : {}
  }

  /** Terminal runs' fixed findings, deduped, most severe first. */
  async collect(maxRuns: number): Promise<{ candidates: Candidate[]; runsScanned: number; runsListed: number }> {
    const { api, log } = this.deps
    const list = await api.listRuns(this.modelId, { limit: clampMaxRuns(maxRuns) }, this.opts)
    const seen = new Map<string, Candidate>()
    let runsScanned = 0
    let order = 0
    const rank = new Map<string, number>()
    for (const run of list.runs) {
      if (run.status === 'running') {
        log.info(`Run ${safeId(run.run_id)} is still running; its findings are not readable yet, skipped.`)
        continue
      }
      const findings = await this.fixedFindingsOf(run)
      if (findings === null) continue
      runsScanned += 1
      for (const f of findings) {
        if (f.status !== 'fixed' || seen.has(f.finding_id)) continue
        seen.set(f.finding_id, { finding: f, runId: run.run_id })
        rank.set(f.finding_id, order++)
      }
    }
    const candidates = [...seen.values()].sort(
      (a, b) =>
        severityRank(a.finding.severity) - severityRank(b.finding.severity) ||
        (rank.get(a.finding.finding_id) ?? 0) - (rank.get(b.finding.finding_id) ?? 0)
    )
    return { candidates, runsScanned, runsListed: list.runs.length }
  }

  private async fixedFindingsOf(run: RunListItem): Promise<Finding[] | null> {
    try {
      const res = await this.deps.api.listFindings(run.run_id, { status: 'fixed' }, this.opts)
      return res.findings
    } catch (err) {
      if (err instanceof ServiceError && err.status === 409) {
        this.deps.log.info(`Run ${safeId(run.run_id)} is still in progress; its findings are not readable yet, skipped.`)
        return null
      }
      throw err
    }
  }

  /** The finding as the findings list of its run shows it now; null when it is gone. */
  private async readBack(c: Candidate): Promise<Finding | null> {
    const res = await this.deps.api.listFindings(c.runId, {}, this.opts)
    return res.findings.find((f) => f.finding_id === c.finding.finding_id) ?? null
  }

  private followDelay(step: number): number {
    const base = Math.min(FOLLOW_POLL_MAX_MS, FOLLOW_POLL_MIN_MS * 1.5 ** step)
    return Math.round(base * (0.8 + 0.4 * this.random()))
  }

  /**
   * Follow a running validation (ours or someone else's) until the status
   * leaves `fixed`. With `othersSince` (the moment of a 409: someone else's
   * validation), also until its replays visibly end with the status still
   * `fixed`: then ASK_AGAIN.
   */
  private async follow(c: Candidate, why: string, othersSince?: number): Promise<Attempt | typeof ASK_AGAIN> {
    const { clock, deadline, log } = this.deps
    const since = clock.now()
    let lastLog = since
    let last = c.finding
    log.info(`  ${why}; following it through the findings list of run ${safeId(c.runId)}.`)
    for (let step = 0; ; step++) {
      const delay = this.followDelay(step)
      if (delay >= deadline.remainingMs()) {
        return {
          outcome: 'not_attempted',
          detail: NOT_ATTEMPTED_DETAIL.stillValidating,
          finding_status: last.status,
          attacks: attacksOf(last)
        }
      }
      await clock.sleep(delay, this.deps.signal)
      const now = await this.readBack(c)
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

  /** Validate one finding; throws StopAll when the rest cannot be tried either. */
  async validate(c: Candidate): Promise<Attempt> {
    const { clock, deadline } = this.deps
    const id = c.finding.finding_id
    let ambiguous = 0
    let capWaits = 0
    let askedAgain = 0
    for (;;) {
      let res: ValidateFindingResponse
      try {
        res = await this.deps.api.validateFinding(id, this.opts)
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err
        if (err.status === 409 && (err.code === 'validation_in_progress' || err.code === undefined)) {
          const watch = askedAgain < MAX_ASK_AGAIN ? clock.now() : undefined
          const followed = await this.follow(c, 'A validation of this finding is already running (409); not starting another', watch)
          if (followed !== ASK_AGAIN) return followed
          askedAgain += 1
          continue
        }
        if (err.status === 429) {
          const wait = Math.max(MIN_429_WAIT_MS, err.retryAfterMs ?? backoffDelayMs(capWaits + 1, DEFAULT_RETRY_POLICY, this.random))
          if (wait >= deadline.remainingMs()) {
            const detail = `${NOT_ATTEMPTED_DETAIL.capReached}: ${err.serviceMessage} (retry after ${Math.ceil(wait / 1000)} s, beyond timeout_minutes)`
            throw new StopAll(
              { outcome: 'not_attempted', detail, finding_status: c.finding.status, attacks: attacksOf(c.finding) },
              NOT_ATTEMPTED_DETAIL.capReached
            )
          }
          capWaits += 1
          this.deps.log.info(
            `  Replay limit reached (429${err.code ? ` ${err.code}` : ''}: ${err.serviceMessage}); waiting ${Math.ceil(wait / 1000)} s${err.retryAfterMs !== undefined ? ' as the service asks' : ''}.`
          )
          await clock.sleep(wait, this.deps.signal)
          continue
        }
        if (err.status === 403 && err.code === 'proof_withheld') {
          throw new StopAll(
            {
              outcome: 'not_attempted',
              detail: NOT_ATTEMPTED_DETAIL.proofWithheld,
              finding_status: c.finding.status,
              attacks: attacksOf(c.finding)
            },
            NOT_ATTEMPTED_DETAIL.proofWithheld
          )
        }
        if (err.status === 422) {
          return {
            outcome: 'not_attempted',
            detail: `${NOT_ATTEMPTED_DETAIL.unwireable} (service: ${err.serviceMessage})`,
            finding_status: c.finding.status,
            attacks: attacksOf(c.finding)
          }
        }
        if (err.status === 404) {
          return { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.notFound, finding_status: null, attacks: attacksOf(c.finding) }
        }
        if ((err.ambiguous || err.transient) && ambiguous + 1 < MAX_AMBIGUOUS_ATTEMPTS) {
          ambiguous += 1
          // The request may have started a replay: read the finding back before another attempt.
          const delay = backoffDelayMs(ambiguous, DEFAULT_RETRY_POLICY, this.random)
          if (delay >= deadline.remainingMs()) throw timedOut(c.finding)
          this.deps.log.info(`  No clear answer (${err.describe()}); checking the finding's status before trying again.`)
          await clock.sleep(delay, this.deps.signal)
          const now = await this.readBack(c)
          if (now === null) {
            return { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.notFound, finding_status: null, attacks: attacksOf(c.finding) }
          }
          const done = outcomeOfStatus(now)
          if (done) return done
          continue // still fixed: nothing ran, or a replay runs now (the next attempt then meets 409 and follows it)
        }
        if (err.ambiguous || err.transient) {
          throw err.withDetail({ hint: `validation of finding ${safeId(id)} got no clear answer after ${MAX_AMBIGUOUS_ATTEMPTS} attempts` })
        }
        throw err
      }
      const out = fromVerdict(res)
      if (out !== 'validating') return out
      const followed = await this.follow(
        c,
        `The replay${res.replay_run_id ? ` (run ${safeId(res.replay_run_id)})` : ''} did not finish quickly (verdict validating)`
      )
      // Without the moment of a 409 follow() never answers ASK_AGAIN.
      if (followed === ASK_AGAIN) continue
      return followed
    }
  }
}

function summarise(findings: ValidatedFinding[], runsScanned: number, runsListed: number, args: ValidateModeArgs): ValidateModeResult {
  const count = (o: ValidationOutcome): number => findings.filter((f) => f.outcome === o).length
  const counts = {
    total: findings.length,
    resolved: count('resolved'),
    stillBroken: count('still_broken'),
    notEligible: count('not_eligible'),
    notAttempted: count('not_attempted'),
    runsListed,
    runsScanned
  }
  const { failed, reason } = validationResult(counts, { model: safeId(args.modelId), failOnIncomplete: args.failOnIncomplete })
  const { resolved, stillBroken, notEligible, notAttempted } = counts
  return { findings, resolved, stillBroken, notEligible, notAttempted, runsScanned, failed, reason }
}

/** The whole of validate mode: collect, validate one at a time, sum up. */
export async function runValidateMode(deps: ValidateModeDeps, args: ValidateModeArgs): Promise<ValidateModeResult> {
  const { log, deadline } = deps
  const model = safeId(args.modelId)
  const v = new Validator(deps, args.modelId)
  log.info(`Looking for findings marked fixed in the ${clampMaxRuns(args.maxRuns)} most recent runs of model ${model}.`)
  const { candidates, runsScanned, runsListed } = await v.collect(args.maxRuns)
  log.info(`Found ${plural(candidates.length, 'finding')} marked fixed across ${plural(runsScanned, 'run')}.`)

  const out: ValidatedFinding[] = []
  let stopRest: string | null = null
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]
    const f = c.finding
    const base = { finding_id: f.finding_id, category: f.category, severity: f.severity, run_id: c.runId }
    const skip = (detail: string): void => {
      out.push({ ...base, outcome: 'not_attempted', detail, finding_status: f.status, attacks: attacksOf(f) })
    }
    if (stopRest === null && deadline.expired()) stopRest = NOT_ATTEMPTED_DETAIL.timedOutBefore
    if (stopRest !== null) {
      skip(stopRest)
      continue
    }
    log.info(`Validating ${i + 1}/${candidates.length}: finding ${safeId(f.finding_id)} (${oneLine(f.category, 80)}, ${f.severity})…`)
    let attempt: Attempt
    try {
      attempt = await v.validate(c)
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
  const result = summarise(out, runsScanned, runsListed, args)
  log.info(result.reason)
  return result
}
