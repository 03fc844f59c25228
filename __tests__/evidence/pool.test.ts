/** Pooling runs of one agent: a fingerprint seen in any run is present until the service closes it. */
import { describe, expect, it } from '@jest/globals'
import { openFingerprints, poolEvidence, type ObservedFinding, type RunEvidence } from '../../src/evidence/pool.js'

const obs = (fingerprint: string, status = 'open', severity: ObservedFinding['severity'] = 'high'): ObservedFinding => ({
  fingerprint,
  category: 'jailbreak',
  severity,
  lens: 'security',
  description: `weakness ${fingerprint}`,
  status
})
const run = (runId: string, ...findings: ObservedFinding[]): RunEvidence => ({
  runId,
  completedAt: '2026-11-25T00:00:00Z',
  categoriesCompleted: [runId === 'r3' ? 'jailbreak' : 'prompt_injection'],
  findings,
  provenance: 'default-branch'
})

describe('poolEvidence', () => {
  it.each<[string, RunEvidence[], Record<string, { seen: string[]; closed: boolean }>]>([
    ['no runs: nothing', [], {}],
    ['seen in one run of three: present, 1 of 3', [run('r3'), run('r2', obs('a')), run('r1')], { a: { seen: ['r2'], closed: false } }],
    [
      'seen in every run: steady',
      [run('r3', obs('a')), run('r2', obs('a')), run('r1', obs('a'))],
      { a: { seen: ['r3', 'r2', 'r1'], closed: false } }
    ],
    [
      'closed by the service in the newest run that saw it (validated): closed',
      [run('r3', obs('a', 'FIXED_VERIFIED')), run('r2', obs('a'))],
      { a: { seen: ['r3', 'r2'], closed: true } }
    ],
    [
      'a plain fixed close is a claim, not a validation: still open',
      [run('r3', obs('a', 'fixed')), run('r2', obs('a'))],
      { a: { seen: ['r3', 'r2'], closed: false } }
    ],
    [
      'open again after a fix: open (the newest decides)',
      [run('r3', obs('a')), run('r2', obs('a', 'dismissed'))],
      { a: { seen: ['r3', 'r2'], closed: false } }
    ],
    ['open and closed in one run: open (fail closed)', [run('r3', obs('a', 'fixed'), obs('a'))], { a: { seen: ['r3'], closed: false } }],
    ['a run named twice counts once', [run('r3', obs('a')), run('r3', obs('a'))], { a: { seen: ['r3'], closed: false } }]
  ])('%s', (_name, runs, want) => {
    const pool = poolEvidence(runs)
    const got = Object.fromEntries([...pool.findings.values()].map((p) => [p.fingerprint, { seen: p.seenIn, closed: p.closed }]))
    expect(got).toEqual(want)
  })

  it('orders runs by the completion time the service gave, never the order named: an older close does not close a newer sighting', () => {
    const at = (r: RunEvidence, completedAt: string): RunEvidence => ({ ...r, completedAt })
    const pool = poolEvidence([
      at(run('old', obs('a', 'FIXED_VERIFIED')), '2026-11-01T00:00:00Z'),
      at(run('new', obs('a')), '2026-11-20T00:00:00Z')
    ])
    expect(pool.runIds).toEqual(['new', 'old'])
    expect(pool.findings.get('a')?.closed).toBe(false)
  })

  it("the service's close counts whoever recorded the run: a pull request's own run closes a weakness validated fixed", () => {
    const own = (r: RunEvidence): RunEvidence => ({ ...r, provenance: 'own-lineage' })
    // Its re-run missed W, then the service validated W fixed: re-read, the run that saw W says so.
    expect(poolEvidence([own(run('r3')), own(run('r2', obs('a', 'FIXED_VERIFIED')))]).findings.get('a')?.closed).toBe(true)
    expect(poolEvidence([own(run('r3', obs('a', 'dismissed'))), run('r2', obs('a'))]).findings.get('a')?.closed).toBe(true)
    // A plain `fixed` is a claim, whoever recorded it; and a newer open sighting still wins.
    expect(poolEvidence([own(run('r3', obs('a', 'fixed')))]).findings.get('a')?.closed).toBe(false)
    expect(poolEvidence([own(run('r3', obs('a'))), own(run('r2', obs('a', 'FIXED_VERIFIED')))]).findings.get('a')?.closed).toBe(false)
  })

  it('seen by the agent judged now when any run of it saw it; only by earlier agents: presumed', () => {
    const earlier = (r: RunEvidence): RunEvidence => ({ ...r, sameAgent: false })
    const pool = poolEvidence([run('r3', obs('a')), earlier(run('r2', obs('a'), obs('b')))])
    expect([pool.findings.get('a')?.seenBySameAgent, pool.findings.get('b')?.seenBySameAgent]).toEqual([true, false])
  })

  it('speaks for the categories its newest run completed, and lists the open fingerprints', () => {
    const pool = poolEvidence([run('r3', obs('a'), obs('b', 'dismissed')), run('r2', obs('c'))])
    expect(pool.runIds).toEqual(['r3', 'r2'])
    expect(pool.categoriesCompleted).toEqual(['jailbreak'])
    expect([...openFingerprints(pool)].sort()).toEqual(['a', 'c'])
    expect(openFingerprints(null).size).toBe(0)
  })
})
