/**
 * The model to assess, from the inputs: a model_id as given, or the agent at
 * endpoint_url found in the inventory (GET /model) or registered (POST /model)
 * after the find. The calls are at this edge; the choices are pure
 * (choose-target.ts, explain-registration.ts).
 *
 * POST /model is sent once: creates are not deduplicated. When its answer is
 * lost (reset, timeout, 5xx), the inventory is listed again, and the model the
 * lost request created is taken; if none appears, the step fails rather than
 * risk a second target.
 */
import type { ModelListItem, RegisterModelBody } from '../service/contract/index.js'
import type { ServiceCallDeps } from '../service/service-api.js'
import { ServiceError } from '../util/errors.js'
import { chooseTarget, findRegistered } from './choose-target.js'
import { explainRegistrationFailure } from './explain-registration.js'
import { hostOf } from './naming.js'
import type { EndpointTarget, ResolvedTarget, TargetInput } from './target-spec.js'

/** Waits before each new listing after a lost answer to POST /model. */
export const LOST_REGISTRATION_RELISTS_MS = [1_000, 2_000, 4_000] as const

export function registrationBody(endpoint: EndpointTarget, name: string): RegisterModelBody {
  return {
    name,
    config: {
      endpoint_url: endpoint.endpointUrl,
      response_field: endpoint.responseField,
      transport: endpoint.transport,
      ...(endpoint.requestTimeout !== null ? { request_timeout: endpoint.requestTimeout } : {})
    },
    ...(endpoint.environment !== null ? { environment: endpoint.environment } : {}),
    auth_type: endpoint.authType,
    ...(endpoint.credential !== null ? { credential: endpoint.credential } : {}),
    ...(endpoint.oauth !== null ? { oauth: endpoint.oauth } : {})
  }
}

/**
 * `name`: the target's registered name, as the agent's identity gives it
 * (AgentIdentity.targetName: the configured name and its configuration digest).
 */
export async function resolveTarget(deps: ServiceCallDeps, target: TargetInput, name: string): Promise<ResolvedTarget> {
  if (target.kind === 'model') return { modelId: target.modelId, name: null, outcome: 'given', endpointHost: null, movedFrom: null }
  const { api, log, signal } = deps
  const endpoint = target.endpoint
  const host = hostOf(endpoint.endpointUrl)
  const listed = await api.listModels({ signal })
  const choice = chooseTarget(listed.models, name, endpoint.endpointUrl)
  const movedFrom = choice.movedFrom
  if (movedFrom) {
    log.warning(
      `Target '${name}' (model ${movedFrom.model_id}) is registered at ${movedFrom.endpoint_host}, not at ${host}: the agent moved. ` +
        `Not assessing the old host; using '${choice.kind === 'reuse' ? choice.model.name : choice.name}' for ${host}.`
    )
  }
  const moved = movedFrom ? { name: movedFrom.name, modelId: movedFrom.model_id, endpointHost: movedFrom.endpoint_host } : null
  if (choice.kind === 'reuse') {
    const dup = choice.duplicates > 0 ? ` (${choice.duplicates} more of that name at this host; the first listed is used)` : ''
    log.info(`Reusing model ${choice.model.model_id} ('${choice.model.name}' at ${choice.model.endpoint_host})${dup}.`)
    return {
      modelId: choice.model.model_id,
      name: choice.model.name,
      outcome: 'reused',
      endpointHost: choice.model.endpoint_host,
      movedFrom: moved
    }
  }
  log.info(`Registering '${choice.name}' at ${host}: the service probes it live first.`)
  const before = new Set(listed.models.map((m) => m.model_id))
  try {
    const created = await api.registerModel(registrationBody(endpoint, choice.name), { signal })
    log.info(`Registered model ${created.model_id} ('${choice.name}').`)
    return { modelId: created.model_id, name: choice.name, outcome: 'registered', endpointHost: host, movedFrom: moved }
  } catch (err) {
    const explained = explainRegistrationFailure(err, endpoint.endpointUrl)
    if (explained) throw explained
    if (!(err instanceof ServiceError) || !err.ambiguous) throw err
    const found = await recoverLostRegistration(deps, choice.name, endpoint.endpointUrl, before, err)
    return { modelId: found.model_id, name: found.name, outcome: 'registered', endpointHost: found.endpoint_host, movedFrom: moved }
  }
}

async function recoverLostRegistration(
  deps: ServiceCallDeps,
  name: string,
  endpointUrl: string,
  before: ReadonlySet<string>,
  lost: ServiceError
): Promise<ModelListItem> {
  const { api, clock, log, signal } = deps
  log.warning(`The answer to the registration was lost (${lost.describe()}): listing the inventory again rather than registering twice.`)
  for (const waitMs of LOST_REGISTRATION_RELISTS_MS) {
    await clock.sleep(waitMs, signal)
    const found = findRegistered((await api.listModels({ signal })).models, name, endpointUrl, before)
    if (found) {
      log.info(`The lost registration did happen: model ${found.model_id} ('${found.name}') is in the inventory.`)
      return found
    }
  }
  throw new ServiceError({
    endpoint: lost.endpoint,
    status: lost.status,
    code: lost.code,
    message: `${lost.serviceMessage}; the answer to the registration was lost and no model '${name}' appeared in the inventory after ${LOST_REGISTRATION_RELISTS_MS.length} listings`,
    hint: 'Not registering again (creates are not deduplicated). Re-run the job: it finds the model if the registration took effect, else registers it',
    attempts: lost.attempts,
    retried: lost.retried
  })
}
