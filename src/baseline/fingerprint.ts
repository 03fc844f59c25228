/**
 * The fingerprint of a finding: one stable id for the same weakness across
 * runs, independent of ids, counts and timestamps (see API_ASSUMPTIONS,
 * "finding fingerprint"). Pure.
 *
 * What goes in: the category, the lens, the severity, and the technique:
 * - the attacks' sources (`assessment_id:attack_index`, sorted, deduplicated)
 *   where an attack names an assessment other than the run that produced the
 *   finding (a library or earlier assessment: a stable technique id);
 * - else the description, normalized: lowercase, digits replaced by `#`
 *   (counts such as "2 of 3 probes"), canary-like tokens dropped, white space
 *   collapsed. A source naming the run itself identifies the run, not the
 *   technique, so it is left out.
 */
import { createHash } from 'node:crypto'
import type { Finding } from '../service/contract/index.js'

export const FINGERPRINT_VERSION = 1

/** The key of SARIF partialFingerprints that carries it. */
export const FINGERPRINT_KEY = `agentSecurityFinding/v${FINGERPRINT_VERSION}`

export type FingerprintInput = Pick<Finding, 'category' | 'lens' | 'severity' | 'description' | 'attacks'>

/** The description as it enters the fingerprint. */
export function normalizeDescription(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\b[a-z]{1,4}-[0-9a-f]{8,}\b/g, '') // canary-like tokens (e.g. ZX-1a2b3c4d5e6f)
    .replace(/[0-9]+/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The technique part: stable sources, else the normalized description. */
export function techniqueOf(f: FingerprintInput, runId: string | null): string {
  const sources = new Set<string>()
  for (const a of f.attacks) {
    const s = a.source
    if (typeof s.assessment_id !== 'string' || s.assessment_id === '') continue
    if (runId !== null && s.assessment_id === runId) continue
    sources.add(`${s.assessment_id}:${s.attack_index}`)
  }
  if (sources.size > 0) return `src:${[...sources].sort().join(',')}`
  return `desc:${normalizeDescription(f.description)}`
}

/** 32 hex characters of SHA-256 over the parts (JSON-encoded, so no separator can be forged). */
export function fingerprint(f: FingerprintInput, runId: string | null): string {
  const parts = [FINGERPRINT_VERSION, f.category, f.lens, f.severity, techniqueOf(f, runId)]
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)
}
