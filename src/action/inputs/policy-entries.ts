/**
 * The inputs that decide the verdict and what the report holds: the
 * threshold, the categories, fail_on and its baseline, the window of
 * evidence, the accepted risks, the SARIF threshold and location. Entries of
 * the inputs table (spec.ts); each is a field of ActionInputs. Pure.
 */
import type { FailOn } from '../../decision/result-words.js'
import { SEVERITIES } from '../../service/contract/index.js'
import { ConfigError } from '../../util/errors.js'
import { clip, parseRepoPath } from './common.js'
import { MAX_RUNS_PER_CHANGE } from '../../evidence/runs-per-change-rule.js'
import { boolean, choice, defineInput, parsedBy, wholeNumber, type FieldsOf } from './spec.js'

/** The most runs a window reads: each costs two requests to the service. */
export const MAX_EVIDENCE_RUNS = 20

/** Category keys separated by commas and/or newlines; blanks dropped, duplicates removed, order kept. */
export function parseCategories(raw: string): string[] {
  const keys = raw
    .split(/[,\n\r]+/)
    .map((k) => k.trim())
    .filter((k) => k !== '')
  for (const k of keys) {
    if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(k)) {
      throw new ConfigError(
        'categories',
        `'${clip(k)}' is not a category key (letters, digits, _ . : - only): separate keys with commas or newlines, e.g. 'prompt_injection, jailbreak'`
      )
    }
  }
  return [...new Set(keys)]
}

function parseRunId(raw: string): string {
  if (raw !== '' && (raw.length > 200 || /[\u0000-\u001f\u007f/?#\s]/.test(raw))) {
    throw new ConfigError('baseline_run_id', `'${clip(raw)}' is not a run id (no slashes, ?, #, spaces or control characters)`)
  }
  return raw
}

/** A confidence from 0.5 to 0.999: how sure a confirmation must be that a presumed weakness is gone. */
function parseConfidence(text: string): number {
  const value = /^(0?\.\d{1,4}|1(\.0{0,4})?|0)$/.test(text) ? Number(text) : NaN
  if (!(value >= 0.5 && value <= 0.999))
    throw new ConfigError(
      'confidence',
      `'${clip(text)}' is not a confidence from 0.5 to 0.999 (e.g. 0.95: a presumed weakness is shown gone with 95 % confidence)`
    )
  return value
}

/** A repository path; 'off' : no accepted-risks file (''). */
function parseAcceptedFileInput(raw: string): string {
  if (raw.toLowerCase() === 'off') return ''
  return parseRepoPath('accepted_risks_file', raw)
}

/**
 * sarif_location goes into the SARIF log as a URI relative to the checkout,
 * which code scanning resolves and links: a relative path inside the
 * repository only. Besides parseRepoPath's checks, no scheme (`file:`,
 * `https:`, a drive), no backslash (a separator on Windows), no percent-escape
 * (`%2e%2e` decodes to `..`; the action encodes the path itself) and no
 * segment that is `..` once Unicode-normalized (`．．`).
 */
function parseSarifLocation(raw: string): string {
  const path = parseRepoPath('sarif_location', raw)
  // Checked as a consumer that normalizes would read it too (`／`, `＼`, `％`, `．．`).
  const norm = path.normalize('NFKC')
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(norm) || norm.startsWith('/') || /[\\%]/.test(norm) || norm.split('/').includes('..')) {
    throw new ConfigError(
      'sarif_location',
      `'${clip(raw)}' must be a relative path inside the repository, e.g. agent/profile.yml (no scheme, backslash, % escape or ..)`
    )
  }
  return path
}

const ASSESS = ['assess'] as const

/** What fails the check: the threshold, the categories, incomplete coverage. */
export const GATE_INPUTS = [
  defineInput({
    name: 'min_severity',
    field: 'minSeverity',
    default: 'high',
    description: '{range}: open findings at or above it fail the check.',
    summary: '{range}: open findings at or above it fail',
    parser: choice(SEVERITIES),
    cli: { commands: ASSESS, value: 'severity' }
  }),
  defineInput({
    name: 'categories',
    field: 'categories',
    default: '',
    description: 'Category keys to focus the run on, comma or newline separated. Empty: the full taxonomy.',
    summary: 'category keys, comma or newline separated; empty: the full taxonomy',
    parser: parsedBy(parseCategories),
    cli: { commands: ASSESS, value: 'keys' }
  }),
  defineInput({
    name: 'fail_on_incomplete',
    field: 'failOnIncomplete',
    default: 'true',
    description:
      'Whether incomplete coverage fails the check (false: a warning). Coverage only: an evidence gap or a confirmation cut short still fails.',
    summary: '`false`: incomplete coverage (validate mode: a finding not validated) warns instead of failing; an evidence gap still fails',
    parser: boolean,
    cli: { commands: ['assess', 'validate'], value: 'bool' }
  })
] as const

/** The baseline and its window of evidence, the accepted risks, and the SARIF file. */
export const BASELINE_INPUTS = [
  defineInput({
    name: 'fail_on',
    field: 'failOn',
    default: 'any',
    description: 'any, or new: only findings the base branch baseline does not hold fail. See docs/baseline.md.',
    summary: '`any`, or `new`: only findings not in the baseline fail ([docs](docs/baseline.md))',
    parser: choice<FailOn>(['any', 'new']),
    cli: { commands: ASSESS, value: 'policy' }
  }),
  defineInput({
    name: 'baseline_run_id',
    field: 'baselineRunId',
    default: '',
    description: 'A run whose findings are the baseline, instead of the one the default branch saved.',
    summary: 'a run to use as the baseline',
    parser: parsedBy(parseRunId),
    cli: { commands: ASSESS, value: 'run' }
  }),
  defineInput({
    name: 'evidence_runs',
    field: 'evidenceRuns',
    default: '5',
    description: 'Runs of one agent pooled as its evidence (this run included), {range}; 1: this run alone. See docs/baseline.md.',
    summary: 'runs of one agent pooled as its evidence, this run included ({range}; `1`: this run alone) ([docs](docs/baseline.md))',
    parser: wholeNumber(1, MAX_EVIDENCE_RUNS),
    cli: { none: "GitHub Actions only: the window is read from the runs a workflow recorded in the repository's Actions caches" }
  }),
  defineInput({
    name: 'evidence_max_age_days',
    field: 'evidenceMaxAgeDays',
    default: '30',
    description: 'No run older than this many days counts as evidence, {range}.',
    summary: 'no run older than this counts as evidence',
    parser: wholeNumber(1, 365),
    cli: { none: "GitHub Actions only: it bounds the window of evidence, read from the repository's Actions caches" }
  }),
  defineInput({
    name: 'confidence',
    field: 'confidence',
    default: '0.95',
    description: 'How sure focused runs must be that a weakness seen before an agent change is gone, {range}.',
    summary: 'how sure focused runs must be that a weakness seen before an agent change is gone',
    parser: parsedBy(parseConfidence, '0.5 to 0.999'),
    cli: { none: "GitHub Actions only: what is confirmed comes from the window of evidence, read from the repository's Actions caches" }
  }),
  defineInput({
    name: 'confirmation_runs_max',
    field: 'confirmationRunsMax',
    default: '30',
    description: 'The most confirmation runs one step may trigger, {range}; when they run out the result is incomplete.',
    summary: 'the most confirmation runs a step may trigger (then incomplete)',
    parser: wholeNumber(0, 50),
    cli: { none: "GitHub Actions only: what is confirmed comes from the window of evidence, read from the repository's Actions caches" }
  }),
  defineInput({
    name: 'runs_per_change',
    field: 'runsPerChange',
    default: '1',
    description:
      'Full runs a step assesses when the agent may have changed since its evidence, {range}, pooled (a weakness seen in any blocks). See docs/baseline.md.',
    summary: 'full runs per agent change, pooled ({range}; each is an assessment) ([docs](docs/baseline.md))',
    parser: wholeNumber(1, MAX_RUNS_PER_CHANGE),
    cli: {
      none: "GitHub Actions only: whether the agent changed since its evidence is told from the runs recorded in the repository's Actions caches"
    }
  }),
  defineInput({
    name: 'accepted_risks_file',
    field: 'acceptedRisksFile',
    default: '.github/agent-security-accepted.yml',
    description: 'The accepted-risks file, read at the base SHA on pull requests, else at GITHUB_SHA; off: none. See docs/baseline.md.',
    summary: "accepted risks, read at a PR's base SHA, else at `GITHUB_SHA`; `off`: none",
    parser: parsedBy(parseAcceptedFileInput),
    cli: { commands: ASSESS, value: 'file' }
  }),
  defineInput({
    name: 'sync_dismissals',
    field: 'syncDismissals',
    default: 'false',
    description: 'On the default branch only: write accepted findings to the service as dismissals.',
    summary: 'default branch only: write acceptances as dismissals',
    parser: boolean,
    cli: { none: "GitHub Actions only: only a run on the default branch may write dismissals, and GitHub's event says which run that is" }
  }),
  defineInput({
    name: 'sarif_min_severity',
    field: 'sarifMinSeverity',
    default: 'low',
    description: 'Findings at or above this severity get a result in the SARIF file: {range}.',
    summary: 'findings at or above it get a result in the SARIF file',
    parser: choice(SEVERITIES),
    cli: { commands: ASSESS, value: 'severity' }
  }),
  defineInput({
    name: 'sarif_location',
    field: 'sarifLocation',
    default: '',
    description: 'Repository file the SARIF results point at (e.g. the agent profile). Empty: the workflow file.',
    summary: 'file the SARIF results point at (empty: the workflow)',
    parser: parsedBy(parseSarifLocation),
    cli: { commands: ASSESS, value: 'file' }
  })
] as const

export const POLICY_INPUTS = [...GATE_INPUTS, ...BASELINE_INPUTS] as const

export type PolicyInputs = FieldsOf<typeof POLICY_INPUTS>
