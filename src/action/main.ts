/**
 * The main step: read inputs, run the gate (or validate mode), and turn the
 * outcome into outputs, the job summary, annotations, report.json, the PR
 * comment or tracking issue, and the step's pass or fail.
 *
 * Everything at the edge (the runner's I/O, HTTP, GitHub, clock, signals) is
 * passed in through MainDeps, so tests can run the whole step in-process.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Deadline, type Clock } from '../util/clock.js'
import { buildAnnotations } from '../report/annotations.js'
import { describeFailure, failureKind, type FailureKind } from '../util/errors.js'
import { nonEmpty, oneLine } from '../util/text.js'
import { assess, assessmentReportInput } from '../gate/assess.js'
import { envInputReader, isMaskableSecret, readInputs, type ActionInputs } from './inputs.js'
import { scrubSecrets, secretWireForms } from '../util/redact.js'
import { baseUrlSecrets } from '../service/base-url.js'
import { buildReport } from '../report/report-model.js'
import { commentMarker, previousResult, renderComment } from '../report/comment.js'
import { reportTitle } from '../report/markdown.js'
import { failureCause, notAssessedTitle, renderNotAssessed, type NotAssessedInput } from '../report/not-assessed.js'
import { assessedCommit, splitRepository } from '../github/context.js'
import { renderJson } from '../report/json.js'
import { renderSummary } from '../report/summary.js'
import type { ServiceApi } from '../service/service-api.js'
import { saveCancelRequested, saveRunStarted, saveRunSettled, saveTriggerIntent } from './state.js'
import type { ActionIO } from './io.js'
import { runValidateMode } from '../validate/validate-mode.js'
import { renderValidationMarkdown, validationTitle } from '../report/validation.js'
import { publishToGitHub, readEventPayload } from '../github/publish.js'
import { prepareTarget, type Prepared } from './prepare-target.js'
import { ACTION_VERSION } from './version.js'
import { baselineScope } from '../baseline/scope.js'
import { actionsCacheStore, type BaselineStore } from '../baseline/store.js'
import { loadBaseline, type LoadedBaseline } from '../baseline/load-baseline.js'
import { buildBaseline } from '../baseline/baseline.js'
import { readAcceptedRisks, type AcceptedRisks } from '../accepted/read-accepted.js'
import { isoDay } from '../accepted/accepted-file.js'
import { syncDismissals } from '../accepted/sync-dismissals.js'
import { writeRefusal } from '../github/write-rule.js'
import { createGitHubClient } from '../github/github-client.js'
import { renderSarif } from '../report/sarif.js'
import { renderJunit } from '../report/junit.js'
import { ConfigError } from '../util/errors.js'

export interface MainDeps {
  io: ActionIO
  clock: Clock
  signal: AbortSignal
  random?: () => number
  /** requestTimeoutMs: per request, when a call needs longer than the client's default (the registration probe). */
  makeApi(inputs: ActionInputs, deadline: Deadline, opts?: { requestTimeoutMs?: number }): ServiceApi
  /** Where baselines are kept (default: the Actions cache). */
  baselineStore?: BaselineStore
}

/** Budget of the reads before the run (baseline, accepted risks). */
const PRE_RUN_BUDGET_MS = 60_000

/** The longest output value: far above any real one (categories_planned of the whole taxonomy). */
const OUTPUT_MAX_CHARS = 65_536

/**
 * Every output is one line, without control, bidi or zero-width characters
 * (a workflow may put it in a `run:` script), and without secrets: values
 * carry text from the service (run_id, status, category keys).
 */
function setOutputs(io: ActionIO, outputs: Record<string, string>, secrets: string[]): void {
  for (const [name, value] of Object.entries(outputs)) io.setOutput(name, oneLine(scrubSecrets(value, secrets), OUTPUT_MAX_CHARS))
}

function runUrl(env: NodeJS.ProcessEnv): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env
  return server && repo && id ? `${server}/${repo}/actions/runs/${id}` : null
}

function safeFileName(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80)
}

async function writeReportFile(env: NodeJS.ProcessEnv, name: string, json: string, ext = 'json'): Promise<string> {
  const dir = join(nonEmpty(env.RUNNER_TEMP) ?? tmpdir(), 'asas-gate')
  await mkdir(dir, { recursive: true })
  const path = join(dir, `${safeFileName(name)}.${ext}`)
  await writeFile(path, json, 'utf8')
  return path
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
  const { io } = deps
  // Mask the service key and the target's credential, in every form they are sent in, before
  // anything else can print them. A value that cannot be a credential (too short) is never
  // registered as a mask: readInputs refuses it below without printing it.
  const secrets: string[] = []
  for (const name of ['api_key', 'target_credential']) {
    const raw = envInputReader(io.env)(name)
    if (!isMaskableSecret(raw)) continue
    const forms = secretWireForms(raw, name === 'target_credential' ? { clientId: envInputReader(io.env)('oauth_client_id') } : {})
    for (const form of forms) io.setSecret(form)
    secrets.push(...forms)
  }
  // A password in base_url is refused, but it must not echo anywhere meanwhile.
  const urlSecrets = baseUrlSecrets(envInputReader(io.env)('base_url'))
  for (const s of urlSecrets) io.setSecret(s)
  secrets.push(...urlSecrets)
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
        makeApi: (deadline, requestTimeoutMs) => deps.makeApi(given, deadline, { requestTimeoutMs })
      },
      given
    )
    inputs = { ...given, modelId: prepared.target.modelId }
    setOutputs(
      io,
      { model_id: inputs.modelId, ...(prepared.target.outcome === 'given' ? {} : { target: prepared.target.outcome }) },
      secrets
    )
    if (prepared.report.profileSync?.version != null)
      setOutputs(io, { profile_version: String(prepared.report.profileSync.version) }, secrets)
    if (inputs.mode === 'validate') await runValidate(deps, inputs, secrets)
    else await runGateStep(deps, inputs, secrets, prepared.report)
  } catch (err) {
    const kind = failureKind(err)
    setOutputs(io, { result: 'error' }, secrets)
    const line = scrubSecrets(describeFailure(err), secrets)
    try {
      await reportNotAssessed(deps, inputs, { kind, line, cause: failureCause(err, kind) }, secrets)
    } catch (publishErr) {
      // Best effort here; the failure below is what matters.
      io.log.warning(`Could not write the not-assessed report: ${scrubSecrets(describeFailure(publishErr), secrets)}`)
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
  deps: MainDeps,
  inputs: ActionInputs | null,
  failure: { kind: FailureKind; line: string; cause: string },
  secrets: string[]
): Promise<void> {
  const { io, clock } = deps
  const modelId = inputs?.modelId ?? (envInputReader(io.env)('model_id').trim() || 'the model')
  const assessed = await assessedNow(io.env, clock)
  const input: NotAssessedInput = {
    modelId,
    mode: inputs?.mode === 'validate' ? 'validate' : 'gate',
    ...failure,
    commitSha: assessed.sha,
    assessedAt: assessed.at,
    runUrl: runUrl(io.env)
  }
  await io.appendSummary(scrubSecrets(renderNotAssessed(input), secrets))
  // A configuration mistake leaves no inputs to publish with, a target that could not be
  // registered no model to key the comment on; a cancelled job has no time to.
  if (inputs === null || inputs.modelId === '' || deps.signal.aborted) return
  const marker = commentMarker(inputs.mode === 'validate' ? `${inputs.modelId}#validate` : inputs.modelId)
  await publishToGitHub(
    { env: io.env, log: io.log, clock, signal: deps.signal, random: deps.random },
    {
      inputs,
      marker,
      commentBody: (existing) =>
        scrubSecrets(renderNotAssessed(input, { marker, previous: existing === null ? undefined : previousResult(existing) }), secrets),
      issueTitle: scrubSecrets(notAssessedTitle(input), secrets),
      failing: true
    }
  )
}

async function runGateStep(deps: MainDeps, inputs: ActionInputs, secrets: string[], prepared: Prepared['report']): Promise<void> {
  const { io, clock } = deps
  const scope = baselineScope(io.env.GITHUB_EVENT_NAME ?? '', await readEventPayload(io.env.GITHUB_EVENT_PATH), io.env)
  const today = isoDay(clock.now())
  const githubApi = () => {
    if (inputs.githubToken === '')
      throw new ConfigError(
        'github_token',
        'is empty: the accepted-risks file is read through the GitHub API (at the base SHA on a pull request, else at GITHUB_SHA); leave github_token at its default'
      )
    return createGitHubClient({
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

  const outcome = await assess(
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
    writeRefusal(scope, { kind: 'baseline' }) === null &&
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
    const synced = await syncDismissals(
      scope,
      () => deps.makeApi(inputs, Deadline.after(clock, PRE_RUN_BUDGET_MS)),
      results.findings,
      outcome.policy.acceptance.acceptedBy
    )
    policyNotes.push(...synced.notes)
  }
  const reportInput = assessmentReportInput(outcome, {
    modelId: inputs.modelId,
    minSeverity: inputs.minSeverity,
    runUrl: runUrl(io.env),
    secrets,
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
  const reportPath = await writeReportFile(io.env, reportName, scrubSecrets(renderJson(report), secrets))
  const sarif = renderSarif(report, {
    location: inputs.sarifLocation || workflowFile(io.env),
    threshold: inputs.sarifMinSeverity,
    toolVersion: ACTION_VERSION
  })
  const sarifPath = await writeReportFile(io.env, reportName, scrubSecrets(JSON.stringify(sarif, null, 2), secrets), 'sarif')
  const junitPath = await writeReportFile(io.env, reportName, scrubSecrets(renderJunit(report), secrets), 'junit.xml')
  const b = report.baseline
  setOutputs(
    io,
    {
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
    },
    secrets
  )

  if (!deps.signal.aborted) {
    for (const a of buildAnnotations(report)) io.annotate(a.level, scrubSecrets(a.message, secrets), scrubSecrets(a.title, secrets))
    await io.appendSummary(scrubSecrets(renderSummary(report), secrets))
    const published = await publishToGitHub(
      { env: io.env, log: io.log, clock, signal: deps.signal, random: deps.random },
      {
        inputs,
        marker: commentMarker(inputs.modelId),
        commentBody: () => scrubSecrets(renderComment(report), secrets),
        issueTitle: scrubSecrets(reportTitle(report), secrets),
        failing: decision.result !== 'pass'
      }
    )
    if (published.commentUrl) setOutputs(io, { comment_url: published.commentUrl }, secrets)
  }
  for (const note of results.notes) io.log.info(scrubSecrets(note, secrets))

  // Cancelled after the result was decided (while it was being published): a cancelled job never passes.
  if (deps.signal.aborted && decision.result !== 'error') {
    setOutputs(io, { result: 'error' }, secrets)
    io.setFailed(
      `Result: error: the step was cancelled before it finished (the assessment read ${decision.result}: ${scrubSecrets(decision.reason, secrets)})`
    )
    return
  }
  const line = `Result: ${decision.result}: ${decision.reason}`
  if (decision.result === 'pass') io.log.info(line)
  else if (decision.result === 'incomplete' && !inputs.failOnIncomplete)
    io.log.warning(`${line} (fail_on_incomplete is false: not failing the step)`)
  else io.setFailed(scrubSecrets(line, secrets))
}

async function runValidate(deps: MainDeps, inputs: ActionInputs, secrets: string[]): Promise<void> {
  const { io, clock } = deps
  const deadline = Deadline.after(clock, inputs.timeoutMs)
  const result = await runValidateMode(
    { api: deps.makeApi(inputs, deadline), clock, deadline, signal: deps.signal, log: io.log, random: deps.random },
    { modelId: inputs.modelId, maxRuns: inputs.maxRuns, failOnIncomplete: inputs.failOnIncomplete }
  )
  const assessed = await assessedNow(io.env, clock)
  const markdown = scrubSecrets(
    renderValidationMarkdown(result, { modelId: inputs.modelId, commitSha: assessed.sha, assessedAt: assessed.at, runUrl: runUrl(io.env) }),
    secrets
  )
  const reportPath = await writeReportFile(io.env, `validation-${inputs.modelId}`, scrubSecrets(JSON.stringify(result, null, 2), secrets))
  setOutputs(
    io,
    {
      result: result.failed ? 'fail' : 'pass',
      resolved_count: String(result.resolved),
      still_broken_count: String(result.stillBroken),
      not_attempted_count: String(result.notAttempted),
      report_path: reportPath
    },
    secrets
  )
  await io.appendSummary(markdown)
  await publishToGitHub(
    { env: io.env, log: io.log, clock, signal: deps.signal, random: deps.random },
    {
      inputs,
      marker: commentMarker(`${inputs.modelId}#validate`),
      commentBody: () => markdown,
      issueTitle: scrubSecrets(validationTitle(result, inputs.modelId), secrets),
      failing: result.failed
    }
  )
  const line = `Validation: ${result.reason}`
  if (deps.signal.aborted && !result.failed) {
    setOutputs(io, { result: 'error' }, secrets)
    io.setFailed('Validation: error: the step was cancelled before it finished')
  } else if (result.failed) io.setFailed(scrubSecrets(line, secrets))
  else io.log.info(line)
}
