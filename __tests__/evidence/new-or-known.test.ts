import { describe, expect, it } from '@jest/globals'
import { buildBaseline, parseBaseline } from '../../src/evidence/baseline.js'
import { diffAgainstBaseline } from '../../src/evidence/new-or-known.js'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

function fnd(category: string, severity: Finding['severity'] = 'high', status: Finding['status'] = 'open'): Finding {
  return {
    ...makeFinding(severity, { status: status, category: category, description: 'd', expected_behavior: 'e', attacks: [] }),
    description: `${category} weakness`
  }
}
const baselineOf = (findings: Finding[], completed = ['a', 'b', 'c']) =>
  buildBaseline({
    modelId: 'm',
    runId: 'run_base',
    createdAt: '2026-11-20T00:00:00Z',
    commit: 'abc',
    categoriesCompleted: completed,
    findings
  })

describe('diffAgainstBaseline', () => {
  const cases: [string, Finding[], Finding[] | null, string[], { new: string[]; known: string[]; gone: string[]; uncovered: string[] }][] =
    [
      ['no baseline: every finding is new', [fnd('a')], null, ['a'], { new: ['a'], known: [], gone: [], uncovered: [] }],
      ['same weakness again: known', [fnd('a')], [fnd('a')], ['a', 'b', 'c'], { new: [], known: ['a'], gone: [], uncovered: [] }],
      ['a new category: new', [fnd('a'), fnd('b')], [fnd('a')], ['a', 'b', 'c'], { new: ['b'], known: ['a'], gone: [], uncovered: [] }],
      [
        'severity changed: new (and the old one gone)',
        [fnd('a', 'critical')],
        [fnd('a')],
        ['a', 'b', 'c'],
        { new: ['a'], known: [], gone: ['a'], uncovered: [] }
      ],
      ['fixed since: gone', [], [fnd('a'), fnd('b')], ['a', 'b', 'c'], { new: [], known: [], gone: ['a', 'b'], uncovered: [] }],
      ['not completed this time: not gone, uncovered', [], [fnd('a')], ['b', 'c'], { new: [], known: [], gone: [], uncovered: ['a'] }],
      [
        'closed findings stay out of the baseline',
        [fnd('a')],
        [fnd('a', 'high', 'dismissed')],
        ['a', 'b', 'c'],
        { new: ['a'], known: [], gone: [], uncovered: [] }
      ]
    ]
  it.each(cases)('%s', (_name, now, before, completed, expected) => {
    const d = diffAgainstBaseline(now, 'run_now', before ? baselineOf(before) : null, completed)
    const cat = (ids: string[]) => ids.map((id) => now.find((f) => f.finding_id === id)!.category)
    expect({ new: cat(d.newIds), known: cat(d.knownIds), gone: d.gone.map((g) => g.category), uncovered: d.uncovered }).toEqual(expected)
  })
})

describe('baseline', () => {
  it('keeps one entry per fingerprint and round-trips through JSON', () => {
    const b = baselineOf([fnd('a'), fnd('a'), fnd('b', 'low')])
    expect(b.findings.map((f) => f.category)).toEqual(['a', 'b'])
    const back = parseBaseline(JSON.stringify(b))
    expect('baseline' in back && back.baseline).toEqual(b)
  })
  it.each([
    ['not JSON', '{', /not JSON/],
    [
      'a baseline nested deeper than any real one',
      JSON.stringify({ ...baselineOf([]), extra: 'DEEP' }).replace('"DEEP"', `${'['.repeat(100)}${']'.repeat(100)}`),
      /^the stored baseline nests lists or mappings deeper than 64 levels$/
    ],
    ['another schema version', JSON.stringify({ ...baselineOf([]), schema_version: 2 }), /schema version 1/],
    [
      'a bad fingerprint',
      JSON.stringify({
        ...baselineOf([]),
        findings: [{ fingerprint: 'x', category: 'a', severity: 'high', lens: 'security', description: '' }]
      }),
      /schema version 1/
    ]
  ])('refuses %s', (_n, text, why) => {
    const r = parseBaseline(text)
    expect('error' in r ? r.error : '').toMatch(why)
  })
})
