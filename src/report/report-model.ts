/**
 * The report model: the data every rendering shows (PR comment, job summary,
 * report.json, SARIF, JUnit, annotations), built once by build-report.ts from
 * what the gate read and decided. Credentials are redacted when it is built,
 * so no rendering can show them; the renderers only format and escape.
 */
import type {
  CoverageResponse,
  Finding,
  FindingLens,
  FindingStatus,
  ModelListItem,
  ReplayStatus,
  RunListItem,
  RunStatus,
  RunStatusResponse,
  Severity,
  Verdict
} from '../service/contract/index.js'
import type { PolicyOutcome } from '../decision/apply-policy.js'
import type { AcceptedRisks } from '../accepted/read-accepted.js'
import type { Baseline } from '../evidence/baseline.js'
import type { WindowCost } from '../evidence/load-evidence.js'

/**
 * The gate's result, decided by src/decision/decide.ts. Declared here, with the
 * report, so that the report depends on no part of the gate: the gate and the
 * shell hand it data (see assessmentReportInput in src/gate/report-input.ts).
 */
import type { FailOn, GateResult } from '../decision/result-words.js'

export type { GateResult }

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
  /** The baseline and the accepted risks, when the gate read them (see src/decision/apply-policy.ts). */
  policy: ReportPolicyInput | null
  /** Link to the workflow run (built by the gate; trusted). */
  runUrl?: string | null
  /** The commit assessed (the PR's head SHA, else GITHUB_SHA) and when the report was made (ISO). */
  commit?: { sha: string | null; at: string | null } | null
  /** Values that must never appear in any output (the api_key, ...): replaced by `***` everywhere. */
  secrets: string[]
  /** How the model was obtained (endpoint_url: registered or reused); absent when model_id was given. */
  target?: ReportTarget | null
  /** What the profile sync did before the run; absent when there is no profile_file. */
  profileSync?: ReportProfileSync | null
  /** The event's lines and the assessment budget (docs/pr-pipelines.md); absent outside the main step. */
  pipeline?: ReportPipeline | null
}

/** What the step spent of the assessment budget and why, and what the event was (docs/pr-pipelines.md). */
export interface ReportPipeline {
  /** Assessments this step spent: its own run and each confirmation run. */
  assessmentsSpent: number
  /** "Assessments spent by this step: 1 (assessed run r_1 of abc1234: ...)." */
  budgetLine: string
  /** What the event was, where its result goes, why the step assessed. */
  lines: string[]
  /** How every report of the step names the agent (AgentIdentity.display); absent: the model's name, else its id. */
  agentName?: string
  /** What a pass of this step means, one line ("a weakness landing 30 % of the time passes one run 70 % of the time"). */
  detection?: string
  /** The confirmations of presumed weaknesses: one line each, and the runs they spent; absent when none was needed. */
  confirmation?: { lines: string[]; runIds: string[] } | null
}

export interface ReportPolicyInput {
  failOn: FailOn
  baseline: Baseline | null
  /** Where the baseline came from, or why there is none. */
  baselineSource: string | null
  baselineWhy: string | null
  /** Where this run saved the baseline (default branch), else null. */
  baselineSaved: string | null
  /** What reading the windows of evidence cost; null when none was read. */
  windowCost?: WindowCost | null
  accepted: AcceptedRisks | null
  /** null when the findings were not read. */
  outcome: PolicyOutcome | null
  /** Whose earlier runs speak for this agent: main's (on the default branch), a pull request's own, none (absent: none). */
  agentWindow?: 'main' | 'agent' | 'model' | null
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
  /** Findings of the window the service closed since (fixed, dismissed) and this run did not find. */
  gone: { fingerprint: string; category: string; severity: Severity; description: string }[]
  /**
   * Open findings of a window this run did not reproduce: still open, never
   * "gone". `blocks`: an earlier run of this same agent saw it, so it fails
   * the gate as if seen now (fail_on any).
   */
  notReproduced: ReportNotReproduced[]
  /** What reading the windows cost (requests, never assessments); null when none was read. */
  window: WindowCost | null
  /** Categories the baseline covered that this run did not complete. */
  uncovered: string[]
  /** Whose earlier runs speak for this agent (its rates count them): main's, a pull request's own, or none. */
  agentWindow: 'main' | 'agent' | 'model' | null
  saved: string | null
}

export interface ReportNotReproduced {
  fingerprint: string
  category: string
  severity: Severity
  description: string
  seen: ReportSeen
  blocks: boolean
  /** Focused runs of this step showed it gone (a confirmation): why it does not block. */
  confirmedGone?: boolean
  /** As a blocker counts against the baseline (new, or known to main's runs); null without a baseline. */
  baselineState: 'new' | 'known' | null
}

/** How often a finding was seen across the runs of its window. */
export interface ReportSeen {
  seen: number
  of: number
  scope: 'main' | 'agent' | 'model' | 'this run'
  /** "4 of 5 runs of main", "2 of 3 runs of this agent", "this run only". */
  label: string
  /** steady: every run counted saw it; flaky: some did; null: one run only. */
  steadiness: 'steady' | 'flaky' | null
  /** A window of other runs was read (false: the gate had this run alone, and the comment does not repeat it per finding). */
  windowed: boolean
  /** The rate counts main's runs only, not this agent's (a changed agent: the runs of main are another agent's). */
  mainOnly?: boolean
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
 * own rules (src/decision/decide.ts and apply-policy.ts), so no line can count
 * differently from the decision:
 * - below: under min_severity;
 * - closed: at or above it, fixed, dismissed or FIXED_VERIFIED;
 * - accepted: at or above it, not closed, accepted by an accepted-risks entry;
 * - known: at or above it, not closed, held by the baseline with fail_on new;
 * - blocking: every other finding at or above it (a status this action does
 *   not know counts as open, as the gate counts it).
 * Only blocking findings fail the gate. In the order the lists show them;
 * the type is this list's, so a new standing is one entry here and the
 * compiler names the rest (its words in standings.ts, its count).
 */
export const FINDING_STANDINGS = ['blocking', 'known', 'accepted', 'closed', 'below'] as const

export type FindingStanding = (typeof FINDING_STANDINGS)[number]

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
  /** The stable fingerprint (see src/evidence/fingerprint.ts). */
  fingerprint: string
  /** Against the baseline; null without one. */
  baselineState: 'new' | 'known' | null
  /** How often it was seen across the runs of its window ("this run only" without one). */
  seen: ReportSeen
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
  /** Blocking and known findings a window of more than one run counted: seen in every run (steady) or in some (flaky). */
  bySteadiness: { steady: number; flaky: number }
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

export function zeroCounts(): SeverityCounts {
  return { critical: 0, high: 0, medium: 0, low: 0 }
}
