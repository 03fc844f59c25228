/**
 * The rules of judgeEvidence and presenceOf, one row per rule: which windows
 * were read, the rate of a finding this run found, what is present or
 * presumed (an earlier agent's sighting, main's window as lineage), the order
 * of what this run did not reproduce, and what still blocks. Every pool is
 * built inside its test (nothing of src runs at import time).
 */
import { describe, expect, it } from '@jest/globals'
import { judgeEvidence, presenceOf, unreproducedBlocking, type EvidenceWindows } from '../../src/evidence/judge-evidence.js'
import { poolEvidence, type ObservedFinding, type RunEvidence } from '../../src/evidence/pool.js'
import type { SeenRate } from '../../src/evidence/seen-rate.js'
import { observed } from '../__fixtures__/observed.js'

type Sev = ObservedFinding['severity']
const obs = (fingerprint: string, severity: Sev = 'high', status = 'open'): ObservedFinding => observed(fingerprint, { severity, status })
const run = (runId: string, findings: ObservedFinding[], more: Partial<RunEvidence> = {}): RunEvidence => ({
  runId,
  completedAt: '',
  categoriesCompleted: ['jailbreak'],
  findings,
  provenance: 'default-branch',
  ...more
})
const refs = (...fps: string[]) => fps.map((fp) => ({ findingId: `id_${fp}`, fingerprint: fp }))
/** Main's two runs: `s` in both, `f` in one. */
const mainPool = () => poolEvidence([run('m2', [obs('s')]), run('m1', [obs('s'), obs('f')])])

describe('judgeEvidence: whether any window was read', () => {
  it.each<[string, 'agent' | null, 'base' | null, boolean]>([
    ['no window', null, null, false],
    ["an agent window only (a pull request's own runs)", 'agent', null, true],
    ["main's window only", null, 'base', true],
    ['both', 'agent', 'base', true]
  ])('%s', (_name, agent, base, windowed) => {
    const windows: EvidenceWindows = {
      agent: agent === null ? null : { pool: mainPool(), scope: 'agent' },
      base: base === null ? null : mainPool()
    }
    expect(judgeEvidence(refs('s'), windows).windowed).toBe(windowed)
  })
})

describe('judgeEvidence: the rate of a finding this run found', () => {
  it.each<[string, () => EvidenceWindows, SeenRate]>([
    [
      "an agent window of no run falls back to main's rate, never '1 of 1 of this agent'",
      () => ({ agent: { pool: poolEvidence([]), scope: 'agent' }, base: mainPool() }),
      { seen: 1, of: 2, scope: 'main' }
    ],
    [
      'an agent window of no run and no base window: this run only',
      () => ({ agent: { pool: poolEvidence([]), scope: 'agent' }, base: null }),
      { seen: 1, of: 1, scope: 'this run' }
    ],
    [
      "an agent window of runs: this run counted among them, main's rate ignored",
      () => ({ agent: { pool: poolEvidence([run('p1', [])]), scope: 'agent' }, base: mainPool() }),
      { seen: 1, of: 2, scope: 'agent' }
    ]
  ])('%s', (_name, windows, rate) => {
    expect(judgeEvidence(refs('f'), windows()).rateById.get('id_f')).toEqual(rate)
  })
})

describe('presenceOf: the one rule of what is present', () => {
  it.each<[string, { closed: boolean; seenBySameAgent: boolean }, string]>([
    ['closed by the service, whoever saw it', { closed: true, seenBySameAgent: true }, 'closed'],
    ['closed by the service, seen by an earlier agent', { closed: true, seenBySameAgent: false }, 'closed'],
    ['open, seen by the agent judged now', { closed: false, seenBySameAgent: true }, 'present'],
    ['open, seen only by an earlier agent', { closed: false, seenBySameAgent: false }, 'presumed']
  ])('%s', (_name, p, want) => {
    expect(presenceOf(p)).toBe(want)
  })
})

describe('judgeEvidence: present and presumed among what this run did not reproduce', () => {
  const earlierAgent = () => poolEvidence([run('m1', [obs('f')], { sameAgent: false })])
  const sameAgent = () => poolEvidence([run('m1', [obs('f')])])
  it.each<[string, () => EvidenceWindows, { present: boolean; presumed: boolean }]>([
    [
      "main's window without lineage only says what is known",
      () => ({ agent: null, base: earlierAgent() }),
      { present: false, presumed: false }
    ],
    [
      "main's window with lineage false: the same",
      () => ({ agent: null, base: earlierAgent(), lineage: false }),
      { present: false, presumed: false }
    ],
    [
      "main's window as lineage: an earlier agent's sighting is presumed present",
      () => ({ agent: null, base: earlierAgent(), lineage: true }),
      { present: true, presumed: true }
    ],
    [
      "main's window as lineage, seen by the agent judged now: present, not presumed",
      () => ({ agent: null, base: sameAgent(), lineage: true }),
      { present: true, presumed: false }
    ],
    [
      'the agent window, runs of an earlier agent: presumed',
      () => ({ agent: { pool: earlierAgent(), scope: 'agent' }, base: null }),
      { present: true, presumed: true }
    ],
    [
      'the agent window, runs of this agent: present',
      () => ({ agent: { pool: sameAgent(), scope: 'agent' }, base: null }),
      { present: true, presumed: false }
    ]
  ])('%s', (_name, windows, want) => {
    const got = judgeEvidence([], windows()).notReproduced
    expect(got.map((n) => ({ fingerprint: n.fingerprint, present: n.present, presumed: n.presumed }))).toEqual([
      { fingerprint: 'f', ...want }
    ])
  })
})

describe('judgeEvidence: what this run did not reproduce, most severe first, then most often seen', () => {
  it('orders by severity whatever the order the runs met them', () => {
    const pool = poolEvidence([run('r1', [obs('l', 'low'), obs('h', 'high'), obs('c', 'critical'), obs('m', 'medium')])])
    const got = judgeEvidence([], { agent: { pool, scope: 'agent' }, base: null }).notReproduced
    expect(got.map((n) => n.fingerprint)).toEqual(['c', 'h', 'm', 'l'])
  })

  it('within one severity, the one seen in more runs first', () => {
    const pool = poolEvidence([
      run('r3', [obs('one'), obs('three'), obs('two')]),
      run('r2', [obs('three'), obs('two')]),
      run('r1', [obs('three')])
    ])
    const got = judgeEvidence([], { agent: { pool, scope: 'agent' }, base: null }).notReproduced
    expect(got.map((n) => [n.fingerprint, n.rate.seen])).toEqual([
      ['three', 3],
      ['two', 2],
      ['one', 1]
    ])
  })
})

describe('unreproducedBlocking', () => {
  it('no reading blocks nothing', () => {
    expect(unreproducedBlocking(null, 'low', () => false)).toEqual([])
  })
})
