/**
 * Stage report: one report model, then each of its formats. The gate's run
 * becomes a Report (buildReport, its values scrubbed of the step's secrets
 * before any format escapes them), written in each registered file format (report/formats.ts),
 * and rendered as the outputs, annotations, job summary and comment.
 */
import { buildAnnotations, type Annotation } from '../../report/annotations.js'
import { commentMarker, renderComment, type AssessmentRecord, type RecordedResult } from '../../report/comment.js'
import { REPORT_FORMATS, type FormatOptions } from '../../report/formats.js'
import { reportLocation } from '../report-location.js'
import { readGitLabCi } from '../../gitlab/ci-context.js'
import { ciHost } from '../ci-host.js'
import { reportTitle } from '../../report/markdown-headline.js'
import { buildReport } from '../../report/build-report.js'
import type { Report } from '../../report/report-model.js'
import { renderSummary } from '../../report/summary.js'
import { assessedCommit } from '../../github/event-target.js'
import { readEventPayload, type PublishArgs } from '../../github/publish.js'
import type { GateOutcome } from '../../gate/assess-run.js'
import { assessmentReportInput } from '../../gate/report-input.js'
import { budgetLine } from '../../pipeline/budget.js'
import { whatAPassMeans } from '../../evidence/confirmation-rule.js'
import type { AssessmentIdentity } from '../../pipeline/identity.js'
import { scrubSecretsDeep } from '../../util/redact.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { AssessedOutcome, EndOutcome } from '../outcome.js'
import { decidedFindingsCount, reportOutcome } from '../outcome.js'
import { ACTION_VERSION } from '../version.js'
import type { StepContext } from './stage-context.js'
import type { GatePolicy } from './load-baseline-and-risks.js'
import type { AssessPlan } from './plan.js'
import type { PlannedEvent } from './plan-event.js'
import type { PreparedStep } from './prepare.js'
import type { Recorded } from './record.js'

/** A report as each sink shows it (see publish). */
export interface RenderedReport {
  /** How the step ended, as the shells render it (see outcome.ts). */
  outcome: EndOutcome
  annotations: readonly Annotation[]
  /** The job summary (markdown). */
  summary: string
  /** The sticky comment or the tracking issue; null when there is nothing to key it on. */
  github: Omit<PublishArgs, 'inputs'> | null
  /** Lines for the step's log, once the rest is out. */
  log: readonly string[]
  /**
   * What still goes out once the job is cancelled: the outcome only (the gate's
   * report would show a result the step no longer stands behind), the runner's
   * summary but not GitHub (no time for it), or all of it.
   */
  whenCancelled: 'outputs' | 'summary' | 'all'
}

/** The link to this run of the CI: the workflow run, or in a GitLab job the job (CI_JOB_URL); null when neither is known. */
export function runUrl(env: NodeJS.ProcessEnv): string | null {
  if (ciHost(env) === 'gitlab') return readGitLabCi(env).jobUrl
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env
  return server && repo && id ? `${server}/${repo}/actions/runs/${id}` : null
}

/** What the link of runUrl is called in that CI's words: GitLab's "job", GitHub's "workflow run". */
export function runLinkLabel(env: NodeJS.ProcessEnv): string {
  return ciHost(env) === 'gitlab' ? 'job' : 'workflow run'
}

/**
 * The commit assessed and the time of the report (for every comment and
 * summary): the event's commit when the pipeline read one (a deployed commit
 * is not GITHUB_SHA on repository_dispatch), else the PR's head or GITHUB_SHA;
 * in a GitLab job, the commit the job runs (CI_COMMIT_SHA).
 */
export async function assessedNow(ctx: StepContext, eventCommit: string | null = null): Promise<{ sha: string | null; at: string }> {
  const { env } = ctx.io
  const jobCommit = ciHost(env) === 'gitlab' ? readGitLabCi(env).commitSha : null
  return {
    sha: eventCommit ?? jobCommit ?? assessedCommit(await readEventPayload(env.GITHUB_EVENT_PATH), env.GITHUB_SHA),
    at: new Date(ctx.clock.now()).toISOString()
  }
}

/** "2026-11-21T14:03Z" of an ISO time. */
export function isoMinute(iso: string): string {
  return `${iso.slice(0, 16)}Z`
}

/**
 * The record of an assessment for its sticky comment (read back by the next
 * run to carry its result over); none when the commit is not known in full.
 */
export function assessmentRecord(
  identity: AssessmentIdentity,
  result: RecordedResult,
  commit: string | null,
  at: string
): AssessmentRecord | undefined {
  if (commit === null || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit)) return undefined
  const { subject, config, host, profileDigest, policyDigest } = identity
  return { result, assessedSha: commit, headSha: commit, subject, config, host, profileDigest, policyDigest, at: isoMinute(at) }
}

/**
 * A report model with every string scrubbed of the step's secrets, before any
 * format escapes it: markdown escaping can split a secret that holds
 * punctuation, which the edge's scrub of the output would then miss.
 */
export function scrubbedModel<T>(ctx: StepContext, model: T): T {
  return scrubSecretsDeep(model, ctx.secrets) as T
}

export interface GateReportArgs {
  prepared: PreparedStep
  policy: GatePolicy
  outcome: GateOutcome
  recorded: Recorded
  /** The event (its commit, its pull request) and why this step assessed. */
  planned: PlannedEvent
  plan: AssessPlan
}

export async function reportGate(ctx: StepContext, args: GateReportArgs): Promise<RenderedReport> {
  const { inputs } = args.prepared
  const { outcome, planned } = args
  const report = await gateReport(ctx, args)
  const files = await writeReportFiles(ctx, inputs, report, `report-${inputs.modelId}-${outcome.triggered.runId}`)
  const record = assessmentRecord(args.plan.identity, outcome.decision.result, report.commitSha, report.assessedAt ?? '')
  const marker = commentMarker(planned.agent.commentKey)
  return {
    outcome: assessedOutcome(outcome, report, files),
    annotations: buildAnnotations(report),
    summary: renderSummary(report),
    github: {
      marker,
      commentBody: () => renderComment(report, { record, marker, on: ciHost(ctx.io.env) === 'gitlab' ? 'gitlab' : 'github' }),
      issueTitle: reportTitle(report),
      failing: outcome.decision.result !== 'pass',
      // A deployment (or the collector of a detached run) runs on the default branch: its report goes to the pull request of the commit.
      ...(planned.event.kind !== 'pull_request' && planned.pull !== null ? { pullRequest: planned.pull } : {})
    },
    log: outcome.results.notes,
    whenCancelled: 'outputs'
  }
}

/** The report model of a gate run: what the run read and decided, the policy it was held against, what was recorded. */
async function gateReport(ctx: StepContext, { prepared, policy, outcome, recorded, planned, plan }: GateReportArgs): Promise<Report> {
  const { inputs } = prepared
  const commit = await assessedNow(ctx, planned.commit)
  const confirmation = outcome.confirmation
  const spent = budgetLine({
    kind: 'assessed',
    runId: outcome.triggered.runId,
    sha: commit.sha,
    reason: plan.reason,
    confirmationRuns: confirmation?.runIds.length ?? 0,
    confirmationPlan: confirmation?.planLine,
    changeRuns: outcome.moreRuns?.runIds.length ?? 0
  })
  const input = assessmentReportInput(outcome, {
    modelId: inputs.modelId,
    minSeverity: inputs.minSeverity,
    runUrl: runUrl(ctx.io.env),
    secrets: [...ctx.secrets],
    ...prepared.report
  })
  return buildReport({
    ...input,
    notes: [
      ...input.notes,
      ...(policy.accepted?.notes ?? []),
      ...policy.baseline.notes,
      ...policy.baseline.gaps.map((g) => `Evidence not read: ${g}.`),
      ...recorded.notes
    ],
    policy: {
      failOn: inputs.failOn,
      baseline: policy.baseline.baseline,
      baselineSource: policy.baseline.source,
      agentWindow: policy.baseline.windows.agent?.scope ?? null,
      baselineWhy: policy.baseline.why,
      baselineSaved: recorded.baselineSaved,
      windowCost: policy.baseline.cost,
      accepted: policy.accepted,
      outcome: outcome.policy
    },
    commit,
    pipeline: {
      assessmentsSpent: spent.spent,
      budgetLine: spent.line,
      lines: planned.lines,
      agentName: planned.agent.display,
      detection: whatAPassMeans(1 + (outcome.moreRuns?.pooled ?? 0), inputs.confidence, {
        confirmed: confirmation !== null && confirmation.runIds.length > 0,
        agentPathsSet: inputs.agentPaths.length > 0,
        // Rates of the model's runs as the service lists them: main's records were gone (load-evidence.ts readLedger).
        recordsGone: policy.baseline.windows.agent?.scope === 'model'
      }),
      confirmation: confirmation === null ? null : { lines: confirmation.lines, runIds: confirmation.runIds }
    }
  })
}

/** Every registered format written as a file: its output name → the file's path. */
type ReportFiles = AssessedOutcome['files']

async function writeReportFiles(ctx: StepContext, inputs: ActionInputs, report: Report, name: string): Promise<ReportFiles> {
  const { io } = ctx
  const location = reportLocation(io.env, { sarifLocation: inputs.sarifLocation, profilePath: inputs.profile?.path ?? null })
  const opts: FormatOptions = {
    sarifLocation: location.path,
    junitFile: location.source === 'none' ? null : { path: location.path, onTestcases: location.junitOnTestcases },
    sarifMinSeverity: inputs.sarifMinSeverity,
    toolVersion: ACTION_VERSION
  }
  const files: Partial<ReportFiles> = {}
  for (const format of REPORT_FORMATS) files[format.output] = await io.writeReportFile(name, format.extension, format.render(report, opts))
  return files as ReportFiles
}

function assessedOutcome(outcome: GateOutcome, report: Report, files: ReportFiles): AssessedOutcome {
  const { decision, run } = outcome
  const fromReport = reportOutcome(report)
  return {
    kind: 'assessed',
    result: decision.result,
    runId: outcome.triggered.runId,
    status: run?.status ?? null,
    serviceVerdict: run?.verdict ?? null,
    findingsCount: decidedFindingsCount(decision.findingsAtOrAbove, fromReport.blocking),
    categoriesPlanned: run?.categories_planned ?? [],
    categoriesCompleted: run?.categories_completed ?? [],
    files,
    assessmentsSpent: report.pipeline?.assessmentsSpent ?? 1,
    commentUrl: null,
    ...fromReport
  }
}
