/**
 * The inputs of the step itself: the service and its key, the mode, how long
 * to wait, and what to write on GitHub (the comment, the tracking issue and
 * the token for both). Entries of the inputs table (spec.ts). Pure.
 */
import type { PublishSettings } from '../../github/publish.js'
import { COMMENT_MODES } from '../../github/sticky-comment.js'
import { parseBaseUrl } from '../../service/base-url.js'
import { LIMITS } from '../../service/contract/index.js'
import { ConfigError } from '../../util/errors.js'
import { SERVICE_KEY_HINT, type CiHost } from '../ci-host.js'
import { clip } from './common.js'
import { choice, defineInput, parsedBy, text, wholeNumber, type FieldsOf, type InputParser } from './spec.js'

/** GitHub's longest job on hosted runners is 6 h; a longer wait is a typo. */
export const MAX_TIMEOUT_MINUTES = 360
/** Shorter than a second cannot hold even the trigger: surely a typo. */
const MIN_TIMEOUT_MS = 1_000

/**
 * The service key as sent (`Authorization: Bearer <key>`): at least the
 * service's minimum credential length, visible ASCII only (0x21 to 0x7E; a
 * space, a control or a non-ASCII character cannot be a header's token, and
 * would fail as a network error). The message never shows the key.
 */
export function checkApiKey(apiKey: string, host: CiHost = 'github'): string {
  const hint = SERVICE_KEY_HINT[host]
  if (apiKey === '') {
    throw new ConfigError(
      'api_key',
      `is empty. ${hint.pass}. ${hint.forks}: this check fails rather than skip, so a change cannot merge unassessed`
    )
  }
  if (apiKey.length < LIMITS.credentialMin) {
    throw new ConfigError('api_key', `is shorter than ${LIMITS.credentialMin} characters: not a service key. ${hint.pass}`)
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError(
      'api_key',
      'holds a space, a control or a non-ASCII character: a service key is visible ASCII only. Check the secret for a stray character (a line break, a typographic quote)'
    )
  }
  return apiKey
}

/** Minutes (decimals allowed) as milliseconds, from 1 s to MAX_TIMEOUT_MINUTES. */
const timeoutMs: InputParser<number> = {
  parse: (text) => {
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
  },
  range: `above 0 (at least 1 s), at most ${MAX_TIMEOUT_MINUTES}`
}

const BOTH = ['assess', 'validate'] as const

/** The service key: checked right after the target, before the policy and the rest. */
export const API_KEY = defineInput({
  name: 'api_key',
  field: 'apiKey',
  default: '',
  required: true,
  description: 'The service API key, from a secret; needs the test:run scope. Masked at once.',
  summary: 'the service key (`test:run` scope), from a secret',
  parser: parsedBy((key) => checkApiKey(key)),
  cli: { commands: BOTH, value: 'key', env: 'ASAS_API_KEY' }
})

/** gate or validate: read first, as what is required depends on it. */
export const MODE = defineInput({
  name: 'mode',
  field: 'mode',
  default: 'gate',
  description:
    'gate (assess and decide), validate (re-run fixed findings), collect (finish detached runs) or overview (every agent, read only).',
  summary:
    '`gate`; `validate`: re-run the attacks of findings marked fixed; `collect`: finish detached runs; `overview`: the workspace at a glance',
  parser: choice(['gate', 'validate', 'collect', 'overview']),
  cli: { none: 'the command is the mode: `assess` gates, `validate` replays the findings marked fixed' }
})

/** The service and its key, first in the table. */
export const SERVICE_INPUTS = [
  API_KEY,
  defineInput({
    name: 'base_url',
    field: 'baseUrl',
    default: '',
    required: true,
    description: 'The service address, the part before /api/v1 (https; http only for loopback hosts).',
    summary: 'the service address, the part before `/api/v1`; `https` (`http` for loopback only)',
    parser: parsedBy(parseBaseUrl),
    cli: { commands: BOTH, value: 'url', env: 'ASAS_BASE_URL' }
  })
] as const

/** How long to wait, the mode, and what to write on GitHub. */
export const RUN_INPUTS = [
  defineInput({
    name: 'timeout_minutes',
    field: 'timeoutMs',
    default: '60',
    description: 'How long to wait for the run (decimals allowed); then the run is cancelled and the step fails.',
    summary: 'how long to wait (`0.5` = 30 s); then the run is cancelled and the step fails',
    parser: timeoutMs,
    cli: { commands: BOTH, value: 'minutes' }
  }),
  defineInput({
    name: 'github_token',
    field: 'githubToken',
    default: '',
    runnerDefault: '${{ github.token }}',
    description: 'Token for the pull-request comment and the tracking issue.',
    summary: 'token for the PR comment, tracking issue and commit status',
    parser: text,
    cli: { none: 'GitHub Actions only: the command line writes no pull-request comment, issue or commit status' }
  }),
  defineInput({
    name: 'comment',
    field: 'comment',
    default: 'update',
    description: 'Pull-request comment: update (one sticky comment per model_id), new (one per run) or off.',
    summary: '`update` (one sticky comment per `model_id`), `new` (one per run) or `off`',
    parser: choice(COMMENT_MODES),
    cli: { none: "GitHub pull requests only: the command line comments nothing (a GitLab merge request's job keeps one note)" }
  }),
  MODE,
  defineInput({
    name: 'max_runs',
    field: 'maxRuns',
    default: '20',
    description: 'validate mode: how many recent runs to search for fixed findings ({range}).',
    summary: 'validate mode: recent runs searched for fixed findings ({range})',
    parser: wholeNumber(LIMITS.runListLimitMin, LIMITS.runListLimitMax), // what GET /model/{id}/run lists
    cli: { commands: ['validate'], value: 'n' }
  }),
  defineInput({
    name: 'issue',
    field: 'issue',
    default: 'off',
    description: 'Without a pull request: off, or update (one tracking issue per model_id; needs issues: write).',
    summary: 'without a PR: `update` keeps one tracking issue per `model_id`',
    parser: choice<PublishSettings['issue']>(['off', 'update']),
    cli: { none: "GitHub only: the tracking issue is one of the repository's issues" }
  })
] as const

export const STEP_INPUTS = [...SERVICE_INPUTS, ...RUN_INPUTS] as const

export type StepInputs = FieldsOf<typeof STEP_INPUTS>
