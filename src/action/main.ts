/**
 * The main step: read inputs, run the gate (or validate mode), and turn the
 * outcome into outputs, the job summary, annotations, report.json, the PR
 * comment or tracking issue, and the step's pass or fail.
 *
 * Everything at the edge (the runner's I/O, HTTP, GitHub, clock, signals) is
 * passed in through MainDeps, so tests can run the whole step in-process.
 */
import { Deadline, type Clock } from '../util/clock.js'
import { buildAnnotations } from '../report/annotations.js'
import { describeFailure, failureKind, type FailureKind } from '../util/errors.js'
import { nonEmpty } from '../util/text.js'
import { gateReportInput, runGate } from '../gate/run-gate.js'
import { envInputReader, readInputs, type ActionInputs } from './inputs.js'
import { scrubSecretsDeep } from '../util/redact.js'
import { scrubbingIO, stepSecrets, type ScrubbedIO } from './scrubbed-io.js'
import { buildReport } from '../report/report-model.js'
import { commentMarker, previousResult, renderComment } from '../report/comment.js'
import { reportTitle } from '../report/markdown.js'
import { failureCause, notAssessedTitle, renderNotAssessed, type NotAssessedInput } from '../report/not-assessed.js'
import { assessedCommit, splitRepository } from '../github/context.js'
import { renderJson } from '../report/json.js'
import { renderSummary } from '../report/summary.js'
import type { ServiceApi } from '../service/service-api.js'
import type { Log } from '../util/log.js'
import { saveCancelRequested, saveRunStarted, saveRunSettled, saveTriggerIntent } from './state.js'
import type { ActionIO } from './io.js'
import { runValidateMode } from '../validate/validate-mode.js'
import { renderValidationMarkdown, validationTitle } from '../report/validation.js'
import { readEventPayload } from '../github/publish.js'
import { prepareTarget, type Prepared } from './prepare-target.js'
import { ACTION_VERSION } from './version.js'
import { baselineScope } from '../baseline/scope.js'
import { actionsCacheStore, type BaselineStore } from '../baseline/store.js'
import { loadBaseline, type LoadedBaseline } from '../baseline/load-baseline.js'
import { buildBaseline } from '../baseline/baseline.js'
import { readAcceptedRisks, type AcceptedRisks } from '../accepted/read-accepted.js'
import { isoDay } from '../accepted/accepted-file.js'
import { syncDismissals } from '../accepted/sync-dismissals.js'
import { createIssuesApi } from '../github/octokit.js'
import { renderSarif } from '../report/sarif.js'
import { renderJunit } from '../report/junit.js'
import { ConfigError } from '../util/errors.js'

export interface MainDeps {
  io: ActionIO
  clock: Clock
  signal: AbortSignal
  random?: () => number
  /**
   * requestTimeoutMs: per request, when a call needs longer than the client's default (the registration probe);
   * log: where the client logs its retries (the step's scrubbed log).
   */
  makeApi(inputs: ActionInputs, deadline: Deadline, opts?: { requestTimeoutMs?: number; log?: Log }): ServiceApi
  /** Where baselines are kept (default: the Actions cache). */
  baselineStore?: BaselineStore
}

/** The deps of the stages: the runner's I/O behind the scrubbing edge, and the secrets it keeps out. */
interface StepDeps extends Omit<MainDeps, 'io'> {
  io: ScrubbedIO
  secrets: readonly string[]
}

/** Budget of the reads before the run (baseline, accepted risks). */
const PRE_RUN_BUDGET_MS = 60_000

function setOutputs(io: ActionIO, outputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(outputs)) io.setOutput(name, value)
}

function runUrl(env: NodeJS.ProcessEnv): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env
  return server && repo && id ? `${server}/${repo}/actions/runs/${id}` : null
}

/** The workflow file (from GITHUB_WORKFLOW_REF "owner/repo/.github/workflows/x.yml@ref"), the default SARIF location. */
export function workflowFile(env: NodeJS.ProcessEnv): string {
  const m = /^[^/]+\/[^/]+\/(.+)@refs\//.exec(env.GITHUB_WORKFLOW_REF ?? '')
  return m?.[1] ?? '.github/workflows'
}

/** The commit assessed and the time of the report (for every comment and summary). */
async function assessedNow(env: NodeJS.ProcessEnv, clock: Clock): Promise<{ sha: string | null; at: string }> {
  return { sha: assessedCommit(await readEventPayload(env.GITHUB_EVENT_PATH), env.GITHUB_SHA), at: new Date(clock.now()).toISOString() }
}

/** Run the main step. Never throws: every failure fails the step with a line of its kind. */
export async function runMain(deps: MainDeps): Promise<void> {
  const secrets = stepSecrets(deps.io)
  const io = scrubbingIO(deps.io, secrets, { clock: deps.clock, signal: deps.signal, random: deps.random })
  const step: StepDeps = {
    ...deps,
    io,
    secrets,
    makeApi: (inputs, deadline, opts) => deps.makeApi(inputs, deadline, { ...opts, log: io.log })
  }
  let inputs: ActionInputs | null = null
  try {
    const given = readInputs(envInputReader(io.env))
    inputs = given
    const prepared = await prepareTarget(
      {
        io,
        clock: deps.clock,
        signal: deps.signal,
        random: deps.random,
        makeApi: (deadline, requestTimeoutMs) => step.makeApi(given, deadline, { requestTimeoutMs })
      },
      given
    )
    inputs = { ...given, modelId: prepared.target.modelId }
    setOutputs(io, { model_id: inputs.modelId, ...(prepared.target.outcome === 'given' ? {} : { target: prepared.target.outcome }) })
    if (prepared.report.profileSync?.version != null) setOutputs(io, { profile_version: String(prepared.report.profileSync.version) })
    if (inputs.mode === 'validate') await runValidate(step, inputs)
    else await runGateStep(step, inputs, prepared.report)
  } catch (err) {
    const kind = failureKind(err)
    setOutputs(io, { result: 'error' })
    const line = describeFailure(err)
    try {
      await reportNotAssessed(step, inputs, { kind, line, cause: failureCause(err, kind) })
    } catch (publishErr) {
      // Best effort here; the failure below is what matters.
      io.log.warning(`Could not write the not-assessed report: ${describeFailure(publishErr)}`)
    }
    io.setFailed(line)
  }
}

/**
 * The error path's report: the job summary and, when the inputs were read and
 * the job was not cancelled, the sticky comment or tracking issue, replacing
 * the previous result (which it names) so nothing green stays on a red check.
 * Every service string goes through the safe renderer.
 */
async function reportNotAssessed(
  deps: StepDeps,
  inputs: ActionInputs | null,
  failure: { kind: FailureKind; line: string; cause: string }
): Promise<void> {
  const { io, clock } = deps
  const modelId = inputs?.modelId ?? (envInputReader(io.env)('model_id').trim() || 'the model')
  const assessed = await assessedNow(io.env, clock)
  // Scrubbed before rendering too: markdown escaping could split a secret the edge would then miss.
  const input = scrubSecretsDeep(
    {
      modelId,
      mode: inputs?.mode === 'validate' ? 'validate' : 'gate',
      ...failure,
      commitSha: assessed.sha,
      assessedAt: assessed.at,
      runUrl: runUrl(io.env)
    } satisfies NotAssessedInput,
    deps.secrets
  ) as NotAssessedInput
  await io.appendSummary(renderNotAssessed(input))
  // A configuration mistake leaves no inputs to publish with, a target that could not be
  // registered no model to key the comment on; a cancelled job has no time to.
  if (inputs === null || inputs.modelId === '' || deps.signal.aborted) return
  const marker = commentMarker(inputs.mode === 'validate' ? `${inputs.modelId}#validate` : inputs.modelId)
  await io.publish({
    inputs,
    marker,
    commentBody: (existing) => renderNotAssessed(input, { marker, previous: existing === null ? undefined : previousResult(existing) }),
    issueTitle: notAssessedTitle(input),
    failing: true
  })
}

async function runGateStep(deps: StepDeps, inputs: ActionInputs, prepared: Prepared['report']): Promise<void> {
  const { io, clock } = deps
  const scope = baselineScope(io.env.GITHUB_EVENT_NAME ?? '', await readEventPayload(io.env.GITHUB_EVENT_PATH), io.env)
  const today = isoDay(clock.now())
  const githubApi = () => {
    if (inputs.githubToken === '')
      throw new ConfigError(
        'github_token',
        'is empty: the accepted-risks file of the base branch is read through the GitHub API; leave github_token at its default'
      )
    return createIssuesApi({
      token: inputs.githubToken,
      apiUrl: nonEmpty(io.env.GITHUB_API_URL) ?? 'https://api.github.com',
      clock,
      deadline: Deadline.after(clock, PRE_RUN_BUDGET_MS),
      signal: deps.signal,
      log: io.log,
      random: deps.random
    })
  }
  // The accepted risks first: a malformed file is a configuration error before any request to the service.
  let accepted: AcceptedRisks | null = null
  if (inputs.acceptedRisksFile !== '') {
    accepted = await readAcceptedRisks(
      {
        workspace: nonEmpty(io.env.GITHUB_WORKSPACE) ?? process.cwd(),
        repo: splitRepository(io.env.GITHUB_REPOSITORY) ?? null,
        contents: githubApi,
        today
      },
      inputs.acceptedRisksFile,
      scope
    )
    if (accepted.source !== null)
      io.log.info(
        `Accepted risks: ${accepted.entries.length} entr${accepted.entries.length === 1 ? 'y' : 'ies'} of ${accepted.path} read from ${accepted.source}.`
      )
  }
  const store = deps.baselineStore ?? actionsCacheStore({ env: io.env, log: io.log })
  const loaded: LoadedBaseline = await loadBaseline(
    { api: () => deps.makeApi(inputs, Deadline.after(clock, PRE_RUN_BUDGET_MS)), store, log: io.log },
    { modelId: inputs.modelId, baselineRunId: inputs.baselineRunId }
  )
  io.log.info(
    loaded.baseline
      ? `Baseline: run ${loaded.baseline.run_id} (${loaded.baseline.findings.length} findings) from ${loaded.source}.`
      : `No baseline: ${loaded.why}; gating as with fail_on any.`
  )

  const outcome = await runGate(
    {
      makeApi: (deadline) => deps.makeApi(inputs, deadline),
      clock,
      signal: deps.signal,
      log: io.log,
      random: deps.random,
      onRunStarted: (runId) => {
        saveRunStarted(io, runId)
      },
      onRunSettled: () => {
        saveRunSettled(io)
      },
      onTriggerIntent: (intent) => {
        saveTriggerIntent(io, intent)
      },
      onCancelRequested: (runId) => {
        saveCancelRequested(io, runId)
      }
    },
    {
      modelId: inputs.modelId,
      categories: inputs.categories,
      minSeverity: inputs.minSeverity,
      timeoutMs: inputs.timeoutMs,
      policy: { baseline: loaded.baseline, accepted: accepted?.entries ?? [], failOn: inputs.failOn, today }
    }
  )
  const { decision, run, results } = outcome
  const policyNotes: string[] = [...(accepted?.notes ?? [])]

  // The default branch records the baseline of a complete, trusted run.
  let baselineSaved: string | null = null
  if (
    scope.kind === 'default-branch' &&
    (decision.result === 'pass' || decision.result === 'fail') &&
    run?.status === 'completed' &&
    results.findings !== null &&
    !deps.signal.aborted
  ) {
    const saved = await store.save(
      buildBaseline({
        modelId: inputs.modelId,
        runId: outcome.triggered.runId,
        createdAt: new Date(clock.now()).toISOString(),
        commit: scope.sha,
        categoriesCompleted: run.categories_completed,
        findings: results.findings
      })
    )
    if (saved.saved) {
      baselineSaved = saved.where
      io.log.info(`Baseline of run ${outcome.triggered.runId} saved: ${saved.where}.`)
    }
  }
  if (inputs.syncDismissals && outcome.policy && results.findings !== null) {
    if (scope.kind !== 'default-branch') {
      policyNotes.push('sync_dismissals is on, but acceptances are written to the service only from the default branch: nothing dismissed.')
    } else {
      const synced = await syncDismissals(
        deps.makeApi(inputs, Deadline.after(clock, PRE_RUN_BUDGET_MS)),
        results.findings,
        outcome.policy.acceptance.acceptedBy
      )
      policyNotes.push(...synced.notes)
    }
  }
  const reportInput = gateReportInput(outcome, {
    modelId: inputs.modelId,
    minSeverity: inputs.minSeverity,
    runUrl: runUrl(io.env),
    secrets: [...deps.secrets],
    ...prepared
  })
  const report = buildReport({
    ...reportInput,
    notes: [...reportInput.notes, ...policyNotes],
    policy: {
      failOn: inputs.failOn,
      baseline: loaded.baseline,
      baselineSource: loaded.source,
      baselineWhy: loaded.why,
      baselineSaved,
      accepted,
      outcome: outcome.policy
    },
    commit: await assessedNow(io.env, clock)
  })

  const reportName = `report-${inputs.modelId}-${outcome.triggered.runId}`
  const reportPath = await io.writeReportFile(reportName, 'json', renderJson(report))
  const sarif = renderSarif(report, {
    location: inputs.sarifLocation || workflowFile(io.env),
    threshold: inputs.sarifMinSeverity,
    toolVersion: ACTION_VERSION
  })
  const sarifPath = await io.writeReportFile(reportName, 'sarif', JSON.stringify(sarif, null, 2))
  const junitPath = await io.writeReportFile(reportName, 'junit.xml', renderJunit(report))
  const b = report.baseline
  setOutputs(io, {
    run_id: outcome.triggered.runId,
    status: run?.status ?? '',
    verdict: run?.verdict ?? '',
    result: decision.result,
    findings_count: decision.findingsAtOrAbove === null ? '' : String(decision.findingsAtOrAbove),
    categories_planned: JSON.stringify(run?.categories_planned ?? []),
    categories_completed: JSON.stringify(run?.categories_completed ?? []),
    report_path: reportPath,
    sarif_path: sarifPath,
    junit_path: junitPath,
    new_count: b?.available ? String(b.newCount) : '',
    known_count: b?.available ? String(b.knownCount) : '',
    gone_count: b?.available ? String(b.gone.length) : '',
    accepted_count: String(report.acceptances?.acceptedCount ?? 0)
  })

  if (!deps.signal.aborted) {
    for (const a of buildAnnotations(report)) io.annotate(a.level, a.message, a.title)
    await io.appendSummary(renderSummary(report))
    const published = await io.publish({
      inputs,
      marker: commentMarker(inputs.modelId),
      commentBody: () => renderComment(report),
      issueTitle: reportTitle(report),
      failing: decision.result !== 'pass'
    })
    if (published.commentUrl) setOutputs(io, { comment_url: published.commentUrl })
  }
  for (const note of results.notes) io.log.info(note)

  // Cancelled after the result was decided (while it was being published): a cancelled job never passes.
  if (deps.signal.aborted && decision.result !== 'error') {
    setOutputs(io, { result: 'error' })
    io.setFailed(`Result: error: the step was cancelled before it finished (the assessment read ${decision.result}: ${decision.reason})`)
    return
  }
  const line = `Result: ${decision.result}: ${decision.reason}`
  if (decision.result === 'pass') io.log.info(line)
  else if (decision.result === 'incomplete' && !inputs.failOnIncomplete)
    io.log.warning(`${line} (fail_on_incomplete is false: not failing the step)`)
  else io.setFailed(line)
}

async function runValidate(deps: StepDeps, inputs: ActionInputs): Promise<void> {
  const { io, clock } = deps
  const deadline = Deadline.after(clock, inputs.timeoutMs)
  const result = await runValidateMode(
    { api: deps.makeApi(inputs, deadline), clock, deadline, signal: deps.signal, log: io.log, random: deps.random },
    { modelId: inputs.modelId, maxRuns: inputs.maxRuns, failOnIncomplete: inputs.failOnIncomplete }
  )
  const assessed = await assessedNow(io.env, clock)
  const markdown = renderValidationMarkdown(result, {
    modelId: inputs.modelId,
    commitSha: assessed.sha,
    assessedAt: assessed.at,
    runUrl: runUrl(io.env)
  })

  const reportPath = await io.writeReportFile(`validation-${inputs.modelId}`, 'json', JSON.stringify(result, null, 2))
  setOutputs(io, {
    result: result.failed ? 'fail' : 'pass',
    resolved_count: String(result.resolved),
    still_broken_count: String(result.stillBroken),
    not_attempted_count: String(result.notAttempted),
    report_path: reportPath
  })
  await io.appendSummary(markdown)
  await io.publish({
    inputs,
    marker: commentMarker(`${inputs.modelId}#validate`),
    commentBody: () => markdown,
    issueTitle: validationTitle(result, inputs.modelId),
    failing: result.failed
  })
  const line = `Validation: ${result.reason}`
  if (deps.signal.aborted && !result.failed) {
    setOutputs(io, { result: 'error' })
    io.setFailed('Validation: error: the step was cancelled before it finished')
  } else if (result.failed) io.setFailed(line)
  else io.log.info(line)
}
