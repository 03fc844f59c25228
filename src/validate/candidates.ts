/**
 * The selection of findings to validate: GET /model/{id}/run?limit=max_runs
 * (most recent first), then GET /run/{run_id}/findings?status=fixed of each
 * terminal run (a running run has no readable findings: skipped, as is a 409
 * run_in_progress). Deduplicated by finding_id (the most recent run wins);
 * most severe first, so a daily replay cap is spent where it matters.
 */
import { severityRank, type Finding, type RunListItem } from '../service/contract/index.js'
import { ServiceError } from '../util/errors.js'
import { safeId } from './outcomes.js'
import type { ValidateModeDeps } from './validate-types.js'

export interface Candidate {
  finding: Finding
  /** The run whose findings list holds the finding (used to follow it). */
  runId: string
}

export interface Selected {
  candidates: Candidate[]
  /** Runs whose findings were read. */
  runsScanned: number
  runsListed: number
}

/** max_runs within what GET /model/{id}/run allows (1 to 100). */
export function clampMaxRuns(n: number): number {
  if (!Number.isFinite(n)) return 20
  return Math.min(100, Math.max(1, Math.trunc(n)))
}

/** The options of every call: the step's cancellation. */
export function callOptions(deps: ValidateModeDeps): { signal?: AbortSignal } {
  return deps.signal ? { signal: deps.signal } : {}
}

export async function selectCandidates(deps: ValidateModeDeps, modelId: string, maxRuns: number): Promise<Selected> {
  const list = await deps.api.listRuns(modelId, { limit: clampMaxRuns(maxRuns) }, callOptions(deps))
  const seen = new Map<string, Candidate & { order: number }>()
  let runsScanned = 0
  for (const run of list.runs) {
    if (run.status === 'running') {
      deps.log.info(`Run ${safeId(run.run_id)} is still running; its findings are not readable yet, skipped.`)
      continue
    }
    const findings = await fixedFindingsOf(deps, run)
    if (findings === null) continue
    runsScanned += 1
    for (const f of findings) {
      if (f.status !== 'fixed' || seen.has(f.finding_id)) continue
      seen.set(f.finding_id, { finding: f, runId: run.run_id, order: seen.size })
    }
  }
  const candidates = [...seen.values()]
    .sort((a, b) => severityRank(a.finding.severity) - severityRank(b.finding.severity) || a.order - b.order)
    .map(({ finding, runId }) => ({ finding, runId }))
  return { candidates, runsScanned, runsListed: list.runs.length }
}

async function fixedFindingsOf(deps: ValidateModeDeps, run: RunListItem): Promise<Finding[] | null> {
  try {
    const res = await deps.api.listFindings(run.run_id, { status: 'fixed' }, callOptions(deps))
    return res.findings
  } catch (err) {
    if (err instanceof ServiceError && err.status === 409) {
      deps.log.info(`Run ${safeId(run.run_id)} is still in progress; its findings are not readable yet, skipped.`)
      return null
    }
    throw err
  }
}
