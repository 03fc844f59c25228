/**
 * The verdict rules of src/decision/verdict.ts, one table per rule: a waiver
 * turns a service fail into a pass only when every open finding at or above
 * the threshold behind it is waived (and at least one is); a service pass
 * beside an open finding at or above the threshold fails closed; a verdict
 * computed locally counts every status but the closed ones as open.
 */
import { describe, expect, it } from '@jest/globals'
import {
  computeVerdict,
  countsAsOpen,
  describeOpen,
  quote,
  settleVerdict,
  unknownStatusNotes,
  type VerdictInput,
  type Waiver
} from '../../src/decision/verdict.js'
import type { Finding, Severity, Verdict } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const f = (id: string, severity: Severity, status = 'open'): Finding => makeFinding(severity, { finding_id: id, status })

/** settleVerdict as decide() calls it: blocking is every finding but the waived. */
function settle(
  given: Verdict | null | undefined,
  findings: Finding[] | null,
  waived: Record<string, Waiver> = {},
  minSeverity: Severity = 'high'
) {
  const map = new Map(Object.entries(waived))
  const input: VerdictInput = {
    given,
    allFindings: findings,
    blocking: findings === null ? null : findings.filter((x) => !map.has(x.finding_id)),
    waived: map,
    minSeverity
  }
  return settleVerdict(input)
}

describe('a waiver turns a service fail into a pass only when it explains the fail', () => {
  it.each<[string, Finding[], Record<string, Waiver>, Verdict]>([
    ['the only open high finding is accepted', [f('a', 'high')], { a: 'accepted' }, 'pass'],
    ['the only open high finding is known since the baseline', [f('a', 'critical')], { a: 'known' }, 'pass'],
    ['an accepted finding and an unwaived open high one', [f('a', 'high'), f('b', 'high')], { a: 'accepted' }, 'fail'],
    ['a waiver of a finding the run does not hold', [f('b', 'low')], { zzz: 'accepted' }, 'fail'],
    ['the waived finding is below the threshold', [f('a', 'medium')], { a: 'accepted' }, 'fail'],
    ['the waived finding is closed (fixed)', [f('a', 'high', 'fixed')], { a: 'accepted' }, 'fail'],
    [
      'the waived finding is dismissed, another below the threshold is open',
      [f('a', 'high', 'dismissed'), f('b', 'low')],
      { a: 'known' },
      'fail'
    ],
    ['no waiver at all and no finding behind the fail', [f('b', 'low')], {}, 'fail'],
    ['no findings at all', [], { a: 'accepted' }, 'fail'],
    ['an unwaived open high finding in an unknown status', [f('a', 'high'), f('b', 'high', 'reopened')], { a: 'accepted' }, 'fail']
  ])('%s: %s', (_name, findings, waived, verdict) => {
    expect(settle('fail', findings, waived).verdict).toBe(verdict)
  })

  it('a service fail beside open findings stands as given: not computed, no note', () => {
    expect(settle('fail', [f('a', 'high'), f('b', 'critical')], { a: 'accepted' })).toEqual({
      verdict: 'fail',
      verdictComputed: false,
      notes: []
    })
    expect(settle('fail', [f('a', 'high')])).toEqual({ verdict: 'fail', verdictComputed: false, notes: [] })
  })

  it('a waived finding counts at the threshold given, not at another', () => {
    expect(settle('fail', [f('a', 'medium')], { a: 'accepted' }, 'medium').verdict).toBe('pass')
    expect(settle('fail', [f('a', 'medium')], { a: 'accepted' }, 'high').verdict).toBe('fail')
  })

  it('unreadable findings keep the service fail, waivers or not', () => {
    expect(settle('fail', null, { a: 'accepted' })).toEqual({ verdict: 'fail', verdictComputed: false, notes: [] })
    // All findings unreadable but a blocking list given: no waiver can be shown to explain the fail.
    const waived = new Map<string, Waiver>([['a', 'accepted']])
    expect(settleVerdict({ given: 'fail', allFindings: null, blocking: [], waived, minSeverity: 'high' }).verdict).toBe('fail')
    expect(settleVerdict({ given: 'fail', allFindings: [f('a', 'high')], blocking: null, waived, minSeverity: 'high' }).verdict).toBe(
      'fail'
    )
  })

  it('the pass it becomes is marked computed and says which waivers explain it', () => {
    const s = settle('fail', [f('a', 'high'), f('b', 'critical'), f('c', 'high'), f('d', 'low')], {
      a: 'accepted',
      b: 'known',
      c: 'known',
      d: 'accepted'
    })
    expect(s).toEqual({
      verdict: 'pass',
      verdictComputed: true,
      notes: [
        "The service's verdict is fail at high on findings that do not block here: 2 known since the baseline (fail_on: new) and 1 accepted in the accepted-risks file."
      ]
    })
  })

  it.each<[Record<string, Waiver>, string]>([
    [{ a: 'accepted' }, '1 accepted in the accepted-risks file'],
    [{ a: 'known' }, '1 known since the baseline (fail_on: new)']
  ])('the note names only the kinds of waiver there are: %j', (waived, why) => {
    expect(settle('fail', [f('a', 'high')], waived).notes).toEqual([
      `The service's verdict is fail at high on findings that do not block here: ${why}.`
    ])
  })
})

describe('a service pass beside an open finding at or above the threshold fails closed', () => {
  it.each<[string, Finding[], Record<string, Waiver>, Verdict, boolean]>([
    ['an open high finding', [f('a', 'high')], {}, 'fail', true],
    ['an open critical finding in an unknown status', [f('a', 'critical', 'OPEN')], {}, 'fail', true],
    ['an open low finding only', [f('a', 'low')], {}, 'pass', false],
    ['a fixed high finding only', [f('a', 'high', 'fixed')], {}, 'pass', false],
    ['a FIXED_VERIFIED high finding only', [f('a', 'high', 'FIXED_VERIFIED')], {}, 'pass', false],
    ['an accepted open high finding', [f('a', 'high')], { a: 'accepted' }, 'pass', false],
    ['no findings', [], {}, 'pass', false]
  ])('%s: %s', (_name, findings, waived, verdict, computed) => {
    const s = settle('pass', findings, waived)
    expect(s.verdict).toBe(verdict)
    expect(s.verdictComputed).toBe(computed)
    expect(s.notes).toEqual(
      computed ? ["The service's verdict was pass, but its findings hold open findings at or above high; the gate fails closed."] : []
    )
  })

  it('unreadable findings keep the service pass (decide() makes that incomplete)', () => {
    expect(settle('pass', null)).toEqual({ verdict: 'pass', verdictComputed: false, notes: [] })
  })
})

describe('no verdict from the service', () => {
  it.each<[Verdict | null | undefined, Finding[], Verdict]>([
    [null, [f('a', 'high')], 'fail'],
    [undefined, [f('a', 'high')], 'fail'],
    [null, [f('a', 'high', 'reopened')], 'fail'],
    [null, [f('a', 'medium')], 'pass'],
    [null, [f('a', 'critical', 'dismissed')], 'pass'],
    [undefined, [], 'pass']
  ])('given %s with %j: computed %s', (given, findings, verdict) => {
    expect(settle(given, findings)).toEqual({
      verdict,
      verdictComputed: true,
      notes: [
        'The service gave no verdict; it was computed from the findings: fail if a finding at or above high is not fixed, dismissed or FIXED_VERIFIED.'
      ]
    })
  })

  it('waived findings are left out of the computed verdict', () => {
    expect(settle(null, [f('a', 'high')], { a: 'accepted' }).verdict).toBe('pass')
  })

  it.each([null, undefined])('given %s and unreadable findings: no verdict can be trusted', (given) => {
    expect(settle(given, null)).toEqual({ verdict: null, verdictComputed: false, notes: [] })
  })
})

describe('the helpers the verdict rests on', () => {
  it.each([
    ['open', true],
    ['reopened', true],
    ['OPEN', true],
    ['fixed', false],
    ['dismissed', false],
    ['FIXED_VERIFIED', false]
  ])('countsAsOpen(%s) is %s', (status, open) => {
    expect(countsAsOpen(f('x', 'high', status))).toBe(open)
  })

  it.each<[Finding[], Severity, Verdict]>([
    [[f('a', 'high')], 'high', 'fail'],
    [[f('a', 'high')], 'critical', 'pass'],
    [[f('a', 'low', 'open'), f('b', 'critical', 'fixed')], 'low', 'fail'],
    [[f('b', 'critical', 'fixed')], 'low', 'pass'],
    [[], 'low', 'pass']
  ])('computeVerdict(%j, %s) is %s', (findings, min, verdict) => {
    expect(computeVerdict(findings, min)).toBe(verdict)
  })

  it('describeOpen counts the open findings at or above the threshold, most severe first', () => {
    const fs = [f('a', 'high'), f('b', 'critical'), f('c', 'high'), f('d', 'medium'), f('e', 'critical', 'fixed'), f('g', 'low')]
    expect(describeOpen(fs, 'medium')).toBe('1 critical, 2 high, 1 medium')
    expect(describeOpen(fs, 'critical')).toBe('1 critical')
    expect(describeOpen([f('e', 'critical', 'fixed')], 'low')).toBe('')
  })

  it('quote JSON-escapes and clips to the length given', () => {
    expect(quote('ab"c')).toBe('"ab\\"c"')
    expect(quote('abcdef', 6)).toBe('"abcdef"')
    expect(quote('abcdefg', 6)).toBe('"abcde…"')
    expect(quote('x'.repeat(61))).toBe(JSON.stringify(`${'x'.repeat(59)}…`))
    expect(quote('x'.repeat(60))).toBe(JSON.stringify('x'.repeat(60)))
  })

  it('unknownStatusNotes names up to 5 findings at or above the threshold in a status it does not know', () => {
    expect(unknownStatusNotes([f('a', 'high'), f('b', 'low', 'weird'), f('c', 'high', 'fixed')], 'high')).toEqual([])
    expect(unknownStatusNotes([f('a', 'high', 'reopened')], 'high')).toEqual([
      '1 finding at or above high has a status this action does not know: "a" ("reopened"); counted as open (fail closed), since only fixed, dismissed and FIXED_VERIFIED close a finding.'
    ])
    const many = ['1', '2', '3', '4', '5', '6', '7'].map((id) => f(id, 'critical', 'OPEN'))
    expect(unknownStatusNotes(many, 'high')).toEqual([
      '7 findings at or above high have a status this action does not know: "1" ("OPEN"), "2" ("OPEN"), "3" ("OPEN"), "4" ("OPEN"), "5" ("OPEN") and 2 more; counted as open (fail closed), since only fixed, dismissed and FIXED_VERIFIED close a finding.'
    ])
    const five = many.slice(0, 5)
    expect(unknownStatusNotes(five, 'high')[0]).toContain('"5" ("OPEN"); counted')
  })
})
