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
import { gateReportInput, runGate } from '../gate/run-gate.js'
import { envInputReader, readInputs, type ActionInputs } from './inputs.js'
import { scrubSecrets } from '../util/redact.js'
import { baseUrlSecrets } from '../service/base-url.js'
import { buildReport } from '../report/report-model.js'
import { commentMarker, previousResult, renderComment } from '../report/comment.js'
import { reportTitle } from '../report/markdown.js'
import { failureCause, notAssessedTitle, renderNotAssessed, type NotAssessedInput } from '../report/not-assessed.js'
import { assessedCommit } from '../github/context.js'
import { renderJson } from '../report/json.js'
import { renderSummary } from '../report/summary.js'
import type { ServiceApi } from '../service/service-api.js'
import { saveCancelRequested, saveRunStarted, saveRunSettled, saveTriggerIntent } from './state.js'
import type { ActionIO } from './io.js'
import { runValidateMode } from '../validate/validate-mode.js'
import { renderValidationMarkdown, validationTitle } from '../report/validation.js'
import { publishToGitHub, readEventPayload } from '../github/publish.js'
import { prepareTarget, type Prepared } from './prepare-target.js'

export interface MainDeps {
  io: ActionIO
  clock: Clock
  signal: AbortSignal
  random?: () => number
  /** requestTimeoutMs: per request, when a call needs longer than the client's default (the registration probe). */
  makeApi(inputs: ActionInputs, deadline: Deadline, opts?: { requestTimeoutMs?: number }): ServiceApi
}

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

async function writeReportFile(env: NodeJS.ProcessEnv, name: string, json: string): Promise<string> {
  const dir = join(nonEmpty(env.RUNNER_TEMP) ?? tmpdir(), 'asas-gate')
  await mkdir(dir, { recursive: true })
  const path = join(dir, `${safeFileName(name)}.json`)
  await writeFile(path, json, 'utf8')
  return path
}

/** The commit assessed and the time of the report (for every comment and summary). */
async function assessedNow(env: NodeJS.ProcessEnv, clock: Clock): Promise<{ sha: string | null; at: string }> {
  return { sha: assessedCommit(await readEventPayload(env.GITHUB_EVENT_PATH), env.GITHUB_SHA), at: new Date(clock.now()).toISOString() }
}

/** Run the main step. Never throws: every failure fails the step with a line of its kind. */
export async function runMain(deps: MainDeps): Promise<void> {
  const { io } = deps
  // Mask the service key and the target's credential before anything else can print them.
  const secrets: string[] = []
  for (const name of ['api_key', 'target_credential']) {
    const raw = envInputReader(io.env)(name)
    if (raw === '') continue
    io.setSecret(raw)
    secrets.push(raw)
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
      { io, clock: deps.clock, signal: deps.signal, random: deps.random, makeApi: (deadline, requestTimeoutMs) => deps.makeApi(given, deadline, { requestTimeoutMs }) },
      given
    )
    inputs = { ...given, modelId: prepared.target.modelId }
    setOutputs(io, { model_id: inputs.modelId, ...(prepared.target.outcome === 'given' ? {} : { target: prepared.target.outcome }) }, secrets)
    if (prepared.report.profileSync?.version != null) setOutputs(io, { profile_version: String(prepared.report.profileSync.version) }, secrets)
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
  const outcome = await runGate(
    {
      makeApi: (deadline) => deps.makeApi(inputs, deadline),
      clock,
      signal: deps.signal,
      log: io.log,
      random: deps.random,
      onRunStarted: (runId) => { saveRunStarted(io, runId); },
      onRunSettled: () => { saveRunSettled(io); },
      onTriggerIntent: (intent) => { saveTriggerIntent(io, intent); },
      onCancelRequested: (runId) => { saveCancelRequested(io, runId); }
    },
    { modelId: inputs.modelId, categories: inputs.categories, minSeverity: inputs.minSeverity, timeoutMs: inputs.timeoutMs }
  )
  const { decision, run, results } = outcome
  const report = buildReport({
    ...gateReportInput(outcome, { modelId: inputs.modelId, minSeverity: inputs.minSeverity, runUrl: runUrl(io.env), secrets, ...prepared }),
    commit: await assessedNow(io.env, clock)
  })

  const reportPath = await writeReportFile(io.env, `report-${inputs.modelId}-${outcome.triggered.runId}`, scrubSecrets(renderJson(report), secrets))
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
      report_path: reportPath
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

  const line = `Result: ${decision.result}: ${decision.reason}`
  if (decision.result === 'pass') io.log.info(line)
  else if (decision.result === 'incomplete' && !inputs.failOnIncomplete) io.log.warning(`${line} (fail_on_incomplete is false: not failing the step)`)
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
  if (result.failed) io.setFailed(scrubSecrets(line, secrets))
  else io.log.info(line)
}
