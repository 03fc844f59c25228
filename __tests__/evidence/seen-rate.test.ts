/** The words of a rate, the same in every rendering. */
import { describe, expect, it } from '@jest/globals'
import { notReproducedPhrases, seenLabel, seenPhrase, steadiness, type SeenRate } from '../../src/evidence/seen-rate.js'

describe('seen rates', () => {
  it.each<[SeenRate, string, string, 'steady' | 'flaky' | null]>([
    [{ seen: 4, of: 5, scope: 'main' }, '4 of 5 runs of main', 'seen in 4 of 5 runs of main', 'flaky'],
    [{ seen: 2, of: 3, scope: 'agent' }, '2 of 3 runs of this agent', 'seen in 2 of 3 runs of this agent', 'flaky'],
    [{ seen: 5, of: 5, scope: 'main' }, '5 of 5 runs of main', 'seen in 5 of 5 runs of main', 'steady'],
    [{ seen: 1, of: 9, scope: 'model' }, '1 of 9 runs of the model', 'seen in 1 of 9 runs of the model', 'flaky'],
    [{ seen: 1, of: 1, scope: 'this run' }, 'this run only', 'this run only', null]
  ])('%j reads "%s"', (rate, label, phrase, steady) => {
    expect(seenLabel(rate)).toBe(label)
    expect(seenPhrase(seenLabel(rate))).toBe(phrase)
    expect(steadiness(rate)).toBe(steady)
  })

  it('says what this run did not reproduce, one phrase per severity and rate, most severe first', () => {
    expect(
      notReproducedPhrases([
        { severity: 'medium', rate: { seen: 1, of: 5, scope: 'main' } },
        { severity: 'high', rate: { seen: 3, of: 5, scope: 'main' } },
        { severity: 'high', rate: { seen: 3, of: 5, scope: 'main' } }
      ])
    ).toEqual([
      '2 high not reproduced in this run, seen in 3 of the last 5 runs, still open',
      '1 medium not reproduced in this run, seen in 1 of the last 5 runs, still open'
    ])
  })
})
