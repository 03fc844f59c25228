/**
 * The vocabulary of a result, at the bottom of the tree: what a gate's run
 * can end as, what a comment records of it, and what fail_on asks. Every
 * room above (gate, report, the shells) reads these from here.
 */

/** The results a run can be decided as, and a comment can record. */
export const GATE_RESULTS = ['pass', 'fail', 'incomplete', 'error'] as const
export type GateResult = (typeof GATE_RESULTS)[number]

/** What a comment's record holds: one of the gate's results. */
export const RECORDED_RESULTS = GATE_RESULTS
export type RecordedResult = GateResult

/** fail_on: every open finding blocks (any), or only those the default branch's own runs do not hold (new). */
export type FailOn = 'any' | 'new'
