/**
 * What the windows of evidence and the accepted risks say about a run's
 * findings, as the input of decide(). Pure.
 * - waived: findings that do not block: accepted ones, and with fail_on new
 *   the known ones (seen open in a run of the base branch's window);
 * - the diff (new / known), the acceptances, expired and stale entries;
 * - the evidence: how often each finding was seen, the window's findings this
 *   run did not reproduce, and those of them that still block (present for
 *   this agent, at or above min_severity, not accepted).
 */
import type { Finding, Severity } from '../service/contract/index.js'
import { diffAgainstBaseline, type BaselineDiff } from '../evidence/new-or-known.js'
import type { Baseline } from '../evidence/baseline.js'
import type { AcceptedEntry } from '../accepted/accepted-file.js'
import { entryMatches, isExpired, matchAcceptances, type AcceptanceResult } from '../accepted/match.js'
import {
  judgeEvidence,
  unreproducedBlocking,
  type EvidenceReading,
  type EvidenceWindows,
  type NotReproduced
} from '../evidence/judge-evidence.js'
import { knownOnMain } from '../evidence/pool.js'
import type { FailOn } from './result-words.js'

/**
 * The policy inputs applyPolicy reads, as chosen in the step's inputs. A
 * field here reaches it through GateArgs.policy (src/action/policy-use.ts
 * says which input is which, and where every other one acts).
 */
export interface PolicyChoices {
  failOn: FailOn
}

export interface PolicyArgs extends PolicyChoices {
  findings: readonly Finding[]
  runId: string | null
  categoriesCompleted: readonly string[]
  baseline: Baseline | null
  accepted: readonly AcceptedEntry[]
  /** YYYY-MM-DD (UTC). */
  today: string
  /** The windows of evidence; absent: this run alone. */
  windows?: EvidenceWindows
  minSeverity?: Severity
}

export interface PolicyOutcome {
  diff: BaselineDiff
  acceptance: AcceptanceResult
  /** finding_ids that do not block, with why. */
  waived: Map<string, 'accepted' | 'known'>
  evidence: EvidenceReading
  /** Findings of this agent's window this run did not reproduce that fail the gate (fail_on any). */
  unreproducedBlocking: NotReproduced[]
  /** Fingerprints focused runs showed gone (confirmation): they no longer block, and the report says why. */
  confirmedGone?: ReadonlySet<string>
}

export function applyPolicy(a: PolicyArgs): PolicyOutcome {
  const diff = diffAgainstBaseline(a.findings, a.runId, a.baseline, a.categoriesCompleted)
  const acceptance = matchAcceptances(a.accepted, a.findings, diff.fingerprintById, a.today, a.categoriesCompleted)
  const refs = a.findings.map((f) => ({ findingId: f.finding_id, fingerprint: diff.fingerprintById.get(f.finding_id) ?? '' }))
  const evidence = judgeEvidence(refs, a.windows ?? { agent: null, base: null })
  const waived = new Map<string, 'accepted' | 'known'>()
  for (const f of a.findings) {
    if (acceptance.acceptedBy.has(f.finding_id)) waived.set(f.finding_id, 'accepted')
    else if (a.failOn === 'new' && a.baseline !== null && diff.stateById.get(f.finding_id) === 'known') waived.set(f.finding_id, 'known')
  }
  const live = a.accepted.filter((e) => !isExpired(e, a.today))
  // Under fail_on new, one the default branch itself saw and the service has not closed is known and cannot block.
  const known = a.failOn === 'new' && a.baseline !== null ? knownOnMain(a.windows?.base ?? null) : new Set<string>()
  const blocking = unreproducedBlocking(evidence, a.minSeverity ?? 'low', (n) =>
    live.some((e) => entryMatches(e, n, n.fingerprint))
  ).filter((n) => !known.has(n.fingerprint))
  return { diff, acceptance, waived, evidence, unreproducedBlocking: blocking }
}
