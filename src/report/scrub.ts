/** Text of the service made safe for the report model: the given secrets scrubbed from every string kept. */
import { makeScrubber } from '../util/redact.js'

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
export const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
/** Text of the service made safe for every output: the given secrets scrubbed. */
export interface Scrub {
  s: (v: string) => string
  /** A string value scrubbed; anything else null. */
  sn: (v: unknown) => string | null
}

export function scrubberOf(secrets: readonly string[]): Scrub {
  const scrub = makeScrubber(secrets)
  return {
    s: (v) => scrub(v),
    sn: (v) => {
      const t = str(v)
      return t === null ? null : scrub(t)
    }
  }
}
