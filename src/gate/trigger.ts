/**
 * Triggering the run: POST /api/v1/run is not idempotent and creates are not
 * deduplicated, so its retries are decided here, not by the client.
 *
 * - 409 (the description gives it one meaning here: an assessment of the model
 *   is already active): wait for it to end (watching the model's run list),
 *   then trigger ours. Never adopt it. If the list shows nothing running yet
 *   (a lagging read side), wait a growing interval before trying again.
 * - 429: wait as Retry-After says (never less than the policy's floor),
 *   within the deadline, and try again.
 * - An ambiguous failure (network error after sending, 5xx, malformed 2xx):
 *   look for a run of this model that appeared since the request was sent.
 *   None: retry. One that is provably ours (run-ownership.ts): continue with
 *   it. One that is not: fail closed (UnprovenRunError), never cancelling it.
 * - Everything else is explained (explain-trigger-failure.ts: config mistakes
 *   become ConfigError).
 */
import type { Clock } from '../util/clock.js'
import { isTerminal, type RunListItem } from '../service/contract/index.js'
import { AbortedError, DeadlineExceededError, ServiceError } from '../util/errors.js'
import { formatDuration, oneLine } from '../util/text.js'
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy } from '../util/retry-policy.js'
import type { ServiceApi, ServiceCallDeps } from '../service/service-api.js'
import { explainTriggerFailure } from './explain-trigger-failure.js'
import { claimRun, needsTaxonomy, newRuns, type Claim, type FullTaxonomy, type TriggerIntent } from './run-ownership.js'

export interface TriggerDeps extends ServiceCallDeps {
  policy?: RetryPolicy
  /** Called before each POST /run with what an abort needs to find the run it may create. */
  onIntent?(intent: TriggerIntent): void
}

export interface TriggerArgs {
  modelId: string
  categories: string[]
}

export interface Triggered {
  runId: string
  startedAt: string
  /** True when the trigger's answer was lost and the run was found in the run list. */
  recovered: boolean
  /** Runs of other workflows this step waited for before triggering. */
  waitedFor: string[]
}

/** Interval bounds while waiting for another run of the model to end. */
const OTHER_RUN_POLL_MIN_MS = 2_000
const OTHER_RUN_POLL_MAX_MS = 15_000

const ENDPOINT = 'POST /api/v1/run'

function elapsed(clock: Clock, since: number): string {
  return formatDuration(clock.now() - since)
}

async function sleepWithin(deps: TriggerDeps, ms: number, what: string): Promise<void> {
  if (ms >= deps.deadline.remainingMs()) {
    throw new DeadlineExceededError(ENDPOINT, `timeout_minutes ran out ${what}`)
  }
  await deps.clock.sleep(ms, deps.signal)
}

/** How many of the model's recent runs are recorded as existing before our trigger. */
const BASELINE_LIMIT = 20

/**
 * The ids of the model's runs that exist before our first trigger: none of
 * them can be ours, whatever their start time says. Best effort: without it,
 * a run that appears after a lost answer cannot be told from another
 * workflow's, and the step fails closed (run-ownership.ts).
 */
async function baselineRunIds(deps: TriggerDeps, modelId: string): Promise<string[] | null> {
  try {
    const list = await deps.api.listRuns(modelId, { limit: BASELINE_LIMIT }, { signal: deps.signal })
    return list.runs.map((r) => r.run_id)
  } catch (err) {
    if (!(err instanceof ServiceError) || err instanceof DeadlineExceededError) throw err
    deps.log.debug(
      `Could not list the model's runs before triggering (${err.describe()}); a run appearing after a lost trigger answer could not be shown to be ours.`
    )
    return null
  }
}

/**
 * The model's runs after an ambiguous trigger failure, judged by the one rule
 * of run-ownership.ts. Reads the security category list only when it is
 * needed (the full taxonomy was asked for and exactly one new run is there).
 */
export async function findOurRun(
  api: ServiceApi,
  intent: TriggerIntent,
  opts: { signal?: AbortSignal; foreign?: ReadonlySet<string> } = {}
): Promise<Claim> {
  const list = await api.listRuns(intent.modelId, { limit: RECOVERY_LIST_LIMIT }, { signal: opts.signal })
  const fresh = newRuns(intent, list.runs, opts.foreign)
  const fullTaxonomy = needsTaxonomy(intent, fresh) ? await readFullTaxonomy(api, opts.signal) : null
  return claimRun(intent, list.runs, { foreign: opts.foreign, fullTaxonomy })
}

/** How many of the model's most recent runs are searched for ours. */
const RECOVERY_LIST_LIMIT = 10

/** The security category keys; 'evaluation' when the workspace is a trial (list withheld); null when unreadable. */
async function readFullTaxonomy(api: ServiceApi, signal?: AbortSignal): Promise<FullTaxonomy> {
  try {
    const list = await api.listCategories({ lens: 'security' }, { signal })
    return list.categories.map((c) => c.key)
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    return err.status === 403 && err.code === 'taxonomy_not_included' ? 'evaluation' : null
  }
}

/** The step's failure when a run appeared but cannot be shown to be ours: fail closed, never cancel it. */
export class UnprovenRunError extends ServiceError {
  constructor(
    readonly seen: string[],
    why: string,
    cause: ServiceError
  ) {
    super({
      endpoint: ENDPOINT,
      code: 'trigger_outcome_unknown',
      message: `the answer to our trigger was lost (${cause.describe()}) and ${why}. Not taking it, and not cancelling it`,
      hint: 'Serialize gates of one model with a concurrency group keyed on the model_id (see examples/concurrency.yml), then run the job again'
    })
    this.name = 'UnprovenRunError'
  }
}

/**
 * Wait until the model has no running run. Records the ids seen as foreign and
 * as waited for. Resolves with whether a running run was seen at all.
 */
async function waitForOtherRuns(deps: TriggerDeps, modelId: string, foreign: Set<string>, waitedFor: Set<string>): Promise<boolean> {
  const since = deps.clock.now()
  let delay = OTHER_RUN_POLL_MIN_MS
  let lastLog = -Infinity
  let sawRunning = false
  for (;;) {
    // Unfiltered (most recent first): an active run in a status the description does not name counts too.
    const list = await deps.api.listRuns(modelId, { limit: 5 }, { signal: deps.signal })
    const running = list.runs.filter((r) => !isTerminal(r.status))
    for (const r of running) {
      foreign.add(r.run_id)
      waitedFor.add(r.run_id)
    }
    if (running.length === 0) return sawRunning
    sawRunning = true
    if (deps.clock.now() - lastLog >= 30_000) {
      const ids = running.map((r) => oneLine(r.run_id, 80)).join(', ')
      deps.log.info(
        `Another assessment of model ${modelId} is running (run ${ids}); waiting for it to end before triggering ours (waited ${elapsed(deps.clock, since)}).`
      )
      lastLog = deps.clock.now()
    }
    if (delay >= deps.deadline.remainingMs()) {
      throw new DeadlineExceededError(
        ENDPOINT,
        `another assessment of model ${modelId} (run ${running.map((r) => oneLine(r.run_id, 80)).join(', ')}) was still running when timeout_minutes ran out. Serialize workflow runs with a concurrency group keyed on the model_id (see examples/concurrency.yml)`
      )
    }
    await deps.clock.sleep(delay, deps.signal)
    delay = Math.min(OTHER_RUN_POLL_MAX_MS, Math.round(delay * 1.5))
  }
}

/** What the attempts so far have learnt: the state of `triggerRun`'s loop. */
interface Attempts {
  /** Runs that exist before our trigger are someone else's (or an earlier step's); null when they could not be listed. */
  readonly baseline: string[] | null
  /** Runs seen running while waiting for another assessment of the model: never ours. */
  readonly foreign: Set<string>
  readonly waitedFor: Set<string>
  /** Earliest send time of an attempt whose outcome is unknown. */
  ambiguousSince: number | null
  failures: number
  /** 409s in a row while the run list showed nothing running. */
  busyRetries: number
  /** Why the last attempt did not start a run, for the timeout message. */
  lastRefusal: string | null
  /** The failures waited out, for the final error. */
  readonly retried: string[]
}

/**
 * Trigger one run of the model. Resolves with the run this step created;
 * rejects with ConfigError, ServiceError, DeadlineExceededError or AbortedError.
 */
export async function triggerRun(deps: TriggerDeps, args: TriggerArgs): Promise<Triggered> {
  if (deps.signal?.aborted) throw new AbortedError()
  if (deps.deadline.expired()) throw new DeadlineExceededError(ENDPOINT, 'timeout_minutes ran out before the run could be triggered')
  const attempts: Attempts = {
    baseline: await baselineRunIds(deps, args.modelId),
    foreign: new Set(),
    waitedFor: new Set(),
    ambiguousSince: null,
    failures: 0,
    busyRetries: 0,
    lastRefusal: null,
    retried: []
  }
  const body = args.categories.length > 0 ? { model_id: args.modelId, categories: args.categories } : { model_id: args.modelId }
  for (;;) {
    stopWhenOutOfTime(deps, attempts)
    const sentAt = deps.clock.now()
    const intent = recordIntent(deps, args, attempts, sentAt)
    try {
      const res = await deps.api.triggerRun(body, { signal: deps.signal })
      return { runId: res.run_id, startedAt: res.started_at, recovered: false, waitedFor: [...attempts.waitedFor] }
    } catch (err) {
      if (!(err instanceof ServiceError) || err instanceof DeadlineExceededError) throw err
      const ours = await afterFailure(deps, args, attempts, { intent, sentAt, err })
      if (ours) return ours
    }
  }
}

function stopWhenOutOfTime(deps: TriggerDeps, attempts: Attempts): void {
  if (deps.signal?.aborted) throw new AbortedError()
  if (deps.deadline.expired()) {
    const why = attempts.lastRefusal ? `: ${attempts.lastRefusal}` : ''
    throw new DeadlineExceededError(ENDPOINT, `timeout_minutes ran out before the run could be triggered${why}`)
  }
}

/** The recorded intent: what an abort (here or in the post step) needs to find the run this request may create. */
function recordIntent(deps: TriggerDeps, args: TriggerArgs, attempts: Attempts, sentAt: number): TriggerIntent {
  const intent: TriggerIntent = {
    modelId: args.modelId,
    categories: args.categories,
    baseline: attempts.baseline === null ? null : [...attempts.baseline, ...attempts.foreign],
    sentAt: attempts.ambiguousSince ?? sentAt
  }
  deps.onIntent?.(intent)
  return intent
}

/** A failed attempt: the intent it was sent under, when, and how it failed. */
interface FailedAttempt {
  intent: TriggerIntent
  sentAt: number
  err: ServiceError
}

/**
 * After a failed attempt: the run this step created when a lost answer turns
 * out to have started it, null to try again (after the wait the failure
 * asks for), or a throw when trying again will not help.
 */
async function afterFailure(deps: TriggerDeps, args: TriggerArgs, attempts: Attempts, failed: FailedAttempt): Promise<Triggered | null> {
  const { err } = failed
  if (err.status === 409) return afterConflict(deps, args.modelId, attempts, failed)
  if (err.status === 429) {
    await waitOutRateLimit(deps, args, attempts, err)
    return null
  }
  if (err.ambiguous) {
    attempts.ambiguousSince = attempts.ambiguousSince ?? failed.sentAt
    const mine = await claimAfter(deps, { ...failed.intent, sentAt: attempts.ambiguousSince }, attempts.foreign, err)
    if (mine) return recovered(deps, mine, attempts.waitedFor)
  }
  await backOffOrExplain(deps, args, attempts, err)
  return null
}

/**
 * 409: the description gives it one meaning here, whatever its code: an
 * assessment of the model is already active. Wait for it to end; never adopt it.
 */
async function afterConflict(deps: TriggerDeps, modelId: string, attempts: Attempts, failed: FailedAttempt): Promise<Triggered | null> {
  if (attempts.ambiguousSince !== null) {
    const mine = await claimAfter(deps, failed.intent, attempts.foreign, failed.err)
    if (mine) return recovered(deps, mine, attempts.waitedFor)
  }
  if (await waitForOtherRuns(deps, modelId, attempts.foreign, attempts.waitedFor)) {
    attempts.busyRetries = 0
    deps.log.info(`The other assessment of model ${modelId} has ended; triggering ours now.`)
    return null
  }
  // 409, yet the run list shows nothing running (its read side lags, or the run is not listed as running).
  attempts.busyRetries += 1
  const wait = Math.min(OTHER_RUN_POLL_MAX_MS, OTHER_RUN_POLL_MIN_MS * 2 ** (attempts.busyRetries - 1))
  const said = `HTTP 409${failed.err.code ? ` ${failed.err.code}` : ''}`
  deps.log.info(
    `The service says an assessment of model ${modelId} is already active (${said}), but its run list shows none running; trying again in ${Math.round(wait / 1000)} s.`
  )
  attempts.lastRefusal = `the service kept answering ${said} (an assessment of model ${modelId} is already active) while its run list showed none running`
  await sleepWithin(
    deps,
    wait,
    `while ${attempts.lastRefusal}. Serialize workflow runs with a concurrency group keyed on the model_id (see examples/concurrency.yml)`
  )
  return null
}

/** 429: wait as Retry-After says (never less than the policy's floor), or fail when that is beyond the deadline. */
async function waitOutRateLimit(deps: TriggerDeps, args: TriggerArgs, attempts: Attempts, err: ServiceError): Promise<void> {
  attempts.failures += 1
  const wait = retryDelayMs(err, attempts.failures, deps.policy ?? DEFAULT_RETRY_POLICY, deps.random ?? Math.random)
  const seconds = Math.ceil(wait / 1000)
  const asked =
    err.retryAfterMs !== undefined
      ? `the service asked to retry after ${Math.ceil(err.retryAfterMs / 1000)} s`
      : 'the service gave no Retry-After'
  if (wait >= deps.deadline.remainingMs()) {
    const why = `${asked} (${err.code ?? 'rate limited'}); waiting ${seconds} s more would go beyond what is left of timeout_minutes`
    const final = new ServiceError({ ...errInit(err), message: `${err.serviceMessage}; ${why}`, retried: attempts.retried })
    throw await explainTriggerFailure(deps, args, final)
  }
  attempts.lastRefusal = `the service kept rate limiting triggers (HTTP 429${err.code ? ` ${err.code}` : ''})`
  deps.log.info(`The service is rate limiting triggers (${err.code ?? 'HTTP 429'}); ${asked}: retrying in ${seconds} s.`)
  attempts.retried.push(`HTTP 429 ${err.code ?? ''}, waited ${seconds} s`.replace('  ', ' '))
  await sleepWithin(deps, wait, 'while waiting out the rate limit')
}

/** Any other failure: back off and try again while the policy allows it, else fail with the error a user can act on. */
async function backOffOrExplain(deps: TriggerDeps, args: TriggerArgs, attempts: Attempts, err: ServiceError): Promise<void> {
  const policy = deps.policy ?? DEFAULT_RETRY_POLICY
  if (!isRetryable(err) || attempts.failures + 1 >= policy.maxAttempts) {
    throw await explainTriggerFailure(deps, args, err.withDetail({ attempts: attempts.failures + 1, retried: attempts.retried }))
  }
  attempts.failures += 1
  const wait = backoffDelayMs(attempts.failures, policy, deps.random ?? Math.random)
  deps.log.info(
    `Triggering the run failed (${err.describe()}); no run of ours is in the run list, retrying in ${(wait / 1000).toFixed(1)} s.`
  )
  attempts.lastRefusal = `the last attempt failed: ${err.describe()}`
  attempts.retried.push(
    `${err.status !== undefined ? `HTTP ${err.status}` : (err.code ?? 'network error')}, waited ${(wait / 1000).toFixed(1)} s`
  )
  await sleepWithin(deps, wait, 'while retrying the trigger')
}

function errInit(err: ServiceError) {
  return {
    endpoint: err.endpoint,
    status: err.status,
    code: err.code,
    message: err.serviceMessage,
    retryAfterMs: err.retryAfterMs,
    extra: err.extra
  }
}

/** Our run after an ambiguous failure, or null when none appeared; throws UnprovenRunError when one appeared that is not provably ours. */
async function claimAfter(
  deps: TriggerDeps,
  intent: TriggerIntent,
  foreign: ReadonlySet<string>,
  cause: ServiceError
): Promise<RunListItem | null> {
  const claim = await findOurRun(deps.api, intent, { signal: deps.signal, foreign })
  if (claim.kind === 'ours') return claim.run
  if (claim.kind === 'none') return null
  deps.log.warning(`A run appeared after our trigger's answer was lost, and it is not taken: ${claim.why}.`)
  throw new UnprovenRunError(
    claim.seen.map((r) => r.run_id),
    claim.why,
    cause
  )
}

function recovered(deps: TriggerDeps, run: RunListItem, waitedFor: Set<string>): Triggered {
  deps.log.info(
    `The answer to our trigger was lost, but run ${oneLine(run.run_id, 80)} of this model appeared after our request was sent, the only new run, planning what this step asked for: it is the one this step created; continuing with it.`
  )
  return { runId: run.run_id, startedAt: run.started_at, recovered: true, waitedFor: [...waitedFor] }
}
