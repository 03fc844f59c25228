/**
 * Only the default branch's own observations make a weakness known on main,
 * as a property: in random windows of evidence, main's own runs
 * (any finding status) mixed with runs of every other provenance (a pull
 * request's own lineage, the service's list, a collector's) holding random
 * sightings, the findings that block (applyPolicy: this run's findings not
 * waived, and those it did not reproduce that still fail) under `fail_on: new`
 * and `fail_on: any` are never fewer than with main's own runs alone. The other
 * runs' statuses are open or a plain `fixed` (a claim): the service's close is
 * the service's fact, one rule whoever recorded the run (pool.test.ts). Fixed seed.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { baselineOfPool } from '../../src/evidence/baseline.js'
import { fingerprint } from '../../src/evidence/fingerprint.js'
import { knownOnMain, poolEvidence, type Provenance, type RunEvidence } from '../../src/evidence/pool.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const THIS_RUN = 'this'
const WEAKNESSES: Finding[] = ['leaked its system prompt', 'ran a shell command', 'read a file', 'followed a link'].map((d) =>
  makeFinding('high', { description: d, finding_id: d })
)
const OTHERS: Provenance[] = ['own-lineage', 'service-list', 'collector']

interface RunSpec {
  provenance: Provenance
  day: number
  seen: [number, string][]
}

const sighting = (statuses: string[]): fc.Arbitrary<[number, string]> =>
  fc.tuple(fc.integer({ min: 0, max: WEAKNESSES.length - 1 }), fc.constantFrom(...statuses))
const mainRun = fc.record({
  provenance: fc.constant<Provenance>('default-branch'),
  day: fc.integer({ min: 1, max: 20 }),
  seen: fc.array(sighting(['open', 'open', 'fixed', 'dismissed', 'FIXED_VERIFIED']), { maxLength: 4 })
})
const otherRun = fc.record({
  provenance: fc.constantFrom(...OTHERS),
  day: fc.integer({ min: 1, max: 20 }),
  seen: fc.array(sighting(['open', 'fixed']), { maxLength: 4 })
})

function evidence(runs: RunSpec[]): RunEvidence[] {
  return runs.map((r, i) => ({
    runId: `r${i}`,
    completedAt: `2026-11-${String(r.day).padStart(2, '0')}T00:00:00Z`,
    categoriesCompleted: ['prompt_injection'],
    provenance: r.provenance,
    sameAgent: i % 2 === 0,
    findings: r.seen.map(([w, status]) => {
      const f = WEAKNESSES[w]
      return {
        fingerprint: fingerprint(f, THIS_RUN),
        category: f.category,
        severity: f.severity,
        lens: f.lens,
        description: f.description,
        status
      }
    })
  }))
}

/** What blocks: this run's findings not waived, and the fingerprints it did not reproduce that still fail. */
function blocking(runs: RunSpec[], thisRun: number[], failOn: 'new' | 'any', lineage: boolean): Set<string> {
  const base = runs.length === 0 ? null : poolEvidence(evidence(runs))
  const findings = [...new Set(thisRun)].map((w) => WEAKNESSES[w])
  const out = applyPolicy({
    findings,
    runId: THIS_RUN,
    categoriesCompleted: ['prompt_injection'],
    baseline: base === null ? null : baselineOfPool(base, 'm', null),
    accepted: [],
    failOn,
    today: '2026-11-26',
    windows: { agent: null, base, lineage }
  })
  const blocks = new Set(findings.filter((f) => !out.waived.has(f.finding_id)).map((f) => f.finding_id))
  for (const n of out.unreproducedBlocking) blocks.add(n.fingerprint)
  return blocks
}

describe('known on main: only the default branch’s own observations', () => {
  it('no observation other than the default branch’s own moves a finding from blocking to not blocking (fail_on new and any)', () => {
    fc.assert(
      fc.property(
        fc.array(mainRun, { maxLength: 4 }),
        fc.array(otherRun, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: WEAKNESSES.length - 1 }), { maxLength: 4 }),
        fc.constantFrom<'new' | 'any'>('new', 'any'),
        fc.boolean(),
        (main, others, thisRun, failOn, lineage) => {
          const alone = blocking(main, thisRun, failOn, lineage)
          const mixed = blocking([...main, ...others], thisRun, failOn, lineage)
          for (const b of alone) expect(mixed.has(b)).toBe(true)
        }
      ),
      { numRuns: 1500, seed: 41 }
    )
  })

  it('a run of any other provenance that saw a weakness never makes it known; one of main’s own does', () => {
    const [w] = evidence([{ provenance: 'default-branch', day: 2, seen: [[0, 'open']] }])
    const fp = w.findings[0]?.fingerprint ?? ''
    for (const provenance of OTHERS) {
      const pool = poolEvidence([{ ...w, provenance }])
      expect([provenance, knownOnMain(pool).has(fp)]).toEqual([provenance, false])
      // Together with main's own sighting: known (main saw it), whichever run is newer.
      const both = poolEvidence([{ ...w, runId: 'x', provenance }, w])
      expect(knownOnMain(both).has(fp)).toBe(true)
    }
    expect(knownOnMain(poolEvidence([w])).has(fp)).toBe(true)
    expect(knownOnMain(null).size).toBe(0)
  })

  it('a pull request’s new high finding that only a feature branch’s listed run saw is new under fail_on new: it blocks', () => {
    const runs: RunSpec[] = [
      { provenance: 'default-branch', day: 1, seen: [[1, 'open']] },
      { provenance: 'service-list', day: 3, seen: [[0, 'open']] }
    ]
    expect(blocking(runs, [0], 'new', true)).toEqual(new Set([WEAKNESSES[0]?.finding_id]))
    // Main's own run saw it: known, it does not block.
    expect(blocking([{ ...runs[1], provenance: 'default-branch' }], [0], 'new', false)).toEqual(new Set())
  })
})
