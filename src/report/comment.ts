/**
 * The sticky PR comment: the report in markdown, under GitHub's comment limit,
 * starting with a hidden marker that names the model, so each model of a matrix
 * keeps its own comment and the next run edits it in place. Under the marker,
 * hidden lines record the result (state line) and what was assessed (record
 * line), read back by the next run.
 */
import { createHash } from 'node:crypto'
import { renderMarkdownReport } from './markdown.js'
import { WRAP_WIDTH, type DetailLevel } from './markdown-profile.js'
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

/** The text of a key strictEncode wrote (recordSubjectKey); a hashed key (too long to hold) reads as `(a long name)`. */
export function decodeRecordKey(key: string): string {
  if (key.startsWith('.sha256.')) return '(a long name)'
  const bytes: number[] = []
  for (let i = 0; i < key.length; i++) {
    const hex = key[i] === '%' ? /^[0-9A-F]{2}$/.exec(key.slice(i + 1, i + 3)) : null
    if (hex) {
      bytes.push(parseInt(hex[0], 16))
      i += 2
    } else bytes.push(key.charCodeAt(i) & 0xff)
  }
  return Buffer.from(bytes).toString('utf8')
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

/** Where the comment is read: a GitHub pull request, or a GitLab merge request (the note takes the comment's place). */
export type CommentHost = 'github' | 'gitlab'

/** The comment's words in each host's terms. */
const COMMENT_WORDS: Record<
  CommentHost,
  { comment: string; runLink: string; fullList: string; fullData: (runUrl: string | null) => string }
> = {
  github: {
    comment: 'a GitHub comment',
    fullList: 'the job summary',
    runLink: 'workflow run',
    fullData: (runUrl) =>
      `${trustedLink('job summary', runUrl) ?? 'the job summary of this workflow run'} and the JSON report (\`report_path\`, kept when the workflow uploads it as an artifact)`
  },
  gitlab: {
    comment: 'this merge-request note',
    fullList: "the markdown report in the job's artifacts",
    runLink: 'job',
    fullData: (runUrl) =>
      `the JSON and markdown reports in the artifacts of ${trustedLink('the job', runUrl) ?? 'the job'} (kept when the job lists them under \`artifacts:paths\`), and its job log`
  }
}

/** Findings shown with their proof in the comment at most. */
export const COMMENT_MAX_DETAILED = 10

/**
 * The comment body: starts with the marker line (`marker`, the agent's:
 * commentMarker(AgentIdentity.commentKey); the model's by default) (and, with `record`, the
 * assessment record under the state line); at most `limit` characters
 * (UTF-16 code units).
 */
export function renderComment(
  report: Report,
  opts: { limit?: number; record?: AssessmentRecord; marker?: string; on?: CommentHost } = {}
): string {
  const recordLine = opts.record ? `${recordMarker(opts.record)}\n` : ''
  const limit = (opts.limit ?? COMMENT_LIMIT) - recordLine.length
  const words = COMMENT_WORDS[opts.on ?? 'github']
  const body = renderMarkdownReport(report, {
    limit,
    measure: (s) => s.length,
    limitLabel: `the ${limit.toLocaleString('en-US')}-character limit of ${words.comment}`,
    marker: opts.marker ?? commentMarker(report.modelId),
    ladder: COMMENT_LADDER,
    maxDetailed: COMMENT_MAX_DETAILED,
    coverage: 'compact',
    listBelowThreshold: false,
    fullDataWhere: words.fullData(report.runUrl),
    fullListWhere: words.fullList,
    runLinkLabel: words.runLink
  })
  return opts.record ? withRecord(body, opts.record) : body
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

/** The results a comment can record. */
import { RECORDED_RESULTS, type RecordedResult } from '../decision/result-words.js'

export { RECORDED_RESULTS, type RecordedResult }

/**
 * What an assessment was of, as the comment's hidden third line records it,
 * so a later run can carry its result over instead of assessing again.
 */
export interface AssessmentRecord {
  result: RecordedResult
  /** The commit that was assessed (full hex SHA, lower case). */
  assessedSha: string
  /**
   * The commit the result stands for: the assessed one, or a later head it
   * was carried over to because no agent path changed in between.
   */
  headSha: string
  /** The key of the model or configured target name assessed (AgentIdentity.subject). */
  subject: string
  /** The target's configuration digest (AgentIdentity.config, 8 hex); null for a model. */
  config: string | null
  /** The host assessed, encoded with recordSubjectKey (AgentIdentity.host); null for a model. */
  host: string | null
  /** sha256 of the profile file's text; null when no profile_file was used. */
  profileDigest: string | null
  /** sha256 of the inputs that decide the verdict (see src/pipeline/identity.ts); null when not recorded. */
  policyDigest: string | null
  /** ISO minute of the assessment ("2026-11-21T14:03Z"); null when not known. */
  at: string | null
}

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
const DIGEST = /^[0-9a-f]{64}$/
const ISO_MINUTE = /^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/
/** Longer subject keys are replaced by a hash (the line stays small; the key stays unique). */
const SUBJECT_MAX_ENCODED = 600

/**
 * The key a record holds for a model or target, e.g. `model:m_123` or
 * `target:agent-pr-7`: strictly encoded (no `-`, `>`, space or line break can
 * reach the HTML comment), or a hash when long. Compare keys, not names.
 */
export function recordSubjectKey(subject: string): string {
  const enc = strictEncode(subject)
  return enc.length <= SUBJECT_MAX_ENCODED ? enc : `.sha256.${createHash('sha256').update(subject, 'utf8').digest('hex')}`
}

const RECORD_LINE =
  /^<!-- asas-gate:record=2;result=(pass|fail|incomplete|error);assessed=([0-9a-f]{40}|[0-9a-f]{64});head=([0-9a-f]{40}|[0-9a-f]{64});subject=([A-Za-z0-9_%.]{1,672});config=([0-9a-f]{8}|-);host=([A-Za-z0-9_%.]{1,672}|-);profile=([0-9a-f]{64}|-);policy=([0-9a-f]{64}|-);at=(\d{4}-\d\d-\d\dT\d\d:\d\dZ|-) -->$/

/**
 * The hidden record line of `record`. Throws on a value it cannot hold
 * exactly (a bug of the caller): a record that does not say what was
 * assessed must not be written.
 */
export function recordMarker(record: AssessmentRecord): string {
  const bad = (what: string): never => {
    throw new Error(`assessment record: ${what} is not of the recorded shape`)
  }
  if (!RECORDED_RESULTS.includes(record.result)) bad('result')
  if (!FULL_SHA.test(record.assessedSha)) bad('assessedSha')
  if (!FULL_SHA.test(record.headSha)) bad('headSha')
  if (!/^[A-Za-z0-9_%.]{1,672}$/.test(record.subject)) bad('subject (use recordSubjectKey)')
  if (record.config !== null && !/^[0-9a-f]{8}$/.test(record.config)) bad('config')
  if (record.host !== null && !/^[A-Za-z0-9_%.]{1,672}$/.test(record.host)) bad('host (use recordSubjectKey)')
  if (record.profileDigest !== null && !DIGEST.test(record.profileDigest)) bad('profileDigest')
  if (record.policyDigest !== null && !DIGEST.test(record.policyDigest)) bad('policyDigest')
  if (record.at !== null && !ISO_MINUTE.test(record.at)) bad('at')
  return (
    `<!-- asas-gate:record=2;result=${record.result};assessed=${record.assessedSha};head=${record.headSha}` +
    `;subject=${record.subject};config=${record.config ?? '-'};host=${record.host ?? '-'};profile=${record.profileDigest ?? '-'};policy=${record.policyDigest ?? '-'};at=${record.at ?? '-'} -->`
  )
}

/**
 * The record of a comment body, or null. Read only from the third line, right
 * under the model marker and the state line, and only when the state line
 * records the same result: a record quoted anywhere else (a finding's text, a
 * person's comment), a malformed one or one that disagrees reads as no record.
 * Who wrote the comment is checked by the caller (src/github/assessment-record.ts).
 */
export function readAssessmentRecord(body: string | null | undefined): AssessmentRecord | null {
  if (!body) return null
  const lines = body.split('\n', 4).map((l) => l.replace(/\r$/, ''))
  if (!(lines[0] ?? '').startsWith(MARKER_PREFIX)) return null
  const state = previousResult(body)
  const m = RECORD_LINE.exec(lines[2] ?? '')
  if (!state || !m) return null
  const [, result, assessedSha, headSha, subject, config, host, profile, policy, at] = m as unknown as [string, RecordedResult, ...string[]]
  if (state.result !== result) return null
  if (state.sha !== null && !assessedSha.startsWith(state.sha) && !headSha.startsWith(state.sha)) return null
  return {
    result,
    assessedSha,
    headSha,
    subject,
    config: config === '-' ? null : config,
    host: host === '-' ? null : host,
    profileDigest: profile === '-' ? null : profile,
    policyDigest: policy === '-' ? null : policy,
    at: at === '-' ? null : at
  }
}

/**
 * `body` with the record line put under its model marker and state line.
 * A body without those two lines (not rendered with a marker) is returned
 * unchanged: it records nothing, so the next run assesses.
 */
export function withRecord(body: string, record: AssessmentRecord): string {
  const first = body.indexOf('\n')
  const second = first < 0 ? -1 : body.indexOf('\n', first + 1)
  if (second < 0 || !body.startsWith(MARKER_PREFIX) || previousResult(body) === null) return body
  return `${body.slice(0, second + 1)}${recordMarker(record)}\n${body.slice(second + 1)}`
}
