/**
 * The action's inputs: read, validated and typed before any request is sent.
 * Every mistake is a ConfigError naming the input, in one line that says how
 * to fix it. Pure: the reader of raw values is passed in.
 */
import { SEVERITIES, type Severity } from '../service/contract/index.js'
import { ConfigError } from '../util/errors.js'
import type { FailOn } from '../gate/policy.js'

export type CommentMode = 'update' | 'new' | 'off'
export type Mode = 'gate' | 'validate'
export type IssueMode = 'off' | 'update'

export interface ActionInputs {
  mode: Mode
  modelId: string
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

/** Show at most 60 characters of what the user typed. */
function clip(s: string): string {
  const flat = s.replace(/[\u0000-\u001f\u007f]/g, ' ')
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat
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

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h)
}

/** https, or http for a loopback host only; no credentials, query or fragment; /api/v1 suffix tolerated. */
export function parseBaseUrl(raw: string): string {
  if (raw === '') {
    throw new ConfigError('base_url', "is required: the service's base address, the part before /api/v1 (e.g. https://asas.example.com)")
  }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('base_url', `'${clip(raw)}' is not a URL: give the service's base address, e.g. https://asas.example.com`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError('base_url', `scheme '${clip(url.protocol)}' is not allowed: use https://`)
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError('base_url', `plain http is allowed only for loopback hosts (localhost, 127.0.0.1, ::1): use https://${url.host}`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError('base_url', 'must not carry credentials: pass the key in api_key')
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError('base_url', 'must not carry a query string or fragment')
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')
  if (/\/api\/v1(\/|$)/.test(path)) {
    throw new ConfigError('base_url', `'${clip(raw)}' goes past /api/v1: give only the part before it, e.g. ${url.protocol}//${url.host}`)
  }
  return `${url.protocol}//${url.host}${path}`
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
  const modelId = get('model_id')
  if (modelId === '') {
    throw new ConfigError('model_id', 'is required: the model_id of the agent target in the service inventory (GET /api/v1/model lists them)')
  }
  if (modelId.length > 200 || /[\u0000-\u001f\u007f/?#]/.test(modelId)) {
    throw new ConfigError('model_id', `'${clip(modelId)}' is not a model id (no slashes, ?, # or control characters)`)
  }
  const apiKey = get('api_key')
  if (apiKey === '') {
    throw new ConfigError(
      'api_key',
      'is empty. Pass the service key from a secret (api_key: ${{ secrets.ASAS_API_KEY }}). Secrets are not given to workflows triggered from forks: this check fails rather than skip, so a change cannot merge unassessed'
    )
  }
  return {
    mode,
    modelId,
    minSeverity: oneOf<Severity>('min_severity', get('min_severity'), SEVERITIES, INPUT_DEFAULTS.min_severity),
    categories: parseCategories(get('categories')),
    apiKey,
    baseUrl: parseBaseUrl(get('base_url')),
    failOnIncomplete: parseBoolean('fail_on_incomplete', get('fail_on_incomplete'), true),
    timeoutMs: parseTimeoutMs(get('timeout_minutes')),
    githubToken: get('github_token'),
    comment: oneOf<CommentMode>('comment', get('comment'), ['update', 'new', 'off'], INPUT_DEFAULTS.comment),
    issue: oneOf<IssueMode>('issue', get('issue'), ['off', 'update'], INPUT_DEFAULTS.issue),
    maxRuns: parseMaxRuns(get('max_runs')),
    failOn: oneOf<FailOn>('fail_on', get('fail_on'), ['any', 'new'], INPUT_DEFAULTS.fail_on),
    baselineRunId: parseRunId(get('baseline_run_id')),
    acceptedRisksFile: parseAcceptedFileInput(get('accepted_risks_file')),
    syncDismissals: parseBoolean('sync_dismissals', get('sync_dismissals'), false),
    sarifMinSeverity: oneOf<Severity>('sarif_min_severity', get('sarif_min_severity'), SEVERITIES, INPUT_DEFAULTS.sarif_min_severity),
    sarifLocation: parseRepoPath('sarif_location', get('sarif_location'))
  }
}
