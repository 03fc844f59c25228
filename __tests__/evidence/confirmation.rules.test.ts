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
