/**
 * Parsing a file of the repository or the runner (profile_file, the
 * accepted-risks file, the event payload) with the nesting bound and the
 * iterative check of a service body: a hostile file (say 400,000 levels) is a
 * mistake in the file, never a stack overflow in whatever walks it next.
 */
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../service/parse-response.js'

/** The deepest nesting of lists and mappings read from a file. */
export const MAX_FILE_DEPTH = MAX_BODY_DEPTH

/** What is wrong with a file nested deeper than MAX_FILE_DEPTH. */
export const TOO_DEEP = `nests lists or mappings deeper than ${MAX_FILE_DEPTH} levels`

export type FileParse = { ok: true; value: unknown } | { ok: false; tooDeep: boolean; why: string }

export const TOO_DEEP_PARSE: FileParse = { ok: false, tooDeep: true, why: TOO_DEEP }

/** `value` when it nests at most MAX_FILE_DEPTH levels. */
export function boundedValue(value: unknown): FileParse {
  return nestedDeeperThan(value, MAX_FILE_DEPTH) ? TOO_DEEP_PARSE : { ok: true, value }
}

/** JSON text as a value nested at most MAX_FILE_DEPTH levels (JSON.parse itself does not recurse). */
export function parseJsonFile(text: string): FileParse {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    if (err instanceof RangeError) return TOO_DEEP_PARSE
    return { ok: false, tooDeep: false, why: `is not valid JSON (${(err as Error).message})` }
  }
  return boundedValue(value)
}
