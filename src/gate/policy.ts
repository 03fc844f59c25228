/**
 * What the baseline and the accepted risks say about a run's findings, as the
 * input of decide(). Pure.
 * - waived: findings that do not block: accepted ones, and with fail_on new
 *   the known ones (present in the baseline);
 * - the diff (new / known / gone), the acceptances, expired and stale entries.
 */
import type { Finding } from '../service/contract/index.js'
import { diffAgainstBaseline, type BaselineDiff } from '../baseline/diff.js'
import type { Baseline } from '../baseline/baseline.js'
import type { AcceptedEntry } from '../accepted/accepted-file.js'
import { matchAcceptances, type AcceptanceResult } from '../accepted/match.js'

export type FailOn = 'any' | 'new'

export interface PolicyArgs {
  findings: readonly Finding[]
  runId: string | null
  categoriesCompleted: readonly string[]
  baseline: Baseline | null
  accepted: readonly AcceptedEntry[]
  failOn: FailOn
  /** YYYY-MM-DD (UTC). */
  today: string
}

export interface PolicyOutcome {
  diff: BaselineDiff
  acceptance: AcceptanceResult
  /** finding_ids that do not block, with why. */
  waived: Map<string, 'accepted' | 'known'>
}

export function applyPolicy(a: PolicyArgs): PolicyOutcome {
  const diff = diffAgainstBaseline(a.findings, a.runId, a.baseline, a.categoriesCompleted)
  const acceptance = matchAcceptances(a.accepted, a.findings, diff.fingerprintById, a.today, a.categoriesCompleted)
  const waived = new Map<string, 'accepted' | 'known'>()
  for (const f of a.findings) {
    if (acceptance.acceptedBy.has(f.finding_id)) waived.set(f.finding_id, 'accepted')
    else if (a.failOn === 'new' && a.baseline !== null && diff.stateById.get(f.finding_id) === 'known') waived.set(f.finding_id, 'known')
  }
  return { diff, acceptance, waived }
}
