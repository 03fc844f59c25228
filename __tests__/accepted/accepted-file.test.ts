import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import * as YAML from 'yaml'
import * as RE2 from 're2js'
import { matchAcceptances } from '../../src/accepted/match.js'
import { MAX_PATTERN_PROGRAM } from '../../src/accepted/description-pattern.js'
import { ConfigError } from '../../src/util/errors.js'
import { makeFinding } from '../__fixtures__/builders.js'

const TODAY = '2026-11-23'
/** An entry; the cap `severity_at_most: any` is added after `over` unless `over` gives one (null: no cap at all). */
const entry = (over: string[] = [], cap: string | null = 'any') =>
  [
    '  - category: prompt_injection',
    '    reason_code: accepted_risk',
    '    explanation: Only staff reach this agent.',
    '    owner: "@acme/ai"',
    '    expires: 2027-01-31',
    ...over,
    ...(cap === null || over.some((l) => l.includes('severity_at_most')) ? [] : [`    severity_at_most: ${cap}`])
  ].join('\n')
const file = (...entries: string[]) => `version: 1\naccepted:\n${entries.join('\n')}\n`
const parseFile = (text: string) => parseAcceptedFile(YAML, text, 'a.yml', TODAY, RE2)

describe('parseAcceptedFile', () => {
  it('reads a valid file', () => {
    const out = parseFile(file(entry(['    severity_at_most: high', '    description_pattern: "complied"'])))
    expect(out).toEqual([
      {
        index: 1,
        line: 3,
        category: 'prompt_injection',
        fingerprint: null,
        severityAtMost: 'high',
        descriptionPattern: 'complied',
        matchesDescription: expect.any(Function),
        reasonCode: 'accepted_risk',
        explanation: 'Only staff reach this agent.',
        owner: '@acme/ai',
        expires: '2027-01-31'
      }
    ])
  })
  it('reads severity_at_most any as every severity', () => {
    expect(parseFile(file(entry([], 'any')))[0]).toMatchObject({ severityAtMost: null, descriptionPattern: null, matchesDescription: null })
    expect(parseFile(file(entry([], 'Any')))[0]?.severityAtMost).toBeNull()
  })
  it.each([
    ['', []],
    ['version: 1\n', []],
    ['version: 1\naccepted: []\n', []]
  ])('reads an empty file %j', (text, expected) => {
    expect(parseFile(text)).toEqual(expected)
  })
  it('every example accepted-risks file is valid', () => {
    const dir = new URL('../../examples/accepted-risks/', import.meta.url)
    const examples = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))
    expect(examples.length).toBeGreaterThan(0)
    for (const name of examples) {
      const entries = parseFile(readFileSync(new URL(name, dir), 'utf8'))
      expect([name, entries.length > 0]).toEqual([name, true])
    }
  })

  const bad: [string, string, RegExp][] = [
    ['not YAML', 'accepted: [\n', /a\.yml line \d+, YAML/],
    ['a list at the top', '- a\n', /line 1, the file: must be a mapping/],
    ['an unknown top-level key', 'version: 1\naccept:\n', /line 2, accept: is not a field/],
    ['version 2', 'version: 2\n', /line 1, version: must be 1/],
    ['accepted not a list', 'accepted: yes\n', /line 1, accepted: must be a list/],
    ['an entry not a mapping', 'accepted:\n  - prompt_injection\n', /line 2, accepted\[1\]: must be a mapping/],
    ['an unknown field', file(entry(['    expiry: 2027-01-01'])), /line 8, accepted\[1\]\.expiry: is not a field of an entry/],
    [
      'a missing category',
      file(entry().replace('  - category: prompt_injection\n    reason_code', '  - reason_code')),
      /line 3, accepted\[1\]\.category: is required/
    ],
    ['a missing expires', file(entry().replace('\n    expires: 2027-01-31', '')), /line 3, accepted\[1\]\.expires: is required/],
    [
      'an unknown reason_code',
      file(entry().replace('accepted_risk', 'because')),
      /line 4, accepted\[1\]\.reason_code: 'because' is not one of data_is_public/
    ],
    [
      'a bad severity',
      file(entry(['    severity_at_most: severe'])),
      /line 8, accepted\[1\]\.severity_at_most: 'severe' is not one of critical, high, medium, low or any/
    ],
    [
      'an entry without a severity cap (it would accept a critical)',
      file(entry([], null)),
      /line 3, accepted\[1\]\.severity_at_most: is required: the worst severity this entry accepts \(critical, high, medium, low or any\)/
    ],
    ['the second entry without a severity cap', file(entry(), entry([], null)), /line 9, accepted\[2\]\.severity_at_most: is required/],
    ['a bad fingerprint', file(entry(['    fingerprint: abc'])), /line 8, accepted\[1\]\.fingerprint: must be the 32 hex/],
    // An empty fingerprint or pattern is refused, never read as absent: that would accept the whole category.
    [
      'an empty fingerprint',
      file(entry(['    fingerprint: ""'])),
      /line 8, accepted\[1\]\.fingerprint: is empty: give it a value or leave the field out/
    ],
    ['a fingerprint key with no value', file(entry(['    fingerprint:'])), /line 8, accepted\[1\]\.fingerprint: is empty/],
    [
      'a severity cap with no value: required, not left out',
      file(entry(['    severity_at_most:'], null)),
      /line 8, accepted\[1\]\.severity_at_most: is required: the worst severity this entry accepts/
    ],
    ['an empty description_pattern', file(entry(["    description_pattern: ''"])), /line 8, accepted\[1\]\.description_pattern: is empty/],
    [
      'a bad pattern',
      file(entry(['    description_pattern: "("'])),
      /line 8, accepted\[1\]\.description_pattern: cannot be run: missing closing \)/
    ],
    [
      'a backreference (RE2 has none)',
      file(entry(['    description_pattern: "(a)\\\\1"'])),
      /line 8, accepted\[1\]\.description_pattern: cannot be run: invalid escape sequence.*no backreferences or lookaround/
    ],
    [
      'a lookahead (RE2 has none)',
      file(entry(['    description_pattern: "leak(?=ed)"'])),
      /line 8, accepted\[1\]\.description_pattern: cannot be run: .*Perl syntax/
    ],
    [
      'a pattern whose program is too large',
      file(entry(['    description_pattern: "\\\\pL{1000}\\\\pN{1000}\\\\pL{1000}"'])),
      new RegExp(
        `line 8, accepted\\[1\\]\\.description_pattern: cannot be run: compiles to \\d+ instructions, more than ${MAX_PATTERN_PROGRAM}`
      )
    ],
    ['a bad date', file(entry().replace('2027-01-31', '2027-02-30')), /line 7, accepted\[1\]\.expires: '2027-02-30' is not a date/],
    ['a number for a date', file(entry().replace('2027-01-31', '20270131')), /line 7, accepted\[1\]\.expires: '20270131' is not a date/],
    [
      'a date more than a year ahead',
      file(entry().replace('2027-01-31', '2027-11-25')),
      /line 7, accepted\[1\]\.expires: 2027-11-25 is more than a year ahead/
    ],
    ['an empty explanation', file(entry().replace('Only staff reach this agent.', '""')), /accepted\[1\]\.explanation: is required/],
    ['a list as owner', file(entry().replace('"@acme/ai"', '[a, b]')), /line 6, accepted\[1\]\.owner: must be a single value/],
    ['the second entry', file(entry(), entry().replace('owner: "@acme/ai"', 'owner: 12')), /line 12, accepted\[2\]\.owner: must be text/]
  ]
  it.each(bad)('refuses %s, naming the line and the field', (_name, text, message) => {
    let err: unknown
    try {
      parseFile(text)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('accepted_risks_file')
    expect((err as Error).message).toMatch(message)
  })
})

describe('matchAcceptances', () => {
  const parse = (...extra: string[]) => parseFile(file(entry(extra)))[0]
  const fp = new Map<string, string>()
  const f = (severity: 'critical' | 'high' | 'low', category = 'prompt_injection', description = 'the agent complied') => {
    const x = {
      ...makeFinding(severity, { status: 'open', category: category, description: 'd', expected_behavior: 'e', attacks: [] }),
      description
    }
    fp.set(x.finding_id, `${'0'.repeat(31)}${severity === 'high' ? 'a' : 'b'}`)
    return x
  }
  const cases: [string, ReturnType<typeof parse>, ReturnType<typeof f>, boolean][] = [
    ['category', parse(), f('high'), true],
    ['another category', parse(), f('high', 'jailbreak'), false],
    ['severity at most high: high', parse('    severity_at_most: high'), f('high'), true],
    ['severity at most high: low', parse('    severity_at_most: high'), f('low'), true],
    ['severity at most high: critical', parse('    severity_at_most: high'), f('critical'), false],
    ['severity any: critical', parse('    severity_at_most: any'), f('critical'), true],
    ['description pattern', parse('    description_pattern: COMPLIED'), f('high'), true],
    ['description pattern, no match', parse('    description_pattern: refused'), f('high'), false],
    ['an RE2 pattern', parse('    description_pattern: "^the \\\\w+ compl(ied|ies)$"'), f('high'), true],
    ['fingerprint', parse(`    fingerprint: ${'0'.repeat(31)}a`), f('high'), true],
    ['other fingerprint', parse(`    fingerprint: ${'0'.repeat(31)}a`), f('critical'), false]
  ]
  it.each(cases)('%s', (_name, e, x, accepted) => {
    const r = matchAcceptances([e], [x], fp, TODAY, ['prompt_injection', 'jailbreak'])
    expect(r.acceptedBy.has(x.finding_id)).toBe(accepted)
    expect(r.stale.length).toBe(accepted ? 0 : 1)
  })
  it('lists an expired entry (the day after expires) and accepts nothing with it', () => {
    const e = parse()
    const x = f('high')
    expect(matchAcceptances([e], [x], fp, '2027-01-31', ['prompt_injection']).expired).toEqual([])
    const r = matchAcceptances([e], [x], fp, '2027-02-01', ['prompt_injection'])
    expect(r.expired).toEqual([e])
    expect(r.acceptedBy.size).toBe(0)
  })
  it('runs a pattern that backtracks exponentially in JavaScript in linear time', () => {
    // ^(a+)+$ against 31 a's and a mismatch: about 2^31 steps for a backtracking engine (RegExp:
    // minutes, doubling per character), one pass for RE2. The watchdog only turns a hang into a
    // failure (a synchronous hang cannot be interrupted otherwise); it measures nothing.
    const e = parse('    description_pattern: "^(a+)+$"')
    const x = f('high', 'prompt_injection', `${'a'.repeat(31)}!`)
    const y = f('high', 'prompt_injection', 'a'.repeat(31))
    const accepted = runInNewContext(
      'match()',
      { match: () => matchAcceptances([e], [x, y], fp, TODAY, ['prompt_injection']) },
      { timeout: 20_000 }
    ) as ReturnType<typeof matchAcceptances>
    expect([...accepted.acceptedBy.keys()]).toEqual([y.finding_id])
  })
  it('needs the pattern engine for a file with a pattern (a bug of the caller, not of the file)', () => {
    expect(() => parseAcceptedFile(YAML, file(entry(['    description_pattern: x'])), 'a.yml', TODAY)).toThrow(/pattern engine/)
  })
  it('does not call an entry stale in a category the run did not complete', () => {
    expect(matchAcceptances([parse()], [], fp, TODAY, ['jailbreak']).stale).toEqual([])
  })
})
