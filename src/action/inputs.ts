/**
 * The action's inputs: read, validated and typed before any request is sent.
 * Every mistake is a ConfigError naming the input, in one line that says how
 * to fix it. Pure: the reader of raw values is passed in.
 */
import { AUTH_TYPES, ENVIRONMENTS, LIMITS, SEVERITIES, type AuthType, type Severity } from '../service/contract/index.js'
import type { PublishSettings } from '../github/publish.js'
import type { FailOn } from '../gate/policy.js'
import { COMMENT_MODES, type CommentMode } from '../github/sticky-comment.js'
import { ConfigError } from '../util/errors.js'
import { parseBaseUrl } from '../service/base-url.js'
import { oneLine } from '../util/text.js'
import { MIN_SECRET_CHARS } from '../util/redact.js'
import type { EndpointTarget, TargetEnvironment, TargetInput, TargetTransport } from '../target/target-spec.js'

/** The base-address rule lives with the transport that uses it too. */
export { parseBaseUrl }

export type Mode = 'gate' | 'validate'
export type IssueMode = PublishSettings['issue']

/** The profile file to sync before the run (profile_file and its switches). */
export interface ProfileInputs {
  /** As given: relative to the repository (GITHUB_WORKSPACE). */
  path: string
  /** fail_on_profile_error: a failed sync fails the step before any run (default true). */
  failOnError: boolean
  /** allow_shared_profile_sync: a pull request may sync a target it does not own. */
  allowShared: boolean
}

export interface ActionInputs {
  mode: Mode
  /** The model_id input; '' when the target is given by endpoint_url (main.ts resolves it first). */
  modelId: string
  target: TargetInput
  /** null: no profile_file. */
  profile: ProfileInputs | null
  minSeverity: Severity
  /** Empty: the full taxonomy. */
  categories: string[]
  apiKey: string
  /** Without a trailing slash and without /api/v1. */
  baseUrl: string
  failOnIncomplete: boolean
  timeoutMs: number
  githubToken: string
  comment: CommentMode
  issue: IssueMode
  maxRuns: number
  /** any: every open finding at or above min_severity blocks; new: only those the baseline does not hold. */
  failOn: FailOn
  /** A run whose findings are the baseline (instead of the Actions cache); '' when unset. */
  baselineRunId: string
  /** Repository path of the accepted-risks file ('' : off, from the input value off). */
  acceptedRisksFile: string
  /** Write acceptances to the service as dismissals (default branch only). */
  syncDismissals: boolean
  /** Threshold of SARIF results. */
  sarifMinSeverity: Severity
  /** Repository file SARIF results are located on ('' : the workflow file). */
  sarifLocation: string
}

/** Defaults, mirrored in action.yml (a test keeps the two equal). */
export const INPUT_DEFAULTS = {
  mode: 'gate',
  min_severity: 'high',
  categories: '',
  fail_on_incomplete: 'true',
  timeout_minutes: '60',
  comment: 'update',
  issue: 'off',
  max_runs: '20',
  auth_type: 'none',
  transport: 'http',
  fail_on_profile_error: 'true',
  allow_shared_profile_sync: 'false',
  fail_on: 'any',
  baseline_run_id: '',
  accepted_risks_file: '.github/agent-security-accepted.yml',
  sync_dismissals: 'false',
  sarif_min_severity: 'low',
  sarif_location: ''
} as const

/** GitHub's longest job on hosted runners is 6 h; a longer wait is a typo. */
export const MAX_TIMEOUT_MINUTES = 360
/** Shorter than a second cannot hold even the trigger: surely a typo. */
const MIN_TIMEOUT_MS = 1_000

/** Reads the raw value of an input ('' when unset), like core.getInput. */
export type InputReader = (name: string) => string

/** Reads `INPUT_<NAME>` from an environment, as the runner sets them. */
export function envInputReader(env: NodeJS.ProcessEnv): InputReader {
  return (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}

function oneOf<T extends string>(input: string, raw: string, allowed: readonly T[], fallback: T): T {
  const value = (raw === '' ? fallback : raw.toLowerCase()) as T
  if (!allowed.includes(value)) {
    throw new ConfigError(input, `'${clip(raw)}' is not one of ${allowed.join(', ')}`)
  }
  return value
}

/** C0 and C1 control characters and DEL: no credential holds one (a header cannot carry it). */
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/

/**
 * True when a secret input may be registered as a mask: long enough to be a
 * credential and without control characters. A shorter value would mask that
 * text in every log line (a one-letter key masks the letter); such values are
 * refused as inputs instead (see checkApiKey, readTargetInput), never echoed.
 */
export function isMaskableSecret(value: string): boolean {
  return value.length >= MIN_SECRET_CHARS && !CONTROL_CHARS.test(value)
}

/**
 * The service key as sent (`Authorization: Bearer <key>`): at least the
 * service's minimum credential length, visible ASCII only (0x21 to 0x7E; a
 * space, a control or a non-ASCII character cannot be a header's token, and
 * would fail as a network error). The message never shows the key.
 */
function checkApiKey(apiKey: string): string {
  if (apiKey === '') {
    throw new ConfigError(
      'api_key',
      'is empty. Pass the service key from a secret (api_key: ${{ secrets.ASAS_API_KEY }}). Secrets are not given to workflows triggered from forks: this check fails rather than skip, so a change cannot merge unassessed'
    )
  }
  if (apiKey.length < LIMITS.credentialMin) {
    throw new ConfigError(
      'api_key',
      `is shorter than ${LIMITS.credentialMin} characters: not a service key. Pass the key from a secret (api_key: \${{ secrets.ASAS_API_KEY }})`
    )
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError(
      'api_key',
      'holds a space, a control or a non-ASCII character: a service key is visible ASCII only. Check the secret for a stray character (a line break, a typographic quote)'
    )
  }
  return apiKey
}

/** Show at most 60 characters of what the user typed, on one line. */
function clip(s: string): string {
  return oneLine(s, 60)
}

function parseBoolean(input: string, raw: string, fallback: boolean): boolean {
  if (raw === '') return fallback
  if (['true', 'True', 'TRUE'].includes(raw)) return true
  if (['false', 'False', 'FALSE'].includes(raw)) return false
  throw new ConfigError(input, `'${clip(raw)}' is not a boolean: use true or false`)
}

/** Category keys separated by commas and/or newlines; blanks dropped, duplicates removed, order kept. */
export function parseCategories(raw: string): string[] {
  const keys = raw
    .split(/[,\n\r]+/)
    .map((k) => k.trim())
    .filter((k) => k !== '')
  for (const k of keys) {
    if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(k)) {
      throw new ConfigError(
        'categories',
        `'${clip(k)}' is not a category key (letters, digits, _ . : - only): separate keys with commas or newlines, e.g. 'prompt_injection, jailbreak'`
      )
    }
  }
  return [...new Set(keys)]
}

function parseTimeoutMs(raw: string): number {
  const text = raw === '' ? INPUT_DEFAULTS.timeout_minutes : raw
  if (!/^\d*\.?\d+$/.test(text)) {
    throw new ConfigError('timeout_minutes', `'${clip(text)}' is not a positive number of minutes (decimals allowed, e.g. 0.5 for 30 s)`)
  }
  const minutes = Number(text)
  if (!(minutes > 0)) {
    throw new ConfigError('timeout_minutes', `must be greater than 0 (got '${clip(text)}')`)
  }
  if (minutes * 60_000 < MIN_TIMEOUT_MS) {
    throw new ConfigError('timeout_minutes', `must be at least 1 second (0.0167 minutes); got '${clip(text)}'`)
  }
  if (minutes > MAX_TIMEOUT_MINUTES) {
    throw new ConfigError('timeout_minutes', `must be at most ${MAX_TIMEOUT_MINUTES} (a job on hosted runners lasts 6 h at most)`)
  }
  return Math.round(minutes * 60_000)
}

function parseMaxRuns(raw: string): number {
  const text = raw === '' ? INPUT_DEFAULTS.max_runs : raw
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < 1 || n > 100) {
    throw new ConfigError('max_runs', `'${clip(text)}' is not a whole number from 1 to 100`)
  }
  return n
}

const MODEL_ID_HINT = 'the model_id of the agent target in the service inventory (GET /api/v1/model lists them)'

function parseModelId(modelId: string): string {
  if (modelId.length > 200 || /[\u0000-\u001f\u007f/?#]/.test(modelId)) {
    throw new ConfigError('model_id', `'${clip(modelId)}' is not a model id (no slashes, ?, # or control characters)`)
  }
  return modelId
}

/** The endpoint to register: a URL the service can probe; its address rules (private hosts...) are the service's (400). */
export function parseEndpointUrl(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(
      'endpoint_url',
      `'${clip(raw)}' is not a URL: give the agent's full endpoint, e.g. https://pr-7.preview.example.com/chat`
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

function parseTargetName(raw: string): string | null {
  if (raw === '') return null
  if (raw.length > LIMITS.targetNameMax || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw new ConfigError('target_name', `must be 1 to ${LIMITS.targetNameMax} characters without control characters`)
  }
  return raw
}

function parseRequestTimeout(raw: string): number | null {
  if (raw === '') return null
  const n = Number(raw)
  if (!/^\d*\.?\d+$/.test(raw) || !(n > 0) || n > LIMITS.requestTimeoutMax) {
    throw new ConfigError('request_timeout', `'${clip(raw)}' is not a number of seconds above 0 and at most ${LIMITS.requestTimeoutMax}`)
  }
  return n
}

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

/** model_id or endpoint_url (exactly one), and the registration inputs of the endpoint. */
export function readTargetInput(get: InputReader): TargetInput {
  const modelId = get('model_id')
  const endpointUrl = get('endpoint_url')
  if (modelId !== '' && endpointUrl !== '') {
    throw new ConfigError(
      'model_id',
      'is set together with endpoint_url: give one of the two. model_id assesses a model already in the inventory; endpoint_url finds or registers the agent at that address (e.g. the preview of this pull request)'
    )
  }
  if (modelId === '' && endpointUrl === '') {
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
    return { kind: 'model', modelId: parseModelId(modelId) }
  }
  return { kind: 'endpoint', endpoint: readEndpointTarget(get, endpointUrl) }
}

/** The registration inputs of endpoint_url. */
function readEndpointTarget(get: InputReader, endpointUrl: string): EndpointTarget {
  const authType = oneOf<AuthType>('auth_type', get('auth_type'), AUTH_TYPES, INPUT_DEFAULTS.auth_type)
  const credential = readCredential(get, authType)
  const oauth = readOAuth(get, authType)
  const responseField = get('response_field')
  if (responseField === '') {
    throw new ConfigError(
      'response_field',
      "is required with endpoint_url: the dot-path of the reply text in the agent's JSON answer (e.g. output.text or choices.0.message.content)"
    )
  }
  const environment = get('environment')
  return {
    endpointUrl: parseEndpointUrl(endpointUrl),
    name: parseTargetName(get('target_name')),
    environment: environment === '' ? null : oneOf<TargetEnvironment>('environment', environment, ENVIRONMENTS, 'staging'),
    authType,
    credential,
    oauth,
    responseField,
    transport: oneOf<TargetTransport>('transport', get('transport'), ['http', 'websocket'], INPUT_DEFAULTS.transport),
    requestTimeout: parseRequestTimeout(get('request_timeout'))
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

function readProfileInputs(get: InputReader): ProfileInputs | null {
  const path = get('profile_file')
  const failOnError = parseBoolean('fail_on_profile_error', get('fail_on_profile_error'), true)
  const allowShared = parseBoolean('allow_shared_profile_sync', get('allow_shared_profile_sync'), false)
  if (path === '') return null
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new ConfigError('profile_file', 'holds control characters')
  return { path, failOnError, allowShared }
}

function parseRunId(raw: string): string {
  if (raw !== '' && (raw.length > 200 || /[\u0000-\u001f\u007f/?#\s]/.test(raw))) {
    throw new ConfigError('baseline_run_id', `'${clip(raw)}' is not a run id (no slashes, ?, #, spaces or control characters)`)
  }
  return raw
}

/** A repository-relative file path ('' allowed): no absolute path, no '..'. */
function parseRepoPath(input: string, raw: string): string {
  if (raw === '') return ''
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw) || raw.split(/[\\/]/).includes('..') || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw new ConfigError(input, `'${clip(raw)}' must be a path inside the repository, e.g. .github/agent-security-accepted.yml`)
  }
  return raw.replace(/^\.\//, '')
}

/**
 * sarif_location goes into the SARIF log as a URI relative to the checkout,
 * which code scanning resolves and links: a relative path inside the
 * repository only. Besides parseRepoPath's checks, no scheme (`file:`,
 * `https:`, a drive), no backslash (a separator on Windows), no percent-escape
 * (`%2e%2e` decodes to `..`; the action encodes the path itself) and no
 * segment that is `..` once Unicode-normalized (`．．`).
 */
function parseSarifLocation(raw: string): string {
  const path = parseRepoPath('sarif_location', raw)
  // Checked as a consumer that normalizes would read it too (`／`, `＼`, `％`, `．．`).
  const norm = path.normalize('NFKC')
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(norm) || norm.startsWith('/') || /[\\%]/.test(norm) || norm.split('/').includes('..')) {
    throw new ConfigError(
      'sarif_location',
      `'${clip(raw)}' must be a relative path inside the repository, e.g. agent/profile.yml (no scheme, backslash, % escape or ..)`
    )
  }
  return path
}

/** '' : the default path; 'off' : no accepted-risks file. */
function parseAcceptedFileInput(raw: string): string {
  if (raw.toLowerCase() === 'off') return ''
  return parseRepoPath('accepted_risks_file', raw === '' ? INPUT_DEFAULTS.accepted_risks_file : raw)
}

/**
 * Read and validate every input. Throws ConfigError on the first mistake,
 * before any request is made.
 */
export function readInputs(get: InputReader): ActionInputs {
  const mode = oneOf<Mode>('mode', get('mode'), ['gate', 'validate'], INPUT_DEFAULTS.mode)
  const target = readTargetInput(get)
  const apiKey = checkApiKey(get('api_key'))
  return {
    mode,
    modelId: target.kind === 'model' ? target.modelId : '',
    target,
    profile: readProfileInputs(get),
    minSeverity: oneOf<Severity>('min_severity', get('min_severity'), SEVERITIES, INPUT_DEFAULTS.min_severity),
    categories: parseCategories(get('categories')),
    apiKey,
    baseUrl: parseBaseUrl(get('base_url')),
    failOnIncomplete: parseBoolean('fail_on_incomplete', get('fail_on_incomplete'), true),
    timeoutMs: parseTimeoutMs(get('timeout_minutes')),
    githubToken: get('github_token'),
    comment: oneOf<CommentMode>('comment', get('comment'), COMMENT_MODES, INPUT_DEFAULTS.comment),
    issue: oneOf<IssueMode>('issue', get('issue'), ['off', 'update'], INPUT_DEFAULTS.issue),
    maxRuns: parseMaxRuns(get('max_runs')),
    failOn: oneOf<FailOn>('fail_on', get('fail_on'), ['any', 'new'], INPUT_DEFAULTS.fail_on),
    baselineRunId: parseRunId(get('baseline_run_id')),
    acceptedRisksFile: parseAcceptedFileInput(get('accepted_risks_file')),
    syncDismissals: parseBoolean('sync_dismissals', get('sync_dismissals'), false),
    sarifMinSeverity: oneOf<Severity>('sarif_min_severity', get('sarif_min_severity'), SEVERITIES, INPUT_DEFAULTS.sarif_min_severity),
    sarifLocation: parseSarifLocation(get('sarif_location'))
  }
}
