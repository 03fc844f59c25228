/**
 * The job summary (GITHUB_STEP_SUMMARY): the same report as the comment, with
 * more detail (longer replay fields, findings below the threshold listed), under
 * GitHub's 1 MiB limit of a step summary.
 */
import { renderMarkdownReport } from './markdown.js'
import { WRAP_WIDTH, type DetailLevel } from './markdown-profile.js'
import type { Report } from './report-model.js'

/** GitHub's limit on a step summary, in bytes. */
export const SUMMARY_LIMIT = 1024 * 1024

/** Detail of the summary: chosen per severity, most severe first (criticals keep their proof longest). */
export const SUMMARY_LADDER: DetailLevel[] = [
  { wrap: WRAP_WIDTH, fieldChars: 8000, maxLines: 120, proseChars: 4000, maxSteps: 20, bodies: true, headers: true },
  { wrap: WRAP_WIDTH, fieldChars: 2000, maxLines: 40, proseChars: 1500, maxSteps: 8, bodies: true, headers: true },
  { wrap: WRAP_WIDTH, fieldChars: 600, maxLines: 12, proseChars: 600, maxSteps: 3, bodies: false, headers: false },
  { wrap: WRAP_WIDTH, fieldChars: 0, maxLines: 0, proseChars: 300, maxSteps: 0, bodies: false, headers: false }
]

/** Findings shown with their proof in the summary at most. */
export const SUMMARY_MAX_DETAILED = 500

/** Markdown for GITHUB_STEP_SUMMARY; its UTF-8 length is at most `limitBytes`. */
export function renderSummary(report: Report, opts: { limitBytes?: number } = {}): string {
  const limit = opts.limitBytes ?? SUMMARY_LIMIT
  return renderMarkdownReport(report, {
    limit,
    measure: (s) => Buffer.byteLength(s, 'utf8'),
    limitLabel: `the ${limit.toLocaleString('en-US')}-byte limit of a job summary`,
    marker: null,
    ladder: SUMMARY_LADDER,
    maxDetailed: SUMMARY_MAX_DETAILED,
    coverage: 'full',
    listBelowThreshold: true,
    fullDataWhere: "the JSON report (the step's `report_path` output; upload it as an artifact to keep it)",
    fullListWhere: 'the job summary',
    runLinkLabel: 'workflow run'
  })
}
