/**
 * The inputs that say what to assess, as entries of the inputs table
 * (spec.ts): model_id or endpoint_url, the registration inputs of an
 * endpoint, and the profile file. Their values are combined by the readers
 * of target.ts (which ones go together, which are required with which), so
 * none is a field of ActionInputs on its own. Pure.
 */
import { AUTH_TYPES, ENVIRONMENTS, LIMITS } from '../../service/contract/index.js'
import type { TargetEnvironment } from '../../target/target-spec.js'
import { ConfigError } from '../../util/errors.js'
import { clip, oneOf } from './common.js'
import { boolean, parsedBy, choice, defineInput, text, type InputParser } from './spec.js'

function parseModelId(modelId: string): string {
  if (modelId.length > 200 || /[\u0000-\u001f\u007f/?#]/.test(modelId)) {
    throw new ConfigError('model_id', `'${clip(modelId)}' is not a model id (no slashes, ?, # or control characters)`)
  }
  return modelId
}

/** The query of a URL left out of what a message shows: it may carry a protection bypass secret. */
function withoutQuery(raw: string): string {
  return raw.split(/[?#]/, 1)[0]
}

/** The endpoint to register: a URL the service can probe; its address rules (private hosts...) are the service's (400). */
export function parseEndpointUrl(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(
      'endpoint_url',
      `'${clip(withoutQuery(raw))}' is not a URL: give the agent's full endpoint, e.g. https://pr-7.preview.example.com/chat`
    )
  }
  if (!['https:', 'http:', 'wss:', 'ws:'].includes(url.protocol)) {
    throw new ConfigError(
      'endpoint_url',
      `scheme '${clip(url.protocol)}' is not one the service probes: use https:// (or wss:// with transport websocket)`
    )
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      'endpoint_url',
      'must not carry credentials: pass the target credential in target_credential (masked) with auth_type'
    )
  }
  return raw
}

const targetName: InputParser<string | null> = {
  parse: (raw) => {
    if (raw === '') return null
    if (raw.length > LIMITS.targetNameMax || /[\u0000-\u001f\u007f]/.test(raw)) {
      throw new ConfigError('target_name', `must be 1 to ${LIMITS.targetNameMax} characters without control characters`)
    }
    return raw
  },
  range: `1 to ${LIMITS.targetNameMax} characters`
}

const environment: InputParser<TargetEnvironment | null> = {
  parse: (raw, input) => (raw === '' ? null : oneOf<TargetEnvironment>(input, raw, ENVIRONMENTS, 'staging')),
  range: ENVIRONMENTS
}

const requestTimeout: InputParser<number | null> = {
  parse: (raw) => {
    if (raw === '') return null
    const n = Number(raw)
    if (!/^\d*\.?\d+$/.test(raw) || !(n > 0) || n > LIMITS.requestTimeoutMax) {
      throw new ConfigError('request_timeout', `'${clip(raw)}' is not a number of seconds above 0 and at most ${LIMITS.requestTimeoutMax}`)
    }
    return n
  },
  range: `at most ${LIMITS.requestTimeoutMax}`
}

const profilePath = parsedBy((path) => {
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new ConfigError('profile_file', 'holds control characters')
  return path
})

const ASSESS = ['assess'] as const
/** model_id or endpoint_url: exactly one (or, on a deployment event, neither). */
export const MODEL_ID = defineInput({
  name: 'model_id',
  field: null,
  default: '',
  description: 'The inventory model (agent) to assess. Give model_id or endpoint_url, not both.',
  summary: 'the inventory model to assess (or `endpoint_url`, not both)',
  parser: parsedBy(parseModelId),
  cli: { commands: ['assess', 'validate'], value: 'id' }
})

export const ENDPOINT_URL = defineInput({
  name: 'endpoint_url',
  field: null,
  default: '',
  description: "The agent's address (e.g. the PR's preview), found or registered as a target. See docs/targets-and-profiles.md.",
  summary: "the agent's address (e.g. the PR's preview), found or registered ([docs](docs/targets-and-profiles.md))",
  parser: parsedBy((raw) => (raw === '' ? '' : parseEndpointUrl(raw))),
  cli: { commands: ASSESS, value: 'url' }
})

export const TARGET_NAME = defineInput({
  name: 'target_name',
  field: null,
  default: '',
  description: 'Inventory name of the endpoint_url target. Empty: <repo>-pr-<number> on pull requests, else <repo>-<ref>.',
  summary: "the target's name; empty: `<repo>-pr-<number>` on PRs, else `<repo>-<ref>`",
  parser: targetName,
  cli: { commands: ASSESS, value: 'name' }
})

export const ENVIRONMENT = defineInput({
  name: 'environment',
  field: null,
  default: '',
  description: 'Environment of a registered target: {range} (empty: the service default).',
  summary: '{range} for a registered target',
  parser: environment,
  cli: { commands: ASSESS, value: 'env' }
})

export const AUTH_TYPE = defineInput({
  name: 'auth_type',
  field: null,
  default: 'none',
  description: 'How the service authenticates to the target: {range}.',
  summary: '{range}',
  parser: choice(AUTH_TYPES),
  cli: { commands: ASSESS, value: 'type' }
})

export const TARGET_CREDENTIAL = defineInput({
  name: 'target_credential',
  field: null,
  default: '',
  description: "The target's credential for auth_type, from a secret. Masked at once.",
  summary: "the target's credential for `auth_type`, from a secret",
  parser: text,
  cli: { commands: ASSESS, value: 'secret', env: 'ASAS_TARGET_CREDENTIAL' }
})

export const OAUTH_TOKEN_URL = defineInput({
  name: 'oauth_token_url',
  field: null,
  default: '',
  description: 'auth_type oauth_client_credentials: the token endpoint.',
  summary: 'for OAuth: the token endpoint',
  parser: text,
  cli: { commands: ASSESS, value: 'url' }
})

export const OAUTH_CLIENT_ID = defineInput({
  name: 'oauth_client_id',
  field: null,
  default: '',
  description: 'auth_type oauth_client_credentials: the client id.',
  summary: 'for OAuth: the client id',
  parser: text,
  cli: { commands: ASSESS, value: 'id' }
})

export const OAUTH_SCOPE = defineInput({
  name: 'oauth_scope',
  field: null,
  default: '',
  description: 'auth_type oauth_client_credentials: the scope (optional).',
  summary: 'for OAuth: the scope (optional)',
  parser: text,
  cli: { commands: ASSESS, value: 'scope' }
})

export const OAUTH_AUDIENCE = defineInput({
  name: 'oauth_audience',
  field: null,
  default: '',
  description: 'auth_type oauth_client_credentials: the audience (optional).',
  summary: 'for OAuth: the audience (optional)',
  parser: text,
  cli: { commands: ASSESS, value: 'audience' }
})

export const RESPONSE_FIELD = defineInput({
  name: 'response_field',
  field: null,
  default: '',
  description: "Required with endpoint_url: dot-path of the reply text in the agent's JSON answer (e.g. output.text).",
  summary: '**required with `endpoint_url`**: dot-path of the reply (`output.text`)',
  parser: text,
  cli: { commands: ASSESS, value: 'path' }
})

export const TRANSPORT = defineInput({
  name: 'transport',
  field: null,
  default: 'http',
  description: 'How the service talks to the target: {range}.',
  summary: '{range}',
  parser: choice(['http', 'websocket']),
  cli: { commands: ASSESS, value: 'transport' }
})

export const REQUEST_TIMEOUT = defineInput({
  name: 'request_timeout',
  field: null,
  default: '',
  description: 'Seconds the service waits for the target to answer ({range}; empty: the service default).',
  summary: 'seconds the service waits for the target ({range})',
  parser: requestTimeout,
  cli: { commands: ASSESS, value: 'seconds' }
})

export const PROFILE_FILE = defineInput({
  name: 'profile_file',
  field: null,
  default: '',
  description: "A YAML or JSON file with the target's profile, synced before the run. See docs/targets-and-profiles.md.",
  summary: "a file with the target's profile, synced before the run",
  parser: profilePath,
  cli: { commands: ASSESS, value: 'file' }
})

export const FAIL_ON_PROFILE_ERROR = defineInput({
  name: 'fail_on_profile_error',
  field: null,
  default: 'true',
  description: 'Whether a failed profile sync fails the step before any run (false: a warning).',
  summary: 'whether a failed profile sync fails the step before any run',
  parser: boolean,
  cli: { commands: ASSESS, value: 'bool' }
})

export const ALLOW_SHARED_PROFILE_SYNC = defineInput({
  name: 'allow_shared_profile_sync',
  field: null,
  default: 'false',
  description: 'Whether a run off the default branch may sync the profile of a target that is not its own preview.',
  summary: 'whether runs off the default branch may sync a shared profile',
  parser: boolean,
  cli: { commands: ASSESS, value: 'bool' }
})

/** The model to assess, first in the table. */
export const TARGET_INPUTS = [MODEL_ID] as const

/** The endpoint to find or register instead, what registers it, and its profile. */
export const REGISTRATION_INPUTS = [
  ENDPOINT_URL,
  TARGET_NAME,
  ENVIRONMENT,
  AUTH_TYPE,
  TARGET_CREDENTIAL,
  OAUTH_TOKEN_URL,
  OAUTH_CLIENT_ID,
  OAUTH_SCOPE,
  OAUTH_AUDIENCE,
  RESPONSE_FIELD,
  TRANSPORT,
  REQUEST_TIMEOUT,
  PROFILE_FILE,
  FAIL_ON_PROFILE_ERROR,
  ALLOW_SHARED_PROFILE_SYNC
] as const
