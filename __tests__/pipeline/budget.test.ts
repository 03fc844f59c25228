import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { ServiceError } from '../../src/util/errors.js'
import {
  budgetLine,
  dateInText,
  explainAssessmentLimit,
  findResetDate,
  firstOfNextMonth,
  type RefusalLike
} from '../../src/pipeline/budget.js'

const NOW = Date.UTC(2026, 10, 21, 14, 3) // 2026-11-21 14:03 UTC
const refusal = (over: Partial<RefusalLike>): RefusalLike => ({ extra: {}, serviceMessage: 'refused', ...over })

describe('budgetLine', () => {
  test.each([
    [
      { kind: 'assessed' as const, runId: 'r_1', sha: 'a'.repeat(40) },
      1,
      'Assessments spent by this step: 1 (assessed run r_1 of aaaaaaa).'
    ],
    [{ kind: 'assessed' as const, runId: null, sha: null }, 1, 'Assessments spent by this step: 1 (assessed).'],
    [
      { kind: 'carried_over' as const, assessedSha: 'b'.repeat(40) },
      0,
      'Assessments spent by this step: 0 (result carried over from the assessment of bbbbbbb).'
    ],
    [
      { kind: 'not_assessed' as const, reason: 'the deployment is pending\n::error::x' },
      0,
      'Assessments spent by this step: 0 (not assessed: the deployment is pending ::error::x).'
    ],
    [
      { kind: 'assessed' as const, runId: 'r_3', sha: null, changeRuns: 2, confirmationRuns: 1 },
      4,
      'Assessments spent by this step: 4 (assessed run r_3; 2 further full runs of this agent change (runs_per_change); 1 confirmation run).'
    ],
    [
      {
        kind: 'assessed' as const,
        runId: 'r_5',
        sha: null,
        confirmationRuns: 9,
        confirmationPlan: 'confirming 2 weaknesses: up to 9 focused runs'
      },
      10,
      'Assessments spent by this step: 10 (assessed run r_5; 9 confirmation runs (confirming 2 weaknesses: up to 9 focused runs)).'
    ],
    [
      {
        kind: 'assessed' as const,
        runId: 'r_6',
        sha: null,
        confirmationRuns: 0,
        confirmationPlan: 'confirming 1 weakness: no run allowed'
      },
      1,
      'Assessments spent by this step: 1 (assessed run r_6; 0 confirmation runs (confirming 1 weakness: no run allowed)).'
    ],
    [
      { kind: 'assessed' as const, runId: 'r_4', sha: null, changeRuns: 1 },
      2,
      'Assessments spent by this step: 2 (assessed run r_4; 1 further full run of this agent change (runs_per_change)).'
    ],
    [
      { kind: 'assessed' as const, runId: 'r_2', sha: null, reason: 'the head\nchanged' },
      1,
      'Assessments spent by this step: 1 (assessed run r_2: the head changed).'
    ],
    [
      { kind: 'assessed' as const, runId: 'r'.repeat(100), sha: null },
      1,
      `Assessments spent by this step: 1 (assessed run ${'r'.repeat(77)}...).`
    ],
    [
      { kind: 'assessed' as const, runId: null, sha: null, reason: 'w'.repeat(400) },
      1,
      `Assessments spent by this step: 1 (assessed: ${'w'.repeat(297)}...).`
    ],
    [
      { kind: 'not_assessed' as const, reason: 'the service refused (HTTP 403 x)' },
      0,
      'Assessments spent by this step: 0 (not assessed: the service refused, HTTP 403 x).'
    ],
    [{ kind: 'not_assessed' as const, reason: 'a (b) c (d (e))' }, 0, 'Assessments spent by this step: 0 (not assessed: a (b) c (d (e))).'],
    [{ kind: 'not_assessed' as const, reason: 'x(y)' }, 0, 'Assessments spent by this step: 0 (not assessed: x(y)).'],
    [
      { kind: 'not_assessed' as const, reason: 'n'.repeat(400) },
      0,
      `Assessments spent by this step: 0 (not assessed: ${'n'.repeat(297)}...).`
    ]
  ])('%j', (spend, spent, line) => {
    expect(budgetLine(spend)).toEqual({ spent, why: spend.kind, line })
  })
})

describe('explainAssessmentLimit: 403 monthly allowance', () => {
  const cases: [string, RefusalLike, string | null][] = [
    [
      'allowance_exhausted with resets_on',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { resets_on: '2026-12-01' } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC). Waiting within this job will not help."
    ],
    [
      'a date in a field of another name',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { next_period: '2026-12-01T00:00:00Z' } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC). Waiting within this job will not help."
    ],
    [
      'a nested field with a time and an offset',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { allowance: { reset_at: '2026-12-01T02:00:00+02:00' } } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC). Waiting within this job will not help."
    ],
    [
      'epoch seconds under a reset-like key',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { resets_at: Date.UTC(2026, 11, 1, 6) / 1000 } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 06:00 UTC. Waiting within this job will not help."
    ],
    [
      'the date in the message only (unknown code)',
      refusal({ status: 403, serviceMessage: 'Monthly allowance exhausted; resets on December 1, 2026' }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC). Waiting within this job will not help."
    ],
    [
      'a period start in the past is not the reset date',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { period_start: '2026-11-01', resets: '1 Dec 2026' } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC). Waiting within this job will not help."
    ],
    [
      'only a date in the past: not taken',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { period_start: '2026-11-01' } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC; the 1st of next month, as the answer named no date). Waiting within this job will not help."
    ],
    [
      // Not two reset dates side by side: the one the service gave is said to be past, the 1st of next month given instead.
      'a reset date the service gave that is past: said so',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { resets_on: '2026-11-01' } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC; the 1st of next month: the reset date the service gave is already past). Waiting within this job will not help."
    ],
    [
      'a past reset date in the message: said so',
      refusal({ status: 403, code: 'allowance_exhausted', serviceMessage: 'Monthly allowance spent; it resets on 2026-10-01.' }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC; the 1st of next month: the reset date the service gave is already past). Waiting within this job will not help."
    ],
    [
      'no date: the 1st of next month, said so',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { resets_on: 'soon' } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC; the 1st of next month, as the answer named no date). Waiting within this job will not help."
    ],
    [
      'not a real day',
      refusal({ status: 403, code: 'allowance_exhausted', extra: { resets_on: '2026-02-30' } }),
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC; the 1st of next month, as the answer named no date). Waiting within this job will not help."
    ],
    [
      'the evaluation ceiling',
      refusal({ status: 403, code: 'evaluation_ceiling' }),
      "The evaluation workspace has reached its assessment ceiling: only the service's operator lifts it (waiting does not)."
    ],
    [
      'missing scope is not a budget matter',
      refusal({ status: 403, code: 'insufficient_scope', extra: { resets_on: '2026-12-01' } }),
      null
    ],
    ['trial focus is not a budget matter', refusal({ status: 403, code: 'trial_focus_not_included' }), null],
    ['an unknown 403 without a date or allowance word', refusal({ status: 403, serviceMessage: 'forbidden' }), null],
    ['a 404', refusal({ status: 404, code: 'not_found' }), null]
  ]
  test.each(cases)('%s', (_name, err, expected) => {
    expect(explainAssessmentLimit(err, NOW)).toBe(expected)
  })
})

describe('explainAssessmentLimit: 429', () => {
  test.each([
    [
      'daily budget with Retry-After',
      refusal({ status: 429, code: 'daily_budget_exhausted', retryAfterMs: 3 * 3600_000 }),
      'The daily assessment budget is used up; the service asks to retry after 3 h 0 min (2026-11-21 17:03 UTC).'
    ],
    [
      'daily budget without Retry-After',
      refusal({ status: 429, code: 'daily_budget_exhausted' }),
      'The daily assessment budget is used up; the answer gave no Retry-After.'
    ],
    [
      'per-minute limit',
      refusal({ status: 429, code: 'rate_limited', retryAfterMs: 30_000 }),
      "The service's per-minute trigger limit was reached; the service asks to retry after 30 s (2026-11-21 14:03 UTC)."
    ],
    [
      'unknown code',
      refusal({ status: 429, retryAfterMs: 120_000 }),
      'The service refused the trigger with HTTP 429 (the per-minute trigger limit or the daily assessment budget); the service asks to retry after 2 min 0 s (2026-11-21 14:05 UTC).'
    ]
  ])('%s', (_name, err, expected) => {
    expect(explainAssessmentLimit(err, NOW)).toBe(expected)
  })

  test('reads a ServiceError as it is', () => {
    const err = new ServiceError({
      endpoint: 'POST /api/v1/run',
      status: 429,
      code: 'daily_budget_exhausted',
      message: 'budget',
      retryAfterMs: 60_000
    })
    expect(explainAssessmentLimit(err, NOW)).toMatch(/^The daily assessment budget is used up; the service asks to retry after 1 min 0 s/)
  })
})

describe('dates', () => {
  test.each([
    ['2026-12-01', Date.UTC(2026, 11, 1)],
    ['resets 2026-12-01T05:30Z', Date.UTC(2026, 11, 1, 5, 30)],
    ['2026-12-01 05:30:10-01:00', Date.UTC(2026, 11, 1, 6, 30, 10)],
    ['Dec 1st, 2026', Date.UTC(2026, 11, 1)],
    ['1 December 2026', Date.UTC(2026, 11, 1)],
    ['2026-13-01', null],
    ['no date', null]
  ])('dateInText(%j)', (text, expected) => {
    expect(dateInText(text)).toBe(expected)
  })

  test('firstOfNextMonth rolls over the year', () => {
    expect(firstOfNextMonth(Date.UTC(2026, 11, 31, 23, 59))).toBe('2027-01-01')
  })

  test('never throws and gives one line, whatever the body', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (extra, message) => {
        const found = findResetDate(extra, message, NOW)
        if (found !== null) expect(found).toMatch(/^\d{4}-\d\d-\d\d( \(UTC\)| \d\d:\d\d UTC)$/)
        const line = explainAssessmentLimit({ status: 403, extra, serviceMessage: message }, NOW)
        if (line !== null) expect(line).not.toMatch(/\n/)
      })
    )
  })
})
