/**
 * buildReport: one pure function turns what the gate read and decided into the
 * report model (report-model.ts), in named steps: the findings and their
 * counts, the coverage rows, the baseline and accepted-risks parts and the
 * headline they make, then the run's own fields. Every string from the service
 * or the inputs is scrubbed of the secrets here, once.
 */
import { SEVERITIES, type RunListItem, type RunStatusResponse, type Severity } from '../service/contract/index.js'
import { coverageRowsOf, dedupe } from './build-coverage.js'
import { countFindings, groupBySeverity, orderFindings, reportFinding, reportSeen, type FindingPolicy } from './build-findings.js'
import {
  REDACTION_REASON,
  REPORT_SCHEMA_VERSION,
  zeroCounts,
  type FindingCounts,
  type Report,
  type ReportAcceptance,
  type ReportAcceptances,
  type ReportBaseline,
  type ReportFinding,
  type ReportInput,
  type ReportPolicyInput
} from './report-model.js'
import { scrubberOf, type Scrub } from './scrub.js'

import type { AcceptedEntry } from '../accepted/accepted-file.js'

/** "1,234", as the renderings write counts. */
const num = (n: number): string => n.toLocaleString('en-US')

function acceptanceOf(e: AcceptedEntry, { s }: Scrub): ReportAcceptance {
  return {
    index: e.index,
    line: e.line,
    category: s(e.category),
    fingerprint: e.fingerprint,
    reasonCode: e.reasonCode,
    explanation: s(e.explanation),
    owner: s(e.owner),
    expires: e.expires
  }
}

/** Every finding of the run, ordered, with its standing; the counts (null when the findings are unreadable). */
function findingsPart(input: ReportInput, t: Scrub): { findings: ReportFinding[]; counts: FindingCounts | null } {
  const policy = input.policy ?? null
  const findingPolicy: FindingPolicy = {
    outcome: policy?.outcome ?? null,
    hasBaseline: policy?.baseline != null,
    toAcceptance: (e) => acceptanceOf(e, t),
    runId: input.run?.run_id ?? input.runListItem?.run_id ?? null,
    agentWindow: policy?.agentWindow ?? null
  }
  const findings = orderFindings((input.findings ?? []).map((f) => reportFinding(f, input.minSeverity, t, findingPolicy)))
  return { findings, counts: input.findings !== null ? countFindings(findings) : null }
}

interface CoveragePart {
  categories: Pick<Report, 'categoriesPlanned' | 'categoriesCompleted'>
  rows: Pick<Report, 'coverageReadable' | 'coverageRows' | 'coverageCompleted' | 'coverageNotReached'>
}

/** The categories planned and completed, and one coverage row per category. */
function coveragePart(input: ReportInput, t: Scrub): CoveragePart {
  const { run, runListItem: item } = input
  const plannedRaw = run?.categories_planned ?? item?.categories_planned ?? null
  const planned = plannedRaw ? dedupe(plannedRaw) : null
  const completedRaw = run?.categories_completed ?? null
  const coverageRows = coverageRowsOf(planned, completedRaw, input.coverage, t)
  const plannedRows = coverageRows.filter((r) => r.planned)
  return {
    categories: {
      categoriesPlanned: planned ? planned.map(t.s) : null,
      categoriesCompleted: completedRaw ? dedupe(completedRaw).map(t.s) : null
    },
    rows: {
      coverageReadable: input.coverage !== null,
      coverageRows,
      coverageCompleted: plannedRows.filter((r) => r.state === 'completed').length,
      coverageNotReached: plannedRows.filter((r) => r.state === 'not reached').length
    }
  }
}

/** What the baseline says of this run: new, known and gone findings, and where it came from. */
function baselinePart(policy: ReportPolicyInput, findings: readonly ReportFinding[], { s }: Scrub): ReportBaseline {
  const b = policy.baseline
  const outcome = policy.outcome
  // New: blocking and not in the baseline. Known: in it and neither closed nor
  // accepted (blocking with fail_on any, not with fail_on new).
  const newBySeverity = zeroCounts()
  let knownCount = 0
  for (const f of findings) {
    if (f.standing !== 'blocking' && f.standing !== 'known') continue
    if (f.baselineState === 'known') knownCount += 1
    else if (f.baselineState === 'new') newBySeverity[f.severity] += 1
  }
  // A weakness this run did not reproduce that still blocks is counted where it decides: new unless main's runs hold it.
  const blocking = new Set(outcome?.unreproducedBlocking.map((n) => n.fingerprint) ?? [])
  const missedState = (n: { fingerprint: string; rate: { scope: string } }): 'new' | 'known' | null =>
    b === null ? null : policy.failOn === 'new' || n.rate.scope !== 'main' ? 'new' : 'known'
  for (const n of outcome?.evidence.notReproduced ?? []) {
    if (!blocking.has(n.fingerprint) || b === null) continue
    if (missedState(n) === 'known') knownCount += 1
    else newBySeverity[n.severity] += 1
  }
  return {
    failOn: policy.failOn,
    available: b !== null,
    source: policy.baselineSource ? s(policy.baselineSource) : null,
    why: policy.baselineWhy ? s(policy.baselineWhy) : null,
    runId: b ? s(b.run_id) : null,
    createdAt: b ? s(b.created_at) : null,
    commit: b?.commit ? s(b.commit) : null,
    newCount: SEVERITIES.reduce((n, sev) => n + newBySeverity[sev], 0),
    knownCount,
    newBySeverity,
    gone: (outcome?.evidence.closedSince ?? []).map((g) => ({
      fingerprint: g.fingerprint,
      category: s(g.category),
      severity: g.severity,
      description: s(g.description)
    })),
    notReproduced: (outcome?.evidence.notReproduced ?? []).map((n) => ({
      fingerprint: n.fingerprint,
      category: s(n.category),
      severity: n.severity,
      description: s(n.description),
      seen: reportSeen(n.rate, true, policy.agentWindow ?? null),
      blocks: blocking.has(n.fingerprint),
      ...(outcome?.confirmedGone?.has(n.fingerprint) === true ? { confirmedGone: true } : {}),
      baselineState: blocking.has(n.fingerprint) ? missedState(n) : null
    })),
    window: policy.windowCost ?? null,
    uncovered: (outcome?.diff.uncovered ?? []).map(s),
    agentWindow: policy.agentWindow ?? null,
    saved: policy.baselineSaved ? s(policy.baselineSaved) : null
  }
}

/** The accepted-risks file's part: null when there is none and the pull request adds none. */
function acceptancesPart(policy: ReportPolicyInput | null, findings: readonly ReportFinding[], t: Scrub): ReportAcceptances | null {
  const a = policy?.accepted
  if (!a || (a.source === null && a.prAdds.length === 0)) return null
  const outcome = policy.outcome
  const toAcceptance = (e: AcceptedEntry): ReportAcceptance => acceptanceOf(e, t)
  return {
    path: t.s(a.path),
    source: a.source ? t.s(a.source) : null,
    acceptedCount: findings.filter((f) => f.accepted !== null).length,
    expired: (outcome?.acceptance.expired ?? []).map(toAcceptance),
    stale: (outcome?.acceptance.stale ?? []).map(toAcceptance),
    prAdds: a.prAdds.map(toAcceptance),
    prRemoves: a.prRemoves.map(toAcceptance)
  }
}

/** "1 new high · 3 known · 1 accepted · 2 gone"; '' without a baseline or acceptances. */
function headlineOf(baseline: ReportBaseline | null, acceptances: ReportAcceptances | null, counts: FindingCounts | null): string {
  const parts: string[] = []
  if (baseline?.available) {
    const { newBySeverity } = baseline
    const newParts = SEVERITIES.filter((sev) => newBySeverity[sev] > 0).map((sev) => `${num(newBySeverity[sev])} new ${sev}`)
    parts.push(...(newParts.length > 0 ? newParts : ['0 new']), `${num(baseline.knownCount)} known`)
  }
  const acceptedAtOrAbove = counts ? SEVERITIES.reduce((n, sev: Severity) => n + counts.byStanding.accepted[sev], 0) : 0
  if (acceptances && acceptedAtOrAbove > 0) parts.push(`${num(acceptedAtOrAbove)} accepted`)
  if (baseline?.available && baseline.gone.length > 0) parts.push(`${num(baseline.gone.length)} closed since`)
  if (acceptances && acceptances.expired.length > 0)
    parts.push(`${num(acceptances.expired.length)} expired acceptance${acceptances.expired.length === 1 ? '' : 's'}`)
  return parts.join(' · ')
}

/** The run as last seen: its status, else its list item's fields. */
function runPart(
  run: RunStatusResponse | null,
  item: RunListItem | null,
  { sn }: Scrub
): Pick<Report, 'runId' | 'runStatus' | 'startedAt' | 'completedAt'> {
  return {
    runId: sn(run?.run_id ?? item?.run_id ?? null),
    runStatus: sn(run?.status ?? item?.status ?? null),
    startedAt: sn(run?.started_at ?? item?.started_at ?? null),
    completedAt: sn(run?.completed_at ?? item?.completed_at ?? null)
  }
}

/** How the model was obtained and what the profile sync did, scrubbed. */
function targetPart(input: ReportInput, { s }: Scrub): Pick<Report, 'target' | 'profileSync'> {
  const { target, profileSync } = input
  return {
    target: target
      ? {
          outcome: target.outcome,
          name: s(target.name),
          movedFrom: target.movedFrom
            ? { name: s(target.movedFrom.name), modelId: s(target.movedFrom.modelId), endpointHost: s(target.movedFrom.endpointHost) }
            : null
        }
      : null,
    profileSync: profileSync
      ? {
          ...profileSync,
          file: s(profileSync.file),
          changed: profileSync.changed.map(s),
          confirmed: profileSync.confirmed.map(s),
          error: profileSync.error === null ? null : s(profileSync.error)
        }
      : null
  }
}

export function buildReport(input: ReportInput): Report {
  const t = scrubberOf(input.secrets)
  const { s } = t
  const policy = input.policy ?? null
  const { findings, counts } = findingsPart(input, t)
  const baseline = policy ? baselinePart(policy, findings, t) : null
  const acceptances = acceptancesPart(policy, findings, t)
  const coverage = coveragePart(input, t)
  // Keys in the order report.json writes them.
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    modelId: s(input.modelId),
    modelName: input.model ? s(input.model.name) : null,
    endpointHost: input.model ? s(input.model.endpoint_host) : null,
    minSeverity: input.minSeverity,
    result: input.result,
    reason: s(input.reason),
    verdict: input.verdict,
    verdictComputed: input.verdictComputed,
    ...runPart(input.run, input.runListItem, t),
    ...coverage.categories,
    ingestIncomplete: input.runListItem ? input.runListItem.ingest_incomplete : null,
    elapsedMs: input.elapsedMs,
    ...coverage.rows,
    findingsReadable: input.findings !== null,
    findings,
    groups: groupBySeverity(findings, input.minSeverity),
    below: findings.filter((f) => !f.atOrAbove),
    counts,
    redactionReason: counts && counts.redacted > 0 ? REDACTION_REASON : null,
    notes: input.notes.map(s),
    runUrl: input.runUrl ?? null,
    commitSha: input.commit?.sha && /^[0-9a-f]{7,40}$/i.test(input.commit.sha) ? input.commit.sha.toLowerCase() : null,
    assessedAt: input.commit?.at ?? null,
    ...targetPart(input, t),
    baseline,
    acceptances,
    headline: headlineOf(baseline, acceptances, counts),
    pipeline: input.pipeline
      ? {
          ...input.pipeline,
          budgetLine: t.s(input.pipeline.budgetLine),
          lines: input.pipeline.lines.map(t.s),
          confirmation: input.pipeline.confirmation
            ? { lines: input.pipeline.confirmation.lines.map(t.s), runIds: input.pipeline.confirmation.runIds.map(t.s) }
            : null
        }
      : null
  }
}
