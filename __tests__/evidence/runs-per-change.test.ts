/**
 * runs_per_change, the pure parts: whether the agent may have changed since
 * its evidence (asked of the marks load-evidence.ts gave each pooled run),
 * how many full runs the step assesses, the further runs pooled as this
 * agent's evidence (a weakness only they saw blocks, rates count them), and
 * the gap when a bound cut them short.
 */
import { describe, expect, it } from '@jest/globals'
import { judgeEvidence, type EvidenceWindows } from '../../src/evidence/judge-evidence.js'
import { poolEvidence, type ObservedFinding, type RunEvidence } from '../../src/evidence/pool.js'
import { agentMayHaveChanged, runsCutShort, runsThisStep, withRunsOfThisAgent } from '../../src/evidence/runs-per-change-rule.js'
import { seenLabel } from '../../src/evidence/seen-rate.js'
import { observed } from '../__fixtures__/observed.js'

const obs = (fingerprint: string, status = 'open'): ObservedFinding => observed(fingerprint, { status })
const run = (runId: string, sameAgent: boolean, ...findings: ObservedFinding[]): RunEvidence => ({
  runId,
  completedAt: '',
  categoriesCompleted: ['jailbreak'],
  findings,
  provenance: 'default-branch',
  sameAgent
})
const earlier = poolEvidence([run('m2', false, obs('s')), run('m1', false)])
const sameOnes = poolEvidence([run('m2', true, obs('s')), run('m1', false)])

describe('agentMayHaveChanged: no run of a window that speaks for the agent is of the agent judged now', () => {
  it.each<[string, EvidenceWindows | undefined, boolean]>([
    ['no windows at all (no evidence of this agent)', undefined, true],
    ['empty windows', { agent: null, base: null }, true],
    ["main's runs all of an earlier agent, as lineage", { agent: null, base: earlier, lineage: true }, true],
    ["main's runs of this agent, as lineage", { agent: null, base: sameOnes, lineage: true }, false],
    ["main's runs of this agent, but not its lineage (evidence_runs 1)", { agent: null, base: sameOnes }, true],
    ["the agent's window holds a run of this agent", { agent: { pool: sameOnes, scope: 'agent' }, base: null }, false],
    ["the agent's window only of an earlier agent", { agent: { pool: earlier, scope: 'agent' }, base: earlier, lineage: true }, true],
    [
      'a pool built by hand (runs not counted): changed',
      { agent: { pool: { ...sameOnes, sameAgentRuns: undefined }, scope: 'main' }, base: null },
      true
    ]
  ])('%s', (_n, windows, changed) => {
    expect(agentMayHaveChanged(windows)).toBe(changed)
  })
})

describe('runsThisStep: runs_per_change when the agent may have changed, else one', () => {
  it.each<[number, boolean, number]>([
    [1, true, 1],
    [3, true, 3],
    [3, false, 1],
    [5, true, 5],
    [9, true, 5],
    [0, true, 1],
    [Number.NaN, true, 1],
    [2.7, true, 2]
  ])('runs_per_change %f, may have changed %s: %i', (n, changed, runs) => {
    expect(runsThisStep(n, changed)).toBe(runs)
  })
})

describe('withRunsOfThisAgent: the further runs pooled as evidence of this agent', () => {
  const findings = [{ findingId: 'id_t', fingerprint: 't' }]
  it('a weakness only a further run saw is present (not presumed), and the rate counts every run', () => {
    const windows = withRunsOfThisAgent({ agent: null, base: earlier, lineage: true }, [run('x2', false, obs('w')), run('x1', false)])
    const judged = judgeEvidence(findings, windows)
    const w = judged.notReproduced.find((n) => n.fingerprint === 'w')
    expect(w).toMatchObject({ present: true, presumed: false, seenIn: ['x2'] })
    expect(seenLabel(w!.rate)).toBe('1 of 3 runs of this agent')
    expect(agentMayHaveChanged(windows)).toBe(false)
  })

  it("laid over the agent's window: runs and sightings added, the newest observation decides the close", () => {
    const agent = poolEvidence([run('a1', true, obs('s'), obs('c'))])
    const windows = withRunsOfThisAgent({ agent: { pool: agent, scope: 'main' }, base: null }, [
      run('x1', false, obs('s'), obs('c', 'FIXED_VERIFIED'))
    ])
    const pool = windows.agent!.pool
    expect(windows.agent!.scope).toBe('main')
    expect(pool.runIds).toEqual(['x1', 'a1'])
    expect(pool.findings.get('s')).toMatchObject({ seenIn: ['x1', 'a1'], closed: false, seenBySameAgent: true })
    expect(pool.findings.get('c')).toMatchObject({ seenIn: ['x1', 'a1'], closed: true })
    expect(pool.sameAgentRuns).toBe(2)
  })

  it("keeps which of the agent's runs were read for their sightings (a holder): still out of the sample rate", () => {
    const agent = poolEvidence([run('a1', true, obs('s')), { ...run('h1', true, obs('s')), selected: true }])
    const windows = withRunsOfThisAgent({ agent: { pool: agent, scope: 'main' }, base: null }, [run('x1', false)])
    expect(windows.agent?.pool.selected).toEqual(['h1'])
    const s = judgeEvidence([], windows).notReproduced.find((n) => n.fingerprint === 's')
    expect(s?.sample).toMatchObject({ seen: 1, of: 3 })
    expect(s?.rate).toMatchObject({ seen: 2, of: 4 })
  })

  it('no further run: the windows as given', () => {
    const given: EvidenceWindows = { agent: null, base: earlier }
    expect(withRunsOfThisAgent(given, [])).toBe(given)
  })
})

describe('runsCutShort: a bound that stopped the runs is a gap (incomplete), never a pass', () => {
  it.each<[number, number, string | null]>([
    [3, 3, null],
    [
      1,
      3,
      'runs_per_change: 1 of 3 runs of this agent change assessed (timeout_minutes ran out), so a weakness the others would have drawn cannot be ruled out'
    ]
  ])('%i of %i', (assessed, planned, line) => {
    expect(runsCutShort(assessed, planned, 'timeout_minutes ran out')).toBe(line)
    // a reason given as a sentence does not end the parenthesis with its period
    expect(runsCutShort(assessed, planned, 'timeout_minutes ran out.')).toBe(line)
  })
})
