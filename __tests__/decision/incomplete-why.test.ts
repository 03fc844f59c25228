/**
 * fail_on_incomplete waves incomplete coverage only: an
 * evidence gap (a held run that could not be read, a confirmation cut short
 * by its bound or the budget) could hide a fail, so the step fails on it
 * whatever fail_on_incomplete says. One row per (coverage, evidence) pair,
 * from decide to the step's outcome.
 */
import { describe, expect, it } from '@jest/globals'
import { decide, type DecideInput } from '../../src/decision/decide.js'
import { gateStepResult } from '../../src/decision/step-result.js'

function input(o: { missing: boolean; gaps: string[] }): DecideInput {
  return {
    status: 'completed',
    verdict: 'pass',
    minSeverity: 'high',
    categoriesPlanned: ['jailbreak', 'prompt_injection'],
    categoriesCompleted: o.missing ? ['jailbreak'] : ['jailbreak', 'prompt_injection'],
    ingestIncomplete: false,
    findings: [],
    coverageReadable: true,
    evidenceGaps: o.gaps
  }
}

const GAP = 'run r_held could not be read (HTTP 503)'

describe('why an incomplete result is incomplete, and what fail_on_incomplete false does with it', () => {
  it.each<[string, boolean, string[], 'coverage' | 'evidence' | undefined, 'pass' | 'warn' | 'fail', RegExp]>([
    ['nothing missing: a pass', false, [], undefined, 'pass', /^no open findings/],
    ['coverage alone: waved (a warning)', true, [], 'coverage', 'warn', /^coverage incomplete: 1 of 2 categories reached/],
    ['an evidence gap alone: fails', false, [GAP], 'evidence', 'fail', /^evidence incomplete: run r_held could not be read/],
    [
      'a confirmation cut short by its bound: fails',
      false,
      ["jailbreak not shown fixed: 1 of 9 clean runs (the step's bound of 1 confirmation runs)"],
      'evidence',
      'fail',
      /^evidence incomplete: jailbreak not shown fixed/
    ],
    [
      'two evidence gaps: fails, naming each',
      false,
      [GAP, 'run r_old could not be read (HTTP 503)'],
      'evidence',
      'fail',
      /^evidence incomplete: run r_held could not be read \(HTTP 503\); run r_old could not be read \(HTTP 503\)$/
    ],
    [
      'coverage and evidence both: fails, naming both',
      true,
      [GAP],
      'evidence',
      'fail',
      /^coverage incomplete: .*; evidence incomplete: run r_held/
    ]
  ])('%s', (_name, missing, gaps, why, outcome, reason) => {
    const d = decide(input({ missing, gaps }))
    expect(d.incompleteWhy).toBe(why)
    expect(d.reason).toMatch(reason)
    const step = gateStepResult(d, { failOnIncomplete: false, cancelled: false })
    expect(step.outcome).toBe(outcome)
    if (why === 'evidence') expect(step.line).toMatch(/fail_on_incomplete waves incomplete coverage only, not missing evidence\)$/)
    // fail_on_incomplete true: every incomplete fails
    if (why !== undefined) expect(gateStepResult(d, { failOnIncomplete: true, cancelled: false }).outcome).toBe('fail')
  })
})
