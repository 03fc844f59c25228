/**
 * One rule for a lost trigger answer: adopt only what is provably ours.
 *
 * POST /run is not idempotent and carries no key of ours, so after an
 * ambiguous failure (a 502, a reset, a timeout) the only trace of our request
 * is a run that appears in the model's run list. A run found there is this
 * step's only when nothing else could have started it, as far as the step
 * can see:
 * - the model's runs were listed before the trigger was sent (the baseline),
 *   and the run is not among them, nor among the runs seen running while
 *   waiting for another assessment of the model (foreign);
 * - it is the only such run started since our request was sent that plans
 *   what this step asked for (two mean another trigger like ours ran at the
 *   same time); a new run planning something else is another workflow's,
 *   never taken and never cancelled;
 * - its start time is not before our request (less the clock skew allowed;
 *   a start time that cannot be read does not rule it out: the baseline
 *   already does that);
 * - its categories_planned are what this step asked for: the same set of
 *   keys; for the full taxonomy (no categories sent), the keys of the
 *   security category list, or any plan in an evaluation workspace (where a
 *   run is always a full assessment and the list is withheld).
 * Otherwise the run is not taken, and not cancelled: the step fails closed.
 *
 * Pure: the run list and the category list are read by the caller.
 */
import type { RunListItem } from '../service/contract/index.js'
import { oneLine } from '../util/text.js'

/**
 * How far the service's clock may be behind ours when matching a run's
 * started_at against the moment our request was sent. The baseline (a new
 * run id) is the strong signal; the start time only rules out old runs.
 */
export const CLOCK_SKEW_MS = 10 * 60_000

/** What the step recorded before sending POST /run (saved in the step state too). */
export interface TriggerIntent {
  modelId: string
  /** [] = the full taxonomy (no categories sent). */
  categories: string[]
  /** Run ids of the model listed before the first trigger; null when the list could not be read. */
  baseline: string[] | null
  /** Epoch ms: when the first request whose outcome is unknown was sent. */
  sentAt: number
}

/**
 * The full taxonomy as the step can know it: the security category keys, or
 * 'evaluation' (the list is withheld from an evaluation workspace, whose runs
 * are all full assessments), or null when it could not be read.
 */
export type FullTaxonomy = readonly string[] | 'evaluation' | null

export type Claim =
  /** The one run our request created. */
  | { kind: 'ours'; run: RunListItem }
  /** No run appeared since our request: it did not create one (yet). */
  | { kind: 'none' }
  /** Runs appeared, but none can be shown to be ours: say what was seen and why it was not taken. */
  | { kind: 'unprovable'; seen: RunListItem[]; why: string }

const ids = (runs: readonly RunListItem[]): string => runs.map((r) => oneLine(r.run_id, 80)).join(', ')
const keys = (k: readonly string[]): string => (k.length === 0 ? 'none' : k.map((x) => oneLine(x, 80)).join(', '))

/** The runs of `runs` that are new since the intent: not listed before it, not foreign, not started before it. */
export function newRuns(intent: TriggerIntent, runs: readonly RunListItem[], foreign: ReadonlySet<string> = new Set()): RunListItem[] {
  const before = new Set(intent.baseline ?? [])
  return runs.filter((r) => {
    if (before.has(r.run_id) || foreign.has(r.run_id)) return false
    const started = Date.parse(r.started_at)
    // Unreadable start times stay in: they cannot be ruled out, so they cannot be ruled in either (see claimRun).
    return Number.isNaN(started) || started >= intent.sentAt - CLOCK_SKEW_MS
  })
}

/** True when a run that plans `planned` is the run this intent asked for. */
export function plansWhatWasAsked(planned: readonly string[], asked: readonly string[], full: FullTaxonomy): boolean | null {
  const p = new Set(planned)
  if (asked.length > 0) {
    const a = new Set(asked)
    return p.size === a.size && [...a].every((k) => p.has(k))
  }
  if (full === 'evaluation') return true
  if (full === null) return null
  const f = new Set(full)
  return f.size > 0 && p.size === f.size && [...f].every((k) => p.has(k))
}

/**
 * Whether the runs new since the intent need the category list to be judged
 * (the full taxonomy was asked for): the caller then reads it and passes it
 * to claimRun.
 */
export function needsTaxonomy(intent: TriggerIntent, fresh: readonly RunListItem[]): boolean {
  return intent.categories.length === 0 && intent.baseline !== null && fresh.length > 0
}

/** Apply the rule to the model's run list (read after the ambiguous failure). */
export function claimRun(
  intent: TriggerIntent,
  runs: readonly RunListItem[],
  opts: { foreign?: ReadonlySet<string>; fullTaxonomy?: FullTaxonomy } = {}
): Claim {
  const fresh = newRuns(intent, runs, opts.foreign)
  if (fresh.length === 0) return { kind: 'none' }
  if (intent.baseline === null) {
    return {
      kind: 'unprovable',
      seen: fresh,
      why: `run ${ids(fresh)} of model ${intent.modelId} appeared, but the model's runs could not be listed before the trigger, so it cannot be told from a run another workflow started`
    }
  }
  const asked = intent.categories.length > 0 ? `categories ${keys(intent.categories)}` : 'the full taxonomy'
  const judged = fresh.map((run) => ({
    run,
    matches: plansWhatWasAsked(run.categories_planned, intent.categories, opts.fullTaxonomy ?? null)
  }))
  const unsure = judged.filter((j) => j.matches === null).map((j) => j.run)
  if (unsure.length > 0) {
    return {
      kind: 'unprovable',
      seen: fresh,
      why: `run ${ids(unsure)} of model ${intent.modelId} appeared (planning ${keys(unsure[0].categories_planned)}), but the category list could not be read to confirm it is the full-taxonomy run this step asked for`
    }
  }
  const matching = judged.filter((j) => j.matches).map((j) => j.run)
  const others = judged.filter((j) => !j.matches).map((j) => j.run)
  if (matching.length > 1) {
    return {
      kind: 'unprovable',
      seen: fresh,
      why: `${matching.length} runs of model ${intent.modelId} planning ${asked} appeared since our request (${ids(matching)}): another trigger like ours ran at the same time, so none of them can be shown to be ours`
    }
  }
  if (matching.length === 0) {
    const r = others[0]
    const what =
      others.length === 1
        ? `run ${oneLine(r.run_id, 80)} of model ${intent.modelId} appeared, but it plans categories ${keys(r.categories_planned)}`
        : `runs ${ids(others)} of model ${intent.modelId} appeared, but none plans`
    return { kind: 'unprovable', seen: fresh, why: `${what} where this step asked for ${asked}: another workflow started it` }
  }
  // One run planning what we asked; any other new run plans something else, so another workflow started that one (left alone).
  return { kind: 'ours', run: matching[0] }
}
