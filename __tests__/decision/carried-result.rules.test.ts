/**
 * The step of a run that assessed nothing: a carried-over result passes only
 * when it carries a pass, a skipped deployment is not a failure, and a
 * cancelled step never passes. And the verdict inputs a carried result must
 * share: every one that decides the verdict, the baseline run with fail_on new.
 */
import { describe, expect, it } from '@jest/globals'
import { carriedStepResult, skippedStepResult, verdictInputs } from '../../src/decision/carried-result.js'
import { policyDigest } from '../../src/pipeline/identity.js'
import type { RecordedResult } from '../../src/report/comment.js'

describe('carriedStepResult', () => {
  it.each<[RecordedResult, boolean, 'pass' | 'fail', 'error' | undefined, string]>([
    ['pass', false, 'pass', undefined, 'Result: pass: carried'],
    ['fail', false, 'fail', undefined, 'Result: fail: carried'],
    ['incomplete', false, 'fail', 'error', 'Result: error: incomplete is not a verdict to carry over (carried)'],
    ['error', false, 'fail', 'error', 'Result: error: error is not a verdict to carry over (carried)'],
    ['pass', true, 'fail', 'error', 'Result: error: the step was cancelled before it finished (carried)'],
    ['fail', true, 'fail', 'error', 'Result: error: the step was cancelled before it finished (carried)']
  ])('%s, cancelled %s: %s', (result, cancelled, outcome, resultOutput, line) => {
    const step = carriedStepResult({ result, reason: 'carried' }, { cancelled })
    expect(step).toEqual(resultOutput === undefined ? { outcome, line } : { outcome, resultOutput, line })
  })
})

describe('skippedStepResult', () => {
  it('is not a failure, and says it is not a pass of the agent', () => {
    expect(skippedStepResult('not ready', { cancelled: false })).toEqual({
      outcome: 'pass',
      line: 'Result: skipped: not ready (0 assessments spent; not a pass of the agent)'
    })
  })
  it('a cancelled step never passes', () => {
    expect(skippedStepResult('not ready', { cancelled: true })).toEqual({
      outcome: 'fail',
      resultOutput: 'error',
      line: 'Result: error: the step was cancelled before it finished'
    })
  })
})

type Inputs = Parameters<typeof verdictInputs>[0]

describe('verdictInputs', () => {
  const base: Inputs = {
    minSeverity: 'high',
    categories: ['a', 'b'],
    failOn: 'any',
    failOnIncomplete: true,
    acceptedText: null,
    baselineRunId: null,
    evidenceRuns: 5,
    evidenceMaxAgeDays: 30,
    confidence: 0.95,
    confirmationRunsMax: 30,
    runsPerChange: 1
  }

  it('names every input that decides the verdict', () => {
    expect(verdictInputs(base)).toEqual({
      min_severity: 'high',
      categories: 'a,b',
      fail_on: 'any',
      fail_on_incomplete: 'true',
      accepted_risks: '-',
      baseline: '-',
      evidence_runs: '5',
      evidence_max_age_days: '30',
      confidence: '0.95',
      confirmation_runs_max: '30',
      runs_per_change: '1'
    })
    expect(verdictInputs({ ...base, failOn: 'new', failOnIncomplete: false, acceptedText: 'x: 1', baselineRunId: 'run_9' })).toEqual({
      min_severity: 'high',
      categories: 'a,b',
      fail_on: 'new',
      fail_on_incomplete: 'false',
      accepted_risks: 'x: 1',
      baseline: 'run_9',
      evidence_runs: '5',
      evidence_max_age_days: '30',
      confidence: '0.95',
      confirmation_runs_max: '30',
      runs_per_change: '1'
    })
  })

  it.each<[string, Partial<Inputs>]>([
    ['evidence_runs', { evidenceRuns: 1 }],
    ['evidence_max_age_days', { evidenceMaxAgeDays: 7 }],
    ['evidence_runs with fail_on new', { evidenceRuns: 10, failOn: 'new' }]
  ])('another %s is another policy: the window decides which runs count', (_n, over) => {
    const digest = (o: Partial<Inputs>): string => policyDigest(verdictInputs({ ...base, ...o }))
    expect(digest(over)).not.toBe(digest({ failOn: over.failOn ?? base.failOn }))
  })

  it('with fail_on new the baseline run is part of the digest: another baseline is another policy', () => {
    const digest = (over: Partial<Inputs>): string => policyDigest(verdictInputs({ ...base, ...over }))
    expect(digest({ failOn: 'new', baselineRunId: 'run_1' })).not.toBe(digest({ failOn: 'new', baselineRunId: 'run_2' }))
    expect(digest({ failOn: 'new', baselineRunId: 'run_1' })).not.toBe(digest({ failOn: 'new', baselineRunId: null }))
    expect(verdictInputs({ ...base, failOn: 'new', baselineRunId: null }).baseline).toBe('-')
    // With fail_on any the baseline decides nothing, so it does not stop a carry-over.
    expect(digest({ failOn: 'any', baselineRunId: 'run_1' })).toBe(digest({ failOn: 'any', baselineRunId: 'run_2' }))
  })

  it.each<[string, Partial<Inputs>]>([
    ['min_severity', { minSeverity: 'critical' }],
    ['categories', { categories: ['a'] }],
    ['fail_on', { failOn: 'new' }],
    ['fail_on_incomplete', { failOnIncomplete: false }],
    ['the accepted-risks file', { acceptedText: '' }],
    // A pull request that lowers how a fix is confirmed decides a pass the default branch's policy would not carry.
    ['confidence', { confidence: 0.51 }],
    ['confirmation_runs_max', { confirmationRunsMax: 1 }],
    ['runs_per_change', { runsPerChange: 2 }]
  ])('another %s gives another digest', (_name, over) => {
    expect(policyDigest(verdictInputs({ ...base, ...over }))).not.toBe(policyDigest(verdictInputs(base)))
  })
})
