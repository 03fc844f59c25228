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
 * - Everything else is explained (config mistakes become ConfigError).
 */
import type { Clock } from '../util/clock.js'
import { isTerminal, type RunListItem } from '../service/contract/index.js'
import { AbortedError, ConfigError, DeadlineExceededError, ServiceError } from '../util/errors.js'
import { formatDuration, oneLine } from '../util/text.js'
import { backoffDelayMs, DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy } from '../util/retry-policy.js'
import type { ServiceApi, ServiceCallDeps } from '../service/service-api.js'
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
      return err.withDetail({
        hint: `The workspace's monthly assessment allowance is spent; it resets on ${resets}. Waiting within this job will not help`
      })
    }
    case 'evaluation_ceiling':
      return err.withDetail({
        hint: "The evaluation workspace has reached its assessment ceiling. Only the service's operator can lift it (waiting does not): contact them or move to a paid plan"
      })
    case 'daily_budget_exhausted':
      return err.withDetail({
        hint: 'The daily assessment budget is spent and Retry-After is beyond timeout_minutes; run again later or raise timeout_minutes'
      })
  }
  if (err.status === 401) {
    return new ConfigError(
      'api_key',
      'the service rejected the key (401 unauthorized): check the secret holds a valid key for this service and workspace'
    )
  }
  if (err.status === 403) {
    // A code this action does not know (or none): the service's own message says which refusal it is.
    return err.withDetail({
      hint: 'On POST /run a 403 means the key lacks the test:run scope (use a key with it), the monthly allowance is spent (it resets on the 1st, UTC), or an evaluation ceiling was reached (only the operator lifts it); the message above says which'
    })
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
  const baseline = await baselineRunIds(deps, args.modelId)
  /** Runs seen running while waiting for another assessment of the model: never ours. */
  const foreign = new Set<string>()
  const waitedFor = new Set<string>()
  const body = args.categories.length > 0 ? { model_id: args.modelId, categories: args.categories } : { model_id: args.modelId }
  /** Earliest send time of an attempt whose outcome is unknown. */
  let ambiguousSince: number | null = null
  let failures = 0
  /** 409s in a row while the run list showed nothing running. */
  let busyRetries = 0
  /** Why the last attempt did not start a run, for the timeout message. */
  let lastRefusal: string | null = null
  const retried: string[] = []

  for (;;) {
    if (deps.signal?.aborted) throw new AbortedError()
    if (deps.deadline.expired()) {
      throw new DeadlineExceededError(
        ENDPOINT,
        `timeout_minutes ran out before the run could be triggered${lastRefusal ? `: ${lastRefusal}` : ''}`
      )
    }
    const sentAt = deps.clock.now()
    // The recorded intent: what an abort (here or in the post step) needs to find the run this request may create.
    const intent: TriggerIntent = {
      modelId: args.modelId,
      categories: args.categories,
      baseline: baseline === null ? null : [...baseline, ...foreign],
      sentAt: ambiguousSince ?? sentAt
    }
    deps.onIntent?.(intent)
    try {
      const res = await deps.api.triggerRun(body, { signal: deps.signal })
      return { runId: res.run_id, startedAt: res.started_at, recovered: false, waitedFor: [...waitedFor] }
    } catch (err) {
      if (!(err instanceof ServiceError) || err instanceof DeadlineExceededError) throw err

      if (err.status === 409) {
        // The description gives a 409 here one meaning, whatever its code: an assessment is already active.
        if (ambiguousSince !== null) {
          const mine = await claimAfter(deps, intent, foreign, err)
          if (mine) return recovered(deps, mine, waitedFor)
        }
        if (await waitForOtherRuns(deps, args.modelId, foreign, waitedFor)) {
          busyRetries = 0
          deps.log.info(`The other assessment of model ${args.modelId} has ended; triggering ours now.`)
          continue
        }
        // 409, yet the run list shows nothing running (its read side lags, or the run is not listed as running).
        busyRetries += 1
        const wait = Math.min(OTHER_RUN_POLL_MAX_MS, OTHER_RUN_POLL_MIN_MS * 2 ** (busyRetries - 1))
        const said = `HTTP 409${err.code ? ` ${err.code}` : ''}`
        deps.log.info(
          `The service says an assessment of model ${args.modelId} is already active (${said}), but its run list shows none running; trying again in ${Math.round(wait / 1000)} s.`
        )
        lastRefusal = `the service kept answering ${said} (an assessment of model ${args.modelId} is already active) while its run list showed none running`
        await sleepWithin(
          deps,
          wait,
          `while ${lastRefusal}. Serialize workflow runs with a concurrency group keyed on the model_id (see examples/concurrency.yml)`
        )
        continue
      }

      if (err.status === 429) {
        failures += 1
        const wait = retryDelayMs(err, failures, policy, random)
        const seconds = Math.ceil(wait / 1000)
        const asked =
          err.retryAfterMs !== undefined
            ? `the service asked to retry after ${Math.ceil(err.retryAfterMs / 1000)} s`
            : 'the service gave no Retry-After'
        if (wait >= deps.deadline.remainingMs()) {
          const why = `${asked} (${err.code ?? 'rate limited'}); waiting ${seconds} s more would go beyond what is left of timeout_minutes`
          throw await explain(deps, args, new ServiceError({ ...errInit(err), message: `${err.serviceMessage}; ${why}`, retried }))
        }
        lastRefusal = `the service kept rate limiting triggers (HTTP 429${err.code ? ` ${err.code}` : ''})`
        deps.log.info(`The service is rate limiting triggers (${err.code ?? 'HTTP 429'}); ${asked}: retrying in ${seconds} s.`)
        retried.push(`HTTP 429 ${err.code ?? ''}, waited ${seconds} s`.replace('  ', ' '))
        await sleepWithin(deps, wait, 'while waiting out the rate limit')
        continue
      }

      if (err.ambiguous) {
        ambiguousSince = ambiguousSince ?? sentAt
        const mine = await claimAfter(deps, { ...intent, sentAt: ambiguousSince }, foreign, err)
        if (mine) return recovered(deps, mine, waitedFor)
      }

      if (isRetryable(err) && failures + 1 < policy.maxAttempts) {
        failures += 1
        const wait = backoffDelayMs(failures, policy, random)
        deps.log.info(
          `Triggering the run failed (${err.describe()}); no run of ours is in the run list, retrying in ${(wait / 1000).toFixed(1)} s.`
        )
        lastRefusal = `the last attempt failed: ${err.describe()}`
        retried.push(
          `${err.status !== undefined ? `HTTP ${err.status}` : (err.code ?? 'network error')}, waited ${(wait / 1000).toFixed(1)} s`
        )
        await sleepWithin(deps, wait, 'while retrying the trigger')
        continue
      }
      throw await explain(deps, args, err.withDetail({ attempts: failures + 1, retried }))
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
