/**
 * The step's vocabulary, one table each: its outputs (name, action.yml's
 * description, README's meaning) and its results (when each is given, what
 * the step does, the command line's exit code, the commit status's state).
 * action.yml's outputs and README's outputs and results tables are written
 * from here by scripts/input-docs.ts, as the inputs are from
 * inputs/table.ts, so an output or a result is declared once. Pure.
 */
import { causeAndFix, type CommitState } from '../github/commit-status.js'
import type { ActionIO } from './io.js'
import { outcomeValues, type OutcomeResult, type OutcomeValues, type OutputName, type StepOutcome } from './outcome.js'

export interface OutputSpec {
  name: OutputName
  /** action.yml's description. */
  description: string
  /** README's meaning cell (markdown). */
  summary: string
}

/** Every output, in action.yml's order. */
export const OUTPUT_TABLE = [
  {
    name: 'model_id',
    description: 'The model assessed: the model_id input, or the target found or registered for endpoint_url.',
    summary: 'the model assessed (for `endpoint_url`: the target found or registered)'
  },
  {
    name: 'target',
    description: 'endpoint_url only: registered (this step registered it) or reused (found in the inventory).',
    summary: '`endpoint_url` only: `registered` or `reused`'
  },
  {
    name: 'profile_version',
    description: 'The profile version the run assessed (after the sync of profile_file).',
    summary: 'the profile version the run assessed'
  },
  {
    name: 'run_id',
    description: 'The id of the assessment run this step triggered.',
    summary: 'the assessment run this step triggered'
  },
  {
    name: 'status',
    description: "The run's final status: completed, error, cancelled (or running when it could not be stopped).",
    summary: "the run's last status: `completed`, `error`, `cancelled` (or `running`)"
  },
  {
    name: 'result',
    description: "The gate's result, which decides: pass, fail, incomplete, error; skipped (deployment not ready); pending (detached).",
    summary: "the gate's result, the one that decides: `pass`, `fail`, `incomplete`, `error`, `skipped` or `pending` (below)"
  },
  {
    name: 'service_verdict',
    description: "The service's own pass/fail for the run, for reference only: result decides; empty if it gave none.",
    summary: "the service's own `pass`/`fail` for the run, for reference: `result` decides; empty if it gave none"
  },
  {
    name: 'assessments_spent',
    description: 'Assessments this step spent: 1 per run it triggered, 0 when it carried a result over or assessed nothing.',
    summary: 'runs this step triggered (confirmation and `runs_per_change` included); `0` when carried over or skipped'
  },
  {
    name: 'findings_count',
    description: "Findings the result was decided on, at or above min_severity: the run's and those still held.",
    summary: "findings the result was decided on, at or above `min_severity`: the run's and those still held"
  },
  {
    name: 'categories_planned',
    description: 'JSON array of the categories the run planned.',
    summary: 'JSON array of the planned categories'
  },
  {
    name: 'categories_completed',
    description: 'JSON array of the categories the run completed.',
    summary: 'JSON array of the completed categories'
  },
  {
    name: 'report_path',
    description: 'Path of the JSON report, report-<model_id>-<run_id>.json under RUNNER_TEMP; upload it to keep the full data.',
    summary: '`report-<model_id>-<run_id>.json` under `RUNNER_TEMP`: upload it to keep every finding'
  },
  {
    name: 'new_count',
    description: 'Blocking findings the baseline does not hold (empty without a baseline).',
    summary: 'with a baseline: blocking findings it does not hold'
  },
  {
    name: 'known_count',
    description: 'Blocking findings the baseline holds (empty without a baseline).',
    summary: 'with a baseline: blocking findings it holds'
  },
  {
    name: 'gone_count',
    description: 'Findings of the baseline window the service closed since, fixed or dismissed (empty without a baseline).',
    summary: 'with a baseline: its findings closed since'
  },
  {
    name: 'accepted_count',
    description: 'Findings accepted by the accepted-risks file.',
    summary: 'findings accepted by the accepted-risks file'
  },
  {
    name: 'sarif_path',
    description: 'Path of the SARIF 2.1.0 file, report-<model_id>-<run_id>.sarif, for github/codeql-action/upload-sarif.',
    summary: 'the SARIF 2.1.0 file beside it (`….sarif`), for code scanning'
  },
  {
    name: 'junit_path',
    description: 'Path of the JUnit XML file, report-<model_id>-<run_id>.junit.xml (one test case per category).',
    summary: 'the JUnit XML file beside it (`….junit.xml`)'
  },
  {
    name: 'markdown_path',
    description: 'Path of the markdown report, report-<model_id>-<run_id>.md (the job summary as a file).',
    summary: 'the markdown report beside it (`….md`)'
  },
  {
    name: 'codequality_path',
    description: 'Path of the GitLab Code Quality file, report-<model_id>-<run_id>.codequality.json.',
    summary: 'the GitLab Code Quality file (`….codequality.json`)'
  },
  {
    name: 'comment_url',
    description: 'URL of the pull-request comment, when one was written.',
    summary: 'the PR comment, when one was written'
  },
  {
    name: 'resolved_count',
    description: 'validate mode: findings now FIXED_VERIFIED.',
    summary: 'validate mode: findings now `FIXED_VERIFIED`'
  },
  {
    name: 'still_broken_count',
    description: 'validate mode: findings whose attacks still reproduce.',
    summary: 'validate mode: findings whose attacks still reproduce'
  },
  {
    name: 'not_attempted_count',
    description: 'validate mode: findings that could not be validated.',
    summary: 'validate mode: findings that could not be validated'
  },
  {
    name: 'collected',
    description: 'collect mode: records it set a final status for; result is the worst it set (never pass after a failure).',
    summary: 'collect mode: records it set a final status for; `result` is the worst it set (never `pass` after a failure)'
  },
  {
    name: 'verdict',
    description: 'Deprecated: service_verdict under its 1.0 name (removed in 2.0). Use result, which decides.',
    summary: 'deprecated: `service_verdict` under its 1.0 name, removed in 2.0; use `result`'
  }
] as const satisfies readonly OutputSpec[]

/** The names of every output, in action.yml's order. */
export const OUTPUT_NAMES = OUTPUT_TABLE.map((o) => o.name)

// Every output of OutcomeValues has its row: a missing one fails to compile here.
type Missing = Exclude<OutputName, (typeof OUTPUT_TABLE)[number]['name']>
export const EVERY_OUTPUT_LISTED: [Missing] extends [never] ? true : Missing = true

export interface OutcomeSpec {
  /** README's "when" cell. */
  when: string
  /** README's "the step" cell. */
  step: string
  /** The command line's exit code: a script can trust it. */
  exitCode: number
  /** The commit status's final state when the step ends with this result (pending: the collector sets it later). */
  statusState: CommitState
  /** What to do, at the end of a failing step's commit status ('' when nothing is to be done). */
  fix: string
}

/** Every result the `result` output names, in README's order. */
export const OUTCOMES: Readonly<Record<OutcomeResult, OutcomeSpec>> = {
  pass: {
    when: 'every planned category completed, findings and coverage read, nothing blocks at or above `min_severity`',
    step: 'succeeds',
    exitCode: 0,
    statusState: 'success',
    fix: ''
  },
  fail: {
    when: 'a finding blocks: open at or above `min_severity` in this run (even if the service said pass), or a weakness an earlier run saw and no run has shown gone',
    step: 'fails',
    exitCode: 1,
    statusState: 'failure',
    fix: 'Fix the agent or accept the risk: see the report.'
  },
  incomplete: {
    when: 'nothing blocks, but coverage is short (a planned category missing, the run not completed, nothing planned) or the evidence is (a held run unreadable, a confirmation cut short)',
    step: 'fails; `fail_on_incomplete: false` lets short coverage alone through, with a warning',
    exitCode: 2,
    statusState: 'failure',
    fix: 'Re-run the job: nothing passes unassessed.'
  },
  error: {
    when: 'no result to trust: a timeout or a cancelled job (the run is cancelled), unreadable results, a configuration or service failure',
    step: 'fails',
    exitCode: 3,
    statusState: 'error',
    fix: 'Re-run the job; its log says what failed.'
  },
  skipped: {
    when: 'a deployment event not ready: nothing assessed',
    step: 'succeeds',
    exitCode: 0,
    statusState: 'success',
    fix: ''
  },
  pending: {
    when: '`wait: detached`: the run was triggered and handed to the collector, whose result becomes the commit status',
    step: 'succeeds (the status stays pending); the command line refuses it',
    exitCode: 2,
    statusState: 'pending',
    fix: ''
  }
}

/**
 * The commit status's final state for a result: success when the step
 * passes (a warning included), else its result's state (error when no
 * verdict was reached, failure otherwise).
 */
export function finalStatusState(result: Exclude<OutcomeResult, 'skipped' | 'pending'>, failing: boolean): CommitState {
  return failing ? OUTCOMES[result].statusState : 'success'
}

/**
 * A final commit status: the cause, then (when the step fails) its result's
 * fix, within GitHub's 140 characters, the fix kept whole (causeAndFix).
 */
export function statusLine(result: Exclude<OutcomeResult, 'skipped' | 'pending'>, cause: string, failing: boolean): string {
  return causeAndFix(cause, failing ? OUTCOMES[result].fix : '')
}

/** One value as an output's text: numbers as digits, lists as JSON, null as empty. */
function outputText(value: OutcomeValues[OutputName]): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  return JSON.stringify(value)
}

/** The action's outputs of an outcome, in action.yml's order; a value undefined for its kind is not set. */
export function actionOutputs(o: StepOutcome): [OutputName, string][] {
  const values = outcomeValues(o)
  return OUTPUT_NAMES.filter((name) => values[name] !== undefined).map((name) => [name, outputText(values[name])])
}

/** Set the action's outputs of an outcome. */
export function setActionOutputs(io: Pick<ActionIO, 'setOutput'>, o: StepOutcome): void {
  for (const [name, value] of actionOutputs(o)) io.setOutput(name, value)
}
