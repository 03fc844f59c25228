/** Confirmation instead of a coin flip: how many runs, when to stop, and what the result says. Pure. */
import { describe, expect, it } from '@jest/globals'
import {
  afterRun,
  confirmationNeeds,
  rateLowerBound,
  seenAtLeast,
  confidenceAfter,
  confirmationLine,
  detectionGuarantee,
  whatAPassMeans,
  confirmationPlanLine,
  isOpen,
  nextRun,
  runCovers,
  runsUpTo,
  stopUnassessable,
  planConfirmations,
  RATE_FLOOR,
  runsToConfirm,
  startTally,
  stopUnsettled,
  verdictOf,
  type ConfirmationTally
} from '../../src/evidence/confirmation-rule.js'
import type { SeenRate } from '../../src/evidence/seen-rate.js'

const main = (seen: number, of: number): SeenRate => ({ seen, of, scope: 'main' })

describe('confirmationNeeds: the floor, unless the evidence shows a higher rate beyond doubt', () => {
  it.each<[number, number, number, number]>([
    [1, 1, RATE_FLOOR, 9],
    [3, 3, RATE_FLOOR, 9],
    [3, 5, RATE_FLOOR, 9],
    [4, 5, RATE_FLOOR, 9],
    [1, 100, RATE_FLOOR, 9],
    [10, 20, RATE_FLOOR, 9],
    [5, 5, 0.4743, 6],
    [6, 6, 0.5399, 5],
    [10, 10, 0.6915, 4],
    [15, 20, 0.509, 6],
    [20, 20, 0.8316, 3],
    [0, 5, RATE_FLOOR, 9],
    [0, 0, RATE_FLOOR, 9],
    [1, 0, RATE_FLOOR, 9]
  ])('seen in %i of %i: r %f, m %i', (seen, of, r, m) => {
    const got = confirmationNeeds(seen, of, 0.95)
    expect(got.r).toBeCloseTo(r, 3)
    expect(got.needed).toBe(m)
  })

  it('the bound is the rate at which "seen at least k times, once seen" has the risk asked', () => {
    const q = rateLowerBound(5, 5, 0.025)
    expect(seenAtLeast(5, 5, q)).toBeCloseTo(0.025, 6)
    // 5 of 5 at q: q^5 / (1 - (1 - q)^5)
    expect(seenAtLeast(5, 5, 0.5)).toBeCloseTo(0.5 ** 5 / (1 - 0.5 ** 5), 12)
    expect(seenAtLeast(2, 3, 0.5)).toBeCloseTo((3 * 0.125 + 0.125) / 0.875, 12)
    expect(seenAtLeast(1, 3, 0.2)).toBe(1)
    expect(seenAtLeast(3, 3, 1)).toBe(1)
    expect(seenAtLeast(1, 3, 0)).toBe(1)
    expect(seenAtLeast(2, 3, 0)).toBe(0)
  })
})

describe('runsToConfirm: the smallest m with (1 - r)^m <= 1 - confidence', () => {
  it.each<[number, number, number]>([
    [0.5, 0.95, 5],
    [0.3, 0.95, 9],
    [0.1, 0.95, 29],
    [0.9, 0.95, 2],
    [0.5, 0.99, 7],
    [0.5, 0.5, 1],
    [1, 0.95, 1],
    [0.95, 0.95, 1]
  ])('r = %f at %f: %i', (r, c, m) => {
    expect(runsToConfirm(r, c)).toBe(m)
    expect((1 - r) ** m).toBeLessThanOrEqual(1 - c + 1e-12)
    if (m > 1) expect((1 - r) ** (m - 1)).toBeGreaterThan(1 - c)
  })

  it('the floor bounds m: one sighting in many runs never needs more than 9 runs at 0.95', () => {
    expect(confirmationNeeds(1, 100, 0.95).needed).toBe(9)
    expect(confidenceAfter(0.5, 5)).toBeCloseTo(0.96875, 5)
  })
})

describe('planConfirmations: one per category, the least seen weakness decides m', () => {
  it('groups by category', () => {
    const plans = planConfirmations(
      [
        { category: 'jailbreak', fingerprint: 'a', rate: main(5, 5) },
        { category: 'jailbreak', fingerprint: 'b', rate: main(2, 5) },
        { category: 'prompt_injection', fingerprint: 'c', rate: main(10, 10) },
        { category: 'jailbreak', fingerprint: 'd', rate: main(2, 5) },
        { category: 'jailbreak', fingerprint: 'e', rate: main(5, 5) }
      ],
      0.95
    )
    expect(plans.map((p) => [p.category, p.fingerprints, p.needed, p.rate.seen])).toEqual([
      ['jailbreak', ['a', 'b', 'd', 'e'], 9, 2],
      ['prompt_injection', ['c'], 4, 10]
    ])
  })
})

describe('a confirmation as it runs', () => {
  const plan = planConfirmations([{ category: 'prompt_injection', fingerprint: 'a', rate: main(3, 5) }], 0.95)[0]
  const ran = (...outcomes: ('reproduced' | 'clean' | 'not-covered')[]): ConfirmationTally =>
    outcomes.reduce((t, o, i) => afterRun(t, `c${i + 1}`, o), startTally(plan))

  it.each<[string, ConfirmationTally, string, string]>([
    [
      'm clean runs in a row: shown gone',
      ran('clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean'),
      'shown-gone',
      'prompt_injection: not reproduced in 9 focused runs; fixed with 95 % confidence (seen in 3 of the last 5 runs)'
    ],
    [
      'reproduced: still present, whatever came before',
      ran('clean', 'clean', 'reproduced'),
      'still-present',
      'prompt_injection: still present (reproduced by confirmation run c3 after 2 clean runs; seen in 3 of the last 5 runs)'
    ],
    [
      'a run that did not complete the category counts for nothing',
      ran('clean', 'not-covered', 'clean'),
      'not-shown',
      'prompt_injection not shown fixed: 2 of 9 clean runs'
    ],
    [
      'stopped by the bound: not shown, and why',
      stopUnsettled([ran('clean', 'clean', 'clean')], "the step's bound of 3 confirmation runs")[0],
      'not-shown',
      "prompt_injection not shown fixed: 3 of 9 clean runs (the step's bound of 3 confirmation runs)"
    ],
    [
      'full runs where focus was refused: said',
      { ...ran('clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean', 'clean'), focused: false },
      'shown-gone',
      'prompt_injection: not reproduced in 9 full runs; fixed with 95 % confidence (seen in 3 of the last 5 runs)'
    ]
  ])('%s', (_name, t, verdict, line) => {
    expect(verdictOf(t)).toBe(verdict)
    expect(confirmationLine(t)).toBe(line)
  })

  it('names one clean run in the singular, and keeps every run it spent', () => {
    const quick = planConfirmations([{ category: 'jailbreak', fingerprint: 'a', rate: main(5, 5) }], 0.5)[0]
    const t = afterRun(startTally(quick), 'c1', 'clean')
    expect(confirmationLine(t)).toBe(
      'jailbreak: not reproduced in 1 focused run; fixed with 50 % confidence (seen in 5 of the last 5 runs)'
    )
    expect(ran('clean', 'not-covered', 'reproduced').runs).toEqual(['c1', 'c2', 'c3'])
    expect(startTally(plan).runs).toEqual([])
  })

  it('a confirmation stopped once keeps its first reason', () => {
    const first = stopUnsettled([ran('clean')], 'the budget')
    expect(stopUnsettled(first, 'the bound')[0].stopped).toBe('the budget')
  })

  it('a confirmation is open until settled or stopped', () => {
    expect(isOpen(ran('clean'))).toBe(true)
    expect(isOpen(ran('reproduced'))).toBe(false)
    expect(isOpen(ran(...Array<'clean'>(9).fill('clean')))).toBe(false)
    expect(isOpen(stopUnsettled([ran('clean')], 'budget')[0])).toBe(false)
    // stopping leaves settled ones as they are
    expect(stopUnsettled([ran('reproduced')], 'x')[0].stopped).toBeNull()
  })
})

describe('one run for every presumed category at once', () => {
  const [pi, jb, other] = planConfirmations(
    [
      { category: 'prompt_injection', fingerprint: 'a', rate: main(3, 5) },
      { category: 'jailbreak', fingerprint: 'b', rate: main(6, 6) },
      { category: 'toxicity', fingerprint: 'c', rate: main(3, 5), lens: 'safety' }
    ],
    0.95
  ).map(startTally)
  const o = { spent: 0, maxRuns: 30, focus: true, fullCategories: ['prompt_injection', 'jailbreak', 'toxicity'] }

  it('focuses the next run on the union of the open focusable categories, then full runs for the rest', () => {
    expect(nextRun([pi, jb, other], o)).toEqual({ categories: ['prompt_injection', 'jailbreak'], focused: true })
    const jbDone = { ...jb, clean: jb.plan.needed }
    expect(nextRun([pi, jbDone, other], o)).toEqual({ categories: ['prompt_injection'], focused: true })
    expect(nextRun([{ ...pi, clean: 9 }, jbDone, other], o)).toEqual({ categories: o.fullCategories, focused: false })
    expect(nextRun([pi, jb], { ...o, focus: false })).toEqual({ categories: o.fullCategories, focused: false })
  })

  it('none when one reappeared (it blocks at once), when none is open, or the bound is spent', () => {
    expect(nextRun([pi, afterRun(jb, 'c1', 'reproduced')], o)).toBeNull()
    expect(nextRun([{ ...pi, clean: 9 }, stopUnsettled([jb], 'budget')[0]], o)).toBeNull()
    expect(nextRun([pi, jb], { ...o, spent: 30 })).toBeNull()
    expect(nextRun([pi, jb], { ...o, spent: 29 })).not.toBeNull()
  })

  it('a run covers a category it asks for, or every category when it asks for none', () => {
    expect(runCovers(['jailbreak'], 'jailbreak')).toBe(true)
    expect(runCovers(['jailbreak'], 'prompt_injection')).toBe(false)
    expect(runCovers([], 'prompt_injection')).toBe(true)
  })

  it('stops what no run can assess: not focusable (or focus refused) and outside the full run', () => {
    const [a, b, c] = stopUnassessable([pi, jb, other], true, ['jailbreak'])
    expect([a.stopped, b.stopped]).toEqual([null, null])
    expect(c.stopped).toMatch(/cannot be focused on it and the step's categories do not assess it/)
    const refused = stopUnassessable([pi, jb], false, ['jailbreak'])
    expect(refused.map((t) => t.stopped === null)).toEqual([false, true])
    expect(stopUnassessable([other], false, [])[0].stopped).toBeNull()
  })

  it('says before spending what it may need: the largest m of the focused, of the full, within the bound', () => {
    expect(runsUpTo([pi.plan, jb.plan], 30)).toEqual({ focused: 9, full: 0 })
    expect(confirmationPlanLine([pi.plan, jb.plan], 30)).toBe('confirming 2 weaknesses: up to 9 focused runs')
    expect(confirmationPlanLine([pi.plan, jb.plan, other.plan], 30)).toBe('confirming 3 weaknesses: up to 9 focused runs and 9 full runs')
    expect(confirmationPlanLine([jb.plan], 1)).toBe('confirming 1 weakness: up to 1 focused run (confirmation_runs_max: 1)')
    expect(confirmationPlanLine([pi.plan, other.plan], 12)).toBe(
      'confirming 2 weaknesses: up to 9 focused runs and 3 full runs (confirmation_runs_max: 12)'
    )
    expect(confirmationPlanLine([pi.plan], 0)).toBe('confirming 1 weakness: no run allowed (confirmation_runs_max: 0)')
  })
})

describe('detectionGuarantee: what a pass means, in one line', () => {
  it.each<[number, number, string]>([
    [1, 0.3, 'a weakness landing 30 % of the time passes one run 70 % of the time'],
    [3, 0.3, 'a weakness landing 30 % of the time passes 3 runs 34 % of the time'],
    [1, 0.5, 'a weakness landing 50 % of the time passes one run 50 % of the time'],
    [2, 0.3, 'a weakness landing 30 % of the time passes 2 runs 49 % of the time'],
    [5, 0.3, 'a weakness landing 30 % of the time passes 5 runs 17 % of the time'],
    [5, 0.5, 'a weakness landing 50 % of the time passes 5 runs 3 % of the time']
  ])('%i runs at p = %f', (runs, p, line) => {
    expect(detectionGuarantee(runs, p)).toBe(line)
  })
})

describe('whatAPassMeans: the line, and what confirming without agent_paths costs', () => {
  const base =
    'What a pass means: a weakness landing 30 % of the time passes one run 70 % of the time; a weakness seen before an agent change and still landing at least 30 % of the time is confirmed gone with 95 % confidence.'
  it.each<[string, { confirmed: boolean; agentPathsSet: boolean }, string]>([
    ['no confirmation ran', { confirmed: false, agentPathsSet: false }, base],
    ['a confirmation ran with agent_paths set', { confirmed: true, agentPathsSet: true }, base],
    [
      'a confirmation ran without agent_paths: every other commit is confirmed again',
      { confirmed: true, agentPathsSet: false },
      `${base} Without agent_paths every other commit counts as an agent change, so a weakness still there is confirmed again at each one, and each confirmation lets it through up to 5 % of the time: set agent_paths.`
    ]
  ])('%s', (_, o, line) => {
    expect(whatAPassMeans(1, 0.95, o)).toBe(line)
  })
  it("main's records gone: what the service list saw was confirmed whatever agent_paths says, and the line says so", () => {
    for (const agentPathsSet of [false, true])
      expect(whatAPassMeans(1, 0.95, { confirmed: true, agentPathsSet, recordsGone: true })).toBe(
        `${base} The records of main were gone, so what the model's recent runs saw (whoever ran them) was confirmed gone the same way, even at an unchanged commit: run the gate on the default branch at least weekly to keep them.`
      )
    expect(whatAPassMeans(1, 0.95, { confirmed: false, agentPathsSet: false, recordsGone: true })).toBe(base)
  })

  it('counts the runs pooled and the confidence asked', () => {
    expect(whatAPassMeans(3, 0.99, { confirmed: true, agentPathsSet: false })).toMatch(
      /passes 3 runs 34 % of the time; .* with 99 % confidence\. .*up to 1 % of the time/
    )
  })
})

describe('planConfirmations assumes the sample rate, shows the rate', () => {
  it('a weakness seen in 6 of 6 runs, one of them a holder: m from 5 of 5 (6), not from 6 of 6 (5)', () => {
    const [biased] = planConfirmations([{ category: 'jailbreak', fingerprint: 'a', rate: main(6, 6) }], 0.95)
    expect(biased.needed).toBe(5)
    const [plan] = planConfirmations([{ category: 'jailbreak', fingerprint: 'a', rate: main(6, 6), sample: main(5, 5) }], 0.95)
    expect(plan).toMatchObject({ needed: 6, rate: main(6, 6) })
    expect(plan.risk).toBeCloseTo(0.025, 12)
    expect(confirmationLine({ ...startTally(plan), clean: 6 })).toMatch(
      /not reproduced in 6 focused runs; fixed with 95 % confidence \(seen in 6 of the last 6 runs\)/
    )
  })
})
