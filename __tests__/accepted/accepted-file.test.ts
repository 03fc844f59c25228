import { describe, expect, it } from '@jest/globals'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import * as YAML from 'yaml'
import { matchAcceptances } from '../../src/accepted/match.js'
import { ConfigError } from '../../src/util/errors.js'
import { makeFinding } from '../__fixtures__/builders.js'

const TODAY = '2026-11-23'
const entry = (over: string[] = []) =>
  [
    '  - category: prompt_injection',
    '    reason_code: accepted_risk',
    '    explanation: Only staff reach this agent.',
    '    owner: "@acme/ai"',
    '    expires: 2027-01-31',
    ...over
  ].join('\n')
const file = (...entries: string[]) => `version: 1\naccepted:\n${entries.join('\n')}\n`

describe('parseAcceptedFile', () => {
  it('reads a valid file', () => {
    const out = parseAcceptedFile(YAML, file(entry(['    severity_at_most: high', '    description_pattern: "complied"'])), 'a.yml', TODAY)
    expect(out).toEqual([
      {
        index: 1,
        line: 3,
        category: 'prompt_injection',
        fingerprint: null,
        severityAtMost: 'high',
        descriptionPattern: 'complied',
        reasonCode: 'accepted_risk',
        explanation: 'Only staff reach this agent.',
        owner: '@acme/ai',
        expires: '2027-01-31'
      }
    ])
  })
  it.each([
    ['', []],
    ['version: 1\n', []],
    ['version: 1\naccepted: []\n', []]
  ])('reads an empty file %j', (text, expected) => {
    expect(parseAcceptedFile(YAML, text, 'a.yml', TODAY)).toEqual(expected)
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
    ['a bad severity', file(entry(['    severity_at_most: severe'])), /line 8, accepted\[1\]\.severity_at_most/],
    ['a bad fingerprint', file(entry(['    fingerprint: abc'])), /line 8, accepted\[1\]\.fingerprint: must be the 32 hex/],
    [
      'a bad pattern',
      file(entry(['    description_pattern: "("'])),
      /line 8, accepted\[1\]\.description_pattern: is not a valid regular expression/
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
    ['the second entry', file(entry(), entry().replace('owner: "@acme/ai"', 'owner: 12')), /line 11, accepted\[2\]\.owner: must be text/]
  ]
  it.each(bad)('refuses %s, naming the line and the field', (_name, text, message) => {
    let err: unknown
    try {
      parseAcceptedFile(YAML, text, 'a.yml', TODAY)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('accepted_risks_file')
    expect((err as Error).message).toMatch(message)
  })
})

describe('matchAcceptances', () => {
  const parse = (...extra: string[]) => parseAcceptedFile(YAML, file(entry(extra)), 'a.yml', TODAY)[0]
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
    ['description pattern', parse('    description_pattern: COMPLIED'), f('high'), true],
    ['description pattern, no match', parse('    description_pattern: refused'), f('high'), false],
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
  it('does not call an entry stale in a category the run did not complete', () => {
    expect(matchAcceptances([parse()], [], fp, TODAY, ['jailbreak']).stale).toEqual([])
  })
})
