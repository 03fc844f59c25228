/** The kept-weakness simulation of the confirmation rule (scripts/bench-kept.ts): what it counts and what it marks. */
import { describe, expect, it } from '@jest/globals'
import { keptMarkdown, measureKept, type KeptCell } from '../../scripts/bench-kept.js'
import { confirmationNeeds } from '../../src/evidence/confirmation-rule.js'

const OPTS = { probabilities: [0.1, 0.5], sizes: [1, 3], trials: 4000, confidence: 0.95, seed: 7 }

describe('measureKept', () => {
  const cells = measureKept(OPTS)

  it('is seeded: the same seed, the same cells', () => {
    expect(measureKept(OPTS)).toEqual(cells)
  })

  it('counts a pass only after a confirmation, and spends at most m runs on one', () => {
    for (const c of cells) {
      expect(c.passed).toBe(c.confirmationPassed)
      expect(c.confirmed).toBe(c.spent.length)
      // The pull request's own run finds it with probability p: about (1 - p) of them are confirmed.
      expect(c.confirmed / c.trials).toBeCloseTo(1 - c.p, 1)
      const most = Math.max(...Array.from({ length: c.size }, (_, k) => confirmationNeeds(k + 1, c.size, OPTS.confidence).needed))
      expect(Math.max(...c.spent)).toBeLessThanOrEqual(most)
    }
  })

  it('below the floor a kept weakness passes often; at 0.5 within 1 - confidence', () => {
    const rate = (p: number): number => {
      const c = cells.filter((x) => x.p === p)
      return c.reduce((s, x) => s + x.confirmationPassed, 0) / c.reduce((s, x) => s + x.confirmed, 0)
    }
    expect(rate(0.1)).toBeGreaterThan(0.25)
    expect(rate(0.5)).toBeLessThan(0.05)
  })
})

describe('keptMarkdown', () => {
  const cell = (p: number, confirmed: number, passed: number): KeptCell => ({
    p,
    size: 1,
    trials: 100,
    passed,
    confirmed,
    confirmationPassed: passed,
    spent: [1, 3, 9]
  })
  const table = (cells: KeptCell[]): string => keptMarkdown(cells, { ...OPTS, probabilities: cells.map((c) => c.p), sizes: [1] }, 0.1)

  it('marks a cell at or above the floor whose confirmed ones passed more than 1 - confidence, never one below', () => {
    const text = table([cell(0.1, 50, 20), cell(0.3, 50, 3), cell(0.5, 50, 2)])
    expect(text).toMatch(/\| 0\.1 \| 20\.0 % · 40\.0 % · 3 \/ 9 \|/)
    expect(text).toMatch(/\| 0\.3 \| 3\.0 % · 6\.0 % · 3 \/ 9 \*\*⚠\*\* \|/)
    expect(text).toMatch(/\| 0\.5 \| 2\.0 % · 4\.0 % · 3 \/ 9 \|/)
  })
})
