/** A finding as a run of the evidence window observed it: a jailbreak, high, open, its text its fingerprint, unless `over` says. */
import type { ObservedFinding } from '../../src/evidence/pool.js'

export function observed(fingerprint: string, over: Partial<Omit<ObservedFinding, 'fingerprint'>> = {}): ObservedFinding {
  return { fingerprint, category: 'jailbreak', severity: 'high', lens: 'security', description: fingerprint, status: 'open', ...over }
}
