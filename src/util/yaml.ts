/**
 * The yaml package, loaded only when there is a YAML file to read (it is
 * about 280 KB of the bundle, and most runs read none): parsers take the
 * module as a parameter, and the shell loads it with loadYaml().
 *
 * Files of the repository are parsed here bounded in nesting, with the bound
 * and the check of a service body: a hostile file (say 400,000 levels) is a
 * mistake in the file, never a stack overflow in whatever walks it next.
 */
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../service/parse-response.js'

export type YamlModule = typeof import('yaml')

export async function loadYaml(): Promise<YamlModule> {
  return import('yaml')
}

/** The deepest nesting of lists and mappings read from a file of the repository. */
export const MAX_FILE_DEPTH = MAX_BODY_DEPTH

/** What is wrong with a file nested deeper than MAX_FILE_DEPTH. */
export const TOO_DEEP = `nests lists or mappings deeper than ${MAX_FILE_DEPTH} levels`

/** The largest number of aliases a file of the repository may expand (a billion-laughs file is refused). */
const MAX_ALIAS_COUNT = 100

export type FileParse = { ok: true; value: unknown } | { ok: false; tooDeep: boolean; why: string }

/** True for a parser's own report of running out of stack (the yaml package catches it as RESOURCE_EXHAUSTION). */
function exhausted(err: unknown): boolean {
  return err instanceof RangeError || (err instanceof Error && (err as { code?: unknown }).code === 'RESOURCE_EXHAUSTION')
}

function bounded(value: unknown): FileParse {
  return nestedDeeperThan(value, MAX_FILE_DEPTH) ? { ok: false, tooDeep: true, why: TOO_DEEP } : { ok: true, value }
}

/** JSON text of a file as a value nested at most MAX_FILE_DEPTH levels (JSON.parse itself does not recurse). */
export function parseJsonFile(text: string): FileParse {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    if (exhausted(err)) return { ok: false, tooDeep: true, why: TOO_DEEP }
    return { ok: false, tooDeep: false, why: `is not valid JSON (${(err as Error).message})` }
  }
  return bounded(value)
}

/**
 * True when flow collections ([...], {...}) nest deeper than `max`, read by the
 * lexer alone (quoted and plain scalars are single tokens): it stops at the
 * first level too deep, before the parser builds (and the composer recurses
 * into) the whole tree, which for a megabyte of brackets takes seconds and
 * hundreds of megabytes.
 */
function flowDeeperThan(yaml: YamlModule, text: string, max: number): boolean {
  let depth = 0
  for (const token of new yaml.Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      depth += 1
      if (depth > max) return true
    } else if ((token === ']' || token === '}') && depth > 0) depth -= 1
  }
  return false
}

/**
 * YAML text of a file as a plain value nested at most MAX_FILE_DEPTH levels.
 * Block nesting deep enough to exhaust the stack is reported by the parser
 * itself (RESOURCE_EXHAUSTION); anything shallower is measured on the value.
 */
export function parseYamlFile(yaml: YamlModule, text: string): FileParse {
  if (flowDeeperThan(yaml, text, MAX_FILE_DEPTH)) return { ok: false, tooDeep: true, why: TOO_DEEP }
  let value: unknown
  try {
    value = yaml.parse(text, { maxAliasCount: MAX_ALIAS_COUNT })
  } catch (err) {
    if (exhausted(err)) return { ok: false, tooDeep: true, why: TOO_DEEP }
    return { ok: false, tooDeep: false, why: `is not valid YAML (${(err as Error).message.split('\n')[0]})` }
  }
  return bounded(value)
}
