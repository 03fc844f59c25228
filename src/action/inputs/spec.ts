/**
 * What an entry of the inputs table declares (src/action/inputs/table.ts):
 * the input's name, its default, its texts, its parser with its range, and
 * its command-line flag or why it has none. Everything else is derived from
 * the entries: the fields of ActionInputs, INPUT_DEFAULTS, the command line's
 * options, action.yml's inputs and README's table (scripts/input-docs.ts).
 * The parsers built here are the shared ones; an input with its own rule
 * gives its own `parse`. Pure.
 */
import { oneOf, parseBoolean, parseWholeNumber } from './common.js'

/** The command-line commands an input can be an option of (src/cli/program.ts). */
export type CliCommand = 'assess' | 'validate'

/** The input is an option `--<name-in-kebab-case>` of these commands. */
export interface CliFlag {
  commands: readonly CliCommand[]
  /** The value's placeholder in --help. */
  value: string
  /** An environment variable read when the option is not given (a secret belongs there, not in the shell's history). */
  env?: string
}

/** The input is no option: why (one sentence, e.g. what it acts on exists only in GitHub Actions). */
export interface NoFlag {
  none: string
}

/**
 * How an input's text becomes its value. `input` is the input's name, for
 * the ConfigError of a bad value. `raw` is never '' unless the default is ''
 * (the reader gives the default for an empty value).
 */
export interface InputParser<T> {
  parse: (raw: string, input: string) => T
  /** The allowed values (a choice) or the range in words ("1 to 100"): `{range}` in the texts shows it. */
  range?: readonly string[] | string
}

export interface InputSpec<N extends string = string, F extends string | null = string | null, T = unknown> {
  /** The input's name in action.yml (snake_case). */
  name: N
  /** The field of ActionInputs that holds the parsed value; null: the target's or the profile's reader combines it with others. */
  field: F
  /** The default the code applies to an empty value ('' : none). */
  default: string
  /** action.yml marks it required (and it has no default). */
  required?: true
  /** A default the runner evaluates, shown in action.yml and README instead (github_token's `${{ github.token }}`). */
  runnerDefault?: string
  /** action.yml's description: one or two short sentences for the Marketplace (at most 160 characters). */
  description: string
  /** README's cell and the --help text: a few words, markdown (code spans, a docs link). */
  summary: string
  parser: InputParser<T>
  cli: CliFlag | NoFlag
}

/** Any entry of the table. */
export type AnyInputSpec = InputSpec

/** An entry, its name and field kept as literal types (so ActionInputs has the field, typed by the parser). */
export function defineInput<const N extends string, const F extends string | null, T>(spec: InputSpec<N, F, T>): InputSpec<N, F, T> {
  return spec
}

/** The fields a list of entries gives ActionInputs: each entry's field, typed by what its parser returns. */
export type FieldsOf<S extends readonly AnyInputSpec[]> = {
  [E in S[number] as E['field'] extends string ? E['field'] : never]: E['parser'] extends InputParser<infer T> ? T : never
}

/** The raw value of an entry's input, its default when empty. */
function rawValue(get: (name: string) => string, spec: AnyInputSpec): string {
  const raw = get(spec.name)
  return raw === '' ? spec.default : raw
}

/** Parse one input: its raw value (or its default) through its parser. */
export function readInput<T>(get: (name: string) => string, spec: InputSpec<string, string | null, T>): T {
  return spec.parser.parse(rawValue(get, spec), spec.name)
}

/** Read every entry that has a field, in the table's order (the first mistake is thrown). */
export function readFields<S extends readonly AnyInputSpec[]>(get: (name: string) => string, specs: S): FieldsOf<S> {
  const out: Record<string, unknown> = {}
  for (const spec of specs) if (spec.field !== null) out[spec.field] = readInput(get, spec)
  return out as FieldsOf<S>
}

/** One of the allowed values, case-insensitive (its entry has a default, one of them). */
export function choice<const T extends string>(allowed: readonly T[]): InputParser<T> {
  return { parse: (raw, input) => oneOf<T>(input, raw, allowed, allowed[0]), range: allowed }
}

/** A whole number from min to max. */
export function wholeNumber(min: number, max: number): InputParser<number> {
  return { parse: (raw, input) => parseWholeNumber(input, raw, raw, min, max), range: `${min} to ${max}` }
}

/** true or false (and their capitalized forms, as core.getBooleanInput). */
export const boolean: InputParser<boolean> = {
  parse: (raw, input) => parseBoolean(input, raw, false),
  range: ['true', 'false']
}

/** Any text, as given ('' when empty): its rules are checked where it is combined with others. */
export const text: InputParser<string> = { parse: (raw) => raw }

/** A parser of the input's own: `parse` returns the value or throws the ConfigError of a bad one; `range` in words. */
export function parsedBy<T>(parse: (raw: string, input: string) => T, range?: string): InputParser<T> {
  return range === undefined ? { parse } : { parse, range }
}

/** "a, b or c", each as code in markdown. */
function listText(values: readonly string[], markdown: boolean): string {
  const shown = values.map((v) => (markdown ? `\`${v}\`` : v))
  return shown.length < 2 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1) ?? ''}`
}

/** The range as the texts show it: "1 to 100", or the allowed values. */
export function rangeText(spec: AnyInputSpec, markdown: boolean): string {
  const range = spec.parser.range
  if (range === undefined) throw new Error(`input ${spec.name}: its text says {range} but its parser has none`)
  return typeof range === 'string' ? range : listText(range, markdown)
}

/** A text of an entry with `{range}` filled in. */
export function fillRange(spec: AnyInputSpec, textOf: string, markdown: boolean): string {
  return textOf.includes('{range}') ? textOf.replaceAll('{range}', rangeText(spec, markdown)) : textOf
}

/** The summary as plain text for --help: no code spans, emphasis or docs links. */
export function plainSummary(spec: AnyInputSpec): string {
  return fillRange(spec, spec.summary, false)
    .replace(/ ?\(\[docs\]\([^)]*\)\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|`/g, '')
}
