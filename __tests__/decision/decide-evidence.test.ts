/**
 * decide() with the window of evidence: a weakness an earlier run of this
 * agent saw, still open, fails the gate although this run did not reproduce
 * it; under fail_on new, one main's window saw anywhere is known.
 */
import { describe, expect, it } from '@jest/globals'
import { decide, type DecideInput, type GateResult } from '../../src/decision/decide.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import { observedFindings, poolEvidence } from '../../src/evidence/pool.js'
import { baselineOfPool } from '../../src/evidence/baseline.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import * as YAML from 'yaml'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const planned = ['jailbreak', 'prompt_injection']
const fnd = (category: string, description: string, severity: Finding['severity'] = 'high'): Finding =>
  makeFinding(severity, { category, description, attacks: [] })
const FLAKY = () => fnd('jailbreak', 'complied with a roleplay jailbreak')
const STEADY = () => fnd('prompt_injection', 'leaked its system prompt', 'critical')
const runOf = (runId: string, ...findings: Finding[]) => ({
  runId,
  completedAt: '',
  categoriesCompleted: planned,
  findings: observedFindings(findings, runId),
  provenance: 'default-branch' as const
})
/** Main's last 5 runs: the flaky weakness in 3 of them. */
const mainWindow = poolEvidence([
  runOf('r5', STEADY()),
  runOf('r4', STEADY(), FLAKY()),
  runOf('r3', STEADY()),
  runOf('r2', STEADY(), FLAKY()),
  runOf('r1', STEADY(), FLAKY())
])
const acceptJailbreak = parseAcceptedFile(
  YAML,
  'accepted:\n  - category: jailbreak\n    reason_code: accepted_risk\n    explanation: x\n    owner: o\n    severity_at_most: any\n    expires: 2027-01-31\n',
  'a.yml',
  '2026-11-23'
)

/** Main's window as a pull request changing the agent sees it: every run of an earlier agent. */
const presumedMain = poolEvidence([
  { ...runOf('r5', STEADY()), sameAgent: false },
  { ...runOf('r4', STEADY(), FLAKY()), sameAgent: false }
])

/** A pull request's own earlier runs: its new weakness in 1 of 2. */
const SHELL = () => fnd('jailbreak', 'ran a shell command')
const prWindow = poolEvidence([runOf('p2'), runOf('p1', SHELL(), FLAKY())])

interface Case {
  where: 'main' | 'pr' | 'pr-own' | 'pr-lineage'
  /** Evidence that could not be read. */
  gaps?: string[]
  failOn: 'any' | 'new'
  findings: Finding[]
  verdict: 'pass' | 'fail'
  accepted?: typeof acceptJailbreak
}

function gate(c: Case) {
  const windows =
    c.where === 'main'
      ? { agent: { pool: mainWindow, scope: 'main' as const }, base: mainWindow }
      : {
          agent: c.where === 'pr-own' ? { pool: prWindow, scope: 'agent' as const } : null,
          base: c.where === 'pr-lineage' ? presumedMain : mainWindow,
          lineage: c.where === 'pr-lineage'
        }
  const policy = applyPolicy({
    findings: c.findings,
    runId: 'this',
    categoriesCompleted: planned,
    baseline: baselineOfPool(mainWindow, 'm', null),
    windows,
    minSeverity: 'high',
    accepted: c.accepted ?? [],
    failOn: c.failOn,
    today: '2026-11-26'
  })
  const input: DecideInput = {
    status: 'completed',
    verdict: c.verdict,
    minSeverity: 'high',
    categoriesPlanned: planned,
    categoriesCompleted: planned,
    ingestIncomplete: false,
    findings: c.findings,
    coverageReadable: true,
    waived: policy.waived,
    baselineUncovered: policy.diff.uncovered,
    unreproduced: policy.unreproducedBlocking.map((n) => ({ severity: n.severity, rate: n.rate })),
    evidenceGaps: c.gaps
  }
  return { decision: decide(input), policy }
}

describe('decide with the window of evidence', () => {
  it.each<[string, Case, GateResult, RegExp]>([
    [
      'main, fail_on any, this run missed the flaky weakness: still a fail, and says so',
      { where: 'main', failOn: 'any', findings: [], verdict: 'pass' },
      'fail',
      /^1 critical not reproduced in this run, seen in 5 of the last 6 runs, still open; 1 high not reproduced in this run, seen in 3 of the last 6 runs, still open$/
    ],
    [
      'main, fail_on any, both seen now: the open findings',
      { where: 'main', failOn: 'any', findings: [STEADY(), FLAKY()], verdict: 'fail' },
      'fail',
      /^2 open findings at or above high \(1 critical, 1 high\)$/
    ],
    [
      'main, fail_on any, the missed one accepted: the steady one still blocks',
      { where: 'main', failOn: 'any', findings: [STEADY()], verdict: 'fail', accepted: acceptJailbreak },
      'fail',
      /^1 open finding at or above high \(1 critical\)$/
    ],
    [
      'a PR, fail_on new, drawing the flaky weakness main saw in 3 of 5: known, not new',
      { where: 'pr', failOn: 'new', findings: [STEADY(), FLAKY()], verdict: 'fail' },
      'pass',
      /no open findings at or above high that block/
    ],
    [
      "a PR, fail_on new, missing main's flaky weakness: passes (known), never blocks on it",
      { where: 'pr', failOn: 'new', findings: [STEADY()], verdict: 'fail' },
      'pass',
      /no open findings/
    ],
    [
      'a PR, fail_on new, with a weakness no run of main saw: new, blocks',
      { where: 'pr', failOn: 'new', findings: [STEADY(), fnd('jailbreak', 'ran a shell command')], verdict: 'fail' },
      'fail',
      /1 open finding at or above high \(1 high\)/
    ],
    [
      "a PR, fail_on any, that removed the flaky weakness: main's evidence of it does not block",
      { where: 'pr', failOn: 'any', findings: [], verdict: 'pass' },
      'pass',
      /no open findings/
    ],
    [
      'a PR, fail_on new, whose own earlier run saw its new weakness and this run did not: still blocks',
      { where: 'pr-own', failOn: 'new', findings: [STEADY()], verdict: 'fail' },
      'fail',
      /^1 high not reproduced in this run, seen in 1 of the last 3 runs, still open$/
    ],
    [
      "a PR, fail_on new, whose own earlier run saw main's known flaky weakness: known, does not block",
      { where: 'pr-own', failOn: 'new', findings: [STEADY(), SHELL()], verdict: 'fail' },
      'fail',
      /^1 open finding at or above high \(1 high\)$/
    ],
    [
      "a PR, fail_on any, changing the agent, missing main's weaknesses: presumed present (its lineage) until a confirmation",
      { where: 'pr-lineage', failOn: 'any', findings: [], verdict: 'pass' },
      'fail',
      /^1 critical not reproduced in this run, seen in 2 of the last 2 runs, still open; 1 high not reproduced in this run, seen in 1 of the last 2 runs, still open$/
    ],
    [
      "a PR, fail_on new, changing the agent, missing main's weaknesses: known to main, they do not block",
      { where: 'pr-lineage', failOn: 'new', findings: [], verdict: 'pass' },
      'pass',
      /no open findings/
    ],
    [
      'a pass with evidence that could not be read: incomplete, with the reason',
      { where: 'pr', failOn: 'new', findings: [STEADY()], verdict: 'fail', gaps: ['recorded run r9 could not be read (HTTP 404)'] },
      'incomplete',
      /^evidence incomplete: recorded run r9 could not be read \(HTTP 404\)$/
    ],
    [
      'a fail with evidence that could not be read: still a fail',
      { where: 'main', failOn: 'any', findings: [STEADY()], verdict: 'fail', gaps: ['the caches list was refused'] },
      'fail',
      /^1 open finding at or above high/
    ]
  ])('%s', (_name, c, result, reason) => {
    const { decision } = gate(c)
    expect(decision.result).toBe(result)
    expect(decision.reason).toMatch(reason)
  })

  it("a PR missing main's flaky weakness lists it as not reproduced (3 of 5 runs of main), never gone", () => {
    const { policy } = gate({ where: 'pr', failOn: 'new', findings: [STEADY()], verdict: 'fail' })
    expect(policy.evidence.notReproduced.map((n) => [n.category, n.rate])).toEqual([['jailbreak', { seen: 3, of: 5, scope: 'main' }]])
    expect(policy.evidence.closedSince).toEqual([])
  })
})
