/**
 * Confirming presumed weaknesses (src/evidence/confirmation-rule.ts decides what
 * and how many): runs triggered, waited for and read with the gate's own
 * trigger, wait and collect (runOnce in assess.ts, never a second polling
 * loop), each focused on every presumed category still open, until one
 * reappears or each has been missed by its m runs in a row, within the
 * step's bound and the service's budget. A trial
 * workspace refusing focus (403 trial_focus_not_included), and a weakness of
 * another lens than security (a run can be focused on security only), get
 * full runs.
 */
import { Deadline } from '../util/clock.js'
import { describeFailure, ServiceError } from '../util/errors.js'
import { atOrAbove, type Finding, type Severity } from '../service/contract/index.js'
import { fingerprint } from '../evidence/fingerprint.js'
import { closesWeakness } from '../evidence/pool.js'
import { explainAssessmentLimit } from '../pipeline/budget.js'
import {
  afterRun,
  confirmationLine,
  confirmationPlanLine,
  isOpen,
  nextRun,
  runCovers,
  startTally,
  stopUnassessable,
  stopUnsettled,
  verdictOf,
  planConfirmations,
  type ConfirmationPlan,
  type ConfirmationTally
} from '../evidence/confirmation-rule.js'
import type { GateArgs, GateDeps, RunOnce } from './gate-types.js'

export type { RunOnce }
import type { PolicyOutcome } from '../decision/apply-policy.js'
import type { Decision } from '../decision/decide.js'

/** How the step's confirmations went: each category's tally, every run spent, one line each. */
export interface ConfirmationOutcome {
  tallies: ConfirmationTally[]
  /** Every confirmation run this step triggered (the budget line counts them). */
  runIds: string[]
  lines: string[]
  /** What it might need, said before it spent ("confirming 2 weaknesses: up to 9 focused runs"). */
  planLine: string
}

export interface ConfirmArgs {
  modelId: string
  minSeverity: Severity
  /** The step's own categories: what a full run assesses when focus is refused. */
  fullCategories: string[]
  plans: ConfirmationPlan[]
  /** The most confirmation runs this step may spend (confirmation_runs_max). */
  maxRuns: number
  /** Time left for them. */
  timeoutMs: number
}

/**
 * Each run is focused on every presumed category still open (their union):
 * a category leaves it when its m runs in a row missed it; the first that
 * reappears ends the confirmation (it blocks: no further run changes the
 * result). Two presumed categories cost the larger of their m, not the sum.
 */
export async function confirmPresumed(deps: GateDeps, runOnce: RunOnce, a: ConfirmArgs): Promise<ConfirmationOutcome> {
  const planLine = confirmationPlanLine(a.plans, a.maxRuns)
  deps.log.info(`Confirmation: ${planLine}.`)
  let focus = true
  let tallies = stopUnassessable(a.plans.map(startTally), focus, a.fullCategories)
  const runIds: string[] = []
  const deadline = Deadline.after(deps.clock, a.timeoutMs)
  let stop: string | null = a.maxRuns <= 0 ? 'confirmation_runs_max is 0' : null
  for (
    let next = nextRun(tallies, { spent: runIds.length, maxRuns: a.maxRuns, focus, fullCategories: a.fullCategories });
    next !== null && stop === null;
    next = nextRun(tallies, { spent: runIds.length, maxRuns: a.maxRuns, focus, fullCategories: a.fullCategories })
  ) {
    if (deps.signal.aborted) {
      stop = 'the step was cancelled'
      break
    }
    const { categories } = next
    deps.log.info(`Confirming ${progress(tallies)}: ${next.focused ? `a run focused on ${categories.join(', ')}` : 'a full run'}.`)
    let run: Awaited<ReturnType<RunOnce>>
    try {
      run = await runOnce(deadline, categories)
    } catch (err) {
      if (focus && err instanceof ServiceError && err.code === 'trial_focus_not_included') {
        deps.log.info('The workspace refuses focused runs (trial): confirming with full runs.')
        focus = false
        tallies = stopUnassessable(
          tallies.map((x) => ({ ...x, focused: false })),
          focus,
          a.fullCategories
        )
        continue
      }
      stop = err instanceof ServiceError ? (explainAssessmentLimit(err, deps.clock.now()) ?? describeFailure(err)) : describeFailure(err)
      break
    }
    runIds.push(run.runId)
    tallies = tallies.map((x) =>
      isOpen(x) && runCovers(categories, x.plan.category) ? afterRun(x, run.runId, outcome(x, run, a.minSeverity)) : x
    )
    if (run.ended.end !== 'terminal') stop = `confirmation run ${run.runId} did not end (${run.ended.end})`
  }
  const present = tallies.filter((t) => verdictOf(t) === 'still-present').map((t) => t.plan.category)
  if (stop === null && present.length > 0) stop = `not confirmed further: ${present.join(', ')} still present, the step fails either way`
  if (stop === null && runIds.length >= a.maxRuns) stop = `the step's bound of ${a.maxRuns} confirmation runs (confirmation_runs_max)`
  tallies = stopUnsettled(tallies, stop ?? 'stopped')
  const lines = tallies.map(confirmationLine)
  for (const line of lines) deps.log.info(`Confirmation: ${line}.`)
  return { tallies, runIds, lines, planLine }
}

/** "jailbreak (2 of 9 clean runs so far), prompt_injection (2 of 5)". */
function progress(tallies: readonly ConfirmationTally[]): string {
  return tallies
    .filter(isOpen)
    .map((t) => `${t.plan.category} (${t.clean} of ${t.plan.needed} clean runs so far)`)
    .join(', ')
}

/**
 * What one run says of a category: reproduced (a presumed fingerprint, or any
 * open finding of the category at or above min_severity: fail closed), clean
 * (completed the category, none), or not covered (the run did not complete
 * it, or its findings could not be read: no count).
 */
function outcome(t: ConfirmationTally, run: Awaited<ReturnType<RunOnce>>, minSeverity: Severity): 'reproduced' | 'clean' | 'not-covered' {
  const status = run.ended.run
  const findings: Finding[] | null = run.results.findings
  if (status?.status !== 'completed' || !status.categories_completed.includes(t.plan.category) || findings === null) return 'not-covered'
  const hit = findings.some(
    (f) =>
      t.plan.fingerprints.includes(fingerprint(f, run.runId)) ||
      (f.category === t.plan.category && !closesWeakness(f.status) && atOrAbove(f.severity, minSeverity))
  )
  return hit ? 'reproduced' : 'clean'
}

/** What confirmations settled: the fingerprints they took over from the not-reproduced lines, what still blocks, what is not shown. */
export interface Settled {
  fingerprints: ReadonlySet<string>
  /** Of them, those m clean runs showed gone: they no longer block, in the decision and in every view of it. */
  gone: ReadonlySet<string>
  stillPresent: string[]
  notShown: string[]
}

export function settledBy(c: ConfirmationOutcome): Settled {
  return {
    fingerprints: new Set(c.tallies.flatMap((t) => t.plan.fingerprints)),
    gone: new Set(c.tallies.filter((t) => verdictOf(t) === 'shown-gone').flatMap((t) => t.plan.fingerprints)),
    stillPresent: c.tallies.filter((t) => verdictOf(t) === 'still-present').map(confirmationLine),
    notShown: c.tallies.filter((t) => verdictOf(t) === 'not-shown').map(confirmationLine)
  }
}

/**
 * Presumed weaknesses (seen only by an earlier agent, not reproduced now) are
 * confirmed only when they alone keep this step from passing: the runs are
 * spent where they decide.
 */
export async function confirmIfItDecides(
  deps: GateDeps,
  args: GateArgs,
  deadline: Deadline,
  policy: PolicyOutcome | null,
  decideWith: (s: Settled) => { decision: Decision },
  runOnce: RunOnce
): Promise<ConfirmationOutcome | null> {
  const presumed = policy?.unreproducedBlocking.filter((n) => n.presumed) ?? []
  if (args.confirm === undefined || presumed.length === 0 || deps.signal.aborted) return null
  const fingerprints = new Set(presumed.map((n) => n.fingerprint))
  const all: Settled = { fingerprints, gone: fingerprints, stillPresent: [], notShown: [] }
  if (decideWith(all).decision.result !== 'pass') return null
  return confirmPresumed(deps, runOnce, {
    modelId: args.modelId,
    minSeverity: args.minSeverity,
    fullCategories: args.categories,
    plans: planConfirmations(presumed, args.confirm.confidence),
    maxRuns: args.confirm.maxRuns,
    timeoutMs: deadline.remainingMs()
  })
}
