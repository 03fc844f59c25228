/**
 * What the action trusts of the job's environment, decided in one place.
 * Any earlier step of the job can write `NAME=value` to $GITHUB_ENV and the
 * runner passes it to every later step (NODE_OPTIONS alone is refused by the
 * runner, since v2.309.0). What the runner sets over that environment for
 * this step cannot be forged; the rest is decided here:
 *
 * | Names | Decision | Why |
 * |---|---|---|
 * | STATE_* | verify | only keys this action's main step saved are laid over the job's; the post step reads nothing without the main step's seal (state.ts) |
 * | INPUT_<name> of every action.yml input | trust | the runner sets each declared input over the job's environment: the step's `with:` value, else action.yml's default, else '' (Handler.AddInputsToEnvironment, ActionRunner "Merge the default inputs"); the action reads no undeclared input |
 * | GITHUB_* the action reads (EVENT_PATH, EVENT_NAME, API_URL, SERVER_URL, REPOSITORY, SHA, REF, REF_NAME, HEAD_REF, BASE_REF, WORKSPACE, WORKFLOW, WORKFLOW_REF, RUN_ID, RUN_ATTEMPT, JOB, OUTPUT, STATE, STEP_SUMMARY) | trust | set from the github context over the job's environment for each action step (NodeScriptActionHandler, GitHubContext's allow-list) |
 * | RUNNER_TEMP | trust | set from the runner context the same way (RunnerContext) |
 * | ACTIONS_RUNTIME_TOKEN, ACTIONS_RUNTIME_URL, ACTIONS_CACHE_URL, ACTIONS_RESULTS_URL | trust | set by the runner for each action step from its own connection (the Actions cache of the baselines) |
 * | any name but INPUT_API_KEY whose value carries the api_key's | refuse | an earlier step of the job reads it there and can seal forged state the post step would trust (state.ts): the key belongs in the step's `with:` alone |
 * | NODE_TLS_REJECT_UNAUTHORIZED=0 | refuse | it turns off certificate checks: whoever answers would get the api_key and could send a passing run |
 * | NODE_OPTIONS | trust | the runner refuses it from $GITHUB_ENV |
 * | HTTPS_PROXY, HTTP_PROXY, NO_PROXY | document | with certificates checked a proxy sees host names, not the key or the answers |
 * | NODE_EXTRA_CA_CERTS | document | it names a file: a step that can plant a CA file can already rewrite the action's own files on the runner (docs/threat-model.md) |
 *
 * docs/threat-model.md says the same to users; __tests__/e2e/job-env-e2e.test.ts holds each decision through the bundle.
 */

import { envInputReader } from './inputs/common.js'
import { secretWireForms } from '../util/redact.js'

/** The job-environment variables the action refuses to run under, with why. */
export const REFUSED_JOB_ENV: readonly { name: string; value: string; why: string }[] = [
  {
    name: 'NODE_TLS_REJECT_UNAUTHORIZED',
    value: '0',
    why: 'turns off TLS certificate checks: whoever answers for the service would get the api_key and could answer with a passing run. An earlier step may have set it through $GITHUB_ENV; unset it (for a private certificate authority, give the runner NODE_EXTRA_CA_CERTS)'
  }
]

/** The one name the runner gives the step's api_key: the `with:` input. */
const API_KEY_INPUT = 'INPUT_API_KEY'

/**
 * The names, other than INPUT_API_KEY, whose value carries the step's api_key:
 * the key itself (trimmed, as the input is read), or any value holding it or a
 * form it is sent in (redact.ts secretWireForms). Every step of the job sees a
 * job's or workflow's `env:`, so each of them could seal state for the post
 * step. Empty without a key.
 */
export function apiKeyElsewhere(env: NodeJS.ProcessEnv): string[] {
  const key = envInputReader(env)('api_key')
  if (key === '') return []
  const forms = secretWireForms(key)
  const carries = (value: string): boolean => value.trim() === key || forms.some((f) => value.includes(f))
  return Object.entries(env)
    .filter(([name, value]) => name !== API_KEY_INPUT && value !== undefined && carries(value))
    .map(([name]) => name)
    .sort()
}

/** One line saying why the job's environment is refused, or null when nothing in it is. Never prints a value but the refused ones' fixed values. */
export function refusedJobEnv(env: NodeJS.ProcessEnv): string | null {
  for (const { name, value, why } of REFUSED_JOB_ENV) {
    if (env[name] === value) return `${name}=${value} ${why}. Nothing was sent.`
  }
  const elsewhere = apiKeyElsewhere(env)
  if (elsewhere.length > 0) {
    const names = elsewhere.join(', ')
    return `Configuration error: the api_key's value is also in the job's environment as ${names}: every step of the job can read it there, and an earlier one could forge the state the post step trusts (docs/threat-model.md). Give the key to this step alone, in its with: (api_key: \${{ secrets.… }}), and remove ${names} from the job's or workflow's env:. Nothing was sent.`
  }
  return null
}
