/**
 * The file formats rendered from the report model: each is written beside the
 * others as `report-<model_id>-<run_id>.<extension>` and its path set as the
 * action output `output` (declared in action.yml; a test holds the two lists
 * equal). Adding a format is one entry here, its renderer and its output.
 */
import type { Severity } from '../service/contract/index.js'
import { renderCodeQuality } from './codequality.js'
import { renderJson } from './json.js'
import { renderJunit, type JunitFile } from './junit.js'
import type { Report } from './report-model.js'
import { renderSarif } from './sarif.js'
import { renderSummary } from './summary.js'

/** What the step gives the formats beside the report. */
export interface FormatOptions {
  /** Repository-relative file every SARIF result and Code Quality issue is located on (src/action/report-location.ts). */
  sarifLocation: string
  /** The same file for JUnit, when one is known: on <testsuite>, and on each <testcase> when the reader takes it there. */
  junitFile: JunitFile | null
  /** Findings at or above it get a SARIF result. */
  sarifMinSeverity: Severity
  /** The action's version, as the tool's. */
  toolVersion: string
}

/** The action output of each file format (a field of the step's outcome, src/action/outcome.ts). */
export type ReportFileOutput = 'report_path' | 'sarif_path' | 'junit_path' | 'markdown_path' | 'codequality_path'

export interface ReportFormat {
  /** How the file name ends, without the dot. */
  extension: string
  /** The action output that holds the file's path. */
  output: ReportFileOutput
  render: (report: Report, opts: FormatOptions) => string
}

export const REPORT_FORMATS: readonly ReportFormat[] = [
  { extension: 'json', output: 'report_path', render: (report) => renderJson(report) },
  {
    extension: 'sarif',
    output: 'sarif_path',
    render: (report, opts) =>
      JSON.stringify(
        renderSarif(report, { location: opts.sarifLocation, threshold: opts.sarifMinSeverity, toolVersion: opts.toolVersion }),
        null,
        2
      )
  },
  { extension: 'junit.xml', output: 'junit_path', render: (report, opts) => renderJunit(report, { file: opts.junitFile }) },
  { extension: 'md', output: 'markdown_path', render: (report) => renderSummary(report) },
  {
    extension: 'codequality.json',
    output: 'codequality_path',
    render: (report, opts) => renderCodeQuality(report, { location: opts.sarifLocation })
  }
]
