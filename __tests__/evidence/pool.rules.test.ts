/**
 * The rules of pooling, one row per rule: the order of runs (the service's
 * completion time, a run without one last, ties as given), a run named twice,
 * open beats closed within one run whatever the order, what an empty pool
 * speaks for, a long description cut, and what a holder is read for.
 */
import { describe, expect, it } from '@jest/globals'
import type { Finding } from '../../src/service/contract/index.js'
import {
  byCompletion,
  holdsOpenFinding,
  knownOnMain,
  observedFindings,
  poolEvidence,
  type ObservedFinding,
  type RunEvidence
} from '../../src/evidence/pool.js'
import { observed } from '../__fixtures__/observed.js'

const obs = (fingerprint: string, status = 'open'): ObservedFinding => observed(fingerprint, { status })
const run = (runId: string, completedAt: string, ...findings: ObservedFinding[]): RunEvidence => ({
  runId,
  completedAt,
  categoriesCompleted: ['jailbreak'],
  findings,
  provenance: 'default-branch'
})

describe('byCompletion: newest first by the time the service gave', () => {
  it.each<[string, [string, string][], string[]]>([
    [
      'a run without a completion time goes last, wherever it was named',
      [
        ['none', ''],
        ['old', '2026-11-01T00:00:00Z'],
        ['new', '2026-11-20T00:00:00Z']
      ],
      ['new', 'old', 'none']
    ],
    [
      'an unreadable time counts as none',
      [
        ['bad', 'yesterday'],
        ['old', '2026-11-01T00:00:00Z']
      ],
      ['old', 'bad']
    ],
    [
      'ties keep the order given',
      [
        ['a', '2026-11-01T00:00:00Z'],
        ['b', '2026-11-01T00:00:00Z'],
        ['c', '2026-11-01T00:00:00Z'],
        ['d', '2026-11-01T00:00:00Z']
      ],
      ['a', 'b', 'c', 'd']
    ],
    [
      'runs without a time keep the order given among themselves',
      [
        ['a', ''],
        ['b', ''],
        ['c', ''],
        ['d', '']
      ],
      ['a', 'b', 'c', 'd']
    ]
  ])('%s', (_name, given, want) => {
    expect(byCompletion(given.map(([id, at]) => run(id, at))).map((r) => r.runId)).toEqual(want)
  })
})

describe('poolEvidence: the rules of one body of evidence', () => {
  it('a run named twice is one run of the window', () => {
    const pool = poolEvidence([run('r3', '', obs('a')), run('r3', '', obs('a')), run('r2', '')])
    expect(pool.runIds).toEqual(['r3', 'r2'])
    expect(pool.findings.get('a')?.seenIn).toEqual(['r3'])
  })

  it.each<[string, ObservedFinding[]]>([
    ['validated, then open, in one run', [obs('a', 'FIXED_VERIFIED'), obs('a')]],
    ['open, then validated, in one run', [obs('a'), obs('a', 'FIXED_VERIFIED')]],
    ['dismissed, then open, in one run', [obs('a', 'dismissed'), obs('a')]]
  ])('open beats closed within the newest run (fail closed): %s', (_name, findings) => {
    expect(poolEvidence([run('r2', '', ...findings), run('r1', '', obs('a'))]).findings.get('a')?.closed).toBe(false)
  })

  it('closed twice in its newest run: closed', () => {
    const pool = poolEvidence([run('r2', '', obs('a', 'FIXED_VERIFIED'), obs('a', 'dismissed')), run('r1', '', obs('a'))])
    expect(pool.findings.get('a')?.closed).toBe(true)
  })

  // knownOnMain pools the default branch's own runs alone by the same rule: a weakness main's newest run that saw it
  // showed both open and closed is open on main (known), whatever the order; closed twice there, it is not.
  it.each<[string, ObservedFinding[], boolean]>([
    ["validated, then open, in main's newest run: known on main", [obs('a', 'FIXED_VERIFIED'), obs('a')], true],
    ["dismissed, then open, in main's newest run: known on main", [obs('a', 'dismissed'), obs('a')], true],
    ["open, then validated, in main's newest run: known on main", [obs('a'), obs('a', 'FIXED_VERIFIED')], true],
    ["validated, then dismissed, in main's newest run: not known", [obs('a', 'FIXED_VERIFIED'), obs('a', 'dismissed')], false]
  ])("open beats closed within main's newest run: %s", (_name, findings, known) => {
    const pool = poolEvidence([run('r2', '', ...findings), run('r1', '', obs('a'))])
    expect(pool.findings.get('a')?.openOnMain).toBe(known)
    expect(knownOnMain(pool).has('a')).toBe(known)
  })

  it('no run speaks for no category', () => {
    expect(poolEvidence([]).categoriesCompleted).toEqual([])
  })
})

describe("observedFindings: a run's findings as evidence", () => {
  const finding = (description: string) =>
    ({ category: 'jailbreak', severity: 'high', lens: 'security', description, status: 'open', attacks: [] }) as unknown as Finding
  it.each<[string, number, number, boolean]>([
    ['300 characters are kept whole', 300, 300, false],
    ['301 are cut to 299 and an ellipsis', 301, 300, true],
    ['a long one is cut the same', 5000, 300, true]
  ])('%s', (_name, length, want, cut) => {
    const text = 'd'.repeat(length)
    const o = observedFindings([finding(text)], 'r1')[0]
    expect(o.description).toHaveLength(want)
    expect(o.description).toBe(cut ? `${'d'.repeat(299)}…` : text)
  })
})

describe('holdsOpenFinding: what a holder is read for', () => {
  it.each<[string, string[], boolean]>([
    ['no finding', [], false],
    ['only closed ones (validated, dismissed)', ['FIXED_VERIFIED', 'dismissed'], false],
    ['an open one among closed ones', ['FIXED_VERIFIED', 'open'], true],
    ['a plain fixed one is still open', ['fixed'], true]
  ])('%s', (_name, statuses, want) => {
    expect(holdsOpenFinding(run('r1', '', ...statuses.map((s, i) => obs(`f${i}`, s))))).toBe(want)
  })
})
