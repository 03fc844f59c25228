/**
 * The inputs that decide the verdict and what the report holds: the
 * threshold, the categories, fail_on and its baseline, the accepted risks,
 * the SARIF threshold and location. Pure.
 */
import type { FailOn } from '../../gate/policy.js'
import { SEVERITIES, type Severity } from '../../service/contract/index.js'
import { ConfigError } from '../../util/errors.js'
import { clip, oneOf, parseBoolean, parseRepoPath, parseWholeNumber, type InputReader } from './common.js'
import { INPUT_DEFAULTS } from './defaults.js'

/** The most runs a window reads: each costs two requests to the service. */
export const MAX_EVIDENCE_RUNS = 20

export interface PolicyInputs {
  minSeverity: Severity
  /** Empty: the full taxonomy. */
  categories: string[]
  failOnIncomplete: boolean
  /** any: every open finding at or above min_severity blocks; new: only those the baseline does not hold. */
  failOn: FailOn
  /** A run whose findings are the baseline (instead of the Actions cache); '' when unset. */
  baselineRunId: string
  /** K: the runs of an agent's window of evidence, this run included (evidence_runs; 1: this run alone, and main's newest run as the baseline). */
  evidenceRuns: number
  /** No run older than this many days is evidence (evidence_max_age_days). */
  evidenceMaxAgeDays: number
  /** How sure a confirmation must be that a presumed weakness is gone (confidence, 0.5 to 0.999). */
  confidence: number
  /** The most confirmation runs a step may spend (confirmation_runs_max, 0 to 50; 0: never confirm, a presumed weakness is incomplete). */
  confirmationRunsMax: number
  /** Repository path of the accepted-risks file ('' : off, from the input value off). */
  acceptedRisksFile: string
  /** Write acceptances to the service as dismissals (default branch only). */
  syncDismissals: boolean
  /** Threshold of SARIF results. */
  sarifMinSeverity: Severity
  /** Repository file SARIF results are located on ('' : the workflow file). */
  sarifLocation: string
}

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

/** A confidence between 0.5 and 0.999 ('' : the default). */
function parseConfidence(raw: string): number {
  const text = raw === '' ? INPUT_DEFAULTS.confidence : raw
  const value = /^(0?\.\d{1,4}|1(\.0{0,4})?|0)$/.test(text) ? Number(text) : NaN
  if (!(value >= 0.5 && value <= 0.999))
    throw new ConfigError(
      'confidence',
      `'${clip(raw)}' is not a confidence from 0.5 to 0.999 (e.g. 0.95: a presumed weakness is shown gone with 95 % confidence)`
    )
  return value
}

/** '' : the default path; 'off' : no accepted-risks file. */
function parseAcceptedFileInput(raw: string): string {
  if (raw.toLowerCase() === 'off') return ''
  return parseRepoPath('accepted_risks_file', raw === '' ? INPUT_DEFAULTS.accepted_risks_file : raw)
}

export function readPolicyInputs(get: InputReader): PolicyInputs {
  return {
    minSeverity: oneOf<Severity>('min_severity', get('min_severity'), SEVERITIES, INPUT_DEFAULTS.min_severity),
    categories: parseCategories(get('categories')),
    failOnIncomplete: parseBoolean('fail_on_incomplete', get('fail_on_incomplete'), true),
    failOn: oneOf<FailOn>('fail_on', get('fail_on'), ['any', 'new'], INPUT_DEFAULTS.fail_on),
    baselineRunId: parseRunId(get('baseline_run_id')),
    evidenceRuns: parseWholeNumber('evidence_runs', get('evidence_runs'), INPUT_DEFAULTS.evidence_runs, 1, MAX_EVIDENCE_RUNS),
    evidenceMaxAgeDays: parseWholeNumber(
      'evidence_max_age_days',
      get('evidence_max_age_days'),
      INPUT_DEFAULTS.evidence_max_age_days,
      1,
      365
    ),
    confidence: parseConfidence(get('confidence')),
    confirmationRunsMax: parseWholeNumber(
      'confirmation_runs_max',
      get('confirmation_runs_max'),
      INPUT_DEFAULTS.confirmation_runs_max,
      0,
      50
    ),
    acceptedRisksFile: parseAcceptedFileInput(get('accepted_risks_file')),
    syncDismissals: parseBoolean('sync_dismissals', get('sync_dismissals'), false),
    sarifMinSeverity: oneOf<Severity>('sarif_min_severity', get('sarif_min_severity'), SEVERITIES, INPUT_DEFAULTS.sarif_min_severity),
    sarifLocation: parseSarifLocation(get('sarif_location'))
  }
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
