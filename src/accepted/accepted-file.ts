/**
 * The accepted-risks file (e.g. .github/agent-security-accepted.yml): parsed
 * and validated, pure. A mistake is a ConfigError naming the file, the line
 * and the field, raised before any request to the service.
 *
 *   version: 1
 *   accepted:
 *     - category: system_prompt_leakage          # required
 *       fingerprint: 0123456789abcdef0123456789abcdef   # optional: this finding only
 *       severity_at_most: medium                 # required: a severity, or any
 *       description_pattern: "instructions"      # optional, an RE2 regular expression (case-insensitive)
 *       reason_code: working_as_designed         # required, the service's list
 *       explanation: The prompt holds no secret. # required, 1 to 4000 characters
 *       owner: "@acme/agent-team"                # required
 *       expires: 2027-03-31                      # required, at most a year ahead
 */
import type { Node } from 'yaml'
import type { YamlModule } from '../util/yaml.js'
import { compileDescriptionPattern, type DescriptionMatcher, type PatternEngine } from './description-pattern.js'
import { DISMISS_REASON_CODES, SEVERITIES, type Severity } from '../service/contract/index.js'
import { LIMITS } from '../service/contract/limits.js'
import { ConfigError } from '../util/errors.js'

export type ReasonCode = (typeof DISMISS_REASON_CODES)[number]

export interface AcceptedEntry {
  /** 1-based index in the file. */
  index: number
  /** 1-based line where the entry starts. */
  line: number
  category: string
  fingerprint: string | null
  /** The worst severity accepted; null: any (written `any`, never left out). */
  severityAtMost: Severity | null
  descriptionPattern: string | null
  /** descriptionPattern compiled (linear-time); null when there is none. */
  matchesDescription: DescriptionMatcher | null
  reasonCode: ReasonCode
  explanation: string
  owner: string
  /** YYYY-MM-DD (the last day the acceptance holds, UTC). */
  expires: string
}

const FIELDS = [
  'category',
  'fingerprint',
  'severity_at_most',
  'description_pattern',
  'reason_code',
  'explanation',
  'owner',
  'expires'
] as const
/** One year, counted in days from today (UTC), leap day included. */
export const MAX_EXPIRY_DAYS = 366

/** The input named in a ConfigError about the file. */
export const ACCEPTED_INPUT = 'accepted_risks_file'

/** Today as YYYY-MM-DD (UTC). */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

function addDays(day: string, days: number): string {
  return isoDay(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000)
}

/** A YAML scalar's value as the user wrote it (non-scalars are rejected before this is shown). */
function scalarText(v: unknown): string {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v instanceof Date)
    return String(v)
  return JSON.stringify(v)
}

/** What `severity_at_most` takes besides a severity: every severity, said on purpose. */
export const ANY_SEVERITY = 'any'

/** Throws the ConfigError of one mistake in the file: where (line, field) and what. */
type Fail = (line: number, field: string, what: string) => never

/** One entry's fields as written, read with the checks every field shares. */
interface EntryFields {
  /** accepted[N], for messages. */
  at: string
  /** The entry's first line. */
  line: number
  fail: Fail
  /** A text field, or null when it is absent; present but empty is a mistake (it would widen the entry). */
  optional: (field: string, max?: number) => string | null
  /** A text field; absent or empty fails with `why` (default: is required). */
  required: (field: string, max?: number, why?: string) => string
  /** The line of a field (the entry's when the field is absent). */
  lineFor: (field: string) => number
  raw: (field: string) => { value: unknown; line: number } | undefined
}

/**
 * Parse and validate the file's text. `today` (YYYY-MM-DD) bounds `expires`.
 * `patterns` runs description_pattern (load it with loadPatternEngine()); a
 * file with a pattern and no engine is a bug of the caller.
 */
export function parseAcceptedFile(
  yaml: YamlModule,
  text: string,
  path: string,
  today: string,
  patterns: PatternEngine | null = null
): AcceptedEntry[] {
  const counter = new yaml.LineCounter()
  const doc = yaml.parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true })
  const lineOf = (node: Node | null | undefined): number => (node?.range ? counter.linePos(node.range[0]).line : 1)
  const fail: Fail = (line, field, what) => {
    throw new ConfigError(ACCEPTED_INPUT, `${path} line ${line}, ${field}: ${what}`)
  }
  if (doc.errors.length > 0) {
    const e = doc.errors[0]
    fail(e.linePos?.[0]?.line ?? 1, 'YAML', e.message.split('\n')[0] ?? 'not valid YAML')
  }
  const list = acceptedList(yaml, doc.contents, lineOf, fail)
  return list.map((item, i) => {
    const fields = entryFields(yaml, item as Node, i, lineOf, fail)
    return readEntry(fields, i, today, patterns)
  })
}

/** The `accepted:` list of the document (empty when the file or the list is), after checking the top level. */
function acceptedList(yaml: YamlModule, root: Node | null, lineOf: (n: Node | null | undefined) => number, fail: Fail): unknown[] {
  const { isMap, isScalar, isSeq } = yaml
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return []
  if (!isMap(root)) return fail(lineOf(root), 'the file', 'must be a mapping with `version: 1` and an `accepted:` list')
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : ''
    if (key !== 'version' && key !== 'accepted')
      fail(lineOf(pair.key as Node), key || 'a key', 'is not a field of the file (version, accepted)')
  }
  const version = root.get('version', true)
  if (version !== undefined && !(isScalar(version) && version.value === 1)) fail(lineOf(version), 'version', 'must be 1')
  const list = root.get('accepted', true) as Node | undefined
  if (list === undefined || (isScalar(list) && list.value === null)) return []
  if (!isSeq(list)) return fail(lineOf(list), 'accepted', 'must be a list of entries')
  return list.items
}

/** One list item as a map of single values, with the shared field checks. */
function entryFields(yaml: YamlModule, node: Node, i: number, lineOf: (n: Node | null | undefined) => number, fail: Fail): EntryFields {
  const { isMap, isScalar } = yaml
  const line = lineOf(node)
  const at = `accepted[${i + 1}]`
  if (!isMap(node)) fail(line, at, 'must be a mapping (category, reason_code, explanation, owner, expires, ...)')
  const values = new Map<string, { value: unknown; line: number }>()
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : ''
    const keyLine = lineOf(pair.key as Node)
    if (!(FIELDS as readonly string[]).includes(key))
      fail(keyLine, `${at}.${key || '?'}`, `is not a field of an entry (${FIELDS.join(', ')})`)
    const v = pair.value as Node | null
    if (v !== null && !isScalar(v)) fail(lineOf(v), `${at}.${key}`, 'must be a single value')
    values.set(key, { value: v === null ? null : v.value, line: v ? lineOf(v) : keyLine })
  }
  /** The field's text; null when absent; `empty` when present without a value. */
  const given = (field: string, max: number, empty: () => null): string | null => {
    const got = values.get(field)
    if (got === undefined) return null
    if (got.value === null || got.value === '') return empty()
    if (typeof got.value !== 'string') fail(got.line, `${at}.${field}`, 'must be text')
    const text = got.value.trim()
    if (text === '') fail(got.line, `${at}.${field}`, 'must not be empty')
    if (text.length > max) fail(got.line, `${at}.${field}`, `is longer than ${max} characters`)
    return text
  }
  // A field left empty is not a field left out: an empty fingerprint or pattern would widen the entry to its whole category.
  const optional = (field: string, max = 200): string | null =>
    given(field, max, () => fail(values.get(field)?.line ?? line, `${at}.${field}`, 'is empty: give it a value or leave the field out'))
  return {
    at,
    line,
    fail,
    optional,
    required: (field, max = 200, why = 'is required') =>
      given(field, max, () => null) ?? fail(values.get(field)?.line ?? line, `${at}.${field}`, why),
    lineFor: (field) => values.get(field)?.line ?? line,
    raw: (field) => values.get(field)
  }
}

function readEntry(f: EntryFields, i: number, today: string, patterns: PatternEngine | null): AcceptedEntry {
  const { at, fail, optional, required, lineFor } = f
  const category = required('category', 100)
  if (!/^[A-Za-z0-9_.:-]+$/.test(category)) fail(lineFor('category'), `${at}.category`, `'${category}' is not a category key`)
  const fp = optional('fingerprint', 64)
  if (fp !== null && !/^[0-9a-f]{32}$/.test(fp))
    fail(lineFor('fingerprint'), `${at}.fingerprint`, 'must be the 32 hex characters shown in the report')
  const severityAtMost = readSeverityCap(f)
  const pattern = optional('description_pattern', 500)
  const reason = required('reason_code', 50)
  if (!(DISMISS_REASON_CODES as readonly string[]).includes(reason))
    fail(lineFor('reason_code'), `${at}.reason_code`, `'${reason}' is not one of ${DISMISS_REASON_CODES.join(', ')}`)
  return {
    index: i + 1,
    line: f.line,
    category,
    fingerprint: fp,
    severityAtMost,
    descriptionPattern: pattern,
    matchesDescription: pattern === null ? null : readDescriptionPattern(f, pattern, patterns),
    reasonCode: reason as ReasonCode,
    explanation: required('explanation', LIMITS.explanationMax),
    owner: required('owner', 100),
    expires: readExpires(f, today)
  }
}

/** severity_at_most: required. A category alone would accept every severity, a critical included: the cap is said, or `any` is. */
function readSeverityCap({ at, fail, required, lineFor }: EntryFields): Severity | null {
  const severities = `${SEVERITIES.join(', ')} or ${ANY_SEVERITY}`
  const raw = required('severity_at_most', 20, `is required: the worst severity this entry accepts (${severities})`)
  const sev = raw.toLowerCase()
  if (sev === ANY_SEVERITY) return null
  if (!(SEVERITIES as readonly string[]).includes(sev))
    fail(lineFor('severity_at_most'), `${at}.severity_at_most`, `'${raw}' is not one of ${severities}`)
  return sev as Severity
}

/** description_pattern, compiled by the linear-time engine; a pattern it cannot run is a mistake of the file. */
function readDescriptionPattern({ at, fail, lineFor }: EntryFields, pattern: string, patterns: PatternEngine | null): DescriptionMatcher {
  if (patterns === null) throw new Error('parseAcceptedFile: description_pattern needs the pattern engine (loadPatternEngine)')
  try {
    return compileDescriptionPattern(patterns, pattern)
  } catch (e) {
    return fail(lineFor('description_pattern'), `${at}.description_pattern`, `cannot be run: ${(e as Error).message}`)
  }
}

/** expires: required, a real YYYY-MM-DD, at most a year after `today`. */
function readExpires({ at, fail, line, raw }: EntryFields, today: string): string {
  const got = raw('expires')
  if (got === undefined || got.value === null || got.value === '')
    return fail(line, `${at}.expires`, 'is required (YYYY-MM-DD, at most a year ahead)')
  // YAML may read an unquoted date as text or as a Date, depending on the schema: accept both.
  const ev = got.value
  const expires = ev instanceof Date ? isoDay(ev.getTime()) : typeof ev === 'string' ? ev.trim() : ''
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(expires) ||
    Number.isNaN(Date.parse(`${expires}T00:00:00Z`)) ||
    isoDay(Date.parse(`${expires}T00:00:00Z`)) !== expires
  )
    fail(got.line, `${at}.expires`, `'${scalarText(ev)}' is not a date (YYYY-MM-DD)`)
  const latest = addDays(today, MAX_EXPIRY_DAYS)
  if (expires > latest)
    fail(got.line, `${at}.expires`, `${expires} is more than a year ahead (latest ${latest}): acceptances must be reviewed at least yearly`)
  return expires
}

/** A short name for an entry in a line: "accepted[2] (line 9, prompt_injection, owner @x)". */
export function describeEntry(e: AcceptedEntry): string {
  return `accepted[${e.index}] (line ${e.line}, ${e.category}${e.fingerprint ? ` ${e.fingerprint.slice(0, 8)}` : ''}, owner ${e.owner})`
}

/** A stable key of an entry's meaning, to compare the PR's copy with the base branch's. */
export function entryKey(e: AcceptedEntry): string {
  return JSON.stringify([
    e.category,
    e.fingerprint,
    e.severityAtMost,
    e.descriptionPattern,
    e.reasonCode,
    e.explanation,
    e.owner,
    e.expires
  ])
}
