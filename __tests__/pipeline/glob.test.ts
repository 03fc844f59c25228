import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import picomatch from 'picomatch'
import { agentPathMatcher, parseAgentPaths } from '../../src/pipeline/changed-paths.js'
import { compileGlob, globCost, GlobError } from '../../src/pipeline/glob.js'
import { ConfigError } from '../../src/util/errors.js'

/** 800 characters of `a/` segments that end without the `b` the pattern wants: the worst case of backtracking. */
const HOSTILE_PATH = 'a/'.repeat(399) + 'c'

describe('glob matching is linear in the path', () => {
  test.each([['**/a/**/a/**/a/**/b'], ['**/a/**/a/**/a/**/a/**/a/**/b'], ['*a*a*a*a*a*a*b'], ['{**/a,a}/**/{a,**/a}/**/b']])(
    '%s on an 800-character path: no match, within the bound',
    (pattern) => {
      expect(agentPathMatcher([pattern])(HOSTILE_PATH)).toBe(false)
      const { work, edges } = globCost(pattern, HOSTILE_PATH)
      expect(work).toBeLessThanOrEqual((HOSTILE_PATH.length + 1) * 2 * edges)
    }
  )

  test('the work grows linearly: doubling the path at most doubles it (plus the start)', () => {
    const pattern = '**/a/**/a/**/a/**/b'
    const short = globCost(pattern, 'a/'.repeat(200) + 'c').work
    const long = globCost(pattern, 'a/'.repeat(400) + 'c').work
    expect(long).toBeLessThanOrEqual(2 * short + 100)
  })

  test('the hostile pattern still matches what it names', () => {
    expect(agentPathMatcher(['**/a/**/a/**/a/**/b'])('x/a/y/a/a/z/b')).toBe(true)
    expect(agentPathMatcher(['**/a/**/a/**/a/**/b'])('a/a/b')).toBe(false)
  })
})

describe('a pattern parses in time linear in its length', () => {
  test('braces nested 60 deep, only the innermost with a comma, parse once each (the outer ones are literal)', () => {
    const depth = 60
    const matches = compileGlob(`${'{'.repeat(depth)}a,b${'}'.repeat(depth)}`)
    expect(matches(`${'{'.repeat(depth - 1)}b${'}'.repeat(depth - 1)}`)).toBe(true)
    expect(matches(`${'{'.repeat(depth - 1)}c${'}'.repeat(depth - 1)}`)).toBe(false)
  })
})

describe('refused patterns are named', () => {
  test.each([
    ['+(a|b)/**', /extglobs/],
    ['agent/@(x|y).py', /extglobs/],
    ['agent/*(x).py', /extglobs/],
    ['[[:alpha:]]/**', /POSIX classes/],
    ['v{1..3}/**', /brace ranges/]
  ])('%s', (pattern, why) => {
    let caught: unknown
    try {
      parseAgentPaths(`agent/**\n${pattern}`)
    } catch (err) {
      caught = err
    }
    expect(caught).toBeInstanceOf(ConfigError)
    expect((caught as ConfigError).input).toBe('agent_paths')
    expect((caught as ConfigError).message).toContain(`'${pattern}'`)
    expect((caught as ConfigError).message).toMatch(why)
    expect(() => compileGlob(pattern)).toThrow(GlobError)
  })
})

describe('the syntax', () => {
  test.each([
    ['a/**', 'a', true],
    ['a/**', 'a/b/c', true],
    ['a/**/b', 'a/b', true],
    ['a**b', 'axxb', true],
    ['a**b', 'ax/xb', false],
    ['**', '.x/y', true],
    ['[!a]', 'b', true],
    ['[!a]', 'a', false],
    ['[a-c]x', 'bx', true],
    ['[a-c]x', '/x', false],
    ['a?c', 'a/c', false],
    ['\\*.md', '*.md', true],
    ['\\*.md', 'a.md', false],
    ['{a,b{c,d}}/x', 'bd/x', true],
    ['{a}/x', '{a}/x', true],
    ['a[b', 'a[b', true],
    ['src/{**/,}x.py', 'src/q/r/x.py', true],
    ['a/{b,*}', 'a/.env', true]
  ])('%s on %s: %s', (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected)
  })
})

/**
 * The same answers as picomatch (which matched before, with dot: true) on
 * patterns and clean repository paths (no empty, `.` or `..` segment, no
 * trailing /), short enough that picomatch's backtracking stays quick.
 */
describe('agrees with picomatch on repository paths', () => {
  const segment = fc.constantFrom('a', 'b', '.a', 'ab', 'a.md', 'x')
  const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'))
  const patSegment = fc.constantFrom('a', 'b', '*', '**', '.a', '*.md', 'a*', '?', '[ab]', '[!a]b', '{a,b}', '{a,b*}', 'a?')
  const pattern = fc
    .array(patSegment, { minLength: 1, maxLength: 4 })
    .map((s) => s.join('/'))
    // picomatch's own quirks, outside what the docs promise: `*/**` does not match one segment
    // (while `a/**` matches `a`), a class opened by ! is read as a negated pattern, and a * inside
    // braces skips dotfiles although dot is true.
    .filter((p) => !/(^|\/)[^/]*\*[^/]*\/\*\*$/.test(p) && !p.includes('[!') && !/\{[^}]*\*/.test(p))
  test('property', () => {
    fc.assert(
      fc.property(pattern, path, (p, s) => {
        expect(compileGlob(p)(s)).toBe(picomatch(p, { dot: true, windows: false, nocase: false })(s))
      }),
      { numRuns: 3000 }
    )
  })
})
