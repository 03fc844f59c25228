/** Cells of the stochastic bench (scripts/bench-stochastic.ts) for the tests of its goals and tables. */
import type { CellResult } from '../../scripts/bench-stochastic.js'

export interface CellOverrides {
  flip?: number
  passes?: number
  falseNew?: number
  notBlocked?: number
  fixBlocked?: number
  keptPassed?: number
  keptFromHeld?: number
  fixedFromHeld?: number
  /** (f): passes after seen, and changes other than the first detection; null: (f) not measured. */
  oneCommit?: { passes: number; otherFlips: number } | null
}

/** A cell of 50 PRs (40 keeping the weakness, 50 re-runs) within every goal unless overridden. */
export function cell(p: number, over: CellOverrides = {}): CellResult {
  const one = over.oneCommit === undefined ? { passes: 0, otherFlips: 0 } : over.oneCommit
  return {
    p,
    column: 'K=5',
    reruns: { verdicts: [], found: 10, flip: over.flip ?? 0, passesAfterSeen: over.passes ?? 0, longestMissAfterSeen: 0 },
    rerunsOfOne:
      one === null
        ? null
        : { verdicts: [], found: 10, passesAfterSeen: one.passes, otherFlips: one.otherFlips, otherFlipShare: one.otherFlips / 50 },
    unrelated: { prs: 50, blocked: over.falseNew ?? 0, foundByPr: 10, mainFound: 3 },
    introduce: { prs: 50, blocked: 20, found: 20 - (over.notBlocked ?? 0), foundNotBlocked: over.notBlocked ?? 0 },
    remove: {
      prs: 50,
      fromHeld: over.fixedFromHeld ?? 50,
      mainPushes: 20,
      blocked: over.fixBlocked ?? 0,
      mainFound: 3,
      confirmRuns: [5, 7, 29]
    },
    keep: { prs: 40, fromHeld: over.keptFromHeld ?? 40, mainPushes: 18, passed: over.keptPassed ?? 0, mainFound: 3, confirmRuns: [1, 2] },
    cost: {
      gates: 1,
      serviceRequests: 9,
      githubRequests: 3,
      ms: 80,
      msToTrigger: 10,
      windowRuns: 5,
      windowHolders: 0,
      windowService: 11,
      windowGithub: 1
    }
  }
}
