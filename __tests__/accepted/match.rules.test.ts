/**
 * The rules of src/accepted/match.ts, one table per rule: an entry holds
 * through its expires day and accepts nothing from the next; it accepts a
 * finding of its category only, no worse than its severity cap, with its
 * fingerprint and matching its description pattern (each when given); the
 * first live entry that accepts a finding is the one named; a live entry that
 * accepts nothing in a category the run completed is stale.
 */
import { describe, expect, it } from '@jest/globals'
import type { AcceptedEntry } from '../../src/accepted/accepted-file.js'
import { entryMatches, isExpired, matchAcceptances } from '../../src/accepted/match.js'
import type { Finding, Severity } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const FP = '0123456789abcdef0123456789abcdef'
const OTHER_FP = 'fedcba9876543210fedcba9876543210'

const entry = (over: Partial<AcceptedEntry> = {}): AcceptedEntry => ({
  index: 1,
  line: 3,
  category: 'jailbreak',
  fingerprint: null,
  severityAtMost: null,
  descriptionPattern: null,
  matchesDescription: null,
  reasonCode: 'accepted_risk',
  explanation: 'x',
  owner: 'o',
  expires: '2027-01-31',
  ...over
})
const finding = (severity: Severity = 'high', over: Partial<Finding> = {}): Finding =>
  makeFinding(severity, { category: 'jailbreak', description: 'The agent ran a shell command.', ...over })
/** A matcher of its own: the entry's pattern is compiled by the parser, not by match.ts. */
const containing = (word: string) => (d: string) => d.includes(word)

describe('an entry holds through its expires day (UTC), and is expired from the next', () => {
  it.each<[string, boolean]>([
    ['2027-01-30', false],
    ['2027-01-31', false],
    ['2027-02-01', true],
    ['2028-01-01', true]
  ])('today %s: expired %s', (today, expired) => {
    const e = entry()
    expect(isExpired(e, today)).toBe(expired)
    const r = matchAcceptances([e], [finding()], new Map(), today, ['jailbreak'])
    expect(r.expired).toEqual(expired ? [e] : [])
    // An expired entry accepts nothing, and is not also called stale.
    expect(r.acceptedBy.size).toBe(expired ? 0 : 1)
    expect(r.stale).toEqual([])
  })
})

describe('what an entry accepts', () => {
  it.each<[string, Partial<AcceptedEntry>, Finding, string, boolean]>([
    ['its category', {}, finding(), '', true],
    ['another category', {}, finding('high', { category: 'prompt_injection' }), '', false],
    ['no cap: a critical', {}, finding('critical'), '', true],
    ['cap medium: a medium', { severityAtMost: 'medium' }, finding('medium'), '', true],
    ['cap medium: a low', { severityAtMost: 'medium' }, finding('low'), '', true],
    ['cap medium: a high', { severityAtMost: 'medium' }, finding('high'), '', false],
    ['cap medium: a critical', { severityAtMost: 'medium' }, finding('critical'), '', false],
    ['its fingerprint', { fingerprint: FP }, finding(), FP, true],
    ['another fingerprint', { fingerprint: FP }, finding(), OTHER_FP, false],
    ['a fingerprint, the finding has none known', { fingerprint: FP }, finding(), '', false],
    ['no fingerprint: any finding of the category', {}, finding(), OTHER_FP, true],
    ['a description the pattern matches', { matchesDescription: containing('shell') }, finding(), '', true],
    ['a description the pattern does not match', { matchesDescription: containing('email') }, finding(), '', false],
    [
      'every condition holds',
      { fingerprint: FP, severityAtMost: 'high', matchesDescription: containing('shell') },
      finding('high'),
      FP,
      true
    ],
    [
      'all but the pattern hold',
      { fingerprint: FP, severityAtMost: 'high', matchesDescription: containing('email') },
      finding('high'),
      FP,
      false
    ]
  ])('%s: %s', (_name, over, f, fp, accepted) => {
    const e = entry(over)
    expect(entryMatches(e, f, fp)).toBe(accepted)
    const byId = new Map(fp === '' ? [] : [[f.finding_id, fp]])
    const r = matchAcceptances([e], [f], byId, '2026-11-23', ['jailbreak', 'prompt_injection'])
    expect(r.acceptedBy.get(f.finding_id)).toBe(accepted ? e : undefined)
    expect(r.stale).toEqual(accepted ? [] : [e])
  })
})

describe('which entry is named, and which are stale', () => {
  const today = '2026-11-23'

  it('the first live entry that accepts a finding is the one named; a later one that also does is used, not stale', () => {
    const first = entry({ index: 1 })
    const second = entry({ index: 2, severityAtMost: 'critical' })
    const f = finding()
    const r = matchAcceptances([first, second], [f], new Map(), today, ['jailbreak'])
    expect(r.acceptedBy.get(f.finding_id)).toBe(first)
    expect(r.stale).toEqual([])
    expect(matchAcceptances([second, first], [f], new Map(), today, ['jailbreak']).acceptedBy.get(f.finding_id)).toBe(second)
  })

  it('an expired entry before a live one: the live one is named', () => {
    const old = entry({ index: 1, expires: '2026-11-22' })
    const live = entry({ index: 2 })
    const f = finding()
    const r = matchAcceptances([old, live], [f], new Map(), today, ['jailbreak'])
    expect(r).toEqual({ acceptedBy: new Map([[f.finding_id, live]]), expired: [old], stale: [] })
  })

  it('each finding by its own fingerprint', () => {
    const a = finding('high', { finding_id: 'fa' })
    const b = finding('high', { finding_id: 'fb' })
    const e = entry({ fingerprint: FP })
    const r = matchAcceptances(
      [e],
      [a, b],
      new Map([
        ['fa', OTHER_FP],
        ['fb', FP]
      ]),
      today,
      ['jailbreak']
    )
    expect([...r.acceptedBy.keys()]).toEqual(['fb'])
  })

  it.each<[string, readonly string[], boolean]>([
    ['its category completed: stale', ['jailbreak'], true],
    ['its category not completed: not stale (the run could not have seen the risk)', ['prompt_injection'], false],
    ['nothing completed', [], false]
  ])('a live entry that accepts nothing, %s', (_name, completed, stale) => {
    const e = entry()
    const other = finding('high', { category: 'prompt_injection' })
    expect(matchAcceptances([e], [other], new Map(), today, completed).stale).toEqual(stale ? [e] : [])
  })
})
