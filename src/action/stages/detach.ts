/**
 * Stage detach (wait: detached): the run is triggered as an attached step
 * triggers it, then handed over instead of waited for. The commit status
 * agent-security/<model_id> is set pending with the run and its deadline, the
 * sticky comment gets its "assessing" state with the pending record
 * (src/report/pending.ts), and the step ends: a collector (mode: collect,
 * src/action/stages/collect.ts) decides, reports and publishes when the run ends.
 *
 * - The run of the pending record this push replaces is cancelled first
 *   (nobody would collect it; the service runs one assessment of a model at a
 *   time), as cancel-in-progress stops an attached step's run.
 * - A model busy with another assessment (another pull request's) is not
 *   waited for beyond DETACHED_TRIGGER_MS: the record is written queued, and
 *   the collector triggers the run when the model is free.
 * - Fail closed: the collector finds a run only through the comment, so a
 *   comment that cannot be written fails the step and its status ends in
 *   error (the post step cancels the run: nobody would read it). Once handed
 *   over, the post step owes nothing.
 */
import { DETACHED_TRIGGER_MS, TIMEOUT_SETTLE_MS, triggerAssessment, type GateDeps } from '../../gate/assess-run.js'
import type { Triggered } from '../../gate/trigger.js'
import { tokenLogin } from '../../github/assessment-record.js'
import { statusContext } from '../../github/commit-status.js'
import type { PullRequestRef } from '../../github/sticky-comment.js'
import { budgetLine } from '../../pipeline/budget.js'
import { commentMarker } from '../../report/comment.js'
import { pendingDescription, renderAssessingComment, type PendingRecord } from '../../report/pending.js'
import { stickyPending } from './collect-records.js'
import { isTerminal } from '../../service/contract/index.js'
import { stopRun } from '../../gate/stop-run.js'
import { Deadline } from '../../util/clock.js'
import { pendingMac, pendingSealed } from '../../report/pending-seal.js'
import { AbortedError, ConfigError, DeadlineExceededError, describeFailure, GitHubError } from '../../util/errors.js'
import { inGitHubActions } from '../../github/event-target.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { DetachedOutcome } from '../outcome.js'
import { saveOwedStatus, saveRunSettled } from '../saved-state.js'
import { gateArgs, gateDeps } from './assess.js'
import { pendingStatus, type StatusEdge } from './set-commit-status.js'
import type { StepContext } from './stage-context.js'
import { githubReads } from './github-reads.js'
import type { GatePolicy } from './load-baseline-and-risks.js'
import type { PlannedEvent } from './plan-event.js'
import { isoMinute, runUrl } from './report.js'

/** How long the run of a replaced record is given to stop (the service says about 5 s). */
const SUPERSEDE_SETTLE_MS = 10_000

/** A planned event with a commit and a pull request: where a pending record goes. */
export type PendingAt = PlannedEvent & { commit: string; pull: PullRequestRef }

/** The planned event when this step hands its run over (wait: detached, a commit of a pull request, a status to set); else null. */
export function detachedAt(
  inputs: ActionInputs,
  planned: PlannedEvent,
  status: StatusEdge | null,
  env: NodeJS.ProcessEnv
): PendingAt | null {
  if (inputs.wait !== 'detached') return null
  // The collector finds runs in pull requests' comments: GitHub's.
  if (!inGitHubActions(env))
    throw new ConfigError(
      'wait',
      "'detached' works in GitHub Actions only (its collector reads pull requests' comments): wait attached here"
    )
  if (planned.commit === null || planned.pull === null || status === null) return null
  return { ...planned, commit: planned.commit, pull: planned.pull }
}

/** Trigger (or queue), set pending, write the assessing comment, end. Throws (failing the step) when the collector could not find it. */
export async function detach(
  ctx: StepContext,
  a: { inputs: ActionInputs; policy: GatePolicy; planned: PendingAt; reason: string; status: StatusEdge }
): Promise<{ end: DetachedOutcome; line: string }> {
  const { io } = ctx
  const { inputs, planned } = a
  await supersede(ctx, inputs, planned)
  const triggered = await triggerOrQueue(gateDeps(ctx, inputs), inputs, a.policy)
  const written = await writePending(ctx, { inputs, planned, status: a.status, triggered, reason: a.reason })
  // Handed over: the collector owns the run and the status from here; the post step cancels nothing.
  saveRunSettled(io)
  await io.appendSummary(written.body.split('\n').slice(2).join('\n'))
  const runId = triggered?.runId ?? null
  const reportPath = await io.writeReportFile(
    `report-${inputs.modelId}-${runId ?? 'queued'}-pending`,
    'json',
    JSON.stringify(
      { kind: 'detached', run_id: runId, commit: planned.commit, deadline: written.deadline, comment_url: written.url },
      null,
      2
    )
  )
  const end: DetachedOutcome = {
    kind: 'detached',
    result: 'pending',
    runId: runId ?? '',
    reportPath,
    assessmentsSpent: runId === null ? 0 : 1,
    commentUrl: written.url
  }
  const what = runId === null ? 'The model is busy: the assessment is queued for the collector' : `Run ${runId} is handed to the collector`
  return { end, line: `${what} (wait: detached); ${a.status.context} stays pending until it sets the result.` }
}

/**
 * The run, or null when the model stayed busy with another assessment for
 * DETACHED_TRIGGER_MS (the record is then queued). Other failures throw.
 */
export async function triggerOrQueue(deps: GateDeps, inputs: ActionInputs, policy: GatePolicy): Promise<Triggered | null> {
  try {
    return await triggerAssessment(deps, { ...gateArgs(inputs, policy), timeoutMs: Math.min(inputs.timeoutMs, DETACHED_TRIGGER_MS) })
  } catch (err) {
    if (!(err instanceof DeadlineExceededError)) throw err
    deps.log.info(`Not triggered yet: ${describeFailure(err)}. Queued for the collector.`)
    return null
  }
}

/**
 * The pending record written: the assessing (or queued) comment, then the
 * status pending with the run and its deadline. A comment that cannot be
 * written throws: no collector would find the run.
 */
export async function writePending(
  ctx: StepContext,
  w: {
    inputs: ActionInputs
    planned: PendingAt
    status: StatusEdge | null
    triggered: Triggered | null
    reason: string
    /** A deadline the record must not pass (a queued record's, carried into its run's); absent: start plus timeout_minutes. */
    notAfterMs?: number
  }
): Promise<{ body: string; url: string; deadline: string }> {
  const { inputs, planned, triggered } = w
  const started = Date.parse(triggered?.startedAt ?? '')
  const startedMs = Number.isFinite(started) ? started : ctx.clock.now()
  const deadline = new Date(Math.min(startedMs + inputs.timeoutMs, w.notAfterMs ?? Infinity)).toISOString()
  const runId = triggered?.runId ?? null
  const pending = sealedRecord(inputs, planned.pull.number, {
    runId,
    commit: planned.commit,
    at: isoMinute(new Date(startedMs).toISOString()),
    categories: [...inputs.categories].sort(),
    deadline: isoMinute(deadline)
  })
  const marker = commentMarker(planned.agent.commentKey)
  const spent =
    runId === null
      ? budgetLine({ kind: 'not_assessed', reason: 'queued: the model is busy with another assessment' }).line
      : budgetLine({ kind: 'assessed', runId, sha: planned.commit, reason: w.reason }).line
  const context = statusContext(planned.agent.statusName)
  const body = renderAssessingComment({
    marker,
    pending,
    subject: planned.agent.display,
    context,
    deadline,
    runUrl: runUrl(ctx.io.env),
    budgetLine: spent
  })
  // The status first: a collector that reads the record at once (a run already ended) then sets the last status, never
  // this step after it (__tests__/properties/collector-schedules.property.test.ts found that order leaving a head pending).
  if (w.status !== null) await pendingStatus(ctx, w.status, pendingDescription(runId, deadline))
  const published = await ctx.io.publish({
    inputs: { ...inputs, comment: 'update' },
    marker,
    commentBody: () => body,
    issueTitle: `Agent security gate: assessing · ${planned.agent.display}`,
    failing: false,
    pullRequest: planned.pull
  })
  if (published.commentUrl === null)
    throw new GitHubError({ endpoint: 'POST /repos/{owner}/{repo}/issues/{n}/comments', message: noRecord(runId) })
  // Handed over: the post step owes the status nothing now.
  if (w.status !== null) saveOwedStatus(ctx.io, null)
  return { body, url: published.commentUrl, deadline }
}

/** The record with its MAC, keyed from api_key over this model's fields and the pull request it is written to (pending-seal.ts). */
export function sealedRecord(inputs: ActionInputs, pull: number, r: Omit<PendingRecord, 'mac'>): PendingRecord {
  return { ...r, mac: pendingMac(inputs.apiKey, { ...r, model: inputs.modelId, pull }) }
}

/** Whether a record's MAC holds for this model, api_key and the pull request it was found on (false when it has none). */
export function recordSealed(inputs: ActionInputs, pull: number, r: PendingRecord): boolean {
  return pendingSealed(inputs.apiKey, { ...r, model: inputs.modelId, pull }, r.mac)
}

/**
 * The run of the pending record this push replaces (its own comment's):
 * cancelled, only when the service says it is a run of this model still
 * going. Reading or cancelling failures are warnings.
 */
async function supersede(ctx: StepContext, inputs: ActionInputs, planned: PendingAt): Promise<void> {
  try {
    const older = await pendingOf(ctx, inputs, planned)
    // Only a record this model's step sealed names a run to stop: an edited one names whatever its editor chose.
    if (older?.runId == null || !recordSealed(inputs, planned.pull.number, older)) return
    const api = ctx.makeApi(inputs, Deadline.after(ctx.clock, TIMEOUT_SETTLE_MS))
    const run = await api.getRun(older.runId)
    if (run.model_id !== inputs.modelId || isTerminal(run.status)) return
    // Stopped and waited for (briefly): the service runs one assessment of the model at a time.
    const why = `this push's assessment of ${planned.commit.slice(0, 7)} supersedes it`
    await stopRun({ api, clock: ctx.clock, log: ctx.io.log }, older.runId, { settleMs: SUPERSEDE_SETTLE_MS, why })
  } catch (err) {
    if (err instanceof AbortedError) throw err
    ctx.io.log.warning(`Could not cancel the run of the pending record this push replaces: ${describeFailure(err)}`)
  }
}

/** The pending record of this agent's sticky comment on the pull request (stickyPending); null when there is none. */
async function pendingOf(ctx: StepContext, inputs: ActionInputs, planned: PendingAt): Promise<PendingRecord | null> {
  const gh = await githubReads(ctx, inputs.githubToken)
  if (gh === null) return null
  const login = await tokenLogin(gh, gh, ctx.io.log)
  return stickyPending(gh, planned.pull, planned.pull.number, login, commentMarker(planned.agent.commentKey))
}

function noRecord(runId: string | null): string {
  const what = runId === null ? 'queued assessment' : `run ${runId}`
  return `The pending record of the ${what} could not be written to the pull request's comment, so no collector would find it: nothing is handed over (give the job pull-requests: write, comment: update)`
}
