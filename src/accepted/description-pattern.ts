/**
 * An acceptance's `description_pattern`, run by a linear-time engine: RE2
 * syntax (re2js, a pure JavaScript port of RE2), case-insensitive. A
 * backtracking engine (JavaScript's RegExp) takes time exponential in the
 * text for patterns such as `^(a+)+$` and would hang the step; RE2 has no
 * backreferences or lookaround, so each match is one pass over the
 * description, in time bounded by the pattern's program size times the
 * text's length.
 *
 * The engine (about 260 KB) is loaded only when an accepted-risks file is
 * read, as the yaml package is (see src/util/yaml.ts): the parser takes the
 * module as a parameter and the caller loads it with loadPatternEngine().
 */
export type PatternEngine = typeof import('re2js')

export async function loadPatternEngine(): Promise<PatternEngine> {
  return import('re2js')
}

/** True when the finding's description matches. */
export type DescriptionMatcher = (description: string) => boolean

/**
 * The largest compiled program accepted (RE2's instruction count). A
 * description of usual length is matched in well under a millisecond per
 * entry; the time grows with program size times text length, and counted
 * repeats (`x{1000}`) are what make a program large, so a pattern past this is
 * refused rather than left to slow every run down.
 */
export const MAX_PATTERN_PROGRAM = 2_000

/**
 * Compile `pattern`; throws an Error whose message says why it cannot be run
 * (a syntax the engine does not have, such as a backreference or lookaround,
 * or a program too large).
 */
export function compileDescriptionPattern(engine: PatternEngine, pattern: string): DescriptionMatcher {
  const { RE2JS } = engine
  let re: InstanceType<typeof RE2JS>
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE)
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err)
    throw new Error(`${why} (RE2 syntax: no backreferences or lookaround)`, { cause: err })
  }
  const size = re.programSize()
  if (size > MAX_PATTERN_PROGRAM)
    throw new Error(
      `compiles to ${size} instructions, more than ${MAX_PATTERN_PROGRAM}: use fewer or smaller counted repeats such as {1000}`
    )
  return (description) => re.test(description)
}
