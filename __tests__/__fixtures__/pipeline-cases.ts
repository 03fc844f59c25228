/**
 * The report cases of PR pipelines a reviewer may meet: a result carried over
 * (pass and fail, the assessed report kept below), a deployment that failed
 * (skipped), a merge-queue entry refused, and the service's budget refusals.
 * Each is rendered by the same pure functions and from the same decisions as
 * the step (src/pipeline/, src/decision/, src/report/), so `npm run preview`
 * shows what github.com would, and __tests__/report/preview-html.test.ts
 * checks it.
 */
import { decideMergeQueue } from '../../src/pipeline/merge-queue.js'
import { agentIdentity, assessmentIdentityOf, type AgentIdentity } from '../../src/pipeline/identity.js'
import { budgetLine } from '../../src/pipeline/budget.js'
import { explainTriggerFailure } from '../../src/gate/explain-trigger-failure.js'
import type { ServiceCallDeps } from '../../src/service/service-api.js'
import { readPipelineEvent } from '../../src/pipeline/event.js'
import { carriedStepResult } from '../../src/decision/carried-result.js'
import { buildReport } from '../../src/report/build-report.js'
import { commentMarker, renderComment, type AssessmentRecord } from '../../src/report/comment.js'
import { failureCause, renderNotAssessed, type NotAssessedInput } from '../../src/report/not-assessed.js'
import { assessedCause, renderCarriedComment, renderPipelineSummary, type PipelineReportInput } from '../../src/report/pipeline-report.js'
import { ConfigError, describeFailure, failureKind, ServiceError } from '../../src/util/errors.js'
import { CASE_COMMIT, CASE_MODEL, CASE_RUN_URL, gateCaseInput, type ReportCase } from './report-cases.js'
import { renderSummary } from '../../src/report/summary.js'
import type { ReportInput } from '../../src/report/report-model.js'
import { failureStatus } from '../../src/github/commit-status.js'
import { pendingDescription, renderAssessingComment } from '../../src/report/pending.js'

const ASSESSED = '9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a39281706'
/** The comment that recorded a carried result (a link the gate builds, from GitHub's answer). */
export const CASE_RECORD_URL = 'https://github.com/acme/agent-app/pull/12#issuecomment-4242'
const HEAD = CASE_COMMIT.sha
/** The agent of the cases, asked when a case renders (never at import: a test's own work, see CONTRIBUTING.md "Mutation testing"). */
const agent = (): AgentIdentity =>
  agentIdentity(
    {
      kind: 'endpoint',
      endpoint: {
        endpointUrl: 'https://agent-app-git-feature-refund-tool-acme.vercel.app/api/support',
        name: null,
        environment: null,
        authType: 'none',
        credential: null,
        oauth: null,
        responseField: 'output.text',
        transport: 'http',
        requestTimeout: null
      }
    },
    { repository: 'acme/agent-app', prNumber: 12, ref: 'feature/refund-tool', site: 'Preview' }
  )
const marker = (): string => commentMarker(agent().commentKey)
const DEPLOYED = `Deployment of ${HEAD.slice(0, 7)} to Preview, the commit of pull request #12: the result goes to its comment and the commit status.`

/** The sticky comment of the assessment carried over: the gate case's report, as the step renders it for this agent. */
function assessedComment(caseName: 'pass' | 'fail'): { body: string; record: AssessmentRecord } {
  const input = gateCaseInput(caseName)
  const spent = budgetLine({
    kind: 'assessed',
    runId: caseName === 'pass' ? 'run_91ab' : 'run_8f2c',
    sha: ASSESSED,
    reason: 'agent paths changed since the last assessment (at 1a2b3c4): agent/tools/refund.py'
  })
  const report = buildReport({
    ...input,
    commit: { sha: ASSESSED, at: '2026-11-20T09:12:00.000Z' },
    pipeline: {
      assessmentsSpent: 1,
      budgetLine: spent.line,
      lines: [DEPLOYED.replace(HEAD.slice(0, 7), ASSESSED.slice(0, 7))],
      agentName: agent().display
    }
  })
  const identity = assessmentIdentityOf(agent(), { profileDigest: null, policyDigest: null })
  const record: AssessmentRecord = {
    result: caseName,
    assessedSha: ASSESSED,
    headSha: ASSESSED,
    subject: identity.subject,
    config: identity.config,
    host: identity.host,
    profileDigest: null,
    policyDigest: null,
    at: '2026-11-20T09:12Z'
  }
  return { body: renderComment(report, { record, marker: marker() }), record }
}

function carriedCase(result: 'pass' | 'fail'): ReportCase {
  const since = '2 files changed since, none under agent_paths: README.md, docs/refunds.md'
  const reason = `carried over: ${result} as assessed at ${ASSESSED.slice(0, 7)} (${since})`
  return {
    name: `carried-${result}`,
    title: `a ${result} carried over from an earlier commit, its report kept below`,
    result,
    blockingIds: [],
    hostile: false,
    render: () => {
      const existing = assessedComment(result)
      const input: PipelineReportInput = {
        kind: 'carried_over',
        result,
        subject: agent().display,
        reason,
        assessedSha: ASSESSED,
        changedFiles: ['README.md', 'docs/refunds.md'],
        commitSha: HEAD,
        at: CASE_COMMIT.at,
        runUrl: CASE_RUN_URL,
        recordUrl: CASE_RECORD_URL,
        lines: [DEPLOYED],
        budgetLine: budgetLine({ kind: 'carried_over', assessedSha: ASSESSED }).line,
        cause: assessedCause(existing.body)
      }
      const step = carriedStepResult({ result, reason, assessedSha: ASSESSED, since, cause: input.cause }, { cancelled: false })
      return {
        comment: renderCarriedComment(input, { marker: marker(), record: { ...existing.record, headSha: HEAD }, existing: existing.body }),
        summary: renderPipelineSummary(input),
        statusDescription: step.line.replace(/^Result: /, '')
      }
    }
  }
}

const failedDeployment: ReportCase = {
  name: 'skipped-failed-deployment',
  title: 'a deployment that failed: skipped, nothing to assess',
  result: 'skipped',
  blockingIds: [],
  hostile: false,
  render: () => {
    const event = readPipelineEvent(
      'deployment_status',
      { deployment_status: { state: 'failure', environment: 'Preview' }, deployment: { sha: HEAD, ref: 'feature/refund-tool' } },
      {}
    )
    const reason = event.kind === 'deployment_skipped' ? event.reason : 'not a skipped deployment'
    const input: PipelineReportInput = {
      kind: 'skipped',
      result: 'skipped',
      subject: agent().display,
      reason,
      assessedSha: null,
      changedFiles: [],
      commitSha: HEAD,
      at: CASE_COMMIT.at,
      runUrl: CASE_RUN_URL,
      recordUrl: null,
      lines: [],
      budgetLine: budgetLine({ kind: 'not_assessed', reason: 'no deployment ready to assess' }).line
    }
    // A skipped step sets no commit status.
    return { comment: null, summary: renderPipelineSummary(input) }
  }
}

/** A case of a run that assessed nothing: `failure` is asked when the case renders. */
function notAssessedCase(name: string, title: string, failure: () => Error, opts: { comment: boolean }): ReportCase {
  return {
    name,
    title,
    result: 'error',
    blockingIds: [],
    hostile: false,
    render: () => {
      const err = failure()
      const kind = failureKind(err)
      const input: NotAssessedInput = {
        modelId: agent().display,
        mode: 'gate',
        kind,
        cause: failureCause(err, kind),
        line: describeFailure(err),
        commitSha: HEAD,
        assessedAt: CASE_COMMIT.at,
        runUrl: CASE_RUN_URL,
        budgetLine: budgetLine({ kind: 'not_assessed', reason: failureCause(err, kind) }).line
      }
      return {
        comment: opts.comment
          ? renderNotAssessed(input, {
              marker: marker(),
              previous: { result: 'pass', sha: ASSESSED.slice(0, 12), at: '2026-11-20T09:12Z' }
            })
          : null,
        summary: renderNotAssessed(input),
        statusDescription: failureStatus(err, describeFailure(err))
      }
    }
  }
}

/** A merge queue of a preview whose pull request's recorded result stands for an older head. */
function queueRefusal(): Error {
  const identity = assessmentIdentityOf(
    agentIdentity({ kind: 'preview', name: null }, { repository: 'acme/agent-app', prNumber: 12, ref: '', site: null }),
    {
      profileDigest: null,
      policyDigest: null
    }
  )
  const record: AssessmentRecord = {
    result: 'pass',
    assessedSha: ASSESSED,
    headSha: ASSESSED,
    subject: identity.subject,
    config: '0a1b2c3d',
    host: 'h',
    profileDigest: null,
    policyDigest: null,
    at: null
  }
  const d = decideMergeQueue({
    mode: 'carry_over',
    pulls: [{ number: 12, headSha: HEAD, records: [record] }],
    identity,
    target: 'preview',
    queueSha: 'd'.repeat(40)
  })
  if (d.kind !== 'fail_closed') throw new Error(`expected a refusal, got ${d.kind}`)
  return new ConfigError('endpoint_url', d.reason, d.summary)
}

const NOW = Date.parse(CASE_COMMIT.at)

/**
 * A refusal of POST /run as the trigger explains it to the user (explainTriggerFailure, at the case's time).
 * Explained at import; a budget refusal does not name the model, so the id is the agent's display name as text.
 */
function refusal(status: number, code: string, message: string, retryAfterMs?: number): Promise<Error> {
  const err = new ServiceError({ endpoint: 'POST /api/v1/run', status, code, message, retryAfterMs })
  const deps = { clock: { now: () => NOW } } as unknown as ServiceCallDeps
  return explainTriggerFailure(deps, { modelId: 'agent-app-pr-12', categories: [] }, err)
}
const [monthly, daily, monthlyPast] = await Promise.all([
  refusal(403, 'allowance_exhausted', 'Monthly allowance spent.'),
  refusal(429, 'daily_budget_exhausted', 'Daily budget exhausted', 90 * 60_000),
  refusal(403, 'allowance_exhausted', 'Monthly allowance spent; it resets on 2026-11-01.')
])

const DEADLINE = '2026-11-21T14:48:27.000Z'
/** A detached run going on: the comment holds the sealed pending record; the status stays pending until the collector. */
const detachedPending: ReportCase = {
  name: 'detached-pending',
  title: 'wait: detached: the run goes on in the service, the status pending until the collector posts the result',
  result: 'pending',
  blockingIds: [],
  hostile: false,
  render: () => {
    const body = renderAssessingComment({
      marker: marker(),
      pending: { runId: 'run_d7ac', commit: HEAD, at: null, categories: [], deadline: DEADLINE.slice(0, 16) + 'Z', mac: 'c'.repeat(64) },
      subject: agent().display,
      context: `agent-security/${agent().commentKey}`,
      deadline: DEADLINE,
      runUrl: CASE_RUN_URL,
      budgetLine: budgetLine({ kind: 'assessed', runId: 'run_d7ac', sha: HEAD, reason: 'agent paths changed' }).line
    })
    return { comment: body, summary: body, statusDescription: pendingDescription('run_d7ac', DEADLINE) }
  }
}

/** The collector's final word on a detached run: the fail case's report, posted by the default branch's collector (collect.ts plannedFor). */
const collectorFinal: ReportCase = {
  name: 'collector-final',
  title: "the collector's final report of a detached run (1 open high), judged with the default branch's policy",
  result: 'fail',
  blockingIds: ['f_leak_01'],
  hostile: false,
  render: () => {
    const report = buildReport(collectorFinalInput())
    return { comment: renderComment(report, { marker: marker() }), summary: renderSummary(report) }
  }
}

/** The report input of the collector's final: the fail case's run, with the line the collector adds. */
export function collectorFinalInput(): ReportInput {
  return {
    ...gateCaseInput('fail'),
    pipeline: {
      assessmentsSpent: 0,
      budgetLine: 'Assessments spent by the collector: 0 (run run_8f2c was triggered by the detached step of pull request #12).',
      lines: [
        "Collected by the default branch's collector (mode: collect): run run_8f2c of pull request #12, judged with the default branch's policy."
      ],
      agentName: agent().display
    }
  }
}

/** A preview whose host moved: registered afresh under the moved name, the old model left unassessed. */
const movedPreview: ReportCase = {
  name: 'moved-preview',
  title: 'a preview whose host moved: registered afresh, its old model not assessed (1 open high)',
  result: 'fail',
  blockingIds: ['f_leak_01'],
  hostile: false,
  render: () => {
    const report = buildReport(movedPreviewInput())
    return { comment: renderComment(report, { marker: marker() }), summary: renderSummary(report) }
  }
}

/** The report input of the moved preview: the fail case's run, registered afresh under the moved name. */
export function movedPreviewInput(): ReportInput {
  const input = gateCaseInput('fail')
  const targetName = 'agent-app-pr-300 cfg-6fd771c9 (moved to agent-app-git-feature-x-acme.vercel.app)'
  return {
    ...input,
    modelId: 'm_moved_301',
    model: {
      ...(input.model ?? CASE_MODEL),
      model_id: 'm_moved_301',
      name: targetName,
      endpoint_host: 'agent-app-git-feature-x-acme.vercel.app'
    },
    target: {
      outcome: 'registered',
      name: targetName,
      movedFrom: { name: 'agent-app-pr-300 cfg-6fd771c9', modelId: 'm_prev_300', endpointHost: 'agent-app-git-feature-acme.vercel.app' }
    },
    pipeline: {
      assessmentsSpent: 1,
      budgetLine: 'Assessments spent by this step: 1 (assessed run run_8f2c of 3f9c2e1: the target was registered afresh).',
      lines: [DEPLOYED],
      agentName: 'agent-app-pr-300'
    }
  }
}

export const PIPELINE_CASES: readonly ReportCase[] = [
  movedPreview,
  carriedCase('pass'),
  carriedCase('fail'),
  failedDeployment,
  notAssessedCase('merge-queue-refused', 'a merge-queue entry refused: no pass at its head', queueRefusal, {
    comment: false
  }),
  notAssessedCase('budget-monthly', 'the monthly allowance is used up (403)', () => monthly, {
    comment: true
  }),
  notAssessedCase('budget-daily', 'the daily budget is used up (429, Retry-After 90 minutes)', () => daily, {
    comment: true
  }),
  notAssessedCase(
    'budget-monthly-past',
    'the monthly allowance is used up (403) and the reset date the service gave is past',
    () => monthlyPast,
    {
      comment: true
    }
  ),
  detachedPending,
  collectorFinal
]
