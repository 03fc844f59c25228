/**
 * This run's findings against the windows: how often each was seen, known or
 * new under fail_on new, and what this run did not reproduce (never "gone"
 * while the window holds it open).
 */
import { describe, expect, it } from '@jest/globals'
import { planConfirmations } from '../../src/evidence/confirmation-rule.js'
import { judgeEvidence, unreproducedBlocking, type EvidenceWindows } from '../../src/evidence/judge-evidence.js'
import { poolEvidence, type ObservedFinding, type RunEvidence } from '../../src/evidence/pool.js'
import { seenLabel } from '../../src/evidence/seen-rate.js'
import { observed } from '../__fixtures__/observed.js'

const obs = (fingerprint: string, severity: ObservedFinding['severity'] = 'high', status = 'open'): ObservedFinding =>
  observed(fingerprint, { severity, status })
const run = (runId: string, ...findings: ObservedFinding[]): RunEvidence => ({
  runId,
  completedAt: '',
  categoriesCompleted: ['jailbreak'],
  findings,
  provenance: 'default-branch'
})
/** Main's last five runs: `s` in all, `f` in 3 (flaky), `x` fixed since (validated), `m` medium in 1. */
const main = poolEvidence([
  run('r5', obs('s'), obs('x', 'high', 'FIXED_VERIFIED')),
  run('r4', obs('s'), obs('f')),
  run('r3', obs('s')),
  run('r2', obs('s'), obs('f'), obs('m', 'medium')),
  run('r1', obs('s'), obs('f'), obs('x'))
])
const refs = (...fps: string[]) => fps.map((fp) => ({ findingId: `id_${fp}`, fingerprint: fp }))
const onPr: EvidenceWindows = { agent: null, base: main }
const onMain: EvidenceWindows = { agent: { pool: main, scope: 'main' }, base: main }
const alone: EvidenceWindows = { agent: null, base: null }

describe('judgeEvidence', () => {
  it.each<[string, string[], EvidenceWindows, Record<string, string>]>([
    ['no window: every finding is "this run only"', ['s', 'n'], alone, { s: 'this run only', n: 'this run only' }],
    [
      "a pull request: main's rates for what main saw",
      ['s', 'f', 'n'],
      onPr,
      { s: '5 of 5 runs of main', f: '3 of 5 runs of main', n: 'this run only' }
    ],
    [
      'the default branch: this run counted with its earlier runs',
      ['s', 'n'],
      onMain,
      { s: '6 of 6 runs of main', n: '1 of 6 runs of main' }
    ],
    [
      "a pull request's own agent window",
      ['f'],
      { agent: { pool: poolEvidence([run('p2', obs('f')), run('p1')]), scope: 'agent' }, base: main },
      { f: '2 of 3 runs of this agent' }
    ]
  ])('rates: %s', (_name, fps, windows, want) => {
    const got = judgeEvidence(refs(...fps), windows)
    expect(Object.fromEntries(fps.map((fp) => [fp, seenLabel(got.rateById.get(`id_${fp}`)!)]))).toEqual(want)
  })

  it.each<[string, string[], string[]]>([
    ['a weakness main saw in any run of its window is known, not new', ['f', 'n'], ['id_f']],
    ['one main saw only in a run before it was fixed is new again', ['x'], []],
    ['nothing is known without a base window', [], []]
  ])('known: %s', (_name, fps, known) => {
    expect([...judgeEvidence(refs(...fps), onPr).knownIds]).toEqual(known)
  })

  it("lists what this run missed as not reproduced, still open, with main's rate; the fixed one as closed since", () => {
    const got = judgeEvidence(refs('s'), onPr)
    expect(got.notReproduced.map((n) => [n.fingerprint, seenLabel(n.rate), n.present])).toEqual([
      ['f', '3 of 5 runs of main', false],
      ['m', '1 of 5 runs of main', false]
    ])
    expect(got.closedSince.map((p) => p.fingerprint)).toEqual(['x'])
  })

  it('on the default branch what this run missed is present: this run is counted among the runs that did not see it', () => {
    const got = judgeEvidence(refs('s'), onMain)
    expect(got.notReproduced.map((n) => [n.fingerprint, n.rate, n.present])).toEqual([
      ['f', { seen: 3, of: 6, scope: 'main' }, true],
      ['m', { seen: 1, of: 6, scope: 'main' }, true]
    ])
  })
})

describe('unreproducedBlocking', () => {
  const reading = judgeEvidence(refs('s'), onMain)
  it.each<[string, 'critical' | 'high' | 'medium' | 'low', (f: string) => boolean, string[]]>([
    ['every present finding at or above the threshold blocks', 'medium', () => false, ['f', 'm']],
    ['below the threshold does not', 'high', () => false, ['f']],
    ['an accepted one does not', 'medium', (fp) => fp === 'f', ['m']]
  ])('%s', (_name, min, accepted, want) => {
    expect(unreproducedBlocking(reading, min, (n) => accepted(n.fingerprint)).map((n) => n.fingerprint)).toEqual(want)
  })

  it("main's window never blocks a pull request (a changed agent is judged on its own runs)", () => {
    expect(unreproducedBlocking(judgeEvidence(refs(), onPr), 'low', () => false)).toEqual([])
  })
})

describe('the rate a confirmation assumes leaves out runs read for their sightings', () => {
  // A holder (or a run of the service's list) is read because it saw a weakness: counting it would make the rate high.
  const held = { ...run('h1', obs('h'), obs('f')), selected: true }
  const withHolder = poolEvidence([...['r5', 'r4', 'r3', 'r2', 'r1'].map((id) => run(id, ...(id === 'r4' ? [obs('f')] : []))), held])

  it.each<[string, string, { seen: number; of: number }, { seen: number; of: number }]>([
    ['seen only by the holder: 0 of the window, not 1 of 6', 'h', { seen: 1, of: 6 }, { seen: 0, of: 5 }],
    ['seen by the window and the holder: the window alone', 'f', { seen: 2, of: 6 }, { seen: 1, of: 5 }]
  ])('%s', (_, fp, rate, sample) => {
    const got = judgeEvidence([], { agent: { pool: withHolder, scope: 'main' }, base: withHolder, lineage: true })
    const n = got.notReproduced.find((x) => x.fingerprint === fp)
    expect(n?.rate).toMatchObject({ ...rate, of: rate.of + 1 })
    expect(n?.sample).toMatchObject({ ...sample, of: sample.of + 1 })
  })

  it('with no run selected the sample is the rate', () => {
    const n = judgeEvidence([], onMain).notReproduced.find((x) => x.fingerprint === 'f')
    expect(n?.sample).toEqual(n?.rate)
  })

  it('the pool keeps which runs were selected, once each', () => {
    expect(poolEvidence([held, held, run('r1')]).selected).toEqual(['h1'])
    expect(poolEvidence([run('r1')]).selected).toEqual([])
  })
})

describe('a run read for its sightings that did not see a weakness still counts as a miss of it', () => {
  // A holder (or a run of the service's list) read for another weakness is no sample chosen for this one's sightings:
  // leaving it out would make this one's rate high and m smaller than counting every run gives.
  it("a pull request: f seen in 2 of main's 4 runs, a holder read for h: f's sample is 2 of 5, not 2 of 4 (m at the floor's 9)", () => {
    const pool = poolEvidence([run('r4', obs('f')), run('r3'), run('r2', obs('f')), run('r1'), { ...run('h1', obs('h')), selected: true }])
    const n = judgeEvidence([], { agent: null, base: pool, lineage: true }).notReproduced.find((x) => x.fingerprint === 'f')
    expect(n?.rate).toMatchObject({ seen: 2, of: 5 })
    expect(n?.sample).toMatchObject({ seen: 2, of: 5 })
    expect(planConfirmations(n === undefined ? [] : [n], 0.95)[0]?.needed).toBe(9)
  })

  // Every window of up to 5 runs (each run: selected or not, saw f or not), on a pull request and on the default branch.
  const windows: [string, RunEvidence[]][] = []
  for (let size = 1; size <= 5; size++)
    for (let bits = 0; bits < 4 ** size; bits++) {
      const runs = Array.from({ length: size }, (_, i) => {
        const b = (bits >> (2 * i)) & 3
        return { ...run(`r${i}`, ...((b & 1) === 1 ? [obs('f')] : []), obs('g')), selected: (b & 2) === 2 }
      })
      if (runs.some((r) => r.findings.some((o) => o.fingerprint === 'f'))) windows.push([`${size}:${bits}`, runs])
    }

  it('m from the sample is never below m from every run counted, in every window', () => {
    const worse: string[] = []
    for (const [name, runs] of windows) {
      const pool = poolEvidence(runs)
      for (const w of [
        { agent: null, base: pool, lineage: true },
        { agent: { pool, scope: 'main' as const }, base: pool }
      ]) {
        for (const n of judgeEvidence([], w).notReproduced) {
          const withSample = planConfirmations([n], 0.95)[0]?.needed ?? 0
          const everyRun = planConfirmations([{ ...n, sample: undefined }], 0.95)[0]?.needed ?? 0
          if (withSample < everyRun) worse.push(`${name}: ${withSample} < ${everyRun}`)
        }
      }
    }
    expect(windows.length).toBeGreaterThan(500)
    expect(worse).toEqual([])
  })
})
