/**
 * The findings of the report model: each service finding with its proof
 * redacted and scrubbed, its fingerprint and its standing (how it counts
 * against the gate), then ordered, grouped and counted.
 */
import {
  type FindingCounts,
  type FindingGroup,
  type FindingStanding,
  type ReportAcceptance,
  type ReportFinding,
  type ReportSeen,
  type ReportStep,
  zeroCounts
} from './report-model.js'
import { int, type Scrub, str } from './scrub.js'
import {
  atOrAbove,
  type Finding,
  isClosedFindingStatus,
  REDACTED,
  SEVERITIES,
  type Severity,
  severityRank
} from '../service/contract/index.js'
import { fingerprint } from '../evidence/fingerprint.js'
import { redactHeaders, redactUrl } from '../util/redact.js'
import { isRecord } from '../util/text.js'
import { rateLabel, steadiness, THIS_RUN_ONLY, type SeenRate } from '../evidence/seen-rate.js'
import type { PolicyOutcome } from '../decision/apply-policy.js'
import type { AcceptedEntry } from '../accepted/accepted-file.js'

/** True for a finding whose proof the plan withholds. */
export function isRedactedFinding(f: Pick<Finding, 'description' | 'expected_behavior' | 'attacks'>): boolean {
  return f.attacks.length === 0 && (f.description === REDACTED || f.expected_behavior === REDACTED)
}
/** One replay step: every value as text, credentials redacted (header values, URL user-info and parameters). */
function reportStep(raw: Record<string, unknown>, { s, sn }: Scrub): ReportStep {
  // Values may be strings, numbers, booleans, null or arrays of those: redactHeaders makes them text.
  const headers = isRecord(raw.headers) ? raw.headers : null
  let redacted: Record<string, string> | null = null
  if (headers) {
    redacted = {}
    for (const [k, v] of Object.entries(redactHeaders(headers))) redacted[s(k)] = s(v)
  }
  const url = sn(raw.url)
  return {
    step: s(str(raw.step) ?? ''),
    message: sn(raw.message),
    response: sn(raw.response),
    sessionId: sn(raw.session_id),
    method: sn(raw.method),
    url: url === null ? null : redactUrl(url),
    headers: redacted,
    body: sn(raw.body),
    responseStatus: int(raw.response_status),
    responseBody: sn(raw.response_body),
    target: sn(raw.target),
    assertion: sn(raw.assertion),
    expectedBehavior: sn(raw.expected_behavior),
    captureAs: sn(raw.capture_as)
  }
}

function reportAttack(a: Finding['attacks'][number], t: Scrub): ReportFinding['attacks'][number] {
  const { s, sn } = t
  return {
    attackId: s(a.attack_id),
    score: a.score,
    lastReplayStatus: s(a.last_replay_status),
    createdAt: s(a.created_at),
    lastReplayedAt: sn(a.last_replayed_at),
    // The contract requires source on every attack (parsed by AttackSource).
    source: {
      sourceType: s(a.source.source_type),
      assessmentId: s(a.source.assessment_id),
      attackIndex: a.source.attack_index,
      date: s(a.source.date)
    },
    steps: a.replay_script.map((st) => reportStep(st as Record<string, unknown>, t))
  }
}

/** What the baseline and the accepted risks say of each finding (null: the gate looked at neither). */
export interface FindingPolicy {
  outcome: PolicyOutcome | null
  hasBaseline: boolean
  toAcceptance: (e: AcceptedEntry) => ReportAcceptance
  /** The run the findings come from (its fingerprints leave it out, see fingerprint.ts). */
  runId: string | null
  /** Whose earlier runs speak for this agent (ReportPolicyInput.agentWindow). */
  agentWindow?: 'main' | 'agent' | 'model' | null
}

function standingOf(f: Finding, threshold: Severity, outcome: PolicyOutcome | null): FindingStanding {
  if (!atOrAbove(f.severity, threshold)) return 'below'
  if (isClosedFindingStatus(f.status)) return 'closed'
  // The gate's own list of findings that do not block (accepted, or known with fail_on new).
  const waived = outcome?.waived.get(f.finding_id)
  return waived ?? 'blocking'
}

export function reportFinding(f: Finding, threshold: Severity, t: Scrub, fp: FindingPolicy): ReportFinding {
  const { s } = t
  const { outcome } = fp
  const acceptedBy = outcome?.acceptance.acceptedBy.get(f.finding_id)
  return {
    findingId: s(f.finding_id),
    severity: f.severity,
    category: s(f.category),
    lens: f.lens,
    // Any non-empty string (the complete set is not shown): service text, scrubbed like the rest.
    status: s(f.status),
    description: s(f.description),
    expectedBehavior: s(f.expected_behavior),
    createdAt: s(f.created_at),
    redacted: isRedactedFinding(f),
    atOrAbove: atOrAbove(f.severity, threshold),
    attacks: f.attacks.map((a) => reportAttack(a, t)),
    fingerprint: outcome?.diff.fingerprintById.get(f.finding_id) ?? fingerprint(f, fp.runId),
    baselineState: fp.hasBaseline ? (outcome?.diff.stateById.get(f.finding_id) ?? null) : null,
    seen: reportSeen(outcome?.evidence.rateById.get(f.finding_id) ?? THIS_RUN_ONLY, outcome?.evidence.windowed ?? false, fp.agentWindow),
    accepted: acceptedBy ? fp.toAcceptance(acceptedBy) : null,
    standing: standingOf(f, threshold, outcome)
  }
}

/** A rate as every rendering shows it. */
export function reportSeen(r: SeenRate, windowed: boolean, agentWindow: 'main' | 'agent' | 'model' | null = null): ReportSeen {
  const mainOnly = r.scope === 'main' && agentWindow !== 'main'
  // The one counting rule (seen-rate.ts rateLabel): "3 of the last 5 runs", "4 of main's last 5 runs", "this run only".
  const label = rateLabel(r, { mainOnly })
  return { seen: r.seen, of: r.of, scope: r.scope, label, steadiness: steadiness(r), windowed, mainOnly }
}

/** Most severe first, open before the others, else in the service's order. */
export function orderFindings(findings: ReportFinding[]): ReportFinding[] {
  const indexed = findings.map((f, i) => ({ f, i }))
  indexed.sort(
    (a, b) =>
      severityRank(a.f.severity) - severityRank(b.f.severity) || Number(b.f.status === 'open') - Number(a.f.status === 'open') || a.i - b.i
  )
  return indexed.map((x) => x.f)
}

/** The findings at or above the threshold, one group per severity. */
export function groupBySeverity(findings: readonly ReportFinding[], threshold: Severity): FindingGroup[] {
  const groups: FindingGroup[] = []
  for (const sev of SEVERITIES) {
    if (!atOrAbove(sev, threshold)) continue
    const inGroup = findings.filter((f) => f.severity === sev)
    if (inGroup.length > 0) groups.push({ severity: sev, findings: inGroup })
  }
  return groups
}

export function countFindings(findings: readonly ReportFinding[]): FindingCounts {
  const c: FindingCounts = {
    total: findings.length,
    bySeverity: zeroCounts(),
    openBySeverity: zeroCounts(),
    atOrAbove: 0,
    openAtOrAbove: 0,
    belowThreshold: 0,
    belowBySeverity: zeroCounts(),
    redacted: 0,
    redactedAtOrAbove: 0,
    byStanding: { blocking: zeroCounts(), known: zeroCounts(), accepted: zeroCounts(), closed: zeroCounts(), below: zeroCounts() },
    bySteadiness: { steady: 0, flaky: 0 }
  }
  for (const f of findings) {
    c.byStanding[f.standing][f.severity] += 1
    if ((f.standing === 'blocking' || f.standing === 'known') && f.seen.steadiness !== null) c.bySteadiness[f.seen.steadiness] += 1
    c.bySeverity[f.severity] += 1
    if (f.status === 'open') c.openBySeverity[f.severity] += 1
    if (f.atOrAbove) {
      c.atOrAbove += 1
      if (f.status === 'open') c.openAtOrAbove += 1
    } else {
      c.belowThreshold += 1
      c.belowBySeverity[f.severity] += 1
    }
    if (f.redacted) {
      c.redacted += 1
      if (f.atOrAbove) c.redactedAtOrAbove += 1
    }
  }
  return c
}
