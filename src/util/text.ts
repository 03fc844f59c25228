/**
 * Small text helpers shared by every layer: one of each, so log lines,
 * error messages and reports say things the same way.
 */

/** Control (C0, DEL, C1), zero-width, bidi and line/paragraph separator characters. */
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g

/**
 * Every run of control, bidi or zero-width characters (line breaks included)
 * replaced by one space; other spacing kept. For whole log lines, which keep
 * their indentation.
 */
export function stripUnsafeChars(text: string): string {
  return text.replace(UNSAFE_CHARS, ' ')
}

/**
 * Untrusted text (from the service, GitHub or a target) made safe for one log
 * line: no line breaks (a new line starting with `::` would be a workflow
 * command), no control, bidi or zero-width characters, and a bounded length
 * (clipped with `...`).
 */
export function oneLine(text: string, max = 500): string {
  const flat = stripUnsafeChars(text).replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat
}

/** `1 finding`, `2 findings`, `1,234 categories` (the count with en-US grouping). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
}

/**
 * A duration for people: `850 ms`, `45 s`, `1 min 5 s`, `2 h 3 min`.
 * Negative or non-finite durations read `0 s`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0 s'
  if (ms < 999.5) return `${Math.round(ms)} ms`
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ${s % 60} s`
  return `${Math.floor(m / 60)} h ${m % 60} min`
}

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * `value` unless it is missing or empty. Runner variables such as
 * `RUNNER_TEMP` may be set to `''`, which means unset: `nonEmpty(v) ?? fallback`.
 */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}
