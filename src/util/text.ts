/**
 * Small text helpers shared by every layer: one of each, so log lines,
 * error messages and reports say things the same way.
 */

/**
 * A terminal's escape sequences (ECMA-48), each removed whole so none of its
 * parameters is left as text: CSI (`ESC [` or 0x9B: colours, cursor moves,
 * clear screen), the strings OSC (`ESC ]` or 0x9D: window titles, OSC 8
 * links), DCS, SOS, PM and APC up to their terminator (BEL or ST), and the
 * two-character escapes (`ESC c` resets the terminal). An unterminated string
 * loses only its introducer (`ESC ]` as a two-character escape): its text
 * stays, inert without it.
 */
const ESCAPE_SEQUENCE =
  '(?:\u001b\\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]' +
  '|(?:\u001b[\\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\\\|\u009c)' +
  '|\u001b[\u0020-\u002f]*[\u0030-\u007e]'

/**
 * Control (C0 with the line breaks, DEL, C1), zero-width, bidi (marks,
 * embeddings, overrides, isolates, the Arabic letter mark) and line/paragraph
 * separator characters.
 */
const UNSAFE_CHAR = '[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]'

/** Runs of escape sequences and unsafe characters. */
const UNSAFE = new RegExp(`(?:${ESCAPE_SEQUENCE}|${UNSAFE_CHAR})+`, 'g')

/**
 * The one rule of text a terminal or a log shows (the action's log, every
 * line the command line prints): every run of escape sequences and control,
 * bidi or zero-width characters (line breaks included) replaced by one space;
 * other spacing kept. For whole log lines, which keep their indentation.
 */
export function stripUnsafeChars(text: string): string {
  return text.replace(UNSAFE, ' ')
}

/**
 * JSON text (JSON.stringify's, which escapes only C0) with every other
 * character of the rule escaped as `\uXXXX` too: the same data, and safe on a
 * terminal. These characters can only stand inside strings, where the escape
 * means the same (the line breaks of its indentation are kept).
 */
export function terminalSafeJson(json: string): string {
  // Its line breaks (JSON.stringify's indentation) are whitespace between tokens; every other one stands in a string, escaped.
  return json.replace(new RegExp(UNSAFE_CHAR, 'g'), (c) => (c === '\n' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))
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

/** The first 7 characters of a commit SHA, as GitHub shows it. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7)
}

/** "2026-11-21 14:03 UTC" from an ISO time; null when it is not one. The one way a time is shown to a reader. */
export function formatWhen(iso: string | null): string | null {
  if (iso === null) return null
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso)
  return m ? `${m[1]} ${m[2]} UTC` : null
}

/** formatWhen of an epoch time in milliseconds. */
export function formatWhenMs(ms: number): string {
  return formatWhen(new Date(ms).toISOString()) ?? 'an unknown time'
}
