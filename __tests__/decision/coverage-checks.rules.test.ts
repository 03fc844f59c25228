/**
 * The coverage read against the run and the findings, one row per rule: a
 * completed category without a row and a known run_status that disagrees are
 * gaps (incomplete); a planned category whose worst severity no finding holds
 * is a contradiction (error); the rest are notes.
 */
import { describe, expect, it } from '@jest/globals'
import { coverageChecks } from '../../src/decision/coverage-checks.js'
import { validationResult, type ValidationCounts } from '../../src/decision/validation-result.js'
import type { Finding, Severity } from '../../src/service/contract/index.js'
import { coverageRow, makeCoverage, makeFinding } from '../__fixtures__/builders.js'

const PLANNED = ['a', 'b']
const finding = (category: string, severity: Severity): Finding => makeFinding(severity, { category })

describe('coverageChecks', () => {
  it('a completed category without a row is a gap, named once', () => {
    const cov = makeCoverage([coverageRow('a', { worst_severity: null })])
    expect(coverageChecks(cov, 'completed', PLANNED, ['a', 'b', 'b'], [], 'high')).toEqual({
      errors: [],
      gaps: ['no coverage row for b'],
      notes: []
    })
  })

  it('every completed category with a row, nothing else to say: no gap', () => {
    const cov = makeCoverage([coverageRow('a', { worst_severity: null }), coverageRow('b', { worst_severity: 'low' })])
    expect(coverageChecks(cov, 'completed', PLANNED, ['a', 'b'], [], 'high')).toEqual({ errors: [], gaps: [], notes: [] })
  })

  it('a known run_status that disagrees with the run is a gap and a note; an unknown one a note only', () => {
    const known = coverageChecks(makeCoverage([], { run_status: 'running' }), 'completed', PLANNED, [], null, 'high')
    expect(known.gaps).toEqual(['the coverage reports run_status running while the run status is completed'])
    expect(known.notes).toEqual([
      'The run status (completed) and the coverage (run_status running) disagree: the two reads do not describe the same run state, so the coverage may be partial.'
    ])
    const unknown = coverageChecks(makeCoverage([], { run_status: 'paused' }), 'completed', PLANNED, [], null, 'high')
    expect(unknown.gaps).toEqual([])
    expect(unknown.notes).toEqual([
      'The coverage reports run_status "paused", a status this action does not know, while the run status is completed.'
    ])
  })

  it.each<[string, Severity | null, Finding[], Severity, 'error' | 'note' | 'none', string]>([
    ['a planned category, no finding holds its worst severity', 'high', [], 'high', 'error', 'a'],
    ['a planned category, a finding of another category only', 'critical', [finding('b', 'critical')], 'high', 'error', 'a'],
    ['a planned category, a finding of it below the threshold only', 'high', [finding('a', 'medium')], 'high', 'error', 'a'],
    ['a planned category, a finding of it at the threshold', 'high', [finding('a', 'high')], 'high', 'none', 'a'],
    ['a planned category, worst severity below the threshold', 'medium', [], 'high', 'none', 'a'],
    ['a planned category, no worst severity', null, [], 'low', 'none', 'a'],
    ['a category not planned', 'critical', [], 'high', 'note', 'z']
  ])('%s: %s', (_name, worst, findings, min, kind, category) => {
    const cov = makeCoverage([coverageRow(category, { worst_severity: worst })])
    const out = coverageChecks(cov, 'completed', PLANNED, [], findings, min)
    expect(out.gaps).toEqual([])
    expect(out.errors).toEqual(
      kind === 'error'
        ? [`coverage reports a ${worst} finding in ${category} that the findings list does not hold; the result cannot be trusted`]
        : []
    )
    expect(out.notes).toEqual(
      kind === 'note'
        ? [`The coverage reports a ${worst} finding in ${category}, a category the run did not plan, that the findings list does not hold.`]
        : []
    )
  })

  it('unreadable findings are not checked against the rows', () => {
    const cov = makeCoverage([coverageRow('a', { worst_severity: 'critical' })])
    expect(coverageChecks(cov, 'completed', PLANNED, ['a'], null, 'low')).toEqual({ errors: [], gaps: [], notes: [] })
  })
})

describe('validationResult', () => {
  const none: ValidationCounts = { total: 0, resolved: 0, stillBroken: 0, notEligible: 0, notAttempted: 0, runsListed: 0, runsScanned: 0 }
  it.each<[Partial<ValidationCounts>, boolean, boolean, string]>([
    [{}, true, false, 'Model m has no runs yet: nothing to validate.'],
    [
      { runsListed: 3, runsScanned: 2 },
      true,
      false,
      'No findings marked fixed in the 3 most recent runs of model m (2 with readable findings): nothing to validate.'
    ],
    [
      { runsListed: 1, runsScanned: 1 },
      true,
      false,
      'No findings marked fixed in the 1 most recent run of model m (1 with readable findings): nothing to validate.'
    ],
    [
      { total: 3, stillBroken: 1, notAttempted: 1, resolved: 1 },
      false,
      true,
      '3 fixed findings of model m: 1 still broken, 1 not attempted, 1 resolved. Failing: a fix does not hold.'
    ],
    [
      { total: 2, notAttempted: 1, notEligible: 1 },
      true,
      true,
      '2 fixed findings of model m: 1 not attempted, 1 not eligible. Failing: not every finding could be validated (set fail_on_incomplete: false to pass anyway).'
    ],
    [
      { total: 1, notAttempted: 1 },
      false,
      false,
      '1 fixed finding of model m: 1 not attempted. Passing: fail_on_incomplete is false, so findings not attempted do not fail the step.'
    ],
    [
      { total: 2, resolved: 1, notEligible: 1 },
      true,
      false,
      '2 fixed findings of model m: 1 resolved, 1 not eligible. Every fix that could be checked holds.'
    ]
  ])('%j, fail_on_incomplete %s: failed %s', (over, failOnIncomplete, failed, reason) => {
    expect(validationResult({ ...none, ...over }, { model: 'm', failOnIncomplete })).toEqual({ failed, reason })
  })

  it('a fix that does not hold fails whatever fail_on_incomplete says', () => {
    expect(validationResult({ ...none, total: 1, stillBroken: 1 }, { model: 'm', failOnIncomplete: false }).failed).toBe(true)
    expect(validationResult({ ...none, stillBroken: 1 }, { model: 'm', failOnIncomplete: false }).failed).toBe(true)
  })
})
