/**
 * Triggering the run: POST /api/v1/run is not idempotent and creates are not
 * deduplicated, so its retries are decided here, not by the client.
 *
 * - 409 run_active: another assessment of the model is running. Wait for it
 *   to end (watching the model's run list), then trigger ours. Never adopt it.
 * - 429: wait as Retry-After says, within the deadline, and try again.
 * - An ambiguous failure (network error after sending, 5xx, malformed 2xx):
 *   look for a run of this model that started after the request was sent; if
 *   there is one, this step created it: continue with it. Else retry.
 * - Everything else is explained (config mistakes become ConfigError).
 */
import type { Clock } from './clock.js'
import type { RunListItem } from './contract.js'
import { AbortedError, ConfigError, DeadlineExceededError, ServiceError, oneLine } from './errors.js'
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryable, type RetryPolicy } from './retry-policy.js'
import type { ServiceCallDeps } from './service-api.js'

export interface TriggerDeps extends ServiceCallDeps {
  policy?: RetryPolicy
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

/**
 * How far the service's clock may be behind ours when matching a run's
 * started_at against the time our request was sent.
 */
export const CLOCK_SKEW_MS = 5_000

/** Interval bounds while waiting for another run of the model to end. */
const OTHER_RUN_POLL_MIN_MS = 2_000
const OTHER_RUN_POLL_MAX_MS = 15_000

const ENDPOINT = 'POST /api/v1/run'

function elapsed(clock: Clock, since: number): string {
  const s = Math.round((clock.now() - since) / 1000)
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`
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
 * recovery falls back on start times alone.
 */
async function baselineRunIds(deps: TriggerDeps, modelId: string): Promise<string[]> {
  try {
    const list = await deps.api.listRuns(modelId, { limit: BASELINE_LIMIT }, { signal: deps.signal })
    return list.runs.map((r) => r.run_id)
  } catch (err) {
    if (!(err instanceof ServiceError) || err instanceof DeadlineExceededError) throw err
    deps.log.debug(`Could not list the model's runs before triggering (${err.describe()}); a lost trigger answer will be matched by start time only.`)
    return []
  }
}

/** A run of the model that started after `sentAt` and that we do not know to be someone else's. */
async function findRecoveredRun(deps: TriggerDeps, modelId: string, sentAt: number, foreign: Set<string>): Promise<RunListItem | null> {
  const list = await deps.api.listRuns(modelId, { limit: 10 }, { signal: deps.signal })
  const candidates = list.runs.filter((r) => {
    const started = Date.parse(r.started_at)
    return !foreign.has(r.run_id) && !Number.isNaN(started) && started >= sentAt - CLOCK_SKEW_MS
  })
  candidates.sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at))
  return candidates[0] ?? null
}

/** Wait until the model has no running run. Records the ids seen as foreign and as waited for. */
async function waitForOtherRuns(deps: TriggerDeps, modelId: string, foreign: Set<string>, waitedFor: Set<string>): Promise<void> {
  const since = deps.clock.now()
  let delay = OTHER_RUN_POLL_MIN_MS
  let lastLog = -Infinity
  for (;;) {
    const list = await deps.api.listRuns(modelId, { status: 'running', limit: 5 }, { signal: deps.signal })
    const running = list.runs.filter((r) => r.status === 'running')
    for (const r of running) {
      foreign.add(r.run_id)
      waitedFor.add(r.run_id)
    }
    if (running.length === 0) return
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

/** Turn a final trigger failure into the error a user can act on. */
async function explain(deps: TriggerDeps, args: TriggerArgs, err: ServiceError): Promise<Error> {
  const { modelId } = args
  switch (err.code) {
    case 'invalid_categories': {
      const valid = await validCategoryKeys(deps)
      const bad = invalidKeys(err, args.categories, valid)
      const badText = bad.length > 0 ? `unknown category keys: ${bad.join(', ')}` : 'the service refused the category keys'
      const validText = valid ? `valid keys: ${valid.join(', ')}` : 'the category list is not available to this key (GET /api/v1/category)'
      return new ConfigError('categories', `${badText}; ${validText}`)
    }
    case 'trial_focus_not_included':
      return new ConfigError(
        'categories',
        'evaluation (trial) workspaces run the full taxonomy only: leave categories empty, or use a key of a paid workspace'
      )
    case 'incomplete_config':
      return new ConfigError(
        'model_id',
        `the service refuses to run model ${modelId}: its agent config is incomplete. Complete its endpoint_url and response_field in the inventory (${err.serviceMessage})`
      )
    case 'insufficient_scope':
      return new ConfigError('api_key', 'the key lacks the test:run scope that triggering a run requires: use a key with test:run')
    case 'allowance_exhausted': {
      const resets = typeof err.extra.resets_on === 'string' ? oneLine(err.extra.resets_on, 40) : 'the 1st of next month (UTC)'
      err.hint = `The workspace's monthly assessment allowance is spent; it resets on ${resets}. Waiting within this job will not help`
      return err
    }
    case 'evaluation_ceiling':
      err.hint =
        "The evaluation workspace has reached its assessment ceiling. Only the service's operator can lift it (waiting does not): contact them or move to a paid plan"
      return err
    case 'daily_budget_exhausted':
      err.hint = 'The daily assessment budget is spent and Retry-After is beyond timeout_minutes; run again later or raise timeout_minutes'
      return err
  }
  if (err.status === 401) {
    return new ConfigError(
      'api_key',
      'the service rejected the key (401 unauthorized): check the secret holds a valid key for this service and workspace'
    )
  }
  if (err.status === 403) {
    return new ConfigError('api_key', `the key is not allowed to trigger runs (403 ${err.code ?? 'forbidden'}): ${err.serviceMessage}`)
  }
  if (err.status === 404) {
    return new ConfigError(
      'model_id',
      `model '${modelId}' was not found in this key's workspace: check the id (GET /api/v1/model lists the workspace's models) and that api_key belongs to the same workspace`
    )
  }
  return err
}

async function validCategoryKeys(deps: TriggerDeps): Promise<string[] | null> {
  try {
    const list = await deps.api.listCategories({ lens: 'security' }, { signal: deps.signal })
    return list.categories.map((c) => oneLine(c.key, 100))
  } catch (e) {
    if (e instanceof ServiceError) return null
    throw e
  }
}

function invalidKeys(err: ServiceError, asked: string[], valid: string[] | null): string[] {
  const fromService = err.extra.invalid
  if (Array.isArray(fromService)) return fromService.map((k) => oneLine(String(k), 100))
  if (valid) return asked.filter((k) => !valid.includes(k))
  return []
}

/**
 * Trigger one run of the model. Resolves with the run this step created;
 * rejects with ConfigError, ServiceError, DeadlineExceededError or AbortedError.
 */
export async function triggerRun(deps: TriggerDeps, args: TriggerArgs): Promise<Triggered> {
  const policy = deps.policy ?? DEFAULT_RETRY_POLICY
  const random = deps.random ?? Math.random
  if (deps.signal?.aborted) throw new AbortedError()
  if (deps.deadline.expired()) throw new DeadlineExceededError(ENDPOINT, 'timeout_minutes ran out before the run could be triggered')
  // Runs that exist before our trigger are someone else's (or an earlier step's).
  const foreign = new Set<string>(await baselineRunIds(deps, args.modelId))
  const waitedFor = new Set<string>()
  const body = args.categories.length > 0 ? { model_id: args.modelId, categories: args.categories } : { model_id: args.modelId }
  /** Earliest send time of an attempt whose outcome is unknown. */
  let ambiguousSince: number | null = null
  let failures = 0
  const retried: string[] = []

  for (;;) {
    if (deps.signal?.aborted) throw new AbortedError()
    if (deps.deadline.expired()) throw new DeadlineExceededError(ENDPOINT, 'timeout_minutes ran out before the run could be triggered')
    const sentAt = deps.clock.now()
    try {
      const res = await deps.api.triggerRun(body, { signal: deps.signal })
      return { runId: res.run_id, startedAt: res.started_at, recovered: false, waitedFor: [...waitedFor] }
    } catch (err) {
      if (!(err instanceof ServiceError) || err instanceof DeadlineExceededError) throw err

      if (err.status === 409 && err.code === 'run_active') {
        if (ambiguousSince !== null) {
          const mine = await findRecoveredRun(deps, args.modelId, ambiguousSince, foreign)
          if (mine) return recovered(deps, mine, waitedFor)
        }
        await waitForOtherRuns(deps, args.modelId, foreign, waitedFor)
        deps.log.info(`The other assessment of model ${args.modelId} has ended; triggering ours now.`)
        continue
      }

      if (err.status === 429) {
        failures += 1
        const wait = err.retryAfterMs ?? backoffDelayMs(failures, policy, random)
        const seconds = Math.ceil(wait / 1000)
        if (wait >= deps.deadline.remainingMs()) {
          const why = `the service asked to retry after ${seconds} s (${err.code ?? 'rate limited'}), beyond what is left of timeout_minutes`
          throw await explain(deps, args, new ServiceError({ ...errInit(err), message: `${err.serviceMessage}; ${why}`, retried }))
        }
        deps.log.info(`The service is rate limiting triggers (${err.code ?? 'HTTP 429'}); retrying in ${seconds} s as Retry-After says.`)
        retried.push(`HTTP 429 ${err.code ?? ''}, waited ${seconds} s`.replace('  ', ' '))
        await sleepWithin(deps, wait, 'while waiting out the rate limit')
        continue
      }

      if (err.ambiguous) {
        ambiguousSince = ambiguousSince ?? sentAt
        const mine = await findRecoveredRun(deps, args.modelId, ambiguousSince, foreign)
        if (mine) return recovered(deps, mine, waitedFor)
      }

      if (isRetryable(err) && failures + 1 < policy.maxAttempts) {
        failures += 1
        const wait = backoffDelayMs(failures, policy, random)
        deps.log.info(`Triggering the run failed (${err.describe()}); no run was created, retrying in ${(wait / 1000).toFixed(1)} s.`)
        retried.push(`${err.status !== undefined ? `HTTP ${err.status}` : (err.code ?? 'network error')}, waited ${(wait / 1000).toFixed(1)} s`)
        await sleepWithin(deps, wait, 'while retrying the trigger')
        continue
      }
      err.attempts = failures + 1
      err.retried = retried
      throw await explain(deps, args, err)
    }
  }
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

function recovered(deps: TriggerDeps, run: RunListItem, waitedFor: Set<string>): Triggered {
  deps.log.info(
    `The answer to our trigger was lost, but run ${oneLine(run.run_id, 80)} of this model started after our request was sent: it is the one this step created; continuing with it.`
  )
  return { runId: run.run_id, startedAt: run.started_at, recovered: true, waitedFor: [...waitedFor] }
}
