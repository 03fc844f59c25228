/**
 * The job summary (GITHUB_STEP_SUMMARY): the same report as the comment, with
 * more detail (longer replay fields, findings below the threshold listed), under
 * GitHub's 1 MiB limit of a step summary.
 */
import { renderMarkdownReport, type DetailLevel } from './markdown.js'
import type { Report } from './report-model.js'

/** GitHub's limit on a step summary, in bytes. */
export const SUMMARY_LIMIT = 1024 * 1024

/** Detail ladder of the summary: most detailed first; the last leaves replay steps out. */
export const SUMMARY_LADDER: DetailLevel[] = [
  { fieldChars: 16000, lineChars: 1000, maxLines: 200, proseChars: 4000, maxAttacks: 20, maxSteps: 40, maxHeaders: 50 },
  { fieldChars: 4000, lineChars: 500, maxLines: 60, proseChars: 2000, maxAttacks: 10, maxSteps: 20, maxHeaders: 30 },
  { fieldChars: 800, lineChars: 300, maxLines: 15, proseChars: 800, maxAttacks: 5, maxSteps: 10, maxHeaders: 15 },
  { fieldChars: 200, lineChars: 200, maxLines: 5, proseChars: 400, maxAttacks: 2, maxSteps: 4, maxHeaders: 8 },
  { fieldChars: 0, lineChars: 0, maxLines: 0, proseChars: 300, maxAttacks: 0, maxSteps: 0, maxHeaders: 0 }
]

/** Markdown for GITHUB_STEP_SUMMARY; its UTF-8 length is at most `limitBytes`. */
export function renderSummary(report: Report, opts: { limitBytes?: number } = {}): string {
  const limit = opts.limitBytes ?? SUMMARY_LIMIT
  return renderMarkdownReport(report, {
    limit,
    measure: (s) => Buffer.byteLength(s, 'utf8'),
    limitLabel: `the ${limit.toLocaleString('en-US')}-byte limit of a job summary`,
    marker: null,
    ladder: SUMMARY_LADDER,
    listBelowThreshold: true,
    fullDataWhere: "the JSON report (the step's `report_path` output)"
  })
}
