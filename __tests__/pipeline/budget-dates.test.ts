/**
 * Where a refusal's reset date is read from, one row per rule: reset-like
 * fields first, epoch numbers only under them, a bounded walk of the body, a
 * plausible window around now, and the two forms of the answer (a day at
 * midnight UTC, else a minute).
 */
import { describe, expect, test } from '@jest/globals'
import { dateInText, explainAssessmentLimit, findResetDate, pastResetDate, type RefusalLike } from '../../src/pipeline/budget.js'

const MIDNIGHT = Date.UTC(2026, 10, 21) // 2026-11-21 00:00 UTC
const DAY = 86_400_000

describe('findResetDate: which field', () => {
  const filler = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, 'x']))
  test.each<[string, Record<string, unknown>, string, string | null]>([
    ['a reset-like field before an earlier field of another name', { created: '2026-11-25', resets: '2026-12-01' }, '', '2026-12-01 (UTC)'],
    ['a date in a field of no reset-like name', { detail: 'it ends 2026-12-01' }, '', '2026-12-01 (UTC)'],
    ['a field before the message', { resets: '2026-12-01' }, 'resets 2026-12-02', '2026-12-01 (UTC)'],
    ['the message when no field has one', { resets: 'soon' }, 'resets 2026-12-02', '2026-12-02 (UTC)'],
    ['epoch seconds under a nested reset-like key', { reset: { at: Date.UTC(2026, 11, 1, 6) / 1000 } }, '', '2026-12-01 06:00 UTC'],
    ['epoch milliseconds under a reset-like key', { resets_at: Date.UTC(2026, 11, 1, 6) }, '', '2026-12-01 06:00 UTC'],
    ['no epoch number under another key', { count: Date.UTC(2026, 11, 1, 6) / 1000 }, '', null],
    ['three levels deep', { a: { b: { resets: '2026-12-01' } } }, '', '2026-12-01 (UTC)'],
    ['not four levels deep', { a: { b: { c: { resets: '2026-12-01' } } } }, '', null],
    ['not past the 50th field of an object', { ...filler, resets: '2026-12-01' }, '', null],
    ['not past 200 characters of a field', { resets: `${'x'.repeat(190)} 2026-12-01` }, '', null],
    ['within 200 characters of a field', { resets: `${'x'.repeat(189)} 2026-12-01` }, '', '2026-12-01 (UTC)'],
    ['not past 1000 characters of the message', {}, `${'x'.repeat(990)} 2026-12-01`, null],
    ['within 1000 characters of the message', {}, `${'x'.repeat(989)} 2026-12-01`, '2026-12-01 (UTC)']
  ])('%s', (_name, extra, message, expected) => {
    expect(findResetDate(extra, message, MIDNIGHT)).toBe(expected)
  })
})

describe('findResetDate: a day ago to 400 days ahead', () => {
  test.each<[string, number, string | null]>([
    ['a day ago', MIDNIGHT - DAY, '2026-11-20 (UTC)'],
    ['a minute more than a day ago', MIDNIGHT - DAY - 60_000, null],
    ['400 days ahead', MIDNIGHT + 400 * DAY, '2027-12-26 (UTC)'],
    ['a minute more than 400 days ahead', MIDNIGHT + 400 * DAY + 60_000, null]
  ])('%s', (_name, at, expected) => {
    expect(findResetDate({ resets_at: at }, '', MIDNIGHT)).toBe(expected)
  })
})

describe('pastResetDate: only a reset date more than a day past (the dates findResetDate does not take)', () => {
  test.each<[string, Record<string, unknown>, string, string | null]>([
    ['a reset-like field two days ago', { resets_at: MIDNIGHT - 2 * DAY }, '', '2026-11-19'],
    ['a reset-like field exactly a day ago (findResetDate takes it)', { resets_at: MIDNIGHT - DAY }, '', null],
    ['a reset-like field an hour ago', { resets_at: MIDNIGHT - 3_600_000 }, '', null],
    ['a reset-like field more than 400 days ahead (too far, but not past)', { resets_at: MIDNIGHT + 500 * DAY }, '', null],
    ['a field of another name two days ago (a period start is no reset date)', { created: '2026-11-19' }, '', null],
    ['a message speaking of a reset two days ago', {}, 'it reset on 2026-11-19', '2026-11-19'],
    ['a message two days ago that speaks of no reset', {}, 'since 2026-11-19', null]
  ])('%s', (_name, extra, message, expected) => {
    expect(pastResetDate(extra, message, MIDNIGHT)).toBe(expected)
  })

  test('a 403 whose only date is too far ahead reads as naming no date, not as a past one', () => {
    const err: RefusalLike = { status: 403, code: 'allowance_exhausted', extra: { resets_at: '2028-06-01' }, serviceMessage: 'refused' }
    expect(explainAssessmentLimit(err, MIDNIGHT)).toBe(
      "The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 (UTC; the 1st of next month, as the answer named no date). Waiting within this job will not help."
    )
  })
})

describe('findResetDate: what names no date adds none, even at the epoch', () => {
  test.each<[string, Record<string, unknown>, string]>([
    ['a field of no date', { resets: 'soon' }, ''],
    ['a number of no epoch', { resets_at: 5 }, ''],
    ['a message of no date', {}, 'soon']
  ])('%s', (_name, extra, message) => {
    expect(findResetDate(extra, message, 0)).toBeNull()
  })
})

describe('findResetDate: epoch numbers, seconds or milliseconds', () => {
  // Each row's now is the date itself, so only the unit decides.
  test.each<[string, number, number, string | null]>([
    ['1e9 is seconds', 1e9, 1e12, '2001-09-09 01:46 UTC'],
    ['below 1e9 is nothing', 1e9 - 1, 1e12, null],
    ['1e11 is neither', 1e11, 1e14, null],
    ['1e11 is not milliseconds either', 1e11, 1e11, null],
    ['below 1e9 is not milliseconds', 1e9 - 1, 1e9 - 1, null],
    ['1e12 is milliseconds', 1e12, 1e12, '2001-09-09 01:46 UTC'],
    ['1e14 is neither', 1e14, 1e14, null],
    ['not a finite number', Infinity, 1e12, null],
    ['seconds rounded to the millisecond', Date.UTC(2025, 11, 1) / 1000 + 2e-7, Date.UTC(2025, 11, 1), '2025-12-01 (UTC)'],
    ['milliseconds rounded', Date.UTC(2025, 11, 1) - 0.4, Date.UTC(2025, 11, 1), '2025-12-01 (UTC)']
  ])('%s', (_name, n, now, expected) => {
    expect(findResetDate({ resets_at: n }, '', now)).toBe(expected)
  })
})

describe('dateInText: the forms written', () => {
  test.each<[string, number | null]>([
    ['2026-03-05T09:07Z', Date.UTC(2026, 2, 5, 9, 7)],
    ['2026-03-05T09:07z', Date.UTC(2026, 2, 5, 9, 7)],
    ['2026-03-05 09:07', Date.UTC(2026, 2, 5, 9, 7)],
    ['2026-03-05T09:07:30+0530', Date.UTC(2026, 2, 5, 3, 37, 30)],
    ['2026-03-05T09:07-01:30', Date.UTC(2026, 2, 5, 10, 37)],
    ['0099-12-01', null],
    ['2026-04-31', null],
    ['2026-02-30, or else March 5, 2026', Date.UTC(2026, 2, 5)],
    ['Mar. 5th 2026', Date.UTC(2026, 2, 5)],
    ['5th Mar. 2026', Date.UTC(2026, 2, 5)],
    ['JAN 31, 2027', Date.UTC(2027, 0, 31)],
    ['31 dec 2026', Date.UTC(2026, 11, 31)],
    ['Feb 30, 2026', null],
    ['2026-03-05 is the day', Date.UTC(2026, 2, 5)],
    ['2026-03-05T09:07:30.125+02:00', Date.UTC(2026, 2, 5, 7, 7, 30)],
    ['2026-03-051', null],
    ['2026-03-05-01', null]
  ])('%j', (text, expected) => {
    expect(dateInText(text)).toBe(expected)
  })

  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
  test.each(MONTHS.map((name, i) => [name, i] as const))('%s, month first or day first, in full or short', (name, i) => {
    expect(dateInText(`${name} 2, 2026`)).toBe(Date.UTC(2026, i, 2))
    expect(dateInText(`2 ${name.slice(0, 3).toLowerCase()}. 2026`)).toBe(Date.UTC(2026, i, 2))
  })
})

describe('explainAssessmentLimit: which 403 is about the allowance', () => {
  const NOW = Date.UTC(2026, 1, 10, 8, 5) // 2026-02-10 08:05 UTC
  const refusal = (over: Partial<RefusalLike>): RefusalLike => ({ status: 403, extra: {}, serviceMessage: 'refused', ...over })
  const usedUp = (when: string) =>
    `The workspace's monthly assessment allowance is used up; it resets on ${when}. Waiting within this job will not help.`
  const NEXT = '2026-03-01 (UTC; the 1st of next month, as the answer named no date)'
  test.each<[string, Partial<RefusalLike>, string | null]>([
    ['a message naming the quota', { serviceMessage: 'QUOTA exceeded' }, usedUp(NEXT)],
    ['a message naming the month', { serviceMessage: 'monthly limit' }, usedUp(NEXT)],
    ['a message naming the allowance', { serviceMessage: 'no allowance left' }, usedUp(NEXT)],
    ['an unknown code with a reset date', { code: 'x', extra: { resets_on: '2026-03-01' } }, usedUp('2026-03-01 (UTC)')],
    ['an unknown code with neither', { code: 'x', serviceMessage: 'refused' }, null],
    ['no scope for taxonomies', { code: 'taxonomy_not_included', extra: { resets_on: '2026-03-01' } }, null],
    ['a withheld proof', { code: 'proof_withheld', serviceMessage: 'monthly allowance' }, null],
    ['a trial focus', { code: 'trial_focus_not_included', serviceMessage: 'monthly allowance' }, null]
  ])('%s', (_name, over, expected) => {
    expect(explainAssessmentLimit(refusal(over), NOW)).toBe(expected)
  })
})
