/**
 * A demo workspace of many agents with histories (the workspace overview's
 * demo and bench): models of the `readonly` workspace, each with completed
 * runs spread over the last weeks and findings drawn from the taxonomy with a
 * seeded stream (the same seed, the same fleet). Opt-in (EmulatorOptions.fleet):
 * the other workspaces keep their one demo model. The models have no agent
 * config: the fleet is history to read, not agents to run.
 */
import { seededRandom } from '../util/seeded-random.js'
import { newId } from './ids.js'
import type { FindingRecord, ModelRecord, RunRecord, Store } from './store.js'
import { SECURITY_CATEGORIES } from './taxonomy.js'

export interface FleetOptions {
  agents: number
  /** Completed runs per agent (the newest first, one every `everyHours`). */
  runs: number
  seed?: number
  /** Hours between two runs of an agent (default 24). */
  everyHours?: number
}

export const FLEET_WORKSPACE = 'readonly'
const NAMES = ['Support bot', 'Billing assistant', 'HR helper', 'Code reviewer', 'Sales copilot', 'Travel agent', 'IT desk', 'Legal Q&A']
const HOUR = 3_600_000

function fleetModel(i: number, now: number): ModelRecord {
  const base = NAMES[i % NAMES.length]
  return {
    model_id: newId('mdl'),
    workspace: FLEET_WORKSPACE,
    name: i < NAMES.length ? base : `${base} ${Math.floor(i / NAMES.length) + 1}`,
    model_type: 'agent',
    environment: i % 3 === 0 ? 'prod' : 'staging',
    config: null,
    auth_type: 'none',
    credential: null,
    oauth: null,
    created_at: new Date(now - 90 * 24 * HOUR).toISOString(),
    trustedLoopback: false,
    ingestIncomplete: false,
    target: null
  }
}

function finding(run: RunRecord, key: string, at: string): FindingRecord {
  const c = SECURITY_CATEGORIES.find((x) => x.key === key) ?? SECURITY_CATEGORIES[0]
  return {
    finding_id: newId('fnd'),
    run_id: run.run_id,
    model_id: run.model_id,
    workspace: FLEET_WORKSPACE,
    lens: 'security',
    category: c.key,
    severity: c.severity,
    description: `${c.display_name}: the agent followed an attack it should have refused.`,
    expected_behavior: c.expected_behavior,
    status: 'open',
    created_at: at,
    attacks: [],
    fix_description: null,
    dismissal: null,
    validating: null
  }
}

/**
 * Seeds the fleet into `store`. Per agent: a few weak categories, each landing
 * with its own rate; agent 1 (when there are 3 or more) last ran 40 days ago
 * (stale) and the last agent never ran.
 */
export function seedFleet(store: Store, o: FleetOptions, now = Date.now()): string[] {
  const random = seededRandom(o.seed ?? 7)
  const ids: string[] = []
  const keys = SECURITY_CATEGORIES.map((c) => c.key)
  for (let i = 0; i < o.agents; i++) {
    const model = fleetModel(i, now)
    store.models.set(model.model_id, model)
    ids.push(model.model_id)
    if (o.agents >= 3 && i === o.agents - 1) continue
    const offset = o.agents >= 3 && i === 1 ? 40 * 24 : 0
    const weak = keys
      .filter(() => random() < 0.25)
      .map((k) => ({ k, p: 0.3 + random() * 0.7, fixedAfter: random() < 0.3 ? Math.floor(random() * o.runs) : -1 }))
    for (let r = o.runs - 1; r >= 0; r--) {
      const completed = new Date(now - offset * HOUR - r * (o.everyHours ?? 24) * HOUR - 2 * HOUR)
      const run: RunRecord = {
        run_id: newId('run'),
        model_id: model.model_id,
        workspace: FLEET_WORKSPACE,
        status: 'completed',
        started_at: new Date(completed.getTime() - HOUR).toISOString(),
        completed_at: completed.toISOString(),
        categories_planned: [...keys],
        categories_completed: keys.filter(() => random() < 0.9),
        coverage: [],
        finding_ids: [],
        cancelRequested: false,
        error_message: null,
        seq: store.nextSeq()
      }
      for (const w of weak) {
        // A weakness fixed after run `fixedAfter` (counted from the oldest) stops landing.
        if (w.fixedAfter >= 0 && o.runs - 1 - r > w.fixedAfter) continue
        if (random() >= w.p) continue
        const f = finding(run, w.k, run.completed_at ?? '')
        store.findings.set(f.finding_id, f)
        run.finding_ids.push(f.finding_id)
      }
      store.runs.set(run.run_id, run)
    }
  }
  return ids
}
