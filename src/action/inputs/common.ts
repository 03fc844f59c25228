/**
 * What every input reader shares: the reader of raw values, the choice among
 * allowed values, booleans, repository paths, and how much of a mistaken
 * value a message shows. Pure.
 */
import { ConfigError } from '../../util/errors.js'
import { MIN_SECRET_CHARS } from '../../util/redact.js'
import { oneLine } from '../../util/text.js'

/** Reads the raw value of an input ('' when unset), like core.getInput. */
export type InputReader = (name: string) => string

/** Reads `INPUT_<NAME>` from an environment, as the runner sets them. */
export function envInputReader(env: NodeJS.ProcessEnv): InputReader {
  return (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}

/** Show at most 60 characters of what the user typed, on one line. */
export function clip(s: string): string {
  return oneLine(s, 60)
}

export function oneOf<T extends string>(input: string, raw: string, allowed: readonly T[], fallback: T): T {
  const value = (raw === '' ? fallback : raw.toLowerCase()) as T
  if (!allowed.includes(value)) {
    throw new ConfigError(input, `'${clip(raw)}' is not one of ${allowed.join(', ')}`)
  }
  return value
}

export function parseBoolean(input: string, raw: string, fallback: boolean): boolean {
  if (raw === '') return fallback
  if (['true', 'True', 'TRUE'].includes(raw)) return true
  if (['false', 'False', 'FALSE'].includes(raw)) return false
  throw new ConfigError(input, `'${clip(raw)}' is not a boolean: use true or false`)
}

/** C0 and C1 control characters and DEL: no credential holds one (a header cannot carry it). */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/

/**
 * True when a secret input may be registered as a mask: long enough to be a
 * credential and without control characters. A shorter value would mask that
 * text in every log line (a one-letter key masks the letter); such values are
 * refused as inputs instead (see checkApiKey, readTargetInput), never echoed.
 */
export function isMaskableSecret(value: string): boolean {
  return value.length >= MIN_SECRET_CHARS && !CONTROL_CHARS.test(value)
}

/** A repository-relative file path ('' allowed): no absolute path, no '..'. */
export function parseRepoPath(input: string, raw: string): string {
  if (raw === '') return ''
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw) || raw.split(/[\\/]/).includes('..') || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw new ConfigError(input, `'${clip(raw)}' must be a path inside the repository, e.g. .github/agent-security-accepted.yml`)
  }
  return raw.replace(/^\.\//, '')
}

/** A whole number from `min` to `max` ('' : the fallback); anything else is a ConfigError naming the input. */
export function parseWholeNumber(input: string, raw: string, fallback: string, min: number, max: number): number {
  const text = raw === '' ? fallback : raw
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < min || n > max) {
    throw new ConfigError(input, `'${clip(text)}' is not a whole number from ${min} to ${max}`)
  }
  return n
}
