/**
 * The step's outcome as one typed value: produced by the stages (prepare,
 * the report stages, publish, conclude) and rendered by each shell (the
 * action's outputs here; the command line's exit code and JSON). One kind
 * per way a step ends, each naming every value it has, so a new output is a
 * field of the kinds it belongs to plus its row in OUTPUT_TABLE (output-table.ts), and the
 * compiler finds every producer and every renderer.
 */
import type { GateResult, Report, SeverityCounts } from '../report/report-model.js'
import { blockers, rateText } from '../report/blockers.js'
import { modelLabel } from '../report/markdown-headline.js'
import type { Severity } from '../service/contract/index.js'
import type { ReportFileOutput } from '../report/formats.js'
import type { StepResult } from '../decision/step-result.js'

/** The results the `result` output names. */
export type OutcomeResult = GateResult | 'skipped' | 'pending'

/** The model assessed, known once the target is prepared (a step that fails later still names it). */
export interface PreparedOutcome {
  modelId: string
  /** endpoint_url only: whether this step registered the target or found it; null for a model_id. */
  target: 'registered' | 'reused' | null
  profileVersion: number | null
}

/** The baseline comparison; null without a baseline. */
export interface BaselineCounts {
  newCount: number
  knownCount: number
  goneCount: number
}

/** A run was assessed and decided. */
export interface AssessedOutcome {
  kind: 'assessed'
  result: GateResult
  runId: string
  /** The run's final status; null when it was never read. */
  status: string | null
  /** The service's own pass/fail for the run (reference only: result decides); null when it gave none. */
  serviceVerdict: string | null
  findingsCount: number | null
  categoriesPlanned: readonly string[]
  categoriesCompleted: readonly string[]
  /** Each registered report format's file, by its output name. */
  files: Record<ReportFileOutput, string>
  baseline: BaselineCounts | null
  acceptedCount: number
  assessmentsSpent: number
  commentUrl: string | null
  /** Every finding of the run by severity (any status); null when the findings were not read. */
  bySeverity: SeverityCounts | null
  /** The findings that fail the gate, most severe first. */
  blocking: readonly BlockingFinding[]
  /** The agent as every view names it (its inventory or target name; the model id when it has none). */
  agentName: string
}

/** A finding that fails the gate, as a shell lists it (src/report/blockers.ts: the one list every view shows). */
export interface BlockingFinding {
  /** null: a weakness this run did not reproduce that still blocks (an earlier run of this agent saw it). */
  findingId: string | null
  severity: Severity
  category: string
  description: string
  baselineState: 'new' | 'known' | null
  /** False: not reproduced in this run, still blocks. */
  reproduced: boolean
  /** "seen in 3 of the last 5 runs (flaky)", "this run only". */
  seen: string
}

/**
 * What an assessed outcome takes from the report: the counts that decided
 * (new and known count the blockers, a weakness not reproduced in this run
 * that still blocks included), the blockers by name (src/report/blockers.ts,
 * the one list every view shows) and the agent's name.
 */
export function reportOutcome(
  report: Report
): Pick<AssessedOutcome, 'baseline' | 'acceptedCount' | 'bySeverity' | 'agentName' | 'blocking'> {
  const b = report.baseline
  return {
    baseline: b?.available ? { newCount: b.newCount, knownCount: b.knownCount, goneCount: b.gone.length } : null,
    acceptedCount: report.acceptances?.acceptedCount ?? 0,
    bySeverity: report.counts?.bySeverity ?? null,
    agentName: modelLabel(report),
    blocking: blockers(report).map((x) => ({
      findingId: x.findingId,
      severity: x.severity,
      category: x.category,
      description: x.description,
      baselineState: x.baselineState,
      reproduced: x.reproduced,
      seen: rateText(x.seen)
    }))
  }
}

/**
 * findings_count: the findings the result was decided on, at or above the
 * threshold: the run's (`atOrAbove`, null when they were not read) and the
 * held weaknesses it did not reproduce that still block, so new_count plus
 * known_count never exceeds it.
 */
export function decidedFindingsCount(atOrAbove: number | null, blocking: readonly BlockingFinding[]): number | null {
  return atOrAbove === null ? null : atOrAbove + blocking.filter((b) => !b.reproduced).length
}

/**
 * "high tool_misuse (new; not reproduced in this run; seen in 1 of the last 2
 * runs (flaky))": a blocker as every shell names it; `short` (a commit
 * status's 140 characters) keeps only steady or flaky of its rate.
 */
export function blockingText(f: BlockingFinding, opts: { short?: boolean } = {}): string {
  const kind = /\((steady|flaky)\)$/.exec(f.seen)?.[1] ?? null
  const rate = opts.short === true ? kind : f.seen === 'this run only' ? null : f.seen
  const traits = [f.baselineState, f.reproduced ? null : 'not reproduced in this run', rate].filter(
    (t): t is string => t !== null && t !== ''
  )
  return `${f.severity} ${f.category}${traits.length > 0 ? ` (${traits.join('; ')})` : ''}`
}

/**
 * A fail's commit status: what blocks, named, most severe first ("fail: 2
 * blocking: high tool_misuse (new), high prompt_injection (known; flaky)");
 * undefined when nothing of the findings blocks (the step's line says why).
 */
export function gateStatus(end: AssessedOutcome): string | undefined {
  if (end.result !== 'fail' || end.blocking.length === 0) return undefined
  return `fail: ${end.blocking.length} blocking: ${end.blocking.map((f) => blockingText(f, { short: true })).join(', ')}`
}

/** An earlier result of the same agent stands; nothing is assessed. */
export interface CarriedOutcome {
  kind: 'carried_over'
  result: GateResult
  reportPath: string
  assessmentsSpent: number
  commentUrl: string | null
}

/** A deployment event not ready: nothing to assess yet. */
export interface SkippedOutcome {
  kind: 'skipped'
  result: 'skipped'
  reportPath: string
  assessmentsSpent: number
}

/** validate mode: the fixes replayed. */
export interface ValidatedOutcome {
  kind: 'validated'
  result: 'pass' | 'fail'
  resolvedCount: number
  stillBrokenCount: number
  notAttemptedCount: number
  reportPath: string
}

/** The step ended without a result. */
export interface NotAssessedOutcome {
  kind: 'not_assessed'
  result: 'error'
  /** null in validate mode (it spends no assessment). */
  assessmentsSpent: number | null
}

/** wait: detached: the run was triggered and handed to the collector (its result comes later, as the commit status). */
export interface DetachedOutcome {
  kind: 'detached'
  result: 'pending'
  runId: string
  reportPath: string
  assessmentsSpent: number
  commentUrl: string | null
}

/** mode: collect: the pending assessments of the repository looked at once (each result goes to its commit status). */
export interface CollectedOutcome {
  kind: 'collected'
  /**
   * The worst status it set (collect-decision.ts collectorResult: a record it
   * could not read counts as error); pending: none set, some still pending;
   * pass: none set, nothing pending.
   */
  result: GateResult | 'pending'
  reportPath: string
  assessmentsSpent: 0
  /** Records it set a final status for (decided or refused). */
  collected: number
}

/** mode: overview: every model of the workspace read (reads only: nothing is assessed). */
export interface OverviewOutcome {
  kind: 'overview'
  /** pass: every agent assessed within the bound and passing; fail: one would fail the gate; incomplete: one is stale, never assessed or not read. */
  result: 'pass' | 'fail' | 'incomplete'
  /** The overview as JSON (its schema: docs/overview.md). */
  reportPath: string
  assessmentsSpent: 0
}

/** How the step's run ended, as a report stage renders it. */
export type EndOutcome =
  | AssessedOutcome
  | CarriedOutcome
  | SkippedOutcome
  | ValidatedOutcome
  | NotAssessedOutcome
  | DetachedOutcome
  | CollectedOutcome
  | OverviewOutcome

/** The whole outcome: how it ended, the model when it was prepared, and the step's own pass or fail. */
export interface StepOutcome {
  end: EndOutcome
  /** null when the step ended before its target was prepared. */
  prepared: PreparedOutcome | null
  /**
   * The result as the shells report it: the run's, or error for a step that
   * was cancelled after its result was decided.
   */
  result: OutcomeResult
  /** The step's pass, warning or fail, and its last line. */
  conclusion: StepResult
}

/** The outcome's values, flat: what each output renders from (each report format's file among them, by its output). */
export interface OutcomeValues extends Record<ReportFileOutput, string | undefined> {
  model_id: string | undefined
  target: string | undefined
  profile_version: number | undefined
  run_id: string | undefined
  status: string | null | undefined
  service_verdict: string | null | undefined
  /** Deprecated: service_verdict under its 1.0 name, kept through 1.x. */
  verdict: string | null | undefined
  result: OutcomeResult
  assessments_spent: number | undefined
  findings_count: number | null | undefined
  categories_planned: readonly string[] | undefined
  categories_completed: readonly string[] | undefined
  report_path: string | undefined
  new_count: number | null | undefined
  known_count: number | null | undefined
  gone_count: number | null | undefined
  accepted_count: number | undefined
  sarif_path: string | undefined
  junit_path: string | undefined
  markdown_path: string | undefined
  codequality_path: string | undefined
  comment_url: string | null | undefined
  resolved_count: number | undefined
  still_broken_count: number | undefined
  not_attempted_count: number | undefined
  collected: number | undefined
}

/** undefined: not set for this kind of end; null: set, empty (a value the run did not give). */
export type OutputName = keyof OutcomeValues

/** Every value of an outcome under its output's name (the action's outputs, the command line's JSON). */
export function outcomeValues(step: StepOutcome): OutcomeValues {
  const { prepared: p, end: o } = step
  const a = o.kind === 'assessed' ? o : null
  const counts = a === null ? undefined : a.baseline
  return {
    model_id: p?.modelId,
    target: p?.target ?? undefined,
    profile_version: p?.profileVersion ?? undefined,
    run_id: a?.runId ?? (o.kind === 'detached' ? o.runId : undefined),
    status: a?.status,
    service_verdict: a?.serviceVerdict,
    verdict: a?.serviceVerdict,
    result: step.result,
    assessments_spent: o.kind === 'validated' ? undefined : (o.assessmentsSpent ?? undefined),
    findings_count: a?.findingsCount,
    categories_planned: a?.categoriesPlanned,
    categories_completed: a?.categoriesCompleted,
    report_path: o.kind === 'assessed' ? o.files.report_path : o.kind === 'not_assessed' ? undefined : o.reportPath,
    new_count: counts === undefined ? undefined : (counts?.newCount ?? null),
    known_count: counts === undefined ? undefined : (counts?.knownCount ?? null),
    gone_count: counts === undefined ? undefined : (counts?.goneCount ?? null),
    accepted_count: a?.acceptedCount,
    sarif_path: a?.files.sarif_path,
    junit_path: a?.files.junit_path,
    markdown_path: a?.files.markdown_path,
    codequality_path: a?.files.codequality_path,
    comment_url: o.kind === 'assessed' || o.kind === 'carried_over' || o.kind === 'detached' ? (o.commentUrl ?? undefined) : undefined,
    resolved_count: o.kind === 'validated' ? o.resolvedCount : undefined,
    still_broken_count: o.kind === 'validated' ? o.stillBrokenCount : undefined,
    not_attempted_count: o.kind === 'validated' ? o.notAttemptedCount : undefined,
    collected: o.kind === 'collected' ? o.collected : undefined
  }
}

/** The outcome of a step that ended without a result and without a report (it had to exit at once). */
export function failedOutcome(line: string): StepOutcome {
  return {
    end: { kind: 'not_assessed', result: 'error', assessmentsSpent: null },
    prepared: null,
    result: 'error',
    conclusion: { outcome: 'fail', line }
  }
}
