/**
 * The inputs that say what to assess: model_id, or endpoint_url (or, on a
 * deployment event with both empty, the deployment's URL) with the
 * registration inputs of the target, and the profile file. Pure.
 */
import { LIMITS, type AuthType } from '../../service/contract/index.js'
import { endpointAt, type PipelineEvent } from '../../pipeline/event.js'
import type { EndpointTarget, TargetInput } from '../../target/target-spec.js'
import { ConfigError } from '../../util/errors.js'
import { CONTROL_CHARS, type InputReader } from './common.js'
import { readInput } from './spec.js'
import {
  ALLOW_SHARED_PROFILE_SYNC,
  AUTH_TYPE,
  ENDPOINT_URL,
  ENVIRONMENT,
  FAIL_ON_PROFILE_ERROR,
  MODEL_ID,
  PROFILE_FILE,
  REQUEST_TIMEOUT,
  TARGET_NAME,
  TRANSPORT
} from './target-entries.js'

export { parseEndpointUrl } from './target-entries.js'

/** The profile file to sync before the run (profile_file and its switches). */
export interface ProfileInputs {
  /** As given: relative to the repository (GITHUB_WORKSPACE). */
  path: string
  /** fail_on_profile_error: a failed sync fails the step before any run (default true). */
  failOnError: boolean
  /** allow_shared_profile_sync: a pull request may sync a target it does not own. */
  allowShared: boolean
}

/**
 * model_id and endpoint_url both empty on a pipeline event that has no
 * deployment to assess (a deployment not ready, a merge queue): the target is
 * the preview that deployment events name, and this run has none.
 */
export interface PreviewTarget {
  kind: 'preview'
  /** Why this event has no deployment to assess. */
  reason: string
  /** target_name; null: the default name of the pull request's preview. */
  name: string | null
}

/** What the event offers when model_id and endpoint_url are both empty. */
export type EventEndpoint =
  /** Not a pipeline event: one of the two inputs is required. */
  | { kind: 'none' }
  /** A ready deployment: its URL, with endpoint_path applied. */
  | { kind: 'deployment'; url: string }
  /** A pipeline event without a deployment to assess. */
  | { kind: 'preview'; reason: string }

/** The endpoint a pipeline event offers (see EventEndpoint). */
export function eventEndpoint(event: PipelineEvent | null, endpointPath: string): EventEndpoint {
  switch (event?.kind) {
    case 'deployment':
      return { kind: 'deployment', url: endpointAt(event.endpointUrl, endpointPath) }
    case 'deployment_skipped':
    case 'deployment_invalid':
    case 'unreadable':
      return { kind: 'preview', reason: event.reason }
    case 'merge_group':
      return { kind: 'preview', reason: "nothing deploys the merge queue's commit" }
    default:
      return { kind: 'none' }
  }
}

const MODEL_ID_HINT = 'the model_id of the agent target in the service inventory (GET /api/v1/model lists them)'

/** Inputs that only make sense with endpoint_url, named when given with model_id. */
const ENDPOINT_ONLY_INPUTS = [
  'target_name',
  'environment',
  'target_credential',
  'oauth_token_url',
  'oauth_client_id',
  'oauth_scope',
  'oauth_audience',
  'response_field',
  'request_timeout'
] as const

/**
 * model_id or endpoint_url (exactly one), and the registration inputs of the
 * endpoint. With both empty, a pipeline event may offer the target: a ready
 * deployment's URL, or none on this event (PreviewTarget).
 */
export function readTargetInput(get: InputReader, fromEvent: EventEndpoint = { kind: 'none' }): TargetInput | PreviewTarget {
  const modelId = get('model_id')
  const endpointUrl = get('endpoint_url')
  if (modelId !== '' && endpointUrl !== '') {
    throw new ConfigError(
      'model_id',
      'is set together with endpoint_url: give one of the two. model_id assesses a model already in the inventory; endpoint_url finds or registers the agent at that address (e.g. the preview of this pull request)'
    )
  }
  if (modelId === '' && endpointUrl === '') {
    if (fromEvent.kind === 'deployment') return { kind: 'endpoint', endpoint: readEndpointTarget(get, fromEvent.url) }
    if (fromEvent.kind === 'preview') return { kind: 'preview', reason: fromEvent.reason, name: readInput(get, TARGET_NAME) }
    throw new ConfigError(
      'model_id',
      `is required unless endpoint_url is set: give one of the two. model_id is ${MODEL_ID_HINT}; endpoint_url is the address of the agent to find or register (e.g. the preview of this pull request)`
    )
  }
  if (modelId !== '') {
    const stray = ENDPOINT_ONLY_INPUTS.filter((n) => get(n) !== '')
    if (stray.length > 0) {
      throw new ConfigError(
        stray[0],
        `is only used with endpoint_url (to register a target), not with model_id: remove ${stray.join(', ')}`
      )
    }
    return { kind: 'model', modelId: readInput(get, MODEL_ID) }
  }
  return { kind: 'endpoint', endpoint: readEndpointTarget(get, endpointUrl) }
}

/** The registration inputs of endpoint_url. */
function readEndpointTarget(get: InputReader, endpointUrl: string): EndpointTarget {
  const authType = readInput(get, AUTH_TYPE)
  const credential = readCredential(get, authType)
  const oauth = readOAuth(get, authType)
  const responseField = get('response_field')
  if (responseField === '') {
    throw new ConfigError(
      'response_field',
      "is required with endpoint_url: the dot-path of the reply text in the agent's JSON answer (e.g. output.text or choices.0.message.content)"
    )
  }
  return {
    endpointUrl: ENDPOINT_URL.parser.parse(endpointUrl, ENDPOINT_URL.name),
    name: readInput(get, TARGET_NAME),
    environment: readInput(get, ENVIRONMENT),
    authType,
    credential,
    oauth,
    responseField,
    transport: readInput(get, TRANSPORT),
    requestTimeout: readInput(get, REQUEST_TIMEOUT)
  }
}

/** target_credential: required by every auth_type but none, refused with none. */
function readCredential(get: InputReader, authType: AuthType): string | null {
  const credential = get('target_credential')
  if (authType === 'none' && credential !== '') {
    throw new ConfigError(
      'target_credential',
      'is set but auth_type is none: set auth_type (bearer, api_key, basic or oauth_client_credentials), or remove target_credential'
    )
  }
  if (authType !== 'none' && credential === '') {
    throw new ConfigError(
      'target_credential',
      `is required when auth_type is ${authType}${authType === 'oauth_client_credentials' ? ' (the OAuth client secret)' : authType === 'basic' ? ' (user:password)' : ''}: pass it from a secret`
    )
  }
  if (credential !== '' && credential.length < LIMITS.credentialMin) {
    throw new ConfigError('target_credential', `is shorter than ${LIMITS.credentialMin} characters, the service's minimum`)
  }
  if (CONTROL_CHARS.test(credential)) {
    throw new ConfigError('target_credential', 'holds a control character (a line break?): check the secret for a stray character')
  }
  return credential === '' ? null : credential
}

/** The oauth_* inputs: required with oauth_client_credentials, refused with any other auth_type. */
function readOAuth(get: InputReader, authType: AuthType): EndpointTarget['oauth'] {
  const oauthInputs = {
    token_url: get('oauth_token_url'),
    client_id: get('oauth_client_id'),
    scope: get('oauth_scope'),
    audience: get('oauth_audience')
  }
  if (authType !== 'oauth_client_credentials') {
    const stray = Object.entries(oauthInputs).find(([, v]) => v !== '')
    if (stray) throw new ConfigError(`oauth_${stray[0]}`, 'is only used when auth_type is oauth_client_credentials')
    return null
  }
  if (oauthInputs.token_url === '') throw new ConfigError('oauth_token_url', 'is required when auth_type is oauth_client_credentials')
  if (oauthInputs.client_id === '') throw new ConfigError('oauth_client_id', 'is required when auth_type is oauth_client_credentials')
  return {
    token_url: oauthInputs.token_url,
    client_id: oauthInputs.client_id,
    ...(oauthInputs.scope !== '' ? { scope: oauthInputs.scope } : {}),
    ...(oauthInputs.audience !== '' ? { audience: oauthInputs.audience } : {})
  }
}

export function readProfileInputs(get: InputReader): ProfileInputs | null {
  const failOnError = readInput(get, FAIL_ON_PROFILE_ERROR)
  const allowShared = readInput(get, ALLOW_SHARED_PROFILE_SYNC)
  const path = readInput(get, PROFILE_FILE)
  return path === '' ? null : { path, failOnError, allowShared }
}
