/**
 * Stage detach (wait: detached): the run is triggered as an attached step
 * triggers it, then handed over instead of waited for. The commit status
 * agent-security/<model_id> is set pending with the run and its deadline, the
 * sticky comment gets its "assessing" state with the pending record
 * (src/report/pending.ts), and the step ends: a collector (mode: collect,
 * src/action/collect.ts) decides, reports and publishes when the run ends.
 *
 * Fail closed: the collector finds a run only through the comment, so a
 * comment that cannot be written fails the step and its status ends in error
 * (the run is cancelled: nobody would read it). The post step owes nothing
 * once the run is handed over (it must not cancel it).
 */
import { triggerAssessment } from '../../gate/assess.js'
import { budgetLine } from '../../pipeline/budget.js'
import { commentMarker } from '../../report/comment.js'
import { pendingDescription, renderAssessingComment, type PendingRecord } from '../../report/pending.js'
import { GitHubError } from '../../util/errors.js'
import type { ActionInputs } from '../inputs.js'
import type { DetachedOutcome } from '../outcome.js'
import { saveRunSettled } from '../state.js'
import { gateArgs, gateDeps } from './assess.js'
import { handOverStatus, type StatusEdge } from './commit-status.js'
import type { StepContext } from './context.js'
import type { GatePolicy } from './load-policy.js'
import type { AssessPlan } from './plan.js'
import type { PlannedEvent } from './plan-event.js'
import { isoMinute, runUrl } from './report.js'
import type { PullRequestRef } from '../../github/sticky-comment.js'
import { statusContext } from '../../github/commit-status.js'

export interface DetachArgs {
  inputs: ActionInputs
  policy: GatePolicy
  planned: PlannedEvent & { commit: string; pull: PullRequestRef }
  plan: AssessPlan
  status: StatusEdge
}

/** Whether this step hands its run over: wait: detached, on a commit of a pull request (where the collector looks). */
export function detaches(inputs: ActionInputs, planned: PlannedEvent, status: StatusEdge | null): status is StatusEdge {
  return inputs.wait === 'detached' && planned.commit !== null && planned.pull !== null && status !== null
}

/** Trigger, set pending, write the assessing comment, end. Throws (failing the step) when the collector could not find the run. */
export async function detach(ctx: StepContext, a: DetachArgs): Promise<{ end: DetachedOutcome; line: string }> {
  const { io } = ctx
  const { inputs, planned } = a
  const triggered = await triggerAssessment(gateDeps(ctx, inputs), gateArgs(inputs, a.policy))
  const startedMs = Number.isFinite(Date.parse(triggered.startedAt)) ? Date.parse(triggered.startedAt) : ctx.clock.now()
  const deadline = new Date(startedMs + inputs.timeoutMs).toISOString()
  const pending: PendingRecord = { runId: triggered.runId, commit: planned.commit, at: isoMinute(new Date(startedMs).toISOString()) }
  const marker = commentMarker(planned.agent.commentKey)
  const spent = budgetLine({ kind: 'assessed', runId: triggered.runId, sha: planned.commit, reason: a.plan.reason }).line
  const body = renderAssessingComment({
    marker,
    pending,
    subject: planned.agent.display,
    context: statusContext(planned.agent.statusName),
    deadline,
    runUrl: runUrl(io.env),
    budgetLine: spent
  })
  const published = await io.publish({
    inputs: { ...inputs, comment: 'update' },
    marker,
    commentBody: () => body,
    issueTitle: `Agent security gate: assessing · ${planned.agent.display}`,
    failing: false,
    pullRequest: planned.pull
  })
  if (published.commentUrl === null)
    throw new GitHubError({ endpoint: 'POST /repos/{owner}/{repo}/issues/{n}/comments', message: noRecord(triggered.runId) })
  // Handed over: the collector owns the run and the status from here; the post step cancels nothing.
  saveRunSettled(io)
  await handOverStatus(ctx, a.status, pendingDescription(triggered.runId, deadline))
  await io.appendSummary(body.split('\n').slice(2).join('\n'))
  const reportPath = await io.writeReportFile(
    `report-${inputs.modelId}-${triggered.runId}-pending`,
    'json',
    JSON.stringify(
      { kind: 'detached', run_id: triggered.runId, commit: planned.commit, deadline, comment_url: published.commentUrl },
      null,
      2
    )
  )
  const end: DetachedOutcome = {
    kind: 'detached',
    result: 'pending',
    runId: triggered.runId,
    reportPath,
    assessmentsSpent: 1,
    commentUrl: published.commentUrl
  }
  return {
    end,
    line: `Assessing: run ${triggered.runId} is handed to the collector (wait: detached); ${a.status.context} stays pending until it sets the result.`
  }
}

function noRecord(runId: string): string {
  return `The pending record of run ${runId} could not be written to the pull request's comment, so no collector would find it: the run is not handed over (give the job pull-requests: write, comment: update)`
}
