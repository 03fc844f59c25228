/**
 * The sticky PR comment: the report in markdown, under GitHub's comment limit,
 * starting with a hidden marker that names the model, so each model of a matrix
 * keeps its own comment and the next run edits it in place.
 */
import { createHash } from 'node:crypto'
import { renderMarkdownReport, type DetailLevel } from './markdown.js'
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
 * True when `body` is the gate's comment for `modelId`: it must START with the
 * marker (quoted text inside another comment may contain a marker-like string).
 */
export function isCommentFor(body: string, modelId: string): boolean {
  const marker = commentMarker(modelId)
  return body.startsWith(`${marker}\n`) || body.startsWith(`${marker}\r\n`) || body === marker
}

/** Detail ladder of the comment: most detailed first; the last leaves replay steps out. */
export const COMMENT_LADDER: DetailLevel[] = [
  { fieldChars: 2000, lineChars: 300, maxLines: 40, proseChars: 1500, maxAttacks: 3, maxSteps: 8, maxHeaders: 20 },
  { fieldChars: 600, lineChars: 200, maxLines: 15, proseChars: 600, maxAttacks: 2, maxSteps: 5, maxHeaders: 10 },
  { fieldChars: 160, lineChars: 160, maxLines: 5, proseChars: 300, maxAttacks: 1, maxSteps: 3, maxHeaders: 5 },
  { fieldChars: 0, lineChars: 0, maxLines: 0, proseChars: 200, maxAttacks: 0, maxSteps: 0, maxHeaders: 0 }
]

/** The comment body: starts with the marker line; at most `limit` characters (UTF-16 code units). */
export function renderComment(report: Report, opts: { limit?: number } = {}): string {
  const limit = opts.limit ?? COMMENT_LIMIT
  return renderMarkdownReport(report, {
    limit,
    measure: (s) => s.length,
    limitLabel: `the ${limit.toLocaleString('en-US')}-character limit of a GitHub comment`,
    marker: commentMarker(report.modelId),
    ladder: COMMENT_LADDER,
    listBelowThreshold: false,
    fullDataWhere: "the job summary of this workflow run and the JSON report (the step's `report_path` output)"
  })
}
