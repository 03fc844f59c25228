/**
 * The further runs of an agent change laid over the windows, one row per
 * rule: no windows given, the scope of a window made for them, a weakness
 * only the further runs saw, one only the earlier window saw, and a run in
 * both counted once; and the gap line keeps a reason's inner periods.
 */
import { describe, expect, it } from '@jest/globals'
import { poolEvidence, type ObservedFinding, type RunEvidence } from '../../src/evidence/pool.js'
import { runsCutShort, withRunsOfThisAgent } from '../../src/evidence/runs-per-change-rule.js'

const obs = (fingerprint: string, severity: ObservedFinding['severity'] = 'high'): ObservedFinding => ({
  fingerprint,
  category: 'jailbreak',
  severity,
  lens: 'security',
  description: `about ${fingerprint}`,
  status: 'open'
})
const run = (runId: string, ...findings: ObservedFinding[]): RunEvidence => ({
  runId,
  completedAt: '',
  categoriesCompleted: ['jailbreak'],
  findings,
  provenance: 'default-branch'
})

describe('withRunsOfThisAgent', () => {
  it('no windows given: the further runs are the agent window, of this agent', () => {
    const windows = withRunsOfThisAgent(undefined, [run('x1', obs('w'))])
    expect(windows.base).toBeNull()
    expect(windows.agent?.scope).toBe('agent')
    expect(windows.agent?.pool.runIds).toEqual(['x1'])
  })

  it("no agent window: one is made, scoped to this agent, main's window kept", () => {
    const base = poolEvidence([run('m1', obs('s'))])
    const windows = withRunsOfThisAgent({ agent: null, base }, [run('x1')])
    expect(windows.agent?.scope).toBe('agent')
    expect(windows.base).toBe(base)
  })

  it('laid over an agent window: what either saw is kept whole, a run in both counts once', () => {
    const older = poolEvidence([run('a2', obs('old', 'medium'), obs('both')), run('a1', obs('both'))])
    const windows = withRunsOfThisAgent({ agent: { pool: older, scope: 'agent' }, base: null }, [
      run('x1', obs('new', 'critical'), obs('both')),
      run('a2', obs('both'))
    ])
    const pool = windows.agent!.pool
    expect(pool.runIds).toEqual(['x1', 'a2', 'a1'])
    const view = (fp: string) => {
      const p = pool.findings.get(fp)
      return p && { category: p.category, severity: p.severity, seenIn: p.seenIn, closed: p.closed, seenBySameAgent: p.seenBySameAgent }
    }
    expect(view('new')).toEqual({ category: 'jailbreak', severity: 'critical', seenIn: ['x1'], closed: false, seenBySameAgent: true })
    expect(view('old')).toEqual({ category: 'jailbreak', severity: 'medium', seenIn: ['a2'], closed: false, seenBySameAgent: true })
    expect(view('both')).toEqual({
      category: 'jailbreak',
      severity: 'high',
      seenIn: ['x1', 'a2', 'a1'],
      closed: false,
      seenBySameAgent: true
    })
  })
})

describe('runsCutShort', () => {
  it("keeps a reason's inner periods, drops only the last", () => {
    expect(runsCutShort(1, 2, 'the budget ran out at 2.5 runs.')).toBe(
      'runs_per_change: 1 of 2 runs of this agent change assessed (the budget ran out at 2.5 runs), so a weakness the others would have drawn cannot be ruled out'
    )
  })
})
