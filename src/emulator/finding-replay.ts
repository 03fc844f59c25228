/**
 * Findings as the API shows them (redacted when the plan withholds proof) and
 * the replay behind POST /findings/{id}/validate: every attack of the finding
 * is sent again to the live target; an attack reproduces when the reply still
 * echoes its canary, is inconclusive when the target could not be judged.
 * None reproduces -> resolved (FIXED_VERIFIED); otherwise still_broken and the
 * finding goes back to open.
 */
import { randomBytes } from 'node:crypto'
import type { Finding } from '../service/contract/index.js'
import { REDACTED } from '../service/contract/index.js'
import { isoNow } from './http-util.js'
import type { FindingRecord } from './store.js'
import type { TargetClient } from './target-calls.js'

export function findingView(f: FindingRecord, proofWithheld: boolean): Finding {
  const base = {
    finding_id: f.finding_id,
    lens: f.lens,
    category: f.category,
    severity: f.severity,
    status: f.status,
    created_at: f.created_at,
    run_id: f.run_id,
    model_id: f.model_id
  }
  if (proofWithheld) return { ...base, description: REDACTED, expected_behavior: REDACTED, attacks: [] }
  return {
    ...base,
    description: f.description,
    expected_behavior: f.expected_behavior,
    attacks: f.attacks.map((a) => ({
      attack_id: a.attack_id,
      score: a.score,
      source: { ...a.source },
      replay_script: a.replay_script.map((s) => ({ ...s, headers: s.headers ? { ...s.headers } : s.headers })),
      last_replay_status: a.last_replay_status,
      created_at: a.created_at,
      last_replayed_at: a.last_replayed_at
    }))
  }
}

/** Replays every attack; updates each attack and, if still `fixed`, the finding. */
export async function replayFinding(f: FindingRecord, target: TargetClient, stopped: () => boolean): Promise<'resolved' | 'still_broken'> {
  let allClear = true
  for (const a of f.attacks) {
    if (stopped()) return 'still_broken'
    const out = await target.send(a.message, `replay_${randomBytes(6).toString('hex')}`)
    a.last_replayed_at = isoNow()
    if (!out.ok) {
      a.last_replay_status = 'inconclusive'
      allClear = false
    } else if (out.reply.includes(a.canary)) {
      a.last_replay_status = 'reproduced'
      allClear = false
    } else {
      a.last_replay_status = 'not_reproduced'
    }
  }
  const verdict = allClear ? 'resolved' : 'still_broken'
  if (f.status === 'fixed') f.status = allClear ? 'FIXED_VERIFIED' : 'open'
  return verdict
}
