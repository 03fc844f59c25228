/**
 * A trigger failure that retrying will not cure, turned into the error a user
 * can act on: configuration mistakes become ConfigErrors naming the input,
 * spent allowances and budgets get a hint saying what (not) to do.
 */
import { ConfigError, ServiceError } from '../util/errors.js'
import { explainAssessmentLimit } from '../pipeline/budget.js'
import type { ServiceCallDeps } from '../service/service-api.js'
import { oneLine } from '../util/text.js'

/** A Retry-After up to this long can be waited out by raising timeout_minutes; a longer one is a job run again later. */
export const RAISE_TIMEOUT_HELPS_MS = 15 * 60_000

/** The budget line as a hint (describe() ends the line with it). */
function limitHint(deps: ServiceCallDeps, err: ServiceError): string | null {
  return explainAssessmentLimit(err, deps.clock.now())?.replace(/\.$/, '') ?? null
}

/** Turn a final trigger failure into the error a user can act on. */
export async function explainTriggerFailure(
  deps: ServiceCallDeps,
  args: { modelId: string; categories: string[] },
  err: ServiceError
): Promise<Error> {
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
    case 'allowance_exhausted':
      return err.withDetail({
        hint:
          limitHint(deps, err) ??
          "The workspace's monthly assessment allowance is used up; it resets on the 1st of next month (UTC). Waiting within this job will not help"
      })
    case 'evaluation_ceiling':
      return err.withDetail({
        hint: "The evaluation workspace has reached its assessment ceiling. Only the service's operator can lift it (waiting does not): contact them or move to a paid plan"
      })
  }
  if (err.status === 429) {
    // Reached only when Retry-After is beyond what is left of timeout_minutes: raising it helps only for a short wait.
    const short = err.retryAfterMs !== undefined && err.retryAfterMs <= RAISE_TIMEOUT_HELPS_MS
    const then = err.retryAfterMs === undefined ? 'run the job again later' : 'run the job again then'
    return err.withDetail({
      hint: `${limitHint(deps, err) ?? 'The service refused the trigger with HTTP 429'}: ${short ? `${then}, or raise timeout_minutes to wait for it` : then}`
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
    const limit = limitHint(deps, err)
    if (limit !== null) return err.withDetail({ hint: limit })
    return err.withDetail({
      hint: 'On POST /run a 403 means the key lacks the test:run scope (use a key with it), the monthly allowance is used up (it resets on the 1st, UTC), or an evaluation ceiling was reached (only the operator lifts it); the message above says which'
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

async function validCategoryKeys(deps: ServiceCallDeps): Promise<string[] | null> {
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
