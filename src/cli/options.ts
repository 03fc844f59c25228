/**
 * The command line's options: each one an input of the action, named in
 * kebab-case (min_severity is --min-severity), its value handed to the same
 * reading and validation as the action's (readInputs). Which inputs are
 * options of which command is said by the inputs table
 * (src/action/inputs/table.ts: an entry's `cli`), as is why an input is not
 * one. The API key and the base URL may come from the environment instead
 * (ASAS_API_KEY, ASAS_BASE_URL). Options are values as the action's inputs
 * are, so booleans are `true` or `false`.
 */
import { INPUT_DEFAULTS } from '../action/inputs/defaults.js'
import { plainSummary, type AnyInputSpec, type CliCommand } from '../action/inputs/spec.js'
import { INPUT_TABLE } from '../action/inputs/table.js'
import { gitlabStepEnv } from '../gitlab/ci-context.js'

export interface CliOption {
  /** The action's input. */
  input: string
  /** A few words for --help (the entry's summary, as plain text). */
  help: string
  /** The value's placeholder in --help. */
  value?: string
  /** An environment variable read when the option is not given. */
  env?: string
}

/** The options of a command: the inputs whose entry names it, in the table's order. */
export function commandOptions(command: CliCommand, table: readonly AnyInputSpec[] = INPUT_TABLE): CliOption[] {
  return table.flatMap((spec) =>
    'commands' in spec.cli && spec.cli.commands.includes(command)
      ? [
          {
            input: spec.name,
            help: plainSummary(spec),
            value: spec.cli.value,
            ...(spec.cli.env === undefined ? {} : { env: spec.cli.env })
          }
        ]
      : []
  )
}

/** The options of `assess`: the gate's inputs that act outside a GitHub event. */
export const ASSESS_OPTIONS: readonly CliOption[] = commandOptions('assess')

/** The options of `validate`: the nightly replay of the findings marked fixed. */
export const VALIDATE_OPTIONS: readonly CliOption[] = commandOptions('validate')

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
