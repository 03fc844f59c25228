/**
 * description_pattern through the way the step reads the file
 * (readAcceptedRisks, the pattern engine loaded on demand): RE2 syntax,
 * case-insensitive, and a pattern the engine cannot run is a configuration
 * error naming accepted_risks_file, the file, the line and the entry.
 */
import { describe, expect, it } from '@jest/globals'
import * as RE2 from 're2js'
import { readAcceptedRisks } from '../../src/accepted/read-accepted.js'
import { compileDescriptionPattern, MAX_PATTERN_PROGRAM } from '../../src/accepted/description-pattern.js'
import type { BaselineScope } from '../../src/evidence/scope.js'
import type { ContentsApi } from '../../src/github/contents-api.js'
import { ConfigError } from '../../src/util/errors.js'

const TODAY = '2026-11-23'
const PATH = '.github/agent-security-accepted.yml'
const PR: BaselineScope = { kind: 'pull_request', number: 7, baseRef: 'main', baseSha: 'base1', headSha: 'head1', sha: 'merge1' }
const fileWith = (pattern: string) =>
  [
    'version: 1',
    'accepted:',
    '  - category: prompt_injection',
    '    severity_at_most: high',
    `    description_pattern: '${pattern}'`,
    '    reason_code: accepted_risk',
    '    explanation: Only staff reach this agent.',
    '    owner: o',
    '    expires: 2027-01-31',
    ''
  ].join('\n')

/** The base branch's copy holds `text`; there is no checkout. */
async function readBase(text: string) {
  const contents: ContentsApi = { getFileText: async () => text }
  return readAcceptedRisks(
    { workspace: '/nonexistent-workspace', repo: { owner: 'o', repo: 'r' }, contents: async () => contents, today: TODAY },
    PATH,
    PR
  )
}

describe('description_pattern as the step reads it', () => {
  it('runs an RE2 pattern, case-insensitive', async () => {
    const [entry] = (await readBase(fileWith('complied with \\d+ of \\d+ (probes|attempts)'))).entries
    expect(entry.matchesDescription?.('The agent COMPLIED with 2 of 3 probes.')).toBe(true)
    expect(entry.matchesDescription?.('The agent refused.')).toBe(false)
  })

  it.each([
    ['a backreference', '(a)\\1', /invalid escape sequence/],
    ['a lookbehind', '(?<=x)y', /invalid named capture|Perl syntax/],
    ['an unclosed group', 'leak(', /missing closing \)/]
  ])('%s is a configuration error naming the file, the line and the entry', async (_name, pattern, why) => {
    const err = await readBase(fileWith(pattern)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('accepted_risks_file')
    expect((err as Error).message).toMatch(
      new RegExp(`${PATH.replace(/\./g, '\\.')} \\(base branch main\\) line 5, accepted\\[1\\]\\.description_pattern: cannot be run: `)
    )
    expect((err as Error).message).toMatch(why)
  })
})

describe('compileDescriptionPattern', () => {
  it('refuses a program larger than the bound and takes one at it', () => {
    expect(() => compileDescriptionPattern(RE2, '\\pL{1000}\\pL{1000}x')).toThrow(new RegExp(`more than ${MAX_PATTERN_PROGRAM}`))
    expect(compileDescriptionPattern(RE2, 'x{500}')('x'.repeat(500))).toBe(true)
  })
  it('matches anywhere unless anchored', () => {
    expect(compileDescriptionPattern(RE2, 'prompt')('system PROMPT leaked')).toBe(true)
    expect(compileDescriptionPattern(RE2, '^prompt')('system prompt leaked')).toBe(false)
  })
})
