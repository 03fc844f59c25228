/**
 * The words of a rate at their edges, one row per rule: a rate of one run or
 * of this run alone is "this run only" (or "not seen"), never "1 of 1 runs";
 * the phrases of what this run did not reproduce are ordered by severity,
 * then by how often seen, and one run reads "the last run".
 */
import { describe, expect, it } from '@jest/globals'
import { notReproducedPhrases, seenLabel, type SeenRate } from '../../src/evidence/seen-rate.js'

describe('seenLabel at its edges', () => {
  it.each<[SeenRate, string]>([
    [{ seen: 1, of: 1, scope: 'main' }, 'this run only'],
    [{ seen: 1, of: 1, scope: 'agent' }, 'this run only'],
    [{ seen: 1, of: 3, scope: 'this run' }, 'this run only'],
    [{ seen: 0, of: 1, scope: 'this run' }, 'not seen'],
    [{ seen: 0, of: 0, scope: 'main' }, 'not seen'],
    [{ seen: 1, of: 2, scope: 'main' }, '1 of 2 runs of main']
  ])('%j reads "%s"', (rate, label) => {
    expect(seenLabel(rate)).toBe(label)
  })
})

describe('notReproducedPhrases: most severe first, then most often seen', () => {
  const line = (n: number, severity: string, seen: string) => `${n} ${severity} not reproduced in this run, seen in ${seen}, still open`
  it.each<[string, [string, number, number][], string[]]>([
    [
      'severity decides before the rate, whatever the order given',
      [
        ['low', 1, 5],
        ['critical', 1, 5],
        ['high', 1, 5]
      ],
      [line(1, 'critical', '1 of the last 5 runs'), line(1, 'high', '1 of the last 5 runs'), line(1, 'low', '1 of the last 5 runs')]
    ],
    [
      'within a severity, the most often seen first',
      [
        ['high', 1, 5],
        ['high', 3, 5],
        ['high', 2, 5]
      ],
      [line(1, 'high', '3 of the last 5 runs'), line(1, 'high', '2 of the last 5 runs'), line(1, 'high', '1 of the last 5 runs')]
    ],
    ['a rate of one run reads "the last run"', [['medium', 1, 1]], [line(1, 'medium', 'the last run')]]
  ])('%s', (_name, items, want) => {
    const rates = items.map(([severity, seen, of]) => ({
      severity: severity as 'critical' | 'high' | 'medium' | 'low',
      rate: { seen, of, scope: 'main' as const }
    }))
    expect(notReproducedPhrases(rates)).toEqual(want)
  })
})
