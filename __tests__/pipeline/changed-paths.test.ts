import { describe, expect, test } from '@jest/globals'
import { ConfigError } from '../../src/util/errors.js'
import { agentFilesAmong, agentPathMatcher, listPaths, parseAgentPaths } from '../../src/pipeline/changed-paths.js'

describe('parseAgentPaths', () => {
  test('one pattern per line; blanks and # comments dropped; commas kept (braces)', () => {
    expect(parseAgentPaths('\n  agent/**\r\n# the prompts\nprompts/*.{md,txt}\n\n!agent/tests/**\n')).toEqual([
      'agent/**',
      'prompts/*.{md,txt}',
      '!agent/tests/**'
    ])
  })

  test('empty input: no patterns (every run assesses)', () => {
    expect(parseAgentPaths('')).toEqual([])
    expect(parseAgentPaths('\n # only a comment\n')).toEqual([])
  })

  test.each([
    ['only negations', '!docs/**', /only negated/],
    ['a bare !', 'agent/**\n!', /not a usable path pattern/],
    ['a control character', 'agent/\u0007x', /not a usable path pattern/],
    ['too many patterns', Array.from({ length: 201 }, (_, i) => `p${i}/**`).join('\n'), /at most 200/]
  ])('ConfigError naming agent_paths: %s', (_name, raw, message) => {
    let caught: unknown
    try {
      parseAgentPaths(raw)
    } catch (err) {
      caught = err
    }
    expect(caught).toBeInstanceOf(ConfigError)
    expect((caught as ConfigError).input).toBe('agent_paths')
    expect((caught as ConfigError).message).toMatch(message)
  })
})

describe('agentPathMatcher: how the globs match', () => {
  const cases: [string, string[], string, boolean][] = [
    ['** spans folders', ['agent/**'], 'agent/a/b/c.py', true],
    ['** matches no folder too', ['agent/**/*.py'], 'agent/main.py', true],
    ['* stops at /', ['agent/*.py'], 'agent/sub/main.py', false],
    ['* matches in one folder', ['agent/*.py'], 'agent/main.py', true],
    ['anchored at the root', ['*.py'], 'src/a.py', false],
    ['anchored at the root (root file)', ['*.py'], 'a.py', true],
    ['dotfiles match *', ['prompts/*'], 'prompts/.system', true],
    ['dotfiles match **', ['agent/**'], 'agent/.config/tools.json', true],
    ['dot folders match **', ['**/*.yml'], '.github/agent.yml', true],
    ['braces', ['prompts/*.{md,txt}'], 'prompts/a.txt', true],
    ['braces (other)', ['prompts/*.{md,txt}'], 'prompts/a.json', false],
    ['leading ./ dropped', ['./agent/**'], 'agent/x.py', true],
    ['leading / dropped', ['/agent/**'], 'agent/x.py', true],
    ['trailing / is the folder', ['agent/'], 'agent/deep/x.py', true],
    ['trailing / not a prefix of another folder', ['agent/'], 'agent-docs/x.md', false],
    ['case-sensitive', ['Agent/**'], 'agent/x.py', false],
    ['exact file', ['profile.yml'], 'profile.yml', true],
    ['negation excludes', ['agent/**', '!agent/tests/**'], 'agent/tests/t.py', false],
    ['negation leaves the rest', ['agent/**', '!agent/tests/**'], 'agent/main.py', true],
    ['the last match decides', ['agent/**', '!agent/tests/**', 'agent/tests/fixtures/prompt.md'], 'agent/tests/fixtures/prompt.md', true],
    ['no pattern matches', ['agent/**'], 'README.md', false],
    ['no patterns', [], 'agent/x.py', false]
  ]
  test.each(cases)('%s', (_name, patterns, path, expected) => {
    expect(agentPathMatcher(patterns)(path)).toBe(expected)
  })

  test('agentFilesAmong keeps the order of the files', () => {
    expect(agentFilesAmong(['agent/**', 'profile.yml'], ['README.md', 'profile.yml', 'agent/x.py', 'docs/a.md'])).toEqual([
      'profile.yml',
      'agent/x.py'
    ])
  })
})

describe('listPaths', () => {
  test('five at most, then a count', () => {
    expect(listPaths([])).toBe('none')
    expect(listPaths(['a', 'b'])).toBe('a, b')
    expect(listPaths(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('a, b, c, d, e and 2 more')
  })

  test('a path with a line break stays on one line', () => {
    expect(listPaths(['a\n::error::x'])).toBe('a ::error::x')
  })
})
