/**
 * The sticky PR comment: the report in markdown, under GitHub's comment limit,
 * starting with a hidden marker that names the model, so each model of a matrix
 * keeps its own comment and the next run edits it in place.
 */
import { createHash } from 'node:crypto'
import { renderMarkdownReport, WRAP_WIDTH, type DetailLevel } from './markdown.js'
import { trustedLink } from './markdown-safe.js'
import type { Report } from './report-model.js'

/** GitHub's limit on a comment body, in characters. */
export const COMMENT_LIMIT = 65536

const MARKER_PREFIX = '<!-- asas-gate:model='
const MARKER_SUFFIX = ' -->'
/** Longer encoded ids are shortened to a prefix and a hash (the marker stays small and unique). */
const MARKER_MAX_ENCODED = 120

/**
 * Percent-encodes every UTF-8 byte except ASCII letters, digits and `_`, so the
 * result can hold no `-`, `>`, `!`, space or line break: it cannot end or break
 * the HTML comment, and distinct ids give distinct encodings.
 */
function strictEncode(text: string): string {
  const bytes = Buffer.from(text, 'utf8')
  let out = ''
  for (const b of bytes) {
    const c = String.fromCharCode(b)
    out += /[A-Za-z0-9_]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** The hidden first line of the comment of `modelId`, e.g. `<!-- asas-gate:model=m_123 -->`. */
export function commentMarker(modelId: string): string {
  let enc = strictEncode(modelId)
  if (enc.length > MARKER_MAX_ENCODED) {
    const hash = createHash('sha256').update(modelId, 'utf8').digest('hex')
    enc = `${strictEncode(modelId.slice(0, 30)).slice(0, 60)}.sha256.${hash}`
  }
  return `${MARKER_PREFIX}${enc}${MARKER_SUFFIX}`
}

/**
 * Detail of the comment: the ten most severe findings in full at most, proof
 * wrapped at 90 characters; the rest one line each.
 */
export const COMMENT_LADDER: DetailLevel[] = [
  { wrap: WRAP_WIDTH, fieldChars: 1200, maxLines: 14, proseChars: 600, maxSteps: 3, bodies: true, headers: false },
  { wrap: WRAP_WIDTH, fieldChars: 400, maxLines: 6, proseChars: 300, maxSteps: 1, bodies: false, headers: false },
  { wrap: WRAP_WIDTH, fieldChars: 0, maxLines: 0, proseChars: 200, maxSteps: 0, bodies: false, headers: false }
]

/** Findings shown with their proof in the comment at most. */
export const COMMENT_MAX_DETAILED = 10

/** The comment body: starts with the marker line; at most `limit` characters (UTF-16 code units). */
export function renderComment(report: Report, opts: { limit?: number } = {}): string {
  const limit = opts.limit ?? COMMENT_LIMIT
  const summary = trustedLink('job summary', report.runUrl)
  return renderMarkdownReport(report, {
    limit,
    measure: (s) => s.length,
    limitLabel: `the ${limit.toLocaleString('en-US')}-character limit of a GitHub comment`,
    marker: commentMarker(report.modelId),
    ladder: COMMENT_LADDER,
    maxDetailed: COMMENT_MAX_DETAILED,
    coverage: 'compact',
    listBelowThreshold: false,
    fullDataWhere: `${summary ?? 'the job summary of this workflow run'} and the JSON report (\`report_path\`, kept when the workflow uploads it as an artifact)`
  })
}

export interface PreviousResult {
  result: 'pass' | 'fail' | 'incomplete' | 'error'
  /** Hex, 7 to 12 characters; null when the comment did not say. */
  sha: string | null
  /** ISO minute ("2026-11-21T14:03Z"); null when the comment did not say. */
  at: string | null
}

/**
 * The result an earlier comment recorded in its hidden second line (see
 * stateMarker), or null. Only the exact shape is read: an enum, hex and an ISO
 * minute, so whatever else the comment holds cannot come through.
 */
export function previousResult(body: string | null | undefined): PreviousResult | null {
  if (!body) return null
  const second = body.split('\n', 3)[1]?.replace(/\r$/, '') ?? ''
  const m = /^<!-- asas-gate:result=(pass|fail|incomplete|error);sha=([0-9a-f]{7,12}|-);at=(\d{4}-\d\d-\d\dT\d\d:\d\dZ|-) -->$/.exec(second)
  if (!m) return null
  return { result: m[1] as PreviousResult['result'], sha: m[2] === '-' ? null : m[2], at: m[3] === '-' ? null : m[3] }
}
