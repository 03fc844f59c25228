/**
 * mode: collect, the collector of detached assessments (wait: detached;
 * docs/pr-pipelines.md#detached-waiting). A scheduled workflow on the default
 * branch runs it: it lists the open pull requests, reads the pending record of
 * each one's sticky comment of this agent (an owned comment: isOwnedComment),
 * looks at each run once, and for a run that ended runs the attached step's
 * own stages: decide (collectRun, src/gate/assess-run.ts), the commit status
 * (finishStatus), report (reportGate: comment, summary, the JSON, SARIF and
 * JUnit files) and publish. A run past its deadline is cancelled and ends in
 * error.
 *
 * What it trusts, and why a pull request cannot forge a result:
 * - of the record, what its MAC holds (collect-decision.ts judgeRecord,
 *   src/report/pending-seal.ts: keyed from api_key, which a person who can
 *   edit comments cannot read) and where it was found: an owned comment on an
 *   open pull request, naming that pull request's head (the commit the status
 *   goes on); a record of another commit is left (superseded); a record
 *   without a MAC, or whose MAC fails, is refused (status error); a run that
 *   began before the record's trigger time is refused; the record's sealed
 *   categories and deadline bind the run as its step asked (withRecordScope:
 *   a run narrower than the policy's or the record's categories is refused;
 *   past the earlier of the two deadlines it is cancelled, never passed);
 * - the run's model, status, categories and findings come from the service;
 *   a run of another model than the default branch's model_id is refused
 *   (that commit's status ends in error, the run is not touched);
 * - the policy (threshold, categories, fail_on, the accepted risks) is the
 *   default branch's: this step's own inputs and files;
 * - it runs no pull-request code and keeps no state but GitHub's and the
 *   service's. It writes the commit status first and the comment last, so a
 *   collector that stops midway, or whose status GitHub does not take, leaves
 *   the record pending and the next one does it again; two at once write the same result. Every comment write
 *   first compares the comment with the record it read (samePending): a record
 *   a newer push wrote meanwhile is never overwritten.
 * - queued records are triggered oldest first, without waiting on a busy
 *   model: once the model is busy (a run it triggered, or another's) the rest
 *   stay queued for the next collector, so its runner time grows with the
 *   records it collects, not with those still queued.
 * - the run it triggers is handed over once its record is written (the post
 *   step cancels only a run whose record could not be written).
 * A pull request's run is never saved as evidence of the default branch (it
 * would make the default branch's verdicts laxer): the evidence save of the
 * record stage is not run here.
 */
import { collectRun } from '../../gate/assess-run.js'
import { tokenLogin } from '../../github/assessment-record.js'
import { inGitHubActions, splitRepository } from '../../github/event-target.js'
import { CommentChanged } from '../../github/sticky-comment.js'
import type { PipelineEvent } from '../../pipeline/event.js'
import { commentMarker } from '../../report/comment.js'
import { readPendingRecord, recordMinuteMs, samePending, type PendingRecord } from '../../report/pending.js'
import {
  collectorResult,
  judgeRecord,
  recordRefused,
  refusedStatus,
  runRefusal,
  ofPullRequests,
  withRecordScope,
  type Look
} from './collect-decision.js'
import { inOrder, modelRunning, pendingRecords, recordIsCurrent, type Found } from './collect-records.js'
import { saveOwedStatus, saveRunSettled } from '../saved-state.js'
import { gateStepResult, type StepResult } from '../../decision/step-result.js'
import type { GateResult } from '../../report/report-model.js'
import { AbortedError, ConfigError, DeadlineExceededError, describeFailure, GitHubError } from '../../util/errors.js'
import { formatWhenMs, plural } from '../../util/text.js'
import { Deadline } from '../../util/clock.js'
import { stopRun } from '../../gate/stop-run.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import { gateStatus, type CollectedOutcome, type StepOutcome } from '../outcome.js'
import { gateArgs, gateDeps } from './assess.js'
import { statusLine } from '../output-table.js'
import { finalStatus, statusEdge, type StatusEdge } from './set-commit-status.js'
import { STATUSES_READ } from '../../github/commit-status.js'
import { recordSealed, triggerOrQueue, writePending, type PendingAt } from './detach.js'
import { conclude, stepFailure } from './conclude.js'
import { reportNotAssessed } from './report-not-assessed.js'
import type { StepContext } from './stage-context.js'
import { githubReads } from './github-reads.js'
import { loadPolicy, type GatePolicy } from './load-baseline-and-risks.js'
import { assessmentIdentity } from './plan.js'
import { agentOf, type PlannedEvent } from './plan-event.js'
import { publish } from './publish-report.js'
import { reportGate } from './report.js'

export async function collectStep(ctx: StepContext, inputs: ActionInputs, event: PipelineEvent): Promise<StepOutcome> {
  const { io } = ctx
  if (!((event.kind === 'other' || event.kind === 'push') && event.onDefaultBranch)) {
    throw new ConfigError(
      'mode',
      `'collect' runs on the default branch only (a schedule or workflow_dispatch there), never on ${event.eventName || 'this event'}`
    )
  }
  if (!inGitHubActions(io.env)) throw new ConfigError('mode', "'collect' works in GitHub Actions only (it reads pull requests' comments)")
  const repo = splitRepository(io.env.GITHUB_REPOSITORY)
  const gh = await githubReads(ctx, inputs.githubToken)
  if (repo === undefined || gh === null)
    throw new ConfigError('github_token', 'is empty (or GITHUB_REPOSITORY unset): the collector reads the pending records on GitHub')
  const login = await tokenLogin(gh, gh, io.log)
  if (login === null) {
    throw new GitHubError({
      endpoint: 'POST /graphql',
      message: "GitHub did not tell this token's login, so no pending record can be trusted: nothing is collected"
    })
  }
  const agent = agentOf(inputs, io.env, { prNumber: null })
  const policy = ofPullRequests(await loadPolicy(ctx, inputs, agent))
  const marker = commentMarker(agent.commentKey)
  const found = await pendingRecords(gh, repo, login, marker)
  io.log.info(`Collector: ${plural(found.length, 'pending record')} of ${agent.display} on open pull requests.`)
  const c: Collecting = { inputs, policy, event, repo, marker, modelBusy: false, login }
  const looks: Look[] = []
  for (const f of inOrder(found)) looks.push(await lookAt(ctx, c, f))
  const { result, step } = collectorResult(looks)
  const collected = looks.map((l) => ({ pull: l.pull, commit: l.commit, run_id: l.runId, what: l.what, result: l.result }))
  const reportPath = await io.writeReportFile(
    `report-${inputs.modelId}-collect`,
    'json',
    JSON.stringify({ kind: 'collected', result, records: collected }, null, 2)
  )
  const decided = looks.filter((l) => l.result !== null).length
  const end: CollectedOutcome = { kind: 'collected', result, reportPath, assessmentsSpent: 0, collected: decided }
  await io.appendSummary(`### Agent security collector\n\n${step.line}\n`)
  return conclude(step, end, { modelId: inputs.modelId, target: null, profileVersion: null })
}

interface Collecting {
  inputs: ActionInputs
  policy: GatePolicy
  event: PipelineEvent
  repo: { owner: string; repo: string }
  marker: string
  /** Set once the model is known busy (this collector triggered a run, or another runs): no further trigger is tried. */
  modelBusy: boolean
  /** This token's login: the creator of this agent's own statuses (recordCurrent). */
  login: string
}

/**
 * The step context whose comment writes happen only while the comment still
 * holds `read` (the compare just before the write: a newer push's record is
 * never overwritten). `moved()` says whether a write was skipped for that.
 */
function holding(ctx: StepContext, marker: string, read: PendingRecord): { ctx: StepContext; moved: () => boolean } {
  let moved = false
  const io: StepContext['io'] = {
    ...ctx.io,
    publish: (args) =>
      ctx.io.publish({
        ...args,
        commentBody: (existing) => {
          if (!samePending(read, readPendingRecord(existing, marker))) {
            moved = true
            throw new CommentChanged(
              `The comment no longer holds the record read (run ${read.runId ?? 'queued'} of ${read.commit.slice(0, 7)}): a newer push wrote its own, left as it is.`
            )
          }
          return args.commentBody(existing)
        }
      })
  }
  return { ctx: { ...ctx, io }, moved: () => moved }
}

/** One record: refused, left, or decided and published; a failure leaves it pending (the next collector retries). */
async function lookAt(ctx0: StepContext, c: Collecting, f: Found): Promise<Look> {
  const { runId, commit } = f.pending
  const look = (what: Look['what'], result: Look['result'] = null, waved?: boolean): Look => ({
    pull: f.pull.number,
    commit,
    runId,
    what,
    result,
    waved
  })
  const where = `${runId === null ? 'the queued assessment' : `run ${runId}`} of pull request #${f.pull.number}`
  const verdict = judgeRecord(f.pending, f.pull.headSha, recordSealed(c.inputs, f.pull.number, f.pending))
  if (verdict.kind === 'superseded') {
    ctx0.io.log.info(`${where}: its commit ${commit.slice(0, 7)} is no longer the head; left to the newer push.`)
    return look('superseded')
  }
  const { ctx, moved } = holding(ctx0, c.marker, f.pending)
  const at: PendingAt = { ...plannedFor(ctx, c, f), commit, pull: { ...c.repo, number: f.pull.number } }
  const status = statusEdge(ctx, c.inputs, at)
  try {
    if (verdict.kind === 'refuse') {
      ctx.io.log.warning(`${where}: ${verdict.why}.`)
      await refuse(ctx, c, at, status, recordRefused('api_key', verdict.why))
      return look('refused', 'error')
    }
    const atMs = recordMinuteMs(f.pending.at) ?? ctx.clock.now()
    if (verdict.kind === 'trigger') return look(await triggerQueued(ctx, c, { record: f.pending, at, status, queuedMs: atMs, moved }))
    const current = status === null ? 'current' : await recordIsCurrent(ctx.io, status, c.login, verdict.runId)
    if (current === 'newer') {
      ctx.io.log.warning(
        `${where}: a later assessment of this head was triggered since (its pending status names another run): a stale record, left.`
      )
      return look('superseded')
    }
    if (current === 'unknown') {
      const why = `The head's newest ${STATUSES_READ} statuses hold no pending status of this agent: whether run ${verdict.runId} is its newest assessment cannot be told, nothing passes`
      await refuse(ctx, c, at, status, recordRefused('wait', why))
      return look('refused', 'error')
    }
    const looked = await lookAtRun(ctx, c, { record: f.pending, at, status, runId: verdict.runId, atMs, where })
    if (looked.result !== null && moved()) return look('superseded', looked.result)
    return look(looked.what, looked.result, looked.waved)
  } catch (err) {
    if (err instanceof AbortedError) throw err
    ctx.io.log.warning(`${where}: could not be collected, left pending for the next collector: ${describeFailure(err)}`)
    return look('failed')
  }
}

interface RunLook {
  /** The sealed record: its categories and deadline bind the run as the step that wrote it asked (never laxer than the policy). */
  record: PendingRecord
  at: PendingAt
  status: StatusEdge | null
  runId: string
  atMs: number
  where: string
}

/** The record's run read once: refused (another model, begun before the record, narrower than the policy), running, or decided. */
async function lookAtRun(ctx: StepContext, c: Collecting, r: RunLook): Promise<Pick<Look, 'what' | 'result' | 'waved'>> {
  const { io } = ctx
  const deps = { ...gateDeps(ctx, c.inputs), onRunStarted: () => undefined, onRunSettled: () => undefined }
  const args = withRecordScope(gateArgs(c.inputs, c.policy), r.record)
  const notAfterMs = recordMinuteMs(r.record.deadline)
  const looked = await collectRun(deps, args, r.runId, r.atMs, { notBeforeMs: r.atMs, notAfterMs })
  if (looked.kind === 'running') {
    c.modelBusy = true
    io.log.info(
      `${r.where}: ${looked.run.status}, ${looked.run.categories_completed.length}/${looked.run.categories_planned.length} categories.`
    )
    return { what: 'running', result: null }
  }
  const refusal = runRefusal(looked, r.runId, c.inputs.modelId)
  if (refusal !== null) {
    io.log.warning(`${r.where}: ${refusal.message}; the status ends in error, the run is not touched.`)
    await refuse(ctx, c, r.at, r.status, refusal)
    return { what: 'refused', result: 'error' }
  }
  if (looked.kind !== 'ended') return { what: 'failed', result: null }
  return decide(ctx, c, r, looked.outcome)
}

/** An ended run decided with the attached step's stages: the status first, the comment (which drops the record) last. */
async function decide(
  ctx: StepContext,
  c: Collecting,
  r: RunLook,
  outcome: Extract<Awaited<ReturnType<typeof collectRun>>, { kind: 'ended' }>['outcome']
): Promise<Pick<Look, 'what' | 'result' | 'waved'>> {
  const { io } = ctx
  const step = gateStepResult(outcome.decision, { failOnIncomplete: c.inputs.failOnIncomplete, cancelled: ctx.signal.aborted })
  const identity = await assessmentIdentity(ctx, c.inputs, c.policy, r.at)
  const prepared = { inputs: c.inputs, report: { target: null, profileSync: null }, outcome: null }
  const recorded = { baselineSaved: null, notes: ["A pull request's run collected on the default branch is not saved as its evidence."] }
  const plan = { kind: 'assess' as const, reason: `collected: ${r.where} (wait: detached)`, identity }
  const report = await reportGate(ctx, { prepared, policy: c.policy, outcome, recorded, planned: r.at, plan })
  // A collector stopped between the two leaves the record pending. The status names the blockers as the attached step's does.
  const blockers = report.outcome.kind === 'assessed' && step.resultOutput === undefined ? gateStatus(report.outcome) : undefined
  await statusOrStay(ctx, r.status, outcome.decision.result, step, blockers === undefined ? undefined : statusLine('fail', blockers, true))
  const published = await publish(ctx, { ...c.inputs, comment: 'update' }, report)
  const result = outcome.decision.result
  if (published.kind !== 'assessed' || published.commentUrl === null) {
    io.log.warning(
      `${r.where}: ${result}, set on the commit status; the comment was not rewritten (changed since it was read, or not writable): a record still there stays pending for the next collector.`
    )
    return { what: 'failed', result, waved: step.outcome === 'warn' }
  }
  io.log.info(`${r.where}: ${result}.`)
  return { what: 'decided', result, waved: step.outcome === 'warn' }
}

/**
 * A queued record (the model was busy when the detached step ran): its run
 * triggered now the model is free, over the categories the default branch's
 * policy and the record ask for (withRecordScope, as a run is held to when
 * collected), and the record rewritten with it, sealed.
 * The model known busy (a run seen or triggered by this collector), no
 * trigger is tried: it stays queued for the next collector, at no runner
 * time. Past its deadline (the record's sealed one, or queued plus
 * timeout_minutes when earlier), the status ends in error; the run's record
 * keeps that deadline. The run is handed over once its record is written (the post step
 * does not cancel it); a record a newer push replaced meanwhile is left, and
 * the run triggered for it is cancelled (nobody would collect it).
 */
async function triggerQueued(
  ctx: StepContext,
  c: Collecting,
  q: { record: PendingRecord; at: PendingAt; status: StatusEdge | null; queuedMs: number; moved: () => boolean }
): Promise<Look['what']> {
  const inputs = withRecordScope(c.inputs, q.record)
  // The earlier of the record's sealed deadline and the queue time plus this collector's timeout_minutes, carried into the run's record.
  const notAfterMs = Math.min(q.queuedMs + c.inputs.timeoutMs, recordMinuteMs(q.record.deadline) ?? Infinity)
  if (ctx.clock.now() >= notAfterMs) {
    const line = `The model stayed busy with other assessments past the record's deadline (${formatWhenMs(notAfterMs)}): nothing was assessed, nothing passes`
    await refuse(ctx, c, q.at, q.status, new DeadlineExceededError('POST /api/v1/run', line))
    return 'refused'
  }
  if (c.modelBusy || (await modelRunning(ctx, c.inputs))) {
    c.modelBusy = true
    return 'queued'
  }
  c.modelBusy = true
  // The run's life is saved in the step state (gateDeps) until its record is written: a collector killed in between has its post step stop it.
  const triggered = await triggerOrQueue(gateDeps(ctx, inputs), inputs, c.policy)
  if (triggered === null) return 'queued'
  const reason = `queued by the detached step of ${q.at.commit.slice(0, 7)}, triggered by the collector once the model was free`
  try {
    await writePending(ctx, { inputs, planned: q.at, status: q.moved() ? null : q.status, triggered, reason, notAfterMs })
  } catch (err) {
    if (!q.moved()) throw err
  }
  if (q.moved()) {
    await stopOrphan(ctx, c.inputs, triggered.runId)
    return 'superseded'
  }
  saveRunSettled(ctx.io)
  ctx.io.log.info(`The queued assessment of pull request #${q.at.pull.number}: run ${triggered.runId} triggered and handed over.`)
  return 'triggered'
}

/** The run this collector triggered for a record a newer push replaced: stopped, and said. */
async function stopOrphan(ctx: StepContext, inputs: ActionInputs, runId: string): Promise<void> {
  const api = ctx.makeApi(inputs, Deadline.after(ctx.clock, 20_000))
  await stopRun({ api, clock: ctx.clock, log: ctx.io.log }, runId, {
    settleMs: 10_000,
    why: 'a newer push replaced the queued record it was triggered for'
  })
  saveRunSettled(ctx.io)
}

/**
 * No result for this record: the status ends in error (status first), then
 * the comment is replaced by the not-assessed report (the record is dropped,
 * so the next collector changes nothing).
 */
async function refuse(ctx: StepContext, c: Collecting, planned: PendingAt, status: StatusEdge | null, err: Error): Promise<void> {
  const failure = stepFailure(err, ctx.nameInput)
  // The status says the cause and the fix, not the generic "re-run the job" (a re-run reads the same record).
  await statusOrStay(ctx, status, 'error', { outcome: 'fail', line: failure.line }, refusedStatus(err))
  const report = await reportNotAssessed(ctx, { ...c.inputs, comment: 'update' }, failure, {
    commit: planned.commit,
    pullRequest: planned.pull,
    agent: planned.agent
  })
  await publish(ctx, { ...c.inputs, comment: 'update' }, report)
}

/**
 * The final status of a record's commit, or a GitHubError when GitHub did not
 * take it: the comment is then not rewritten, so the record stays for the next
 * collector (a record dropped with its status unset left the head pending for
 * good, or owed an error in the one slot of the step state, which the next
 * record's status overwrote).
 */
async function statusOrStay(
  ctx: StepContext,
  edge: StatusEdge | null,
  result: GateResult,
  step: StepResult,
  description?: string
): Promise<void> {
  if ((await finalStatus(ctx, edge, result, step, description)).set) return
  // Nothing owed by this collector's post step: the record stays, and the next collector sets its status.
  saveOwedStatus(ctx.io, null)
  throw new GitHubError({
    endpoint: 'POST /repos/{owner}/{repo}/statuses/{sha}',
    message: `the final commit status of ${edge?.sha.slice(0, 7) ?? 'the commit'} was not set: the record stays for the next collector`
  })
}

/** The record's commit and pull request as the attached stages take an event: the pull request's comment, its head's status. */
function plannedFor(ctx: StepContext, c: Collecting, f: Found): PlannedEvent {
  return {
    event: c.event,
    commit: f.pending.commit,
    skipped: null,
    pull: { ...c.repo, number: f.pull.number },
    deployment: null,
    onDefaultBranch: false,
    agent: agentOf(c.inputs, ctx.io.env, { prNumber: f.pull.number }),
    lines: [
      `Collected by the default branch's collector (mode: collect): run ${f.pending.runId} of pull request #${f.pull.number}, judged with the default branch's policy.`
    ]
  }
}
