/**
 * A commit status is the one line a reviewer reads in the merge box: the
 * cause, then what to do, within GitHub's 140 characters, in every outcome,
 * with the longest names a run can carry (100-character category keys,
 * 200-character reasons).
 */
import { describe, expect, it } from '@jest/globals'
import { OUTCOMES, statusLine } from '../../src/action/output-table.js'
import { gateStatus, type AssessedOutcome, type BlockingFinding } from '../../src/action/outcome.js'
import { STATUS_DESCRIPTION_MAX } from '../../src/github/commit-status.js'

const longCategory = 'c'.repeat(100)
const blocker = (i: number): BlockingFinding => ({
  findingId: `f_${i}`,
  severity: i % 2 === 0 ? 'critical' : 'high',
  category: `${longCategory.slice(0, 90)}_${i}`,
  description: 'd',
  baselineState: i % 3 === 0 ? 'known' : 'new',
  reproduced: i % 4 !== 0,
  seen: 'seen in 3 of the last 5 runs (flaky)'
})
const assessed = (n: number): AssessedOutcome =>
  ({ kind: 'assessed', result: 'fail', blocking: Array.from({ length: n }, (_, i) => blocker(i)) }) as unknown as AssessedOutcome

const CAUSES: [string, 'fail' | 'incomplete' | 'error', string][] = [
  ['352 blockers with 100-character categories', 'fail', gateStatus(assessed(352))!],
  ['one blocker', 'fail', gateStatus(assessed(1))!],
  [
    'coverage short of 40 long categories',
    'incomplete',
    `incomplete: coverage incomplete: 2 of 42 categories reached, ${Array(40).fill(longCategory).join(', ')} not completed`
  ],
  [
    'a confirmation cut short by its bound',
    'incomplete',
    `incomplete: evidence incomplete: the confirmation stopped at its bound of 30 runs (confirmation_runs_max) with ${longCategory} still open`
  ],
  [
    'a held run unreadable',
    'incomplete',
    'incomplete: evidence incomplete: run r_1 of main that saw a high weakness could not be read (503 service_unavailable, 4 tries)'
  ],
  ['a timeout', 'error', `error: timeout_minutes ran out while the run was still running; 1 of 6 categories reached: ${longCategory}`],
  ['an unreadable result', 'error', 'error: the result cannot be trusted: the findings could not be read, the coverage could not be read'],
  ['a short cause', 'error', 'error: x']
]

describe.each(CAUSES)('%s', (_name, result, cause) => {
  const status = statusLine(result, cause, true)

  it('fits in 140 characters, as GitHub counts them', () => {
    expect(Array.from(status).length).toBeLessThanOrEqual(STATUS_DESCRIPTION_MAX)
  })

  it('ends with the fix of its result, whole', () => {
    expect(OUTCOMES[result].fix).not.toBe('')
    expect(status.endsWith(` ${OUTCOMES[result].fix}`)).toBe(true)
  })

  it('leads with the cause (clipped with an ellipsis only when both do not fit)', () => {
    const head = status.slice(0, status.length - OUTCOMES[result].fix.length - 2)
    if (Array.from(cause).length + OUTCOMES[result].fix.length + 2 <= STATUS_DESCRIPTION_MAX)
      expect(head).toBe(cause.replace(/[.;:,\s]+$/, ''))
    else expect(head.endsWith('…')).toBe(true)
    expect(cause.startsWith(head.replace(/…$/, ''))).toBe(true)
  })
})

describe('a step that does not fail says no fix', () => {
  it.each([
    ['pass', 'pass: no open findings at or above high; all 6 planned categories covered'],
    ['incomplete', 'incomplete: coverage incomplete: 5 of 6 categories reached (fail_on_incomplete is false: not failing the step)']
  ] as const)('%s', (result, cause) => {
    expect(statusLine(result, cause, false)).toBe(cause)
  })
})
