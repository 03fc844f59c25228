/**
 * The edges of confirmation, one row per rule: a rate never below the floor
 * whatever counts it is given, m for a rate of one or more, the first of
 * equally demanding weaknesses of a category names the plan, and the
 * singular in the line of a weakness reproduced after one clean run.
 */
import { describe, expect, it } from '@jest/globals'
import {
  afterRun,
  confirmationNeeds,
  confirmationLine,
  planConfirmations,
  RATE_FLOOR,
  runsToConfirm,
  runsUpTo,
  seenAtLeast,
  startTally
} from '../../src/evidence/confirmation-rule.js'

describe('confirmationNeeds: never below the floor, never NaN', () => {
  it.each<[string, number, number]>([
    ['a negative count of sightings', -1, 5],
    ['sightings that are not a number', Number.NaN, 5],
    ['no sighting', 0, 5],
    ['more sightings than runs', 6, 5],
    ['runs that are not a number', 3, Number.NaN]
  ])('%s: the floor', (_name, seen, of) => {
    expect(confirmationNeeds(seen, of, 0.95)).toEqual({ r: RATE_FLOOR, needed: 9 })
  })
})

describe('seenAtLeast: a weakness landing every time', () => {
  it.each<[string, number, number, number]>([
    ['seen in every run: certain', 3, 3, 1],
    ['seen in fewer runs than there were: certain', 2, 3, 1],
    ['seen more often than there were runs: impossible', 4, 3, 0]
  ])('%s', (_name, k, n, want) => {
    expect(seenAtLeast(k, n, 1)).toBe(want)
  })
})

describe('runsToConfirm: at a rate of one or more, one run', () => {
  it.each<[number, number]>([
    [1, 0.95],
    [1.5, 0.95],
    [2, 0.99]
  ])('r = %f at %f: 1', (r, confidence) => {
    expect(runsToConfirm(r, confidence)).toBe(1)
  })
})

describe('planConfirmations: of equally demanding weaknesses, the first names the rate', () => {
  it('ties keep the first', () => {
    const [plan] = planConfirmations(
      [
        { category: 'jailbreak', fingerprint: 'a', rate: { seen: 2, of: 5, scope: 'main' } },
        { category: 'jailbreak', fingerprint: 'b', rate: { seen: 2, of: 5, scope: 'agent' } }
      ],
      0.95
    )
    expect(plan.fingerprints).toEqual(['a', 'b'])
    expect(plan.rate).toEqual({ seen: 2, of: 5, scope: 'main' })
  })
})

describe('planConfirmations: a run can be focused on a category of the security lens only', () => {
  it.each<[string, string | undefined, boolean]>([
    ['the security lens', 'security', true],
    ['no lens given', undefined, true],
    ['the safety lens: full runs confirm it', 'safety', false]
  ])('%s', (_name, lens, focusable) => {
    const [plan] = planConfirmations([{ category: 'jailbreak', fingerprint: 'a', rate: { seen: 1, of: 5, scope: 'main' }, lens }], 0.95)
    expect(plan.focusable).toBe(focusable)
  })
})

describe('runsUpTo: focused runs are bound by the focusable plans, full runs by the others', () => {
  const plan = (category: string, needed: number, focusable: boolean) => ({
    ...planConfirmations([{ category, fingerprint: category, rate: { seen: 1, of: 5, scope: 'main' as const } }], 0.95)[0],
    needed,
    focusable
  })
  it.each<[string, ReturnType<typeof plan>[], number, { focused: number; full: number }]>([
    ['a focusable plan of 3 and another lens of 9', [plan('jailbreak', 3, true), plan('toxicity', 9, false)], 30, { focused: 3, full: 9 }],
    ['another lens of 9 only', [plan('toxicity', 9, false)], 30, { focused: 0, full: 9 }],
    ['focusable plans of 3 and 5', [plan('jailbreak', 3, true), plan('prompt_injection', 5, true)], 30, { focused: 5, full: 0 }],
    ['within the bound, focused first', [plan('jailbreak', 3, true), plan('toxicity', 9, false)], 7, { focused: 3, full: 4 }]
  ])('%s', (_name, plans, maxRuns, want) => {
    expect(runsUpTo(plans, maxRuns)).toEqual(want)
  })
})

describe('confirmationLine: a weakness reproduced', () => {
  it.each<[string, ('clean' | 'reproduced')[], string]>([
    ['at once', ['reproduced'], 'after 0 clean runs'],
    ['after one clean run', ['clean', 'reproduced'], 'after 1 clean run;'],
    ['after two', ['clean', 'clean', 'reproduced'], 'after 2 clean runs']
  ])('%s', (_name, outcomes, words) => {
    const [plan] = planConfirmations([{ category: 'jailbreak', fingerprint: 'a', rate: { seen: 3, of: 5, scope: 'main' } }], 0.95)
    const t = outcomes.reduce((tally, o, i) => afterRun(tally, `c${i + 1}`, o), startTally(plan))
    expect(confirmationLine(t)).toContain(`still present (reproduced by confirmation run c${outcomes.length} ${words}`)
  })
})
