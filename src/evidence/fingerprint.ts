/**
 * The fingerprint of a finding: one stable id for the same weakness across
 * runs, independent of ids, counts and timestamps (see API_ASSUMPTIONS,
 * "finding fingerprint"). Pure.
 *
 * What goes in: the category, the lens, the severity, and the technique:
 * - the attacks' sources (`assessment_id:attack_index`, sorted, deduplicated)
 *   where an attack names an assessment other than the run that produced the
 *   finding (a library or earlier assessment: a stable technique id). A source
 *   naming the run itself identifies the run, not the technique, so it is
 *   left out;
 * - and always the description, normalized (normalizeDescription): two
 *   unrelated weaknesses found by one library attack are two findings, while
 *   the same weakness reported again with new ids or other counts ("3
 *   attempts", "1 attempt") keeps its fingerprint.
 */
import { createHash } from 'node:crypto'
import type { Finding } from '../service/contract/index.js'

export const FINGERPRINT_VERSION = 2

/** The key of SARIF partialFingerprints that carries it. */
export const FINGERPRINT_KEY = `agentSecurityFinding/v${FINGERPRINT_VERSION}`

export type FingerprintInput = Pick<Finding, 'category' | 'lens' | 'severity' | 'description' | 'attacks'>

/** Words that only count: each reads as a number. */
const COUNT_WORDS =
  /(?<![\p{L}\p{N}])(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|several|multiple|many|single)(?![\p{L}\p{N}])/gu

/**
 * The description as it enters the fingerprint: what names the weakness,
 * without what changes from one report of it to the next.
 * - compatibility forms and case folded (NFKC, lower case);
 * - every token holding a digit or a run of 8 hex digits (a count, an id
 *   such as fnd_7f3a or run-2026-11-21, a canary such as ZX-1a2b3c4d5e6f, a
 *   UUID, a time) and every count word (three, several) becomes `#`, a run of
 *   them one `#`; once, twice and thrice read as "# time";
 * - quotes, brackets and every other punctuation mark become a space;
 * - the articles a, an, the are dropped and a plural is read as its singular
 *   (attempts, queries -> attempt, query), so "1 attempt" and "3 attempts"
 *   agree;
 * - white space collapsed.
 */
export function normalizeDescription(text: string): string {
  // A technique-level narrative is a few sentences; a service that sends megabytes gets its head read.
  const words = text
    .slice(0, DESCRIPTION_CHARS_READ)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{L}\p{N}_-]+/gu, (token) => (isIdOrCount(token) ? ' # ' : token))
    .replace(/(?<![\p{L}\p{N}])(?:once|twice|thrice)(?![\p{L}\p{N}])/gu, ' # time ')
    .replace(COUNT_WORDS, ' # ')
    .replace(/[^\p{L}#]+/gu, ' ')
    .split(' ')
    .filter((w) => w !== '' && w !== 'a' && w !== 'an' && w !== 'the')
    .map(singular)
  const out: string[] = []
  for (const w of words) if (!(w === '#' && out.at(-1) === '#')) out.push(w)
  return out.join(' ')
}

/** The most of a description the fingerprint reads: far above a real one, and every step below stays linear in it. */
export const DESCRIPTION_CHARS_READ = 4096

/**
 * A token (letters, digits, _ and -) holding a digit or a part (between _ and -)
 * of 8 or more hex digits: a count, an id, a date, a canary. Split first: one
 * regular expression over the whole token would backtrack quadratically on a
 * long run of hex letters.
 */
function isIdOrCount(token: string): boolean {
  return /\p{N}/u.test(token) || token.split(/[_-]/).some((part) => part.length >= 8 && /^[0-9a-f]+$/.test(part))
}

/** A crude singular, applied alike to both sides of every comparison: only consistency matters. */
function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`
  if (w.length >= 4 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1)
  return w
}

/** The technique part: the stable sources (if any) and the normalized description. */
export function techniqueOf(f: FingerprintInput, runId: string | null): string {
  const sources = new Set<string>()
  for (const a of f.attacks) {
    const s = a.source
    if (typeof s.assessment_id !== 'string' || s.assessment_id === '') continue
    if (runId !== null && s.assessment_id === runId) continue
    sources.add(`${s.assessment_id}:${s.attack_index}`)
  }
  return JSON.stringify({ src: [...sources].sort(), desc: normalizeDescription(f.description) })
}

/** 32 hex characters of SHA-256 over the parts (JSON-encoded, so no separator can be forged). */
export function fingerprint(f: FingerprintInput, runId: string | null): string {
  const parts = [FINGERPRINT_VERSION, f.category, f.lens, f.severity, techniqueOf(f, runId)]
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)
}
