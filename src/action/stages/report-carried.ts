/**
 * Stage report, when the event decided that nothing is assessed: a result
 * carried over from an earlier assessment of the same agent (its comment
 * replaced by one that says "carried over" and keeps the assessed report),
 * or a deployment event that is not ready (the summary only). Both write a
 * report.json and say that the step spent no assessment.
 */
import { budgetLine } from '../../pipeline/budget.js'
import { commentMarker } from '../../report/comment.js'
import {
  pipelineTitle,
  renderCarriedComment,
  renderPipelineJson,
  renderPipelineSummary,
  type PipelineReportInput
} from '../../report/pipeline-report.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { StepContext } from './stage-context.js'
import type { CarryOverPlan } from './plan.js'
import type { PlannedEvent } from './plan-event.js'
import { assessedNow, runLinkLabel, runUrl, scrubbedModel, type RenderedReport } from './report.js'

async function reportFile(ctx: StepContext, name: string, input: PipelineReportInput): Promise<string> {
  return ctx.io.writeReportFile(
    `report-${name}-${input.kind}-${(input.commitSha ?? 'head').slice(0, 12)}`,
    'json',
    renderPipelineJson(input)
  )
}

export async function reportCarried(
  ctx: StepContext,
  inputs: ActionInputs,
  planned: PlannedEvent,
  plan: CarryOverPlan
): Promise<RenderedReport> {
  const now = await assessedNow(ctx, planned.commit)
  const name = planned.agent.display
  const input = scrubbedModel<PipelineReportInput>(ctx, {
    kind: 'carried_over',
    result: plan.result,
    subject: name,
    reason: plan.reason,
    assessedSha: plan.assessedSha,
    changedFiles: plan.changedFiles,
    commitSha: now.sha,
    at: now.at,
    runUrl: runUrl(ctx.io.env),
    runLinkLabel: runLinkLabel(ctx.io.env),
    recordUrl: plan.from?.url ?? null,
    lines: planned.lines,
    budgetLine: budgetLine({ kind: 'carried_over', assessedSha: plan.assessedSha }).line,
    cause: plan.cause
  })
  const marker = commentMarker(planned.agent.commentKey)
  const record = plan.record
  return {
    outcome: {
      kind: 'carried_over',
      result: plan.result,
      assessmentsSpent: 0,
      reportPath: await reportFile(ctx, inputs.modelId || name, input),
      commentUrl: null
    },
    annotations: [],
    summary: renderPipelineSummary(input),
    github: {
      marker,
      commentBody: (existing) => renderCarriedComment(input, { marker, record, existing }),
      issueTitle: pipelineTitle(input),
      failing: plan.result !== 'pass',
      ...(planned.event.kind === 'deployment' ? { pullRequest: planned.pull } : {})
    },
    log: [],
    whenCancelled: 'outputs'
  }
}

/** A deployment event that is not ready: the summary and report.json only, nothing to GitHub. */
export async function reportSkipped(
  ctx: StepContext,
  inputs: ActionInputs,
  planned: PlannedEvent,
  reason: string
): Promise<RenderedReport> {
  const now = await assessedNow(ctx, planned.commit)
  const name = planned.agent.display
  const input = scrubbedModel<PipelineReportInput>(ctx, {
    kind: 'skipped',
    result: 'skipped',
    subject: name,
    reason,
    assessedSha: null,
    changedFiles: [],
    commitSha: now.sha,
    at: now.at,
    runUrl: runUrl(ctx.io.env),
    runLinkLabel: runLinkLabel(ctx.io.env),
    recordUrl: null,
    lines: planned.lines,
    budgetLine: budgetLine({ kind: 'not_assessed', reason: 'no deployment ready to assess' }).line
  })
  return {
    outcome: { kind: 'skipped', result: 'skipped', assessmentsSpent: 0, reportPath: await reportFile(ctx, inputs.modelId || name, input) },
    annotations: [],
    summary: renderPipelineSummary(input),
    github: null,
    log: [],
    whenCancelled: 'summary'
  }
}
