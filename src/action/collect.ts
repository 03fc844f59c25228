/**
 * mode: collect, the collector of detached assessments (wait: detached;
 * docs/pr-pipelines.md#detached-waiting). A scheduled workflow on the default
 * branch runs it: it lists the open pull requests, reads the pending record of
 * each one's sticky comment of this agent (an owned comment: isOwnedComment),
 * looks at each run once, and for a run that ended runs the attached step's
 * own stages: decide (collectRun, src/gate/assess.ts), the commit status
 * (finishStatus), report (reportGate: comment, summary, the JSON, SARIF and
 * JUnit files) and publish. A run past its deadline is cancelled and ends in
 * error.
 *
 * What it trusts, and why a pull request cannot forge a result:
 * - of the record, only the run id and where it was found: an owned comment
 *   on an open pull request, naming that pull request's head (the commit the
 *   status goes on); a record of another commit is left (superseded);
 * - the run's model, status, categories and findings come from the service;
 *   a run of another model than the default branch's model_id is refused
 *   (that commit's status ends in error, the run is not touched);
 * - the policy (threshold, categories, fail_on, the accepted risks) is the
 *   default branch's: this step's own inputs and files;
 * - it runs no pull-request code and keeps no state but GitHub's and the
 *   service's. It writes the commit status first and the comment last, so a
 *   collector that stops midway leaves the record pending and the next one
 *   does it again; two at once write the same result.
 * A pull request's run is never saved as evidence of the default branch (it
 * would make the default branch's verdicts laxer): the evidence save of the
 * record stage is not run here.
 */
import { collectRun } from '../gate/assess.js'
import { tokenLogin } from '../github/assessment-record.js'
import { inGitHubActions, splitRepository } from '../github/context.js'
import type { GitHubClient } from '../github/github-client.js'
import { isOwnedComment } from '../github/ownership.js'
import type { PullSummary } from '../github/pulls.js'
import { MAX_PAGES } from '../github/sticky-comment.js'
import type { PipelineEvent } from '../pipeline/event.js'
import { commentMarker } from '../report/comment.js'
import { readPendingRecord, type PendingRecord } from '../report/pending.js'
import { gateStepResult } from '../decision/step-result.js'
import { AbortedError, ConfigError, DeadlineExceededError, describeFailure, GitHubError } from '../util/errors.js'
import { plural } from '../util/text.js'
import type { ActionInputs } from './inputs.js'
import { gateStatus, type CollectedOutcome, type StepOutcome } from './outcome.js'
import { gateArgs, gateDeps } from './stages/assess.js'
import { finishStatus, statusEdge, type StatusEdge } from './stages/commit-status.js'
import { triggerOrQueue, writePending, type PendingAt } from './stages/detach.js'
import { conclude, stepFailure } from './stages/conclude.js'
import { reportNotAssessed } from './stages/report-not-assessed.js'
import type { StepContext } from './stages/context.js'
import { githubReads } from './stages/github-reads.js'
import { loadPolicy, type GatePolicy } from './stages/load-policy.js'
import { assessmentIdentity } from './stages/plan.js'
import { agentOf, type PlannedEvent } from './stages/plan-event.js'
import { publish } from './stages/publish.js'
import { reportGate } from './stages/report.js'

/** A pending record as found: the pull request, its head, the comment. */
interface Found {
  pull: PullSummary
  pending: PendingRecord
}

/** What one look at one record did. */
type Looked = 'decided' | 'running' | 'superseded' | 'refused' | 'failed'

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
  const policy = await loadPolicy(ctx, inputs, agent)
  const found = await pendingRecords(gh, repo, login, commentMarker(agent.commentKey))
  io.log.info(`Collector: ${plural(found.length, 'pending record')} of ${agent.display} on open pull requests.`)
  const counts: Record<Looked, number> = { decided: 0, running: 0, superseded: 0, refused: 0, failed: 0 }
  for (const f of found) counts[await lookAt(ctx, { inputs, policy, event, repo }, f)]++
  const line = `Collector: ${counts.decided} decided, ${counts.running} still running, ${counts.refused} refused, ${counts.superseded} superseded, ${counts.failed} not readable (left pending).`
  const reportPath = await io.writeReportFile(
    `report-${inputs.modelId}-collect`,
    'json',
    JSON.stringify({ kind: 'collected', ...counts }, null, 2)
  )
  const end: CollectedOutcome = { kind: 'collected', result: counts.failed > 0 ? 'error' : 'pass', reportPath, assessmentsSpent: 0 }
  await io.appendSummary(`### Agent security collector\n\n${line}\n`)
  return conclude({ outcome: counts.failed > 0 ? 'fail' : 'pass', line }, end, {
    modelId: inputs.modelId,
    target: null,
    profileVersion: null
  })
}

/** Every owned comment of this agent holding a pending record, on the open pull requests. */
async function pendingRecords(gh: GitHubClient, repo: { owner: string; repo: string }, login: string, marker: string): Promise<Found[]> {
  const out: Found[] = []
  for (const pull of await gh.listOpenPulls(repo)) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { items, hasNext } = await gh.listComments(repo, pull.number, page)
      for (const c of items) {
        const pending = isOwnedComment(c.user, login) ? readPendingRecord(c.body, marker) : null
        if (pending !== null) out.push({ pull, pending })
      }
      if (!hasNext || items.length === 0) break
    }
  }
  return out
}

interface Collecting {
  inputs: ActionInputs
  policy: GatePolicy
  event: PipelineEvent
  repo: { owner: string; repo: string }
}

/** One record: refused, left, or decided and published; a failure leaves it pending (the next collector retries). */
async function lookAt(ctx: StepContext, c: Collecting, f: Found): Promise<Looked> {
  const { io } = ctx
  const { runId, commit } = f.pending
  const where = `${runId === null ? 'the queued assessment' : `run ${runId}`} of pull request #${f.pull.number}`
  if (f.pull.headSha !== commit) {
    io.log.info(`${where}: its commit ${commit.slice(0, 7)} is no longer the head; left to the newer push.`)
    return 'superseded'
  }
  const planned = plannedFor(ctx, c, f)
  const status = statusEdge(ctx, c.inputs, planned)
  try {
    const at = f.pending.at === null ? ctx.clock.now() : Date.parse(f.pending.at.replace(/Z$/, ':00Z'))
    if (runId === null) return await triggerQueued(ctx, c, { ...planned, commit, pull: { ...c.repo, number: f.pull.number } }, status, at)
    const looked = await collectRun(
      { ...gateDeps(ctx, c.inputs), onRunStarted: () => undefined, onRunSettled: () => undefined },
      gateArgs(c.inputs, c.policy),
      runId,
      at
    )
    if (looked.kind === 'running') {
      io.log.info(
        `${where}: ${looked.run.status}, ${looked.run.categories_completed.length}/${looked.run.categories_planned.length} categories.`
      )
      return 'running'
    }
    if (looked.kind === 'foreign') {
      io.log.warning(`${where}: the record names a run of another model than ${c.inputs.modelId}: refused, the status ends in error.`)
      const line = `The pending record names run ${runId}, not a run of ${c.inputs.modelId}: nothing passes`
      const at = { ...planned, commit, pull: { ...c.repo, number: f.pull.number } }
      await refuse(ctx, c, at, status, new ConfigError('model_id', `${line} (a record this action did not write, or of another workflow)`))
      return 'refused'
    }
    if (looked.kind === 'narrow') {
      const named = looked.missing.slice(0, 5).join(', ') + (looked.missing.length > 5 ? `, and ${looked.missing.length - 5} more` : '')
      io.log.warning(`${where}: the run was not planned to probe ${named}: refused, the status ends in error.`)
      const line = `Run ${runId} does not cover the categories the default branch's policy asks for (${named}): nothing passes`
      const at = { ...planned, commit, pull: { ...c.repo, number: f.pull.number } }
      await refuse(ctx, c, at, status, new ConfigError('categories', line))
      return 'refused'
    }
    const outcome = looked.outcome
    const step = gateStepResult(outcome.decision, { failOnIncomplete: c.inputs.failOnIncomplete, cancelled: ctx.signal.aborted })
    const identity = await assessmentIdentity(ctx, c.inputs, c.policy, planned)
    const prepared = { inputs: c.inputs, report: { target: null, profileSync: null }, outcome: null }
    const recorded = { baselineSaved: null, notes: ["A pull request's run collected on the default branch is not saved as its evidence."] }
    const plan = { kind: 'assess' as const, reason: `collected: ${where} (wait: detached)`, identity }
    const report = await reportGate(ctx, { prepared, policy: c.policy, outcome, recorded, planned, plan })
    // The status first, the comment (which drops the pending record) last: a collector stopped in between leaves it
    // pending. The status names the blockers as the attached step's does (gateStatus).
    const named = report.outcome.kind === 'assessed' && step.resultOutput === undefined ? gateStatus(report.outcome) : undefined
    await finishStatus(ctx, status, outcome.decision.result, step, named)
    const published = await publish(ctx, { ...c.inputs, comment: 'update' }, report)
    if (published.kind !== 'assessed' || published.commentUrl === null) {
      io.log.warning(
        `${where}: ${outcome.decision.result}, set on the commit status; the comment could not be written, so the record stays pending and the next collector writes it.`
      )
      return 'failed'
    }
    io.log.info(`${where}: ${outcome.decision.result}.`)
    return 'decided'
  } catch (err) {
    if (err instanceof AbortedError) throw err
    io.log.warning(`${where}: could not be collected, left pending for the next collector: ${describeFailure(err)}`)
    return 'failed'
  }
}

/**
 * A queued record (the model was busy when the detached step ran): its run
 * triggered now the model is free, and the record rewritten with it; still
 * busy, left queued; past its deadline (queued plus timeout_minutes), the
 * status ends in error. Two collectors at once: the service runs one
 * assessment of a model at a time, so the second one's trigger finds it busy.
 */
async function triggerQueued(
  ctx: StepContext,
  c: Collecting,
  planned: PendingAt,
  status: StatusEdge | null,
  queuedMs: number
): Promise<Looked> {
  if (ctx.clock.now() >= queuedMs + c.inputs.timeoutMs) {
    const line = `The model stayed busy with other assessments until timeout_minutes (${c.inputs.timeoutMs / 60_000}) ran out: nothing was assessed, nothing passes`
    await refuse(ctx, c, planned, status, new DeadlineExceededError('POST /api/v1/run', line))
    return 'refused'
  }
  const deps = { ...gateDeps(ctx, c.inputs), onRunStarted: () => undefined, onRunSettled: () => undefined }
  const triggered = await triggerOrQueue(deps, c.inputs, c.policy)
  if (triggered === null) return 'running'
  const reason = `queued by the detached step of ${planned.commit.slice(0, 7)}, triggered by the collector once the model was free`
  await writePending(ctx, { inputs: c.inputs, planned, status, triggered, reason })
  ctx.io.log.info(`The queued assessment of pull request #${planned.pull.number}: run ${triggered.runId} triggered.`)
  return 'running'
}

/**
 * No result for this record: the status ends in error (status first), then
 * the comment is replaced by the not-assessed report (the record is dropped,
 * so the next collector changes nothing).
 */
async function refuse(ctx: StepContext, c: Collecting, planned: PendingAt, status: StatusEdge | null, err: Error): Promise<void> {
  const failure = stepFailure(err, ctx.nameInput)
  await finishStatus(ctx, status, 'error', { outcome: 'fail', line: failure.line })
  const report = await reportNotAssessed(ctx, { ...c.inputs, comment: 'update' }, failure, {
    commit: planned.commit,
    pullRequest: planned.pull,
    agent: planned.agent
  })
  await publish(ctx, { ...c.inputs, comment: 'update' }, report)
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
