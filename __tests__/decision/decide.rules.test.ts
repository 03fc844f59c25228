/**
 * decide()'s whole answer for the results that are not a pass: the result,
 * the reason a person reads first, and that an error or a fail carries no
 * made-up verdict or note. One row per rule of decide.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { decide, type DecideInput } from '../../src/decision/decide.js'
import { coverageRow, makeCoverage, makeFinding } from '../__fixtures__/builders.js'

const planned = ['a', 'b']
const base: DecideInput = {
  status: 'completed',
  verdict: 'pass',
  minSeverity: 'high',
  categoriesPlanned: planned,
  categoriesCompleted: planned,
  ingestIncomplete: false,
  findings: [],
  coverageReadable: true
}
const run = (over: Partial<DecideInput>) => decide({ ...base, ...over })

describe('a run that never ended is an error, and says how far it got', () => {
  it.each<[Partial<DecideInput>, string]>([
    [{ status: 'running', categoriesCompleted: ['a'] }, 'the run had not ended; 1 of 2 categories reached'],
    [
      { status: 'queued', categoriesCompleted: [] },
      'the run had not ended: its status is "queued", not a terminal status; 0 of 2 categories reached'
    ],
    [{ status: 'running', timedOut: true }, 'timeout_minutes ran out while the run was still running; 2 of 2 categories reached'],
    [
      { status: 'paused', aborted: true },
      'the step was cancelled while the run was still "paused" (not a terminal status); 2 of 2 categories reached'
    ],
    [
      { status: 'running', statusReadError: 'HTTP 503' },
      'the run status could no longer be read while the run was still running: HTTP 503; 2 of 2 categories reached'
    ],
    [{ status: 'running', categoriesPlanned: ['a'], categoriesCompleted: ['a'] }, 'the run had not ended; 1 of 1 category reached']
  ])('%j: %s', (over, reason) => {
    expect(run(over)).toMatchObject({ result: 'error', reason, verdict: null, verdictComputed: false, notes: [] })
  })

  it('a status that could not be read at all', () => {
    expect(run({ status: null, statusReadError: 'HTTP 500' })).toMatchObject({
      result: 'error',
      reason: 'the run status could not be read: HTTP 500',
      verdict: null,
      verdictComputed: false,
      notes: []
    })
    expect(run({ status: null }).reason).toBe('the run status could not be read')
  })
})

describe('no verdict and no findings: an error', () => {
  it('says the result cannot be trusted, with no verdict', () => {
    expect(run({ verdict: null, findings: null })).toMatchObject({
      result: 'error',
      reason: 'the service gave no verdict and the findings could not be read, so the result cannot be trusted',
      verdict: null,
      verdictComputed: false,
      notes: []
    })
  })
})

describe('a fail stands, and says what it rests on', () => {
  it.each<[Partial<DecideInput>, string]>([
    [
      { verdict: 'fail', findings: [makeFinding('high'), makeFinding('critical'), makeFinding('low')] },
      '2 open findings at or above high (1 critical, 1 high)'
    ],
    [{ verdict: 'fail', findings: [makeFinding('low')] }, "the service's verdict is fail at high"],
    [{ verdict: 'fail', findings: null }, "the service's verdict is fail at high"]
  ])('%j: %s', (over, reason) => {
    expect(run(over)).toMatchObject({ result: 'fail', reason, notes: [] })
  })

  it('an expired acceptance beside a fail is said as a note', () => {
    expect(
      run({ verdict: 'fail', findings: [makeFinding('high')], expiredAcceptances: ['x (2026-01-01)', 'y (2026-02-01)'] }).notes
    ).toEqual(['Also: expired acceptances (renew or remove): x (2026-01-01); y (2026-02-01).'])
  })

  it('a fail in a run the step stopped is an error that says both', () => {
    expect(run({ verdict: 'fail', findings: [makeFinding('high')], abortedAfterRun: true }).reason).toBe(
      'the step was cancelled while the results were read; 1 open finding at or above high (1 high) in what it reached'
    )
  })
})

describe('no fail, but not a pass', () => {
  it('one expired acceptance fails the gate, named', () => {
    expect(run({ expiredAcceptances: ['x (2026-01-01)'] })).toMatchObject({
      result: 'fail',
      reason: 'expired acceptance (renew or remove): x (2026-01-01)',
      notes: []
    })
  })

  it('a run the step stopped is an error that says why it stopped first, then what it reached (never "coverage incomplete" when all was reached)', () => {
    expect(run({ timedOut: true })).toMatchObject({
      result: 'error',
      reason: 'timeout_minutes ran out and the run was cancelled; 2 of 2 categories reached'
    })
    expect(run({ timedOut: true }).reason).not.toMatch(/coverage incomplete/)
  })

  it('unreadable findings or coverage: an error that names the gap', () => {
    expect(run({ findings: null })).toMatchObject({
      result: 'error',
      reason: 'the result cannot be trusted: the findings could not be read'
    })
    expect(run({ coverageReadable: false })).toMatchObject({
      result: 'error',
      reason: 'the result cannot be trusted: the coverage could not be read'
    })
  })

  it('a clean pass carries no note', () => {
    expect(run({})).toMatchObject({
      result: 'pass',
      reason: 'no open findings at or above high; all 2 planned categories covered',
      verdict: 'pass',
      verdictComputed: false,
      notes: []
    })
  })
})

describe('a weakness an earlier run saw and this run did not reproduce', () => {
  const unreproduced = [{ severity: 'high' as const, rate: { seen: 2, of: 3, scope: 'main' as const } }]
  const line = '1 high not reproduced in this run, seen in 2 of the last 3 runs, still open'

  it.each<[string, Partial<DecideInput>, Partial<ReturnType<typeof decide>>]>([
    [
      'turns a service pass into a fail, and the verdict is then not the service’s',
      { unreproduced },
      { result: 'fail', reason: line, verdict: 'fail', verdictComputed: true }
    ],
    [
      'stands beside open findings of this run, after them',
      { verdict: 'fail', findings: [makeFinding('high')], unreproduced },
      { result: 'fail', reason: `1 open finding at or above high (1 high); ${line}`, verdict: 'fail', verdictComputed: false }
    ],
    [
      'beside a service fail with nothing open now: only the weakness is said',
      { verdict: 'fail', findings: [makeFinding('low')], unreproduced },
      { result: 'fail', reason: line, verdict: 'fail', verdictComputed: false }
    ],
    [
      'cannot make a verdict out of nothing: no verdict and no findings stay an error',
      { verdict: null, findings: null, unreproduced },
      { result: 'error', verdict: null, verdictComputed: false }
    ]
  ])('%s', (_name, over, expected) => {
    expect(run(over)).toMatchObject(expected)
  })
})

describe('the run ended, but the step stopped it: an error that says why, once each', () => {
  it.each<[Partial<DecideInput>, string]>([
    [
      { status: 'cancelled', aborted: true, abortedAfterRun: true },
      'the step was cancelled and the run with it; 2 of 2 categories reached'
    ],
    [{ abortedAfterRun: true }, 'the step was cancelled while the results were read; 2 of 2 categories reached'],
    [
      { status: 'cancelled', statusReadError: 'HTTP 503', categoriesCompleted: ['a'] },
      'the run status could no longer be read, so the run was cancelled: HTTP 503; coverage incomplete: 1 of 2 categories reached; missing b'
    ],
    [
      {
        status: 'cancelled',
        timedOut: true,
        coverage: makeCoverage([coverageRow('a'), coverageRow('b', { worst_severity: null })], { run_status: 'cancelled' })
      },
      'timeout_minutes ran out and the run was cancelled; 2 of 2 categories reached; coverage reports a high finding in a that the findings list does not hold; the result cannot be trusted'
    ]
  ])('%j: %s', (over, reason) => {
    expect(run(over)).toMatchObject({ result: 'error', reason })
  })
})

describe('what else is wrong beside a fail or an expired acceptance is said as a note', () => {
  it('a coverage gap beside a fail', () => {
    const d = run({ verdict: 'fail', findings: [makeFinding('high', { category: 'a' })], coverage: makeCoverage([coverageRow('a')]) })
    expect(d).toMatchObject({ result: 'fail', notes: ['Also: no coverage row for b.'] })
  })

  it('the gaps beside an expired acceptance', () => {
    const d = run({ expiredAcceptances: ['x (2026-01-01)'], categoriesCompleted: ['a'], ingestIncomplete: true })
    expect(d).toMatchObject({
      result: 'fail',
      reason: 'expired acceptance (renew or remove): x (2026-01-01)',
      notes: ['Also: missing b.', 'Also: the service reports ingest incomplete.']
    })
  })
})

describe('every gap and contradiction is named, in order, each once', () => {
  it.each<[Partial<DecideInput>, string, string]>([
    [
      { findings: null, coverageReadable: false },
      'error',
      'the result cannot be trusted: the findings could not be read, the coverage could not be read'
    ],
    [
      { baselineUncovered: ['a', 'b'], ingestIncomplete: null },
      'incomplete',
      'coverage incomplete: 2 of 2 categories reached, the baseline covered a, b, this run did not, the run list item could not be read to confirm ingest completed'
    ],
    [
      {
        coverage: makeCoverage([coverageRow('a'), coverageRow('b', { worst_severity: 'critical' })])
      },
      'error',
      'coverage reports a high finding in a that the findings list does not hold; the result cannot be trusted; coverage reports a critical finding in b that the findings list does not hold; the result cannot be trusted'
    ],
    [{ categoriesPlanned: ['a'], categoriesCompleted: ['a'] }, 'pass', 'no open findings at or above high; all 1 planned category covered']
  ])('%j: %s, %s', (over, result, reason) => {
    expect(run(over)).toMatchObject({ result, reason })
  })
})
