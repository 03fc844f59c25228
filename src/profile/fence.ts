/**
 * The untrusted-content fence of profile text (section 2.7). Every text value
 * read back is wrapped in a fence whose tag begins with `[UNTRUSTED:`; a value
 * still holding a fence is refused on write. Pure.
 *
 * ASSUMPTION (the closing tag is not shown): a fenced value reads
 * `[UNTRUSTED:<tag>]text[/UNTRUSTED:<tag>]`. A string of that exact shape is
 * read as its text; any other string holding a fence tag cannot be read and
 * compares unequal to everything (so the file's value is written, never it).
 */
import { UNTRUSTED_FENCE_PREFIX } from '../service/contract/index.js'

/** Stands for a fenced text that could not be read; equal to no value of a file. */
export const UNREADABLE_FENCE = Symbol('unreadable fenced text')

const FENCED = /^\[UNTRUSTED:([^\]\r\n]{1,200})\]([\s\S]*)\[\/UNTRUSTED:\1\]$/
const ANY_TAG = /\[\/?UNTRUSTED:/i

/** True when a string holds an opening or closing fence tag anywhere. */
export function holdsFence(s: string): boolean {
  return s.includes(UNTRUSTED_FENCE_PREFIX) || ANY_TAG.test(s)
}

/** The text inside one fence; the string itself when unfenced; UNREADABLE_FENCE otherwise. */
export function unfenceText(s: string): string | typeof UNREADABLE_FENCE {
  const m = FENCED.exec(s)
  if (m) return holdsFence(m[2]) ? UNREADABLE_FENCE : m[2]
  return holdsFence(s) ? UNREADABLE_FENCE : s
}

/** Every string inside `v` unfenced (objects and arrays walked). */
export function unfenceDeep(v: unknown): unknown {
  if (typeof v === 'string') return unfenceText(v)
  if (Array.isArray(v)) return v.map(unfenceDeep)
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, unfenceDeep(x)]))
  }
  return v
}

/** Paths (`tools[1].description`) of every string holding a fence tag. */
export function fencedPaths(v: unknown, path = ''): string[] {
  if (typeof v === 'string') return holdsFence(v) ? [path] : []
  if (Array.isArray(v)) return v.flatMap((x, i) => fencedPaths(x, `${path}[${i}]`))
  if (v !== null && typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => [
      ...(holdsFence(k) ? [path === '' ? k : `${path}.${k}`] : []),
      ...fencedPaths(x, path === '' ? k : `${path}.${k}`)
    ])
  }
  return []
}
