/**
 * Confirmation instead of a coin flip. Pure.
 *
 * A weakness the lineage saw is presumed present until the service closes it
 * (see presenceOf). When the agent may have changed since it was seen and this
 * run did not reproduce it, one missed run says little: at a 30 % landing rate
 * one run misses it 70 % of the time. The gate then runs focused runs (the
 * weakness's category) until it reappears (still present: it blocks) or m
 * runs in a row miss it, m the smallest number with (1 - r)^m <= 1 -
 * confidence. r is how often the lineage saw it, taken conservatively: the
 * Wilson lower bound (z = 1) of "seen in k of n runs", so a rate read off a
 * few runs is not trusted high, and never below RATE_FLOOR, so one sighting
 * in many runs cannot make m huge. When the runs allowed (the step's bound,
 * the service's budget, a trial workspace refusing focus with no room for full
 * runs) stop it first, the weakness is "not shown fixed": the result is
 * incomplete, never a pass.
 */
import { FOCUSABLE_LENS } from '../service/contract/index.js'
import type { NotReproduced } from './judge-evidence.js'
import { seenLabel, type SeenRate } from './seen-rate.js'

/** The lowest landing rate a confirmation assumes (at confidence 0.95: at most 29 runs). */
export const RATE_FLOOR = 0.1
/** The z of the one-sided Wilson lower bound of the rate (about 84 %). */
export const RATE_Z = 1

/** The rate a confirmation assumes for a weakness seen in `seen` of `of` runs: Wilson's lower bound (z = 1), at least RATE_FLOOR. */
export function assumedRate(seen: number, of: number): number {
  if (!(of > 0) || !(seen > 0)) return RATE_FLOOR
  const n = of
  const p = Math.min(1, seen / n)
  const z2 = RATE_Z * RATE_Z
  const lower = (p + z2 / (2 * n) - RATE_Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n)
  return Math.max(RATE_FLOOR, Math.min(1, lower))
}

/** m: the fewest runs in a row that must miss a weakness landing at rate r for `confidence` that it is gone. */
export function runsToConfirm(r: number, confidence: number): number {
  if (r >= 1) return 1
  const m = Math.ceil(Math.log(1 - confidence) / Math.log(1 - r) - 1e-9)
  return Math.max(1, m)
}

/** The confidence that a weakness landing at rate r is gone after `clean` runs in a row missed it: 1 - (1 - r)^clean. */
export function confidenceAfter(r: number, clean: number): number {
  return 1 - (1 - r) ** Math.max(0, clean)
}

/** What one category's confirmation must show. */
export interface ConfirmationPlan {
  category: string
  /** The presumed weaknesses of the category (fingerprints), confirmed together by each run. */
  fingerprints: string[]
  /** The rate of the least often seen of them: the one that needs the most runs. */
  rate: SeenRate
  /** The rate assumed (assumedRate). */
  r: number
  /** m: clean runs in a row that show them gone. */
  needed: number
  /** A run can be focused on the category (a security-lens weakness); false: full runs confirm it. */
  focusable: boolean
}

/** The confirmations the presumed weaknesses need: one per category (one focused run confirms all of a category). */
export function planConfirmations(
  presumed: readonly (Pick<NotReproduced, 'category' | 'fingerprint' | 'rate' | 'sample'> & { lens?: string })[],
  confidence: number
): ConfirmationPlan[] {
  const plans = new Map<string, ConfirmationPlan>()
  for (const n of presumed) {
    // The rate without the runs read for their sightings that saw it (judge-evidence.ts sampleRate).
    const sample = n.sample ?? n.rate
    const r = assumedRate(sample.seen, sample.of)
    const needed = runsToConfirm(r, confidence)
    const plan = plans.get(n.category)
    if (plan === undefined) {
      const focusable = n.lens === undefined || n.lens === FOCUSABLE_LENS
      plans.set(n.category, { category: n.category, fingerprints: [n.fingerprint], rate: n.rate, r, needed, focusable })
      continue
    }
    plan.fingerprints.push(n.fingerprint)
    if (needed > plan.needed) Object.assign(plan, { rate: n.rate, r, needed })
  }
  return [...plans.values()]
}

/** How a category's confirmation went so far. */
export interface ConfirmationTally {
  plan: ConfirmationPlan
  /** Runs in a row that completed the category and did not reproduce it. */
  clean: number
  /** The run that reproduced it (or found another open weakness of the category); null: none did. */
  reappearedIn: string | null
  /** Why it stopped before it was shown gone (the step's bound, the budget, a failure); null: it did not stop. */
  stopped: string | null
  /** Whether its runs were focused on the category (false: another lens, or a trial workspace refused focus: full runs). */
  focused: boolean
  /** Runs it spent. */
  runs: string[]
}

export type ConfirmationVerdict = 'shown-gone' | 'still-present' | 'not-shown'

export function startTally(plan: ConfirmationPlan): ConfirmationTally {
  return { plan, clean: 0, reappearedIn: null, stopped: null, focused: plan.focusable, runs: [] }
}

/** Where a confirmation stands: reproduced (still present), m clean runs (shown gone), or not (yet) shown. */
export function verdictOf(t: ConfirmationTally): ConfirmationVerdict {
  if (t.reappearedIn !== null) return 'still-present'
  return t.clean >= t.plan.needed ? 'shown-gone' : 'not-shown'
}

/** The next confirmation to run a run for, or null: every one is settled or stopped, or the step's bound is spent. */
export function nextToRun(tallies: readonly ConfirmationTally[], spent: number, maxRuns: number): ConfirmationTally | null {
  if (spent >= maxRuns) return null
  return tallies.find((t) => t.stopped === null && verdictOf(t) === 'not-shown') ?? null
}

/** After one run of a tally: reproduced (still present), clean (another run missed it), or it did not complete the category (no count, no streak). */
export function afterRun(t: ConfirmationTally, runId: string, outcome: 'reproduced' | 'clean' | 'not-covered'): ConfirmationTally {
  const runs = [...t.runs, runId]
  if (outcome === 'reproduced') return { ...t, runs, reappearedIn: runId }
  if (outcome === 'clean') return { ...t, runs, clean: t.clean + 1 }
  return { ...t, runs }
}

/** Stops every confirmation not yet settled with `why` (the step's bound, the budget, a failure). */
export function stopUnsettled(tallies: readonly ConfirmationTally[], why: string): ConfirmationTally[] {
  return tallies.map((t) => (t.stopped === null && verdictOf(t) === 'not-shown' ? { ...t, stopped: why } : t))
}

const pct = (x: number): string => `${Math.floor(x * 100)} %`

/**
 * The line a reviewer reads, one per category:
 * "prompt_injection: not reproduced in 5 focused runs; fixed with 97 % confidence (seen in 3 of 5 runs of main)",
 * "prompt_injection: still present (reproduced by confirmation run r9 after 2 clean runs)",
 * "prompt_injection not shown fixed: 3 of 9 clean runs (the step's bound of 3 confirmation runs)".
 */
export function confirmationLine(t: ConfirmationTally): string {
  const kind = t.focused ? 'focused' : 'full'
  const seen = `seen in ${seenLabel(t.plan.rate)}`
  switch (verdictOf(t)) {
    case 'still-present':
      return `${t.plan.category}: still present (reproduced by confirmation run ${t.reappearedIn ?? ''} after ${t.clean} clean ${t.clean === 1 ? 'run' : 'runs'}; ${seen})`
    case 'shown-gone':
      return `${t.plan.category}: not reproduced in ${t.clean} ${kind} ${t.clean === 1 ? 'run' : 'runs'}; fixed with ${pct(confidenceAfter(t.plan.r, t.clean))} confidence (${seen})`
    case 'not-shown':
      return `${t.plan.category} not shown fixed: ${t.clean} of ${t.plan.needed} clean runs${t.stopped === null ? '' : ` (${t.stopped})`}`
  }
}

/**
 * What a pass of this step means, in one line: a weakness landing at rate p
 * goes unseen by `runs` runs (1 - p)^runs of the time.
 * "a weakness landing 30 % of the time passes one run 70 % of the time".
 */
export function detectionGuarantee(runs: number, p = 0.3): string {
  const n = Math.max(1, Math.floor(runs))
  const miss = Math.round((1 - p) ** n * 100)
  return `a weakness landing ${Math.round(p * 100)} % of the time passes ${n === 1 ? 'one run' : `${n} runs`} ${miss} % of the time`
}

/**
 * The "What a pass means" line: the detection guarantee of the runs this step
 * pooled, the confidence of a confirmation, and, when a confirmation ran with
 * no agent_paths to tell an unchanged agent from a changed one, what that
 * costs: every other commit is confirmed again, and each confirmation lets a
 * weakness still there through 1 - confidence of the time. When the default
 * branch's records were gone (`recordsGone`), what the service's list saw was
 * confirmed whatever agent_paths says, and the line says that instead.
 */
export function whatAPassMeans(
  runs: number,
  confidence: number,
  o: { confirmed: boolean; agentPathsSet: boolean; recordsGone?: boolean }
): string {
  const pct100 = (x: number): number => Math.round(x * 100)
  const line = `What a pass means: ${detectionGuarantee(runs)}; a weakness seen before an agent change is confirmed gone with ${pct100(confidence)} % confidence.`
  if (!o.confirmed) return line
  // The service list's runs name no commit: they are confirmed whatever agent_paths says.
  if (o.recordsGone === true)
    return `${line} The records of main were gone, so what the model's recent runs saw (whoever ran them) was confirmed gone the same way, even at an unchanged commit: run the gate on the default branch at least weekly to keep them.`
  if (o.agentPathsSet) return line
  return `${line} Without agent_paths every other commit counts as an agent change, so a weakness still there is confirmed again at each one, and each confirmation lets it through up to ${pct100(1 - confidence)} % of the time: set agent_paths.`
}
