/**
 * GitLab's Code Quality report (a subset of the CodeClimate issue format) of
 * a report, for `artifacts:reports:codequality`: the merge-request widget
 * shows the issues a merge request adds and resolves by comparing their
 * fingerprints with the target branch's report. Pure.
 *
 * - one issue per finding that counts against the gate or is held by the
 *   baseline (standing `blocking` or `known`): accepted, closed and
 *   below-threshold findings are left out, as the gate leaves them out;
 * - `fingerprint` is the finding's own (src/evidence/fingerprint.ts), so the
 *   same weakness keeps its issue across runs and commits, and a weakness
 *   found again on the merge request's preview target is not "new" against
 *   the default branch's; a second finding with the same fingerprint is left
 *   out (GitLab shows one issue per fingerprint);
 * - `check_name` is `agent-security/<category>`, as the SARIF rule id;
 * - `severity` is CODE_QUALITY_SEVERITY of the finding's severity;
 * - every issue sits on line 1 of the repository file the step names (the
 *   profile or the CI file), as the SARIF results do;
 * - the description is one line of the service's text with its invisible
 *   characters named and no control character, at most DESCRIPTION_MAX
 *   characters: GitLab shows it as text.
 */
import type { Severity } from '../service/contract/index.js'
import { clampText, sanitizeText } from './markdown-safe.js'
import type { Report, ReportFinding } from './report-model.js'

/** GitLab's scale is info, minor, major, critical, blocker; a critical finding blocks, a low one is minor. */
export const CODE_QUALITY_SEVERITY: Record<Severity, 'blocker' | 'critical' | 'major' | 'minor'> = {
  critical: 'blocker',
  high: 'critical',
  medium: 'major',
  low: 'minor'
}

export const DESCRIPTION_MAX = 1000

/** One issue as GitLab reads it (the fields its documentation requires, and `severity`). */
export interface CodeQualityIssue {
  description: string
  check_name: string
  fingerprint: string
  severity: (typeof CODE_QUALITY_SEVERITY)[Severity]
  location: { path: string; lines: { begin: number } }
}

export interface CodeQualityOptions {
  /** Repository-relative file every issue is located on. */
  location: string
}

/** C0 and C1 controls: a line holds none. */
const CONTROLS = /[\u0000-\u001F\u007F-\u009F]/g

/** One line of untrusted text: invisible characters named, controls dropped, clamped. */
function line(text: string, max: number): string {
  return sanitizeText(clampText(text, max).text, false).replace(CONTROLS, '')
}

function issueOf(f: ReportFinding, opts: CodeQualityOptions): CodeQualityIssue {
  const state = f.baselineState === 'known' ? 'known' : f.baselineState === 'new' ? 'new' : f.status
  return {
    description: line(`${f.severity} ${f.category} finding (${state}): ${f.description}`, DESCRIPTION_MAX),
    check_name: `agent-security/${line(f.category, 200)}`,
    fingerprint: f.fingerprint,
    severity: CODE_QUALITY_SEVERITY[f.severity],
    location: { path: line(opts.location, 1000), lines: { begin: 1 } }
  }
}

export function codeQualityIssues(report: Report, opts: CodeQualityOptions): CodeQualityIssue[] {
  const seen = new Set<string>()
  const issues: CodeQualityIssue[] = []
  for (const f of report.findings) {
    if (f.standing !== 'blocking' && f.standing !== 'known') continue
    if (seen.has(f.fingerprint)) continue
    seen.add(f.fingerprint)
    issues.push(issueOf(f, opts))
  }
  return issues
}

export function renderCodeQuality(report: Report, opts: CodeQualityOptions): string {
  return `${JSON.stringify(codeQualityIssues(report, opts), null, 2)}\n`
}
