/**
 * The report model: one pure function turns what the gate read and decided into
 * the data every rendering shows (PR comment, job summary, report.json,
 * annotations). Credentials are redacted here, once, so no rendering can show
 * them; the renderers only format and escape.
 */
import {
  atOrAbove,
  isClosedFindingStatus,
  REDACTED,
  SEVERITIES,
  severityRank,
  type CoverageResponse,
  type Finding,
  type FindingLens,
  type FindingStatus,
  type ModelListItem,
  type ReplayStatus,
  type RunListItem,
  type RunStatus,
  type RunStatusResponse,
  type Severity,
  type Verdict
} from '../service/contract/index.js'
import { fingerprint } from '../baseline/fingerprint.js'
import { makeScrubber, redactHeaders, redactUrl } from '../util/redact.js'
import { formatDuration, isRecord } from '../util/text.js'

import type { PolicyOutcome, FailOn } from '../gate/policy.js'
import type { AcceptedEntry } from '../accepted/accepted-file.js'
import type { AcceptedRisks } from '../accepted/read-accepted.js'
import type { Baseline } from '../baseline/baseline.js'
/**
 * The gate's result, decided by src/decision/decide.ts. Declared here, with the
 * report, so that the report depends on no part of the gate: the gate and the
 * shell hand it data (see assessmentReportInput in src/gate/assess.ts).
 */
export type GateResult = 'pass' | 'fail' | 'incomplete' | 'error'

export const REPORT_SCHEMA_VERSION = 1

/** Why findings are shown without their proof (the service's own words for it). */
export const REDACTION_REASON = "the workspace's plan withholds the proof of findings"

export interface ReportInput {
  modelId: string
  /** From GET /model (name, endpoint_host); null if not found or unreadable. */
  model: ModelListItem | null
  minSeverity: Severity
  result: GateResult
  /** One line, computed by decide(). */
  reason: string
  /** The service's verdict. */
  verdict: Verdict | null
  /** True when the verdict was computed locally from the findings. */
  verdictComputed: boolean
  /** Last status seen (null if the run never started). */
  run: RunStatusResponse | null
  runListItem: RunListItem | null
  coverage: CoverageResponse | null
  /** ALL findings of the run (every severity), null if unreadable. */
  findings: Finding[] | null
  elapsedMs: number | null
  notes: string[]
  /** The baseline and the accepted risks, when the gate read them (see src/gate/policy.ts). */
  policy?: ReportPolicyInput | null
  /** Link to the workflow run (built by the gate; trusted). */
  runUrl?: string | null
  /** The commit assessed (the PR's head SHA, else GITHUB_SHA) and when the report was made (ISO). */
  commit?: { sha: string | null; at: string | null } | null
  /** Values that must never appear in any output (the api_key, ...): replaced by `***` everywhere. */
  secrets?: string[]
  /** How the model was obtained (endpoint_url: registered or reused); absent when model_id was given. */
  target?: ReportTarget | null
  /** What the profile sync did before the run; absent when there is no profile_file. */
  profileSync?: ReportProfileSync | null
  /** The event's lines and the assessment budget (docs/pr-pipelines.md); absent outside the main step. */
  pipeline?: ReportPipeline | null
}

/** What the step spent of the assessment budget and why, and what the event was (docs/pr-pipelines.md). */
export interface ReportPipeline {
  /** Assessments this step spent: 0 or 1. */
  assessmentsSpent: 0 | 1
  /** "Assessments spent by this step: 1 (assessed run r_1 of abc1234: ...)." */
  budgetLine: string
  /** What the event was, where its result goes, why the step assessed. */
  lines: string[]
}

export interface ReportPolicyInput {
  failOn: FailOn
  baseline: Baseline | null
  /** Where the baseline came from, or why there is none. */
  baselineSource: string | null
  baselineWhy: string | null
  /** Where this run saved the baseline (default branch), else null. */
  baselineSaved: string | null
  accepted: AcceptedRisks | null
  /** null when the findings were not read. */
  outcome: PolicyOutcome | null
}

/** An accepted-risks entry as the report shows it. */
export interface ReportAcceptance {
  index: number
  line: number
  category: string
  fingerprint: string | null
  reasonCode: string
  explanation: string
  owner: string
  expires: string
}

export interface ReportBaseline {
  failOn: FailOn
  /** False: no baseline; the gate ran as with fail_on any. */
  available: boolean
  source: string | null
  why: string | null
  runId: string | null
  createdAt: string | null
  commit: string | null
  /** Blocking findings the baseline does not hold; findings it holds that are neither closed nor accepted (see FindingStanding). */
  newCount: number
  knownCount: number
  newBySeverity: SeverityCounts
  /** Baseline findings this run no longer finds (in categories it completed). */
  gone: { fingerprint: string; category: string; severity: Severity; description: string }[]
  /** Categories the baseline covered that this run did not complete. */
  uncovered: string[]
  saved: string | null
}

export interface ReportAcceptances {
  path: string
  source: string | null
  /**
   * Every finding an entry accepts, whatever its severity (the accepted_count
   * output). The headline counts only those at or above min_severity and not
   * closed (standing accepted), as it counts the new and known ones.
   */
  acceptedCount: number
  expired: ReportAcceptance[]
  stale: ReportAcceptance[]
  /** Entries the pull request's own copy adds or changes / removes (applied after merge). */
  prAdds: ReportAcceptance[]
  prRemoves: ReportAcceptance[]
}

/** The target of an endpoint_url: found in the inventory or registered by this step. */
export interface ReportTarget {
  outcome: 'registered' | 'reused'
  name: string
  /** The model of the same name at another host, which was not assessed. */
  movedFrom: { name: string; modelId: string; endpointHost: string } | null
}

/** The profile file's sync: what it changed and the version the run assessed. */
export interface ReportProfileSync {
  file: string
  /** synced: the profile says what the file says; failed: fail_on_profile_error is false and the run went on. */
  status: 'synced' | 'failed'
  created: boolean
  /** One phrase per field changed ("tools +1 (refund_order)", "system_prompt changed"); empty: unchanged. */
  changed: string[]
  /** Names confirmed (answers, then `<list>: <item>`); empty when nothing was confirmed. */
  confirmed: string[]
  /** The profile version the run assessed; null when the sync failed before it was known. */
  version: number | null
  /** Why it failed (status failed). */
  error: string | null
}

/** A replay step with credentials redacted (known fields only). */
export interface ReportStep {
  step: string
  message: string | null
  response: string | null
  sessionId: string | null
  method: string | null
  url: string | null
  headers: Record<string, string> | null
  body: string | null
  responseStatus: number | null
  responseBody: string | null
  target: string | null
  assertion: string | null
  expectedBehavior: string | null
  captureAs: string | null
}

export interface ReportAttack {
  attackId: string
  score: number
  lastReplayStatus: ReplayStatus
  createdAt: string
  lastReplayedAt: string | null
  source: { sourceType: string; assessmentId: string; attackIndex: number; date: string } | null
  steps: ReportStep[]
}

/**
 * How a finding counts against the gate: the one classification every count,
 * headline and list of every rendering derives from, made with the gate's
 * own rules (src/gate/decide.ts and policy.ts), so no line can count
 * differently from the decision:
 * - below: under min_severity;
 * - closed: at or above it, fixed, dismissed or FIXED_VERIFIED;
 * - accepted: at or above it, not closed, accepted by an accepted-risks entry;
 * - known: at or above it, not closed, held by the baseline with fail_on new;
 * - blocking: every other finding at or above it (a status this action does
 *   not know counts as open, as the gate counts it).
 * Only blocking findings fail the gate.
 */
export type FindingStanding = 'blocking' | 'accepted' | 'known' | 'closed' | 'below'

export const FINDING_STANDINGS: readonly FindingStanding[] = ['blocking', 'known', 'accepted', 'closed', 'below']

export interface ReportFinding {
  findingId: string
  severity: Severity
  category: string
  lens: FindingLens
  status: FindingStatus
  description: string
  expectedBehavior: string
  createdAt: string
  /** The plan withholds its proof: no attacks, '[redacted]' text. */
  redacted: boolean
  /** Severity at or above min_severity. */
  atOrAbove: boolean
  attacks: ReportAttack[]
  /** The stable fingerprint (see src/baseline/fingerprint.ts). */
  fingerprint: string
  /** Against the baseline; null without one. */
  baselineState: 'new' | 'known' | null
  /** The accepted-risks entry that accepts it (it does not block). */
  accepted: ReportAcceptance | null
  standing: FindingStanding
}

/**
 * - completed: in categories_completed;
 * - partial: probed (coverage row) but not completed;
 * - not reached: planned, not completed, never probed;
 * - probed: coverage row while completion is unknown (run status unread).
 */
export type CoverageState = 'completed' | 'partial' | 'not reached' | 'probed'

export interface ReportCoverageRow {
  category: string
  /** False for a probed category that was not planned. */
  planned: boolean
  state: CoverageState
  /** null when coverage is unreadable or has no row for the category. */
  blocked: number | null
  succeeded: number | null
  owasp: string | null
  atlas: string | null
  worstSeverity: Severity | null
}

export type SeverityCounts = Record<Severity, number>

export interface FindingCounts {
  total: number
  bySeverity: SeverityCounts
  openBySeverity: SeverityCounts
  atOrAbove: number
  openAtOrAbove: number
  belowThreshold: number
  belowBySeverity: SeverityCounts
  redacted: number
  redactedAtOrAbove: number
  /** Every finding by standing and severity (each finding in exactly one): the count every rendering shows. */
  byStanding: Record<FindingStanding, SeverityCounts>
}

export interface FindingGroup {
  severity: Severity
  findings: ReportFinding[]
}

export interface Report {
  schemaVersion: number
  modelId: string
  modelName: string | null
  endpointHost: string | null
  minSeverity: Severity
  result: GateResult
  reason: string
  verdict: Verdict | null
  verdictComputed: boolean
  runId: string | null
  /** The run's status (last seen), or the list item's when the status was never read. */
  runStatus: RunStatus | null
  startedAt: string | null
  completedAt: string | null
  /** null when neither the run nor its list item was read. */
  categoriesPlanned: string[] | null
  categoriesCompleted: string[] | null
  ingestIncomplete: boolean | null
  elapsedMs: number | null
  coverageReadable: boolean
  /** One row per planned category (in plan order), then rows for probed categories that were not planned. */
  coverageRows: ReportCoverageRow[]
  /** Planned categories that were completed / never reached. */
  coverageCompleted: number
  coverageNotReached: number
  findingsReadable: boolean
  /** Every finding, most severe first (open before others within a severity). */
  findings: ReportFinding[]
  /** Findings at or above min_severity, grouped by severity, most severe first; empty groups left out. */
  groups: FindingGroup[]
  /** Findings below min_severity, most severe first. */
  below: ReportFinding[]
  /** null when the findings are unreadable. */
  counts: FindingCounts | null
  /** Set when at least one finding is redacted. */
  redactionReason: string | null
  notes: string[]
  runUrl: string | null
  /** null when the gate did not look at a baseline (e.g. the findings were not read). */
  baseline: ReportBaseline | null
  acceptances: ReportAcceptances | null
  /** "1 new high · 3 known · 1 accepted · 2 gone"; '' without a baseline or acceptances. */
  headline: string
  /** The commit assessed (hex SHA) and when (ISO time); null when unknown. */
  commitSha: string | null
  assessedAt: string | null
  target: ReportTarget | null
  profileSync: ReportProfileSync | null
  pipeline?: ReportPipeline | null
}

/** "profile v4: tools +1 (refund_order), system_prompt changed" (the one line a report shows of the sync). */
export function describeProfileSync(p: ReportProfileSync): string {
  if (p.status === 'failed')
    return `profile sync failed${p.version === null ? '' : ` (assessed version ${p.version})`}: ${p.error ?? 'unknown error'}`
  const what = p.changed.length > 0 ? `${p.created ? 'created: ' : ''}${p.changed.join(', ')}` : 'unchanged'
  const confirmed = p.confirmed.length > 0 ? `; confirmed ${p.confirmed.join(', ')}` : ''
  return `profile v${p.version ?? '?'}: ${what}${confirmed}`
}

export function zeroCounts(): SeverityCounts {
  return { critical: 0, high: 0, medium: 0, low: 0 }
}

/** True for a finding whose proof the plan withholds. */
export function isRedactedFinding(f: Pick<Finding, 'description' | 'expected_behavior' | 'attacks'>): boolean {
  return f.attacks.length === 0 && (f.description === REDACTED || f.expected_behavior === REDACTED)
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** "1,234", as the renderings write counts. */
const num = (n: number): string => n.toLocaleString('en-US')

function dedupe(items: readonly string[]): string[] {
  return [...new Set(items)]
}

/** Text of the service made safe for every output: the given secrets scrubbed. */
interface Scrub {
  s: (v: string) => string
  /** A string value scrubbed; anything else null. */
  sn: (v: unknown) => string | null
}

function scrubberOf(secrets: readonly string[]): Scrub {
  const scrub = makeScrubber(secrets)
  return {
    s: (v) => scrub(v),
    sn: (v) => {
      const t = str(v)
      return t === null ? null : scrub(t)
    }
  }
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
interface FindingPolicy {
  outcome: PolicyOutcome | null
  hasBaseline: boolean
  toAcceptance: (e: AcceptedEntry) => ReportAcceptance
  /** The run the findings come from (its fingerprints leave it out, see fingerprint.ts). */
  runId: string | null
}

function standingOf(f: Finding, threshold: Severity, outcome: PolicyOutcome | null): FindingStanding {
  if (!atOrAbove(f.severity, threshold)) return 'below'
  if (isClosedFindingStatus(f.status)) return 'closed'
  // The gate's own list of findings that do not block (accepted, or known with fail_on new).
  const waived = outcome?.waived.get(f.finding_id)
  return waived ?? 'blocking'
}

function reportFinding(f: Finding, threshold: Severity, t: Scrub, fp: FindingPolicy): ReportFinding {
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
    accepted: acceptedBy ? fp.toAcceptance(acceptedBy) : null,
    standing: standingOf(f, threshold, outcome)
  }
}

/** Most severe first, open before the others, else in the service's order. */
function orderFindings(findings: ReportFinding[]): ReportFinding[] {
  const indexed = findings.map((f, i) => ({ f, i }))
  indexed.sort(
    (a, b) =>
      severityRank(a.f.severity) - severityRank(b.f.severity) || Number(b.f.status === 'open') - Number(a.f.status === 'open') || a.i - b.i
  )
  return indexed.map((x) => x.f)
}

/** The findings at or above the threshold, one group per severity. */
function groupBySeverity(findings: readonly ReportFinding[], threshold: Severity): FindingGroup[] {
  const groups: FindingGroup[] = []
  for (const sev of SEVERITIES) {
    if (!atOrAbove(sev, threshold)) continue
    const inGroup = findings.filter((f) => f.severity === sev)
    if (inGroup.length > 0) groups.push({ severity: sev, findings: inGroup })
  }
  return groups
}

function countFindings(findings: readonly ReportFinding[]): FindingCounts {
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
    byStanding: { blocking: zeroCounts(), known: zeroCounts(), accepted: zeroCounts(), closed: zeroCounts(), below: zeroCounts() }
  }
  for (const f of findings) {
    c.byStanding[f.standing][f.severity] += 1
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

/** One coverage row per planned category, then the probed categories not planned. */
function coverageRowsOf(
  planned: readonly string[] | null,
  completed: readonly string[] | null,
  coverage: CoverageResponse | null,
  { s }: Scrub
): ReportCoverageRow[] {
  const completedSet = completed ? new Set(completed) : null
  const coverageByCategory = new Map<string, CoverageResponse['categories'][number]>()
  for (const row of coverage?.categories ?? []) {
    if (!coverageByCategory.has(row.category)) coverageByCategory.set(row.category, row)
  }
  const rowFor = (category: string, isPlanned: boolean): ReportCoverageRow => {
    const cov = coverageByCategory.get(category)
    let state: CoverageState
    if (completedSet === null) state = cov ? 'probed' : 'not reached'
    else if (completedSet.has(category)) state = 'completed'
    else state = cov && cov.attacks_blocked + cov.attacks_succeeded > 0 ? 'partial' : 'not reached'
    return {
      category: s(category),
      planned: isPlanned,
      state,
      blocked: cov ? cov.attacks_blocked : null,
      succeeded: cov ? cov.attacks_succeeded : null,
      owasp: cov ? s(cov.owasp) : null,
      atlas: cov ? s(cov.atlas) : null,
      worstSeverity: cov ? cov.worst_severity : null
    }
  }
  const rows: ReportCoverageRow[] = []
  const plannedSet = new Set(planned ?? [])
  for (const c of planned ?? []) rows.push(rowFor(c, true))
  for (const c of coverageByCategory.keys()) if (!plannedSet.has(c)) rows.push(rowFor(c, false))
  return rows
}

export function buildReport(input: ReportInput): Report {
  const t = scrubberOf(input.secrets ?? [])
  const { s, sn } = t
  const threshold = input.minSeverity

  const policy = input.policy ?? null
  const outcome = policy?.outcome ?? null
  const toAcceptance = (e: AcceptedEntry): ReportAcceptance => ({
    index: e.index,
    line: e.line,
    category: s(e.category),
    fingerprint: e.fingerprint,
    reasonCode: e.reasonCode,
    explanation: s(e.explanation),
    owner: s(e.owner),
    expires: e.expires
  })
  const run = input.run
  const item = input.runListItem
  const findingPolicy: FindingPolicy = {
    outcome,
    hasBaseline: policy?.baseline != null,
    toAcceptance,
    runId: run?.run_id ?? item?.run_id ?? null
  }
  const findings = orderFindings((input.findings ?? []).map((f) => reportFinding(f, threshold, t, findingPolicy)))
  const counts = input.findings !== null ? countFindings(findings) : null

  const plannedRaw = run?.categories_planned ?? item?.categories_planned ?? null
  const planned = plannedRaw ? dedupe(plannedRaw) : null
  const completedRaw = run?.categories_completed ?? null
  const coverageRows = coverageRowsOf(planned, completedRaw, input.coverage, t)
  const plannedRows = coverageRows.filter((r) => r.planned)

  let baseline: ReportBaseline | null = null
  if (policy) {
    const b = policy.baseline
    // New: blocking and not in the baseline. Known: in it and neither closed nor
    // accepted (blocking with fail_on any, not with fail_on new).
    const newBySeverity = zeroCounts()
    let knownCount = 0
    for (const f of findings) {
      if (f.standing !== 'blocking' && f.standing !== 'known') continue
      if (f.baselineState === 'known') knownCount += 1
      else if (f.baselineState === 'new') newBySeverity[f.severity] += 1
    }
    baseline = {
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
      gone: (outcome?.diff.gone ?? []).map((g) => ({
        fingerprint: g.fingerprint,
        category: s(g.category),
        severity: g.severity,
        description: s(g.description)
      })),
      uncovered: (outcome?.diff.uncovered ?? []).map(s),
      saved: policy.baselineSaved ? s(policy.baselineSaved) : null
    }
  }
  let acceptances: ReportAcceptances | null = null
  if (policy?.accepted && (policy.accepted.source !== null || policy.accepted.prAdds.length > 0)) {
    const a = policy.accepted
    acceptances = {
      path: s(a.path),
      source: a.source ? s(a.source) : null,
      acceptedCount: findings.filter((f) => f.accepted !== null).length,
      expired: (outcome?.acceptance.expired ?? []).map(toAcceptance),
      stale: (outcome?.acceptance.stale ?? []).map(toAcceptance),
      prAdds: a.prAdds.map(toAcceptance),
      prRemoves: a.prRemoves.map(toAcceptance)
    }
  }
  const headlineParts: string[] = []
  if (baseline?.available) {
    const { newBySeverity } = baseline
    const newParts = SEVERITIES.filter((sev) => newBySeverity[sev] > 0).map((sev) => `${num(newBySeverity[sev])} new ${sev}`)
    headlineParts.push(...(newParts.length > 0 ? newParts : ['0 new']), `${num(baseline.knownCount)} known`)
  }
  const acceptedAtOrAbove = counts ? SEVERITIES.reduce((n, sev) => n + counts.byStanding.accepted[sev], 0) : 0
  if (acceptances && acceptedAtOrAbove > 0) headlineParts.push(`${num(acceptedAtOrAbove)} accepted`)
  if (baseline?.available && baseline.gone.length > 0) headlineParts.push(`${num(baseline.gone.length)} gone`)
  if (acceptances && acceptances.expired.length > 0)
    headlineParts.push(`${num(acceptances.expired.length)} expired acceptance${acceptances.expired.length === 1 ? '' : 's'}`)

  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    modelId: s(input.modelId),
    modelName: input.model ? s(input.model.name) : null,
    endpointHost: input.model ? s(input.model.endpoint_host) : null,
    minSeverity: threshold,
    result: input.result,
    reason: s(input.reason),
    verdict: input.verdict,
    verdictComputed: input.verdictComputed,
    runId: sn(run?.run_id ?? item?.run_id ?? null),
    runStatus: sn(run?.status ?? item?.status ?? null),
    startedAt: sn(run?.started_at ?? item?.started_at ?? null),
    completedAt: sn(run?.completed_at ?? item?.completed_at ?? null),
    categoriesPlanned: planned ? planned.map(s) : null,
    categoriesCompleted: completedRaw ? dedupe(completedRaw).map(s) : null,
    ingestIncomplete: item ? item.ingest_incomplete : null,
    elapsedMs: input.elapsedMs,
    coverageReadable: input.coverage !== null,
    coverageRows,
    coverageCompleted: plannedRows.filter((r) => r.state === 'completed').length,
    coverageNotReached: plannedRows.filter((r) => r.state === 'not reached').length,
    findingsReadable: input.findings !== null,
    findings,
    groups: groupBySeverity(findings, threshold),
    below: findings.filter((f) => !f.atOrAbove),
    counts,
    redactionReason: counts && counts.redacted > 0 ? REDACTION_REASON : null,
    notes: input.notes.map(s),
    runUrl: input.runUrl ?? null,
    commitSha: input.commit?.sha && /^[0-9a-f]{7,40}$/i.test(input.commit.sha) ? input.commit.sha.toLowerCase() : null,
    assessedAt: input.commit?.at ?? null,
    target: input.target
      ? {
          outcome: input.target.outcome,
          name: s(input.target.name),
          movedFrom: input.target.movedFrom
            ? {
                name: s(input.target.movedFrom.name),
                modelId: s(input.target.movedFrom.modelId),
                endpointHost: s(input.target.movedFrom.endpointHost)
              }
            : null
        }
      : null,
    profileSync: input.profileSync
      ? {
          ...input.profileSync,
          file: s(input.profileSync.file),
          changed: input.profileSync.changed.map(s),
          confirmed: input.profileSync.confirmed.map(s),
          error: input.profileSync.error === null ? null : s(input.profileSync.error)
        }
      : null,
    baseline,
    acceptances,
    headline: headlineParts.join(' · '),
    pipeline: input.pipeline ? { ...input.pipeline, budgetLine: s(input.pipeline.budgetLine), lines: input.pipeline.lines.map(s) } : null
  }
}

/** The run's elapsed time in the one duration format (`3 min 12 s`), or null when unknown. */
export function formatElapsed(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null
  return formatDuration(ms)
}

/** "1 critical, 2 high" (zero counts left out; "none" when all are zero). */
export function describeCounts(counts: SeverityCounts, only?: (s: Severity) => boolean): string {
  const parts: string[] = []
  for (const sev of SEVERITIES) {
    if (only && !only(sev)) continue
    if (counts[sev] > 0) parts.push(`${counts[sev].toLocaleString('en-US')} ${sev}`)
  }
  return parts.length > 0 ? parts.join(', ') : 'none'
}
