/**
 * The rules of compileDescriptionPattern: a pattern matches anywhere in the
 * description, case-insensitive; one the engine cannot compile is refused
 * with the engine's reason (its "error parsing regexp: " prefix dropped) and
 * what RE2 lacks; a program larger than MAX_PATTERN_PROGRAM instructions is
 * refused, one at the bound is taken.
 */
import { describe, expect, it } from '@jest/globals'
import * as RE2 from 're2js'
import {
  compileDescriptionPattern,
  loadPatternEngine,
  MAX_PATTERN_PROGRAM,
  type PatternEngine
} from '../../src/accepted/description-pattern.js'

/** An engine whose compile throws `thrown`: the real one throws only Errors, the message handling holds for any. */
const throwing = (thrown: unknown): PatternEngine =>
  ({ RE2JS: { CASE_INSENSITIVE: RE2.RE2JS.CASE_INSENSITIVE, compile: () => throwNow(thrown) } }) as unknown as PatternEngine
function throwNow(thrown: unknown): never {
  throw thrown
}
/** What `fn` throws (undefined: nothing). */
function thrownBy(fn: () => unknown): Error | undefined {
  try {
    fn()
  } catch (e) {
    return e as Error
  }
  return undefined
}

describe('compileDescriptionPattern', () => {
  it.each<[string, string, boolean]>([
    ['shell', 'The agent ran a SHELL command.', true],
    ['Shell Command', 'the agent ran a shell command', true],
    ['^the agent', 'The agent ran a shell command.', true],
    ['^agent', 'The agent ran a shell command.', false],
    ['email', 'The agent ran a shell command.', false]
  ])('%j against %j: %s', (pattern, description, matches) => {
    expect(compileDescriptionPattern(RE2, pattern)(description)).toBe(matches)
  })

  it('takes a program of exactly the bound, and refuses one instruction more', () => {
    // n literal characters compile to n + 2 instructions: x{999}y{999} is 2,000, x{999}y{1000} 2,001.
    expect(MAX_PATTERN_PROGRAM).toBe(2_000)
    expect(compileDescriptionPattern(RE2, 'x{999}y{999}')(`${'x'.repeat(999)}${'y'.repeat(999)}`)).toBe(true)
    expect(thrownBy(() => compileDescriptionPattern(RE2, 'x{999}y{1000}'))?.message).toBe(
      'compiles to 2001 instructions, more than 2000: use fewer or smaller counted repeats such as {1000}'
    )
  })

  it("refuses a pattern the engine cannot compile with the engine's reason, its prefix dropped, and keeps the cause", () => {
    const err = thrownBy(() => compileDescriptionPattern(RE2, 'leak('))
    expect(err?.message).toBe('missing closing ): `(?i)leak(` (RE2 syntax: no backreferences or lookaround)')
    expect(err?.cause).toBeInstanceOf(RE2.RE2JSSyntaxException)
  })

  it.each<[string, unknown, string]>([
    ['a text thrown', 'bad pattern', 'bad pattern (RE2 syntax: no backreferences or lookaround)'],
    [
      'the prefix only at the start is dropped',
      new Error('at 3: error parsing regexp: x'),
      'at 3: error parsing regexp: x (RE2 syntax: no backreferences or lookaround)'
    ]
  ])('%s', (_name, thrown, message) => {
    const err = thrownBy(() => compileDescriptionPattern(throwing(thrown), 'x'))
    expect(err?.message).toBe(message)
    expect(err?.cause).toBe(thrown)
  })

  it('loadPatternEngine loads the engine compileDescriptionPattern runs', async () => {
    const engine = await loadPatternEngine()
    expect(compileDescriptionPattern(engine, 'a+b')('xAAB')).toBe(true)
  })
})
