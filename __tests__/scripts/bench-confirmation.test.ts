/** The pure parts of the confirmation bench: the goals, the agreement with (1 - p)^N, the section of docs/baseline.md. */
import { describe, expect, it } from '@jest/globals'
import {
  confirmationGoals,
  confirmationMarkdown,
  missedByAll,
  perChangeDisagreements,
  perChangeGateMisses,
  runsWhoseFindingsWereRead,
  wilsonInterval,
  type PerChangeCell
} from '../../scripts/bench-confirmation.js'
import { CONFIRMATION_MARKERS, replaceBetweenMarkers } from '../../scripts/bench.js'
import { cell } from '../__fixtures__/bench-cells.js'

describe('missedByAll', () => {
  it.each([
    [0.3, 1, 0.7],
    [0.5, 3, 0.125],
    [0.1, 5, 0.59049],
    [0.9, 2, 0.01]
  ])('p = %d, N = %d: %d', (p, n, want) => {
    expect(missedByAll(p, n)).toBeCloseTo(want, 10)
  })
})

describe('wilsonInterval (95 %)', () => {
  it.each([
    [0, 30, 0, 0.1135],
    [5, 10, 0.2366, 0.7634],
    [30, 30, 0.8865, 1],
    [1, 40, 0.0044, 0.1288]
  ])('%d of %d: %d to %d', (k, n, low, high) => {
    const w = wilsonInterval(k, n)
    expect(w.low).toBeCloseTo(low, 3)
    expect(w.high).toBeCloseTo(high, 3)
  })

  it('is the whole range for no trials', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 })
  })
})

const perChange = (p: number, runsPerChange: number, passed: number, prs = 40, noneFound = passed, foundButPassed = 0): PerChangeCell => ({
  p,
  runsPerChange,
  prs,
  passed,
  incomplete: 0,
  noneFound,
  foundButPassed,
  spent: Array.from({ length: prs }, () => runsPerChange)
})

describe('runsWhoseFindingsWereRead', () => {
  it('takes each run whose findings a step read once, in order, and nothing else', () => {
    expect(
      runsWhoseFindingsWereRead([
        '/api/v1/run',
        '/api/v1/run/r_1',
        '/api/v1/run/r_1/findings',
        '/api/v1/run/r_2/findings',
        '/api/v1/run/r_1/findings',
        '/api/v1/run/r%3A3/findings',
        '/api/v1/run/r_4/findings/extra',
        '/api/v2/run/r_5/findings',
        '/chat'
      ])
    ).toEqual(['r_1', 'r_2', 'r:3'])
    expect(runsWhoseFindingsWereRead([])).toEqual([])
  })
})

describe('perChangeGateMisses', () => {
  it('names a cell where a pull request passed though one of its runs found the weakness', () => {
    expect(perChangeGateMisses([perChange(0.5, 3, 5), perChange(0.3, 2, 20, 40, 18, 2)])).toEqual([
      'p=0.3, N=2: 2 PRs passed though one of their runs found the weakness'
    ])
    expect(perChangeGateMisses([perChange(0.5, 3, 5)])).toEqual([])
  })
})

describe('perChangeDisagreements', () => {
  it('accepts pass shares whose interval holds (1 - p)^N', () => {
    // 0.7: 28 of 40; 0.125: 5 of 40; 0.03125 (p = 0.5, N = 5): 0 of 40 (interval up to 8.8 %)
    expect(perChangeDisagreements([perChange(0.3, 1, 28), perChange(0.5, 3, 5), perChange(0.5, 5, 0)])).toEqual([])
  })

  it('names a cell passing far more often than N runs all missing it predicts, and one passing far less', () => {
    const off = perChangeDisagreements([perChange(0.5, 3, 20), perChange(0.3, 1, 10), perChange(0.5, 2, 10)])
    expect(off).toHaveLength(2)
    expect(off[0]).toBe('p=0.5, N=3: 20 of 40 passed (95 % interval 35 % to 65 %), (1 - p)^N = 13 %; none of its runs found it in 20 of 40')
    expect(off[1]).toMatch(/^p=0.3, N=1: 10 of 40 passed/)
  })
})

describe('confirmationGoals', () => {
  it('are met by cells within every bound', () => {
    expect(confirmationGoals([cell(0.1, { keptPassed: 4 }), cell(0.3, { keptPassed: 2 }), cell(0.5), cell(0.9)])).toEqual({
      met: true,
      misses: []
    })
  })

  it.each([
    [
      '3 of 40 PRs keeping the weakness passed at p = 0.3',
      cell(0.3, { keptPassed: 3 }),
      /p=0.3: 3 of 40 PRs keeping main's weakness passed/
    ],
    ['a fixing PR blocked', cell(0.5, { fixBlocked: 1 }), /p=0.5: 1 of 50 fixing PRs blocked/],
    [
      'fixing PRs from a main that did not hold it',
      cell(0.1, { fixedFromHeld: 0 }),
      /p=0.1: 50 fixing PRs started from a main not holding/
    ],
    ['kept PRs from a main that did not hold it', cell(0.1, { keptFromHeld: 35 }), /p=0.1: 5 kept PRs started from a main not holding/],
    ['a re-run of one commit passing after seen', cell(0.3, { oneCommit: { passes: 1, otherFlips: 1 } }), /1 re-runs of one commit passed/],
    [
      '2 changes in 50 re-runs of one commit',
      cell(0.9, { oneCommit: { passes: 0, otherFlips: 2 } }),
      /p=0.9: 4.0 % of re-runs of one commit changed/
    ],
    [
      'a push of a new commit passing after seen',
      cell(0.1, { passes: 3 }),
      /p=0.1: 3 pushes of new commits \(a\) passed after the weakness was seen/
    ]
  ])('are missed on %s, naming it', (_what, c, miss) => {
    const g = confirmationGoals([c])
    expect(g.met).toBe(false)
    expect(g.misses.join('\n')).toMatch(miss)
  })

  it('hold 1 change in 50 re-runs of one commit (2 %) and ignore cells (e) and (f) were not measured in', () => {
    expect(confirmationGoals([cell(0.5, { oneCommit: { passes: 0, otherFlips: 1 } })]).met).toBe(true)
    const window = { ...cell(0.3, { passes: 2, oneCommit: null }), keep: null }
    expect(confirmationGoals([window]).met).toBe(true)
  })
})

describe('the measured section of docs/baseline.md', () => {
  const options = {
    seed: 28,
    n: 50,
    history: 10,
    category: 'jailbreak',
    columns: [
      { label: 'K=1 (today)', inputs: {} },
      { label: 'K=5 (default)', inputs: {}, confirmation: true }
    ]
  }
  const cells = [
    { ...cell(0.3, { keptPassed: 3 }), column: 'K=5 (default)' },
    { ...cell(0.3, { oneCommit: null }), keep: null, column: 'K=1 (today)' }
  ]
  const run = { command: 'npm run bench -- --stochastic-only', seconds: 123.4, perChange: { values: [1, 3], n: 40 } }
  const md = confirmationMarkdown(cells, [perChange(0.3, 1, 28), perChange(0.3, 3, 30)], options, run)

  it('states the command, seed, n and run time, and tables only the confirmation columns', () => {
    expect(md).toMatch(/^`npm run bench -- --stochastic-only` \(seed 28; one run on a shared 2-core machine: 123 s in all/)
    expect(md).toContain(
      'n = 50 pull requests (or 50 re-runs) per cell, 40 per runs_per_change cell: 0 of 50 bounds the true rate below 7 %'
    )
    expect(md).toContain('| 0.3 | K=5 (default) | 3 of 40 (8 %) | 1.5 / 2 | 0 of 50 | 7 / 29 | 40, 50 | 18, 3; 20, 3 |')
    expect(md).toContain('| 0.3 | K=5 (default) | 10 of 51 | 0 % (0) | 10 of 51 | 0 of 50 (0.0 %) (0) |')
    expect(md).not.toContain('K=1 (today) |')
  })

  it('tables runs_per_change against (1 - p)^N with the assessments spent', () => {
    expect(md).toContain('| 0.3 | 28 of 40: 70 % (70 %) | 30 of 40: 75 % (34 %) |')
    const wrong = confirmationMarkdown(cells, [perChange(0.3, 2, 20, 40, 18, 2)], options, { ...run, perChange: { values: [2], n: 40 } })
    expect(wrong).toContain('| 0.3 | 20 of 40: 50 % (49 %), none of its runs found it in 18 |')
    expect(wrong).toContain(
      '- runs_per_change, the gate: **not met**: p=0.3, N=2: 2 PRs passed though one of their runs found the weakness'
    )
    expect(md).toContain('| median / worst | 1 / 1 | 3 / 3 |')
  })

  it('says which goals were not met, and which runs_per_change cells disagree', () => {
    expect(md).toContain("- K=5 (default): **not met**: p=0.3: 3 of 40 PRs keeping main's weakness passed")
    expect(md).toContain('- runs_per_change, the gate: **met**: no pull request passed when one of its runs found the weakness')
    expect(md).toMatch(
      /- runs_per_change, the agent's draws: \*\*1 cells outside their 95 % interval of \(1 - p\)\^N\*\*: p=0.3, N=3: 30 of 40 passed/
    )
  })

  it('is written between its own markers', () => {
    const doc = `# Baseline\n${CONFIRMATION_MARKERS.start}\nold\n${CONFIRMATION_MARKERS.end}\n## Next`
    expect(replaceBetweenMarkers(doc, 'new', CONFIRMATION_MARKERS)).toBe(
      `# Baseline\n${CONFIRMATION_MARKERS.start}\nnew\n${CONFIRMATION_MARKERS.end}\n## Next`
    )
  })
})
