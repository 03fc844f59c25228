/**
 * The rules of agent_paths' glob syntax as cases, beside the agreement with
 * picomatch in glob.test.ts (which leaves out picomatch's quirks: `[!` read
 * as a negated pattern, escapes of ordinary characters). A pattern that
 * matches fewer paths than it should makes a changed agent look unchanged
 * (a result carried over without assessing): each rule of classes, escapes,
 * globstars and braces is stated both ways, a match and a miss.
 */
import { describe, expect, test } from '@jest/globals'
import { compileGlob } from '../../src/pipeline/glob.js'

describe('character classes', () => {
  test.each([
    ['[^a]', 'b', true, '^ negates, as ! does'],
    ['[^a]', 'a', false, '^ negates, as ! does'],
    ['[!a-c]', 'd', true, 'a negated range'],
    ['[!a-c]', 'b', false, 'a negated range'],
    ['x[!a]y', 'x/y', false, 'a class never matches /, negated or not'],
    ['x[^a]y', 'x/y', false, 'a class never matches /, negated or not'],
    ['[]a]', ']', true, '] first is a member'],
    ['[]a]', 'a', true, '] first is a member'],
    ['[^]]', 'a', true, '] first after ^ is a member'],
    ['[^]]', ']', false, '] first after ^ is a member'],
    ['[a-]', '-', true, '- last is a member'],
    ['[a-]', 'b', false, '- last is a member'],
    ['[a-c]', '-', false, 'a range is not its dash'],
    ['[a-c]', 'd', false, 'a range ends at its high end'],
    ['[b-c]', 'a', false, 'a range starts at its low end'],
    ['[a-c][x]', 'bx', true, 'classes in a row'],
    ['[\\]]', ']', true, 'an escaped ] is a member'],
    ['[a\\]]', ']', true, 'an escaped ] after a member'],
    ['[\\-]', '-', true, 'an escaped dash'],
    ['[a\\-c]', '-', true, 'an escaped dash is no range'],
    ['[a\\-c]', 'b', false, 'an escaped dash is no range'],
    ['[\\a]', 'a', true, 'an escaped ordinary character is itself'],
    ['[a-\\c]', 'b', true, 'an escaped high end of a range']
  ])('%s on %s: %s (%s)', (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected)
  })
})

describe('escapes, stars and globstars', () => {
  test.each([
    ['a\\b', 'ab', true, 'an escaped ordinary character is itself'],
    ['a\\', 'a\\', true, 'a trailing backslash is itself'],
    ['x**', 'xab', true, '** inside a segment is a star'],
    ['x**', 'xa/b', false, '** inside a segment is a star'],
    ['**x', 'ax', true, '** before text in a segment is a star'],
    ['**x', 'a/x', false, '** before text in a segment is a star'],
    ['a/**', 'ab', false, 'a/** is a and below, not a prefix'],
    ['a/**b', 'a/xb', true, 'a/**b: ** is a star there'],
    ['**/a/**', 'a', true, 'globstars around one segment'],
    ['**/a', 'x/y/a', true, 'a leading globstar spans folders'],
    ['{a,b}/**', 'a', true, 'a braced folder and below'],
    ['{a,b}**', 'ax/y', false, '** after braces in a segment is a star']
  ])('%s on %s: %s (%s)', (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected)
  })
})

describe('braces', () => {
  test.each([
    ['{**,c}', 'a/b', true, '** alone in a brace option is a globstar'],
    ['{c,**}', 'a/b', true, '** alone in the last option is a globstar'],
    ['{a**,c}', 'a/b', false, '** after text in an option is a star'],
    ['a/{b/**,c}', 'a/b/x/y', true, 'a globstar inside an option'],
    ['a{,/**}', 'a/b/c', true, 'an empty option beside a globstar'],
    ['{a,b', '{a,b', true, 'an unclosed brace is itself']
  ])('%s on %s: %s (%s)', (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected)
  })
})
