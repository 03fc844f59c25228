/**
 * The command line's options: each one an input of the action, named in
 * kebab-case (min_severity is --min-severity), its value handed to the same
 * reading and validation as the action's (readInputs). The API key and the
 * base URL may come from the environment instead (ASAS_API_KEY,
 * ASAS_BASE_URL). Options are values as the action's inputs are, so
 * booleans are `true` or `false`.
 */
import { INPUT_DEFAULTS } from '../action/inputs/defaults.js'
import { gitlabStepEnv } from '../gitlab/ci-context.js'

export interface CliOption {
  /** The action's input. */
  input: string
  /** A few words for --help (the inputs' detail is in the README). */
  help: string
  /** The value's placeholder in --help. */
  value?: string
  /** An environment variable read when the option is not given. */
  env?: string
}

/** The service: every command needs it. */
const SERVICE: readonly CliOption[] = [
  { input: 'api_key', help: 'the service API key (needs the test:run scope)', value: 'key', env: 'ASAS_API_KEY' },
  { input: 'base_url', help: 'the service address, the part before /api/v1', value: 'url', env: 'ASAS_BASE_URL' }
]

/** The options of `assess`: the gate's inputs that act outside a GitHub event. */
export const ASSESS_OPTIONS: readonly CliOption[] = [
  { input: 'model_id', help: 'the inventory model (agent) to assess; give it or --endpoint-url', value: 'id' },
  { input: 'endpoint_url', help: "the agent's address, found or registered as a target", value: 'url' },
  ...SERVICE,
  { input: 'min_severity', help: 'critical, high, medium or low: open findings at or above it fail', value: 'severity' },
  { input: 'categories', help: 'category keys to focus the run on, comma separated (default: all)', value: 'keys' },
  { input: 'fail_on_incomplete', help: 'true or false: whether incomplete coverage fails', value: 'bool' },
  { input: 'timeout_minutes', help: 'how long to wait for the run, then cancel it', value: 'minutes' },
  { input: 'target_name', help: 'inventory name of the --endpoint-url target', value: 'name' },
  { input: 'environment', help: 'environment of a registered target: prod, staging or dev', value: 'env' },
  { input: 'auth_type', help: 'none, bearer, api_key, basic or oauth_client_credentials', value: 'type' },
  { input: 'target_credential', help: "the target's credential for --auth-type", value: 'secret', env: 'ASAS_TARGET_CREDENTIAL' },
  { input: 'oauth_token_url', help: 'oauth_client_credentials: the token endpoint', value: 'url' },
  { input: 'oauth_client_id', help: 'oauth_client_credentials: the client id', value: 'id' },
  { input: 'oauth_scope', help: 'oauth_client_credentials: the scope', value: 'scope' },
  { input: 'oauth_audience', help: 'oauth_client_credentials: the audience', value: 'audience' },
  { input: 'response_field', help: "dot-path of the reply text in the agent's JSON answer", value: 'path' },
  { input: 'transport', help: 'http or websocket', value: 'transport' },
  { input: 'request_timeout', help: 'seconds the service waits for the target (at most 180)', value: 'seconds' },
  { input: 'profile_file', help: "a YAML or JSON file with the target's profile, synced before the run", value: 'file' },
  { input: 'fail_on_profile_error', help: 'true or false: whether a failed profile sync fails', value: 'bool' },
  { input: 'allow_shared_profile_sync', help: 'true or false: sync the profile of a shared target', value: 'bool' },
  { input: 'fail_on', help: 'any, or new: only findings the baseline does not hold fail', value: 'policy' },
  { input: 'baseline_run_id', help: 'a run whose findings are the baseline', value: 'run' },
  { input: 'accepted_risks_file', help: 'the accepted-risks file (off: none)', value: 'file' },
  { input: 'sarif_min_severity', help: 'findings at or above it get a SARIF result', value: 'severity' },
  { input: 'sarif_location', help: 'repository file the SARIF results point at', value: 'file' }
]

/** The options of `validate`: the nightly replay of the findings marked fixed. */
export const VALIDATE_OPTIONS: readonly CliOption[] = [
  { input: 'model_id', help: 'the inventory model (agent) whose fixed findings are replayed', value: 'id' },
  ...SERVICE,
  { input: 'max_runs', help: 'how many recent runs to search for fixed findings (1 to 100)', value: 'n' },
  { input: 'fail_on_incomplete', help: 'true or false: whether a finding not validated fails', value: 'bool' },
  { input: 'timeout_minutes', help: 'how long to wait for the validations', value: 'minutes' }
]

/** The flag of an input: min_severity is --min-severity. */
export function flagOf(input: string): string {
  return `--${input.replace(/_/g, '-')}`
}

/** commander's key of an option's value: --min-severity is minSeverity. */
export function optionKey(input: string): string {
  return input.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
}

/** The default shown in --help: the action's (INPUT_DEFAULTS). */
export function defaultOf(input: string): string | undefined {
  const value: string | undefined = (INPUT_DEFAULTS as Partial<Record<string, string>>)[input]
  return value === undefined || value === '' ? undefined : value
}

/**
 * The step's environment from the options given: each as INPUT_<NAME>, as
 * the runner sets inputs, an option's variable when it was not given, and
 * nothing GitHub's: the command line is no workflow event, comments nothing
 * (but the merge-request note of a GitLab CI job) and keeps no cache. The checkout is the working directory.
 */
export function inputEnv(
  options: readonly CliOption[],
  given: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  fixed: Record<string, string>
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { GITHUB_WORKSPACE: process.cwd() }
  for (const [input, value] of Object.entries({ comment: 'off', issue: 'off', commit_status: 'off', ...fixed }))
    out[`INPUT_${input.toUpperCase()}`] = value
  for (const o of options) {
    const value = given[optionKey(o.input)]
    const text = typeof value === 'string' ? value : o.env === undefined ? undefined : env[o.env]
    if (text !== undefined) out[`INPUT_${o.input.toUpperCase()}`] = text
  }
  // A GitLab CI job: its variables, and the merge-request note in the comment's place (src/gitlab/).
  Object.assign(out, gitlabStepEnv(env))
  return out
}
