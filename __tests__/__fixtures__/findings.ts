import type { Finding, FindingStatus, Severity } from '../../src/service/contract/index.js'

let seq = 0
/** A minimal valid finding for pure-function tests. */
export function finding(severity: Severity, status: FindingStatus = 'open', category = 'prompt_injection'): Finding {
  seq += 1
  return {
    finding_id: `f_${seq}`,
    lens: 'security',
    category,
    severity,
    description: 'd',
    expected_behavior: 'e',
    status,
    created_at: '2026-11-21T00:00:00Z',
    attacks: []
  }
}
