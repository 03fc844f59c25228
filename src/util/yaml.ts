/**
 * The yaml package, loaded only when there is a YAML file to read (it is
 * about 280 KB of the bundle, and most runs read none): parsers take the
 * module as a parameter, and the shell loads it with loadYaml().
 */
import { boundedValue, MAX_FILE_DEPTH, TOO_DEEP_PARSE, type FileParse } from './parse-file.js'

export type YamlModule = typeof import('yaml')

export async function loadYaml(): Promise<YamlModule> {
  return import('yaml')
}

/** The largest number of aliases a file of the repository may expand (a billion-laughs file is refused). */
const MAX_ALIAS_COUNT = 100

/** True for a parser's own report of running out of stack (the yaml package catches it as RESOURCE_EXHAUSTION). */
function exhausted(err: unknown): boolean {
  return err instanceof RangeError || (err instanceof Error && (err as { code?: unknown }).code === 'RESOURCE_EXHAUSTION')
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
  if (flowDeeperThan(yaml, text, MAX_FILE_DEPTH)) return TOO_DEEP_PARSE
  let value: unknown
  try {
    value = yaml.parse(text, { maxAliasCount: MAX_ALIAS_COUNT })
  } catch (err) {
    if (exhausted(err)) return TOO_DEEP_PARSE
    return { ok: false, tooDeep: false, why: `is not valid YAML (${(err as Error).message.split('\n')[0]})` }
  }
  return boundedValue(value)
}
