/**
 * HTTP plumbing of the emulator: handler results, body reading, error bodies
 * (coded errors and the 422 validation list of section 2.8, built from zod
 * issues), and the response-schema check every answer passes before it is
 * sent.
 */
import type { IncomingMessage } from 'node:http'
import type { z } from 'zod'
import { CodedErrorBody, ValidationErrorBody } from '../service/contract/index.js'
import type { ErrorCode } from '../service/contract/index.js'

/** What a route handler returns; the server writes it (so faults can cut or drop it). */
export interface HandlerResult {
  status: number
  headers?: Record<string, string>
  /** A JSON value, or a raw string when `contentType` is given. */
  body: unknown
  contentType?: string
}

/** Thrown by handlers to answer with an error; the server turns it into a HandlerResult. */
export class HttpError extends Error {
  constructor(readonly result: HandlerResult) {
    super(`HTTP ${result.status}`)
  }
}

export interface ValidationIssueOut {
  loc: (string | number)[]
  msg: string
  type: string
  input: unknown
  ctx: Record<string, unknown>
}

/** `{"detail": {"code", "message", ...extra}}` (contract ASSUMPTION), checked against the contract. */
export function codedError(
  status: number,
  code: ErrorCode | 'internal_error' | 'method_not_allowed' | 'payload_too_large' | 'misdirected_request',
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {}
): HttpError {
  const body = { detail: { code, message, ...extra } }
  CodedErrorBody.parse(body)
  return new HttpError({ status, body, headers })
}

export function notFound(what: string): HttpError {
  return codedError(404, 'not_found', `${what} not found`)
}

/** 422 with the 2.8 detail list; loc elements are strings (section 2.8: loc is an array of string). */
export function validationError(issues: ValidationIssueOut[]): HttpError {
  const body = { detail: issues.map((i) => ({ ...i, loc: i.loc.map(String) })) }
  ValidationErrorBody.parse(body)
  return new HttpError({ status: 422, body })
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v
}

const TYPE_BY_CODE: Record<string, string> = {
  invalid_type: 'type_error',
  too_small: 'too_small',
  too_big: 'too_big',
  invalid_value: 'enum',
  invalid_format: 'string_pattern_mismatch',
  custom: 'value_error',
  invalid_union: 'union_error',
  not_multiple_of: 'multiple_of'
}

/** zod issues -> 2.8 detail list. `where` is 'body' or 'query' (the first loc element). */
export function issuesToDetail(
  where: 'body' | 'query' | 'path',
  input: unknown,
  issues: readonly z.core.$ZodIssue[]
): ValidationIssueOut[] {
  const out: ValidationIssueOut[] = []
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          loc: [where, ...path, key],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
          input: valueAt(input, [...issue.path, key]),
          ctx: {}
        })
      }
      continue
    }
    const value = valueAt(input, issue.path)
    const missing = issue.code === 'invalid_type' && value === undefined
    const ctx: Record<string, unknown> = {}
    const raw = issue as unknown as Record<string, unknown>
    for (const k of ['expected', 'minimum', 'maximum', 'inclusive', 'origin', 'values', 'format', 'divisor']) {
      if (raw[k] !== undefined) ctx[k] = typeof raw[k] === 'bigint' ? String(raw[k]) : raw[k]
    }
    out.push({
      loc: [where, ...path],
      msg: missing ? 'Field required' : issue.message,
      type: missing ? 'missing' : (TYPE_BY_CODE[issue.code] ?? issue.code),
      input: value === undefined ? null : value,
      ctx
    })
  }
  return out
}

/** Parses `input` with a request schema, or throws the 422 detail list. */
export function parseRequest<S extends z.ZodType>(schema: S, where: 'body' | 'query', input: unknown): z.infer<S> {
  const r = schema.safeParse(input)
  if (r.success) return r.data
  throw validationError(issuesToDetail(where, input, r.error.issues))
}

/** Checks a response body against its contract schema; a mismatch is an emulator bug (500). */
export function ok<S extends z.ZodType>(status: number, schema: S, body: z.input<S>, headers?: Record<string, string>): HandlerResult {
  const r = schema.safeParse(body)
  if (!r.success) {
    const paths = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
    throw codedError(500, 'internal_error', `emulator bug: response does not follow the contract (${paths})`)
  }
  return { status, body, headers }
}

/** Largest request body the emulator reads; a larger one answers 413. */
export const MAX_BODY_BYTES = 1024 * 1024
/** Deepest nesting of arrays and objects accepted in a JSON body; deeper is 422. */
export const MAX_JSON_DEPTH = 128

export type BodyRead = { ok: true; text: string } | { ok: false; awaitingContinue: boolean }

/** Whether the client waits for `100 Continue` before it sends its body. */
export const expectsContinue = (req: IncomingMessage): boolean => /100-continue/i.test(req.headers.expect ?? '')

/**
 * Reads the request body as text, keeping at most MAX_BODY_BYTES. As soon as
 * a body is declared or seen to be larger, it resolves `ok: false` and stops
 * keeping what arrives: the 413 is answered at once, and node drops the rest
 * of the body as it comes (closing with unread data would make the kernel
 * answer with a reset instead of the 413). A client waiting for
 * `100 Continue` is not asked for its body at all.
 */
export function readBody(req: IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      resolve({ ok: false, awaitingContinue: expectsContinue(req) })
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    const onData = (c: Buffer): void => {
      size += c.length
      if (size > MAX_BODY_BYTES) {
        chunks.length = 0
        req.off('data', onData) // the stream keeps flowing: what comes next is dropped
        resolve({ ok: false, awaitingContinue: false })
        return
      }
      chunks.push(c)
    }
    req.on('data', onData)
    req.on('end', () => {
      resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') })
    })
    req.on('error', reject)
  })
}

/**
 * 413 for a body over MAX_BODY_BYTES. The connection stays usable (node reads
 * past the rest of the body), except after a refused `100 Continue`, where
 * the body never comes and the connection is closed.
 */
export function payloadTooLarge(awaitingContinue: boolean): HandlerResult {
  const message = `the request body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MiB`
  return codedError(413, 'payload_too_large', message, { max_bytes: MAX_BODY_BYTES }, awaitingContinue ? { connection: 'close' } : {})
    .result
}

/**
 * Deepest nesting of `[` and `{` in JSON text, counted without parsing (so a
 * hostile body never reaches a recursive walker). Brackets inside strings do
 * not count. Stops counting once `limit` is crossed.
 */
export function jsonDepth(raw: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth > max) {
        max = depth
        if (max > limit) return max
      }
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return max
}

/**
 * The JSON body of a request: 422 (2.8 shape) for a wrong content type or
 * malformed JSON. `undefined` when there is no body at all.
 */
export function jsonBody(raw: string, contentType: string | undefined): unknown {
  if (raw.trim() === '') return undefined
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase()
  if (ct !== 'application/json' && !ct.endsWith('+json')) {
    throw validationError([
      { loc: ['body'], msg: 'Content-Type must be application/json', type: 'model_attributes_type', input: null, ctx: { content_type: ct } }
    ])
  }
  if (jsonDepth(raw, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw validationError([
      {
        loc: ['body'],
        msg: `JSON nesting is deeper than ${MAX_JSON_DEPTH} levels`,
        type: 'json_invalid',
        input: null,
        ctx: { error: 'nesting too deep', max_depth: MAX_JSON_DEPTH }
      }
    ])
  }
  try {
    return JSON.parse(raw) as unknown
  } catch (e) {
    throw validationError([
      { loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid', input: {}, ctx: { error: (e as Error).message } }
    ])
  }
}

/** For endpoints that take no body: empty, `{}` or `null` are accepted, anything else is 422. */
export function noBody(raw: string, contentType: string | undefined): void {
  const v = jsonBody(raw, contentType)
  if (v === undefined || v === null) return
  if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return
  throw validationError([{ loc: ['body'], msg: 'This endpoint takes no body', type: 'extra_forbidden', input: v, ctx: {} }])
}

/** Query string -> object; a repeated key becomes an array (which the strict schemas refuse). */
export function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key)
    out[key] = all.length === 1 ? all[0] : all
  }
  return out
}

/** Whole seconds until `ms` from now, at least 1. */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)))
}

export function isoNow(now: number = Date.now()): string {
  return new Date(now).toISOString()
}
