/**
 * The seal of a pending record (wait: detached): an HMAC-SHA256 over every
 * field the collector acts on (the model, the pull request whose comment
 * holds it, the run, the commit, the trigger time, the categories, the
 * deadline), keyed by a key derived from `api_key`
 * for this one purpose. The detached step and the collector both hold
 * `api_key`; a person who can edit the comment but cannot read the secret
 * cannot write a record the collector accepts (docs/threat-model.md).
 * Neither the key nor anything it can be recovered from is written: the MAC
 * is one-way. Pure.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * What the MAC covers: the record's fields, the model the step ran for and the
 * pull request it was written to (neither written: the reader's own). Bound to
 * the pull request, a record copied into another one's comment does not hold
 * there (its run is neither collected nor cancelled from it).
 */
export interface SealedFields {
  model: string
  pull: number
  runId: string | null
  commit: string
  at: string | null
  categories: readonly string[]
  deadline: string | null
}

const PURPOSE = 'agent-security-gate pending record v1'

/** The purpose-specific key: HMAC(api_key, purpose), so the MAC key is never the service's key itself. */
function recordKey(apiKey: string): Buffer {
  return createHmac('sha256', apiKey).update(PURPOSE).digest()
}

/** One canonical text of the fields (each field on its own line: no field can run into the next). */
function canonical(f: SealedFields): string {
  return [
    PURPOSE,
    f.model,
    String(f.pull),
    f.runId ?? '-',
    f.commit,
    f.at ?? '-',
    [...f.categories].sort().join(','),
    f.deadline ?? '-'
  ].join('\n')
}

/** The record's MAC, 64 hex characters. Throws on an empty key: a record sealed with nothing would prove nothing. */
export function pendingMac(apiKey: string, f: SealedFields): string {
  if (apiKey === '') throw new Error('pending record: no api_key to seal it with')
  return createHmac('sha256', recordKey(apiKey)).update(canonical(f)).digest('hex')
}

/** Whether `mac` is the MAC of the fields under `apiKey` (false when there is none, or no key). Constant time. */
export function pendingSealed(apiKey: string, f: SealedFields, mac: string | null): boolean {
  if (mac === null || apiKey === '' || !/^[0-9a-f]{64}$/.test(mac)) return false
  return timingSafeEqual(Buffer.from(pendingMac(apiKey, f), 'hex'), Buffer.from(mac, 'hex'))
}
