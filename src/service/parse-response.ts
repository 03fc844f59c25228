/**
 * Turning response bodies into values, or into errors that say what was wrong.
 *
 * - parseSuccessBody: a 2xx body through the endpoint's contract schema. Not
 *   JSON, truncated, or not following the schema -> MalformedResponseError
 *   naming the endpoint and the field path, in one line.
 * - parseErrorBody: an error body of any of the shapes the service (or a proxy
 *   in front of it) may send -> code, message and extra fields.
 *
 * Pure functions: no I/O. Every text taken from a body is made one line, short
 * and free of control characters; the caller's secrets are redacted from it.
 */
import type { z } from 'zod'
import { acceptsAnyBody, CodedErrorBody, ProbeFailureBody, TextErrorBody, ValidationErrorBody } from './contract/index.js'
import { MalformedResponseError } from '../util/errors.js'
import { scrubSecrets, scrubSecretsDeep } from '../util/redact.js'
import { oneLine } from '../util/text.js'

/**
 * The deepest nesting of arrays and objects accepted in a body. The deepest
 * shape of the description is a finding's replay step headers (about 7
 * levels); a body nested deeper is malformed. Checked without recursion, so
 * a hostile body (say 100k levels) cannot overflow the stack anywhere after.
 */
export const MAX_BODY_DEPTH = 64

/** True when `value` nests arrays or objects deeper than `max` levels. Iterative. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { v, depth } = top
    if (v === null || typeof v !== 'object') continue
    if (depth + 1 > max) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 })
    }
  }
  return false
}

// ---------------------------------------------------------------------------
// Field paths and issue descriptions
// ---------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** `['categories', 2, 'worst_severity']` -> `categories[2].worst_severity`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out
}

function valueAt(data: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = data
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, key)) {
      return { found: false, value: undefined }
    }
    cur = (cur as Record<PropertyKey, unknown>)[key]
  }
  return { found: true, value: cur }
}

/** A short, safe rendering of a received value for a message (secrets redacted before clipping). */
export function describeValue(value: unknown, secrets: readonly string[] = []): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return JSON.stringify(oneLine(scrubSecrets(value, secrets), 40))
    case 'number':
    case 'boolean':
      return String(value)
    case 'object':
      return 'an object'
    default:
      return typeof value
  }
}

function renderLiteral(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v)
}

interface IssueLike {
  code: string
  path: PropertyKey[]
  message: string
  expected?: unknown
  values?: unknown[]
  minimum?: unknown
  maximum?: unknown
  inclusive?: boolean
}

function expectation(issue: IssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected === 'int' ? 'an integer' : String(issue.expected)}`
    case 'invalid_value': {
      const values = issue.values ?? []
      return values.length === 1 ? `expected ${renderLiteral(values[0])}` : `expected one of ${values.map(renderLiteral).join('|')}`
    }
    case 'too_small':
      return `expected at least ${String(issue.minimum)}`
    case 'too_big':
      return `expected at most ${String(issue.maximum)}`
    default:
      return oneLine(issue.message, 120)
  }
}

/** One line for the first issue: `response field a[2].b: expected one of x|y, got "z"`. */
export function describeIssue(issue: IssueLike, data: unknown, secrets: readonly string[] = []): string {
  const field = formatPath(issue.path)
  const where = field === '' ? 'response body' : `response field ${field}`
  const at = valueAt(data, issue.path)
  const got = at.found ? describeValue(at.value, secrets) : 'missing'
  return `${where}: ${expectation(issue)}, got ${got}`
}

// ---------------------------------------------------------------------------
// Success bodies
// ---------------------------------------------------------------------------

export interface BodyContext {
  /** e.g. `GET /api/v1/run/r_1` (ids filled in, no query string). */
  endpoint: string
  status: number
  /** Secrets to keep out of every message (the api key). */
  secrets?: readonly string[]
}

function malformed(ctx: BodyContext, fieldPath: string, message: string): MalformedResponseError {
  return new MalformedResponseError({
    endpoint: ctx.endpoint,
    status: ctx.status,
    code: 'malformed_response',
    message: scrubSecrets(message, ctx.secrets ?? []),
    fieldPath,
    transient: true,
    ambiguous: true
  })
}

/**
 * Parse a success body through `schema`. Resolves to the parsed value (extra
 * unknown fields kept); throws MalformedResponseError otherwise.
 *
 * A schema of an endpoint whose body is "not shown" (contract acceptsAnyBody,
 * e.g. the 202 of cancel) gets the JSON value, or the text itself when the
 * body is empty or not JSON: such a body is never malformed.
 */
export function parseSuccessBody<S extends z.ZodType>(schema: S, text: string, ctx: BodyContext): z.infer<S> {
  if (acceptsAnyBody(schema)) {
    const json = tryJson(text)
    return schema.parse(json.ok ? json.value : text)
  }
  const data = parseJsonBody(text, ctx)
  const result = schema.safeParse(data)
  if (result.success) return result.data
  const issues = result.error.issues as unknown as IssueLike[]
  const first = issues[0]
  let message = describeIssue(first, data, ctx.secrets)
  if (issues.length > 1) message += ` (and ${issues.length - 1} more ${issues.length === 2 ? 'issue' : 'issues'})`
  throw malformed(ctx, formatPath(first.path), message)
}

/** JSON.parse, or a MalformedResponseError saying the body is empty, not JSON or cut short. */
export function parseJsonBody(text: string, ctx: BodyContext): unknown {
  if (text.trim() === '') throw malformed(ctx, '', 'response body is empty, expected JSON')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    const start = text.trimStart()
    const looksCut = start.startsWith('{') || start.startsWith('[')
    const what = looksCut ? 'is not valid JSON (truncated?)' : 'is not JSON'
    const snippet = oneLine(scrubSecrets(start, ctx.secrets ?? []), 60)
    throw malformed(ctx, '', `response body ${what}, starts with ${JSON.stringify(snippet)}`)
  }
  if (nestedDeeperThan(value, MAX_BODY_DEPTH)) throw malformed(ctx, '', `response body nests deeper than ${MAX_BODY_DEPTH} levels`)
  return value
}

// ---------------------------------------------------------------------------
// Error bodies
// ---------------------------------------------------------------------------

export interface ParsedErrorBody {
  code?: string
  message: string
  /** Other fields of the error detail (e.g. resets_on, invalid, error_category). */
  extra: Record<string, unknown>
}

/** Default code by status when the body does not carry one. */
const DEFAULT_CODES: Readonly<Record<number, string>> = { 401: 'unauthorized' }

/** JSON.parse; a body nested deeper than MAX_BODY_DEPTH counts as not JSON (`deep`). */
function tryJson(text: string): { ok: true; value: unknown } | { ok: false; deep?: true } {
  if (text.trim() === '') return { ok: false }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false }
  }
  return nestedDeeperThan(value, MAX_BODY_DEPTH) ? { ok: false, deep: true } : { ok: true, value }
}

function summariseValidation(issues: readonly { loc: readonly (string | number)[]; msg: string }[]): string {
  if (issues.length === 0) return 'request validation failed (no details given)'
  const shown = issues.slice(0, 3).map((i) => `${i.loc.map(String).join('.') || '(body)'}: ${i.msg}`)
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''
  return `request validation failed: ${shown.join('; ')}${more}`
}

/**
 * Read an error body. Shapes accepted:
 * - `{"detail": {"code", "message", ...extra}}` (the service's error body);
 * - `{"detail": [{loc, msg, type, ...}]}` (422 request validation) -> code validation_error;
 * - `{"detail": {"error": "probe_failed", "error_category", "message"}}` (422 of POST /model) -> code probe_failed;
 * - `{"detail": "text"}`;
 * - anything else, JSON or not -> status text and the start of the body.
 */
export function parseErrorBody(status: number, statusText: string, text: string, secrets: readonly string[] = []): ParsedErrorBody {
  const clean = (s: string, max = 500): string => oneLine(scrubSecrets(s, secrets), max)
  const cleanExtra = (o: Record<string, unknown>): Record<string, unknown> => scrubSecretsDeep(o, secrets) as Record<string, unknown>
  const fallbackCode = DEFAULT_CODES[status]
  const json = tryJson(text)
  if (json.ok) {
    const body = json.value
    const coded = CodedErrorBody.safeParse(body)
    if (coded.success) {
      const { code, message, ...extra } = coded.data.detail
      return { code: clean(code, 100), message: clean(message), extra: cleanExtra(extra) }
    }
    const probe = ProbeFailureBody.safeParse(body)
    if (probe.success) {
      const { error, message, ...extra } = probe.data.detail
      return { code: error, message: clean(message), extra: cleanExtra(extra) }
    }
    const list = ValidationErrorBody.safeParse(body)
    if (list.success) {
      return {
        code: 'validation_error',
        message: clean(summariseValidation(list.data.detail)),
        extra: { issues: cleanExtra({ v: list.data.detail.map(({ loc, msg, type }) => ({ loc, msg, type })) }).v }
      }
    }
    const textBody = TextErrorBody.safeParse(body)
    if (textBody.success) return { code: fallbackCode, message: clean(textBody.data.detail), extra: {} }
  }
  const label = statusText.trim() !== '' ? statusText.trim() : `HTTP ${status}`
  if (!json.ok && json.deep)
    return { code: fallbackCode, message: clean(`${label}: error body nests deeper than ${MAX_BODY_DEPTH} levels (not read)`), extra: {} }
  const snippet = oneLine(scrubSecrets(text, secrets), 200)
  return { code: fallbackCode, message: snippet === '' ? clean(label) : clean(`${label}: ${snippet}`, 260), extra: {} }
}
