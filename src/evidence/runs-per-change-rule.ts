/**
 * Paying for more runs per agent change (runs_per_change). Pure.
 *
 * When the agent may have changed since the evidence (no run of the windows
 * that speak for it is of the agent judged now: load-evidence.ts marks each
 * run, a change under agent_paths since, or without agent_paths another
 * commit), one run misses a weakness landing at p (1 - p) of the time. A team
 * can ask for N full runs instead: they are pooled as this agent's evidence
 * (a weakness seen in any of them blocks; rates count them). Runs a bound
 * (timeout_minutes, the budget, cancellation, a run that did not complete)
 * kept from being read are a gap: the result is incomplete, never a pass.
 */
import type { EvidenceWindows } from './judge-evidence.js'
import { poolEvidence, type EvidencePool, type PooledFinding, type RunEvidence } from './pool.js'

/** The most full runs per agent change a step may be asked for. */
export const MAX_RUNS_PER_CHANGE = 5

/** Whether the agent may have changed since its evidence: no run of a window that speaks for it is of the agent judged now. */
export function agentMayHaveChanged(windows: EvidenceWindows | undefined): boolean {
  const pools = [windows?.agent?.pool, windows?.lineage === true ? windows.base : null]
  return !pools.some((p) => (p?.sameAgentRuns ?? 0) > 0)
}

/** How many full runs this step assesses: runs_per_change when the agent may have changed, else one. */
export function runsThisStep(runsPerChange: number, mayHaveChanged: boolean): number {
  if (!mayHaveChanged || !(runsPerChange > 1)) return 1
  return Math.min(MAX_RUNS_PER_CHANGE, Math.floor(runsPerChange))
}

/** The windows with this step's further runs pooled as this agent's evidence (the agent's window, made when there was none). */
export function withRunsOfThisAgent(windows: EvidenceWindows | undefined, runs: readonly RunEvidence[]): EvidenceWindows {
  const given: EvidenceWindows = windows ?? { agent: null, base: null }
  if (runs.length === 0) return given
  const fresh = poolEvidence(runs.map((r) => ({ ...r, sameAgent: true })))
  const agent = given.agent
  return { ...given, agent: { pool: agent === null ? fresh : mergePools(fresh, agent.pool), scope: agent?.scope ?? 'agent' } }
}

/** `newer` laid over `older`: its runs first, its observation of a fingerprint deciding whether it is closed. */
function mergePools(newer: EvidencePool, older: EvidencePool): EvidencePool {
  const findings = new Map<string, PooledFinding>()
  for (const [fp, f] of newer.findings) {
    const old = older.findings.get(fp)
    const seenIn = [...f.seenIn, ...(old?.seenIn ?? []).filter((id) => !f.seenIn.includes(id))]
    findings.set(fp, old === undefined ? f : { ...old, description: f.description, seenIn, closed: f.closed, seenBySameAgent: true })
  }
  for (const [fp, f] of older.findings) if (!findings.has(fp)) findings.set(fp, f)
  const runIds = [...newer.runIds, ...older.runIds.filter((id) => !newer.runIds.includes(id))]
  return {
    runIds,
    categoriesCompleted: older.categoriesCompleted,
    findings,
    sameAgentRuns: (newer.sameAgentRuns ?? 0) + (older.sameAgentRuns ?? 0),
    selected: [...(newer.selected ?? []), ...(older.selected ?? [])]
  }
}

/** The gap when a bound stopped the runs short: "runs_per_change: 1 of 3 runs assessed (timeout_minutes ran out)...". */
export function runsCutShort(assessed: number, planned: number, why: string): string | null {
  if (assessed >= planned) return null
  return `runs_per_change: ${assessed} of ${planned} runs of this agent change assessed (${why.replace(/\.$/, '')}), so a weakness the others would have drawn cannot be ruled out`
}
