/**
 * Which changed files are the agent's (agent_paths): a file the patterns name
 * is never missed, or a pass would be carried over past a change of the
 * agent; and the limits of the input, at their edges.
 */
import { describe, expect, it } from '@jest/globals'
import { ConfigError } from '../../src/util/errors.js'
import { agentPathMatcher, parseAgentPaths } from '../../src/pipeline/changed-paths.js'

describe('agentPathMatcher: a file the patterns name is never missed', () => {
  it.each<[string, string[], string, boolean]>([
    ['several leading ./', ['././agent/**'], 'agent/x.py', true],
    ['several leading /', ['//agent/**'], 'agent/x.py', true],
    ['only a leading ./ is dropped: one in a class stays', ['agent/x[./]md'], 'agent/x.md', true],
    ['a path given with leading /', ['agent/**'], '/agent/x.py', true],
    ['a path given with several leading /', ['agent/**'], '//agent/x.py', true],
    ['a negation of a folder with a trailing /', ['agent/**', '!agent/tests/'], 'agent/tests/t.py', false],
    ['a negated ./ pattern', ['agent/**', '!./agent/tests/**'], 'agent/tests/t.py', false],
    ['a pattern ending in ! is not negated', ['agent/x!'], 'agent/x!', true]
  ])('%s', (_what, patterns, path, expected) => {
    expect(agentPathMatcher(patterns)(path)).toBe(expected)
  })
})

const refusal = (raw: string): ConfigError => {
  try {
    parseAgentPaths(raw)
  } catch (err) {
    if (err instanceof ConfigError) return err
    throw err
  }
  throw new Error(`accepted: ${raw}`)
}

describe('parseAgentPaths: the limits, at their edges', () => {
  it('200 patterns are taken, 201 refused naming the count', () => {
    const lines = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}/**`).join('\n')
    expect(parseAgentPaths(lines(200))).toHaveLength(200)
    expect(refusal(lines(201)).message).toMatch(/has 201 patterns; at most 200: name folders with \/\*\* instead of files/)
  })

  it('a pattern of 500 characters is taken, of 501 refused', () => {
    expect(parseAgentPaths(`${'a'.repeat(497)}/**`)).toEqual([`${'a'.repeat(497)}/**`])
    expect(refusal(`${'a'.repeat(498)}/**`).message).toMatch(/is not a usable path pattern/)
  })

  it.each<[string, string]>([
    ['NUL', 'agent/\u0000x'],
    ['unit separator', 'agent/\u001fx'],
    ['DEL', 'agent/\u007fx']
  ])('a control character (%s) is refused', (_what, raw) => {
    expect(refusal(raw).message).toMatch(/is not a usable path pattern/)
  })

  it('a space, a tilde and characters past ASCII are taken', () => {
    expect(parseAgentPaths('agent/my file ~ é.txt')).toEqual(['agent/my file ~ é.txt'])
  })

  it.each<[string, RegExp]>([
    ['agent/@(a|b)', /'agent\/@\(a\|b\)' is refused: extglobs like @\(\.\.\.\) are not supported/],
    ['!agent/{1..3}', /'!agent\/\{1\.\.3\}' is refused: brace ranges like \{1\.\.3\} are not supported/],
    ['./', /'\.\/' is not a usable path pattern/]
  ])('%s: refused, naming the pattern as given', (raw, message) => {
    const err = refusal(`agent/**\n${raw}`)
    expect(err.input).toBe('agent_paths')
    expect(err.message).toMatch(message)
  })
})
