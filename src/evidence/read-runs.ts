/**
 * Reading a recorded run again from the service before it is trusted as
 * evidence: GET /run/{id} (completed, and a run of this model) and
 * GET /run/{id}/findings. A record only names a run; what the run found comes
 * from the service alone. Every request is counted: the window costs
 * requests, never assessments.
 */
import type { ServiceApi } from '../service/service-api.js'
import { LIMITS } from '../service/contract/limits.js'
import { oneLine } from '../util/text.js'
import { observedFindings, type Provenance, type RunEvidence } from './pool.js'

export type RunReader = Pick<ServiceApi, 'getRun' | 'listRuns' | 'listFindings'>

/** The most runs GET /model/{model_id}/run lists in one answer (its limit is 1 to 100): the page read to place a run, and the service list of service-ledger.ts. */
export const RUN_LIST_PAGE: number = LIMITS.runListLimitMax

/** One reader of a model's runs: the requests it made, and the model's run list read at most once. */
export interface RunReads {
  api: RunReader
  modelId: string
  requests: number
  /** Run ids of the model's most recent completed runs, once read. */
  listed: Set<string> | null
}

export function runReads(api: RunReader, modelId: string): RunReads {
  return { api, modelId, requests: 0, listed: null }
}

/**
 * Whether `runId` is a run of the model, proved by the service: GET /run
 * names the model, or (the description does not promise model_id there) the
 * run is among the model's most recent completed runs. A run it cannot place
 * is not the model's: a run of another model would hide this model's findings.
 */
async function ownership(reads: RunReads, runId: string, named: unknown): Promise<'owned' | 'unproved' | { other: string }> {
  if (typeof named === 'string' && named !== '') return named === reads.modelId ? 'owned' : { other: named }
  if (reads.listed === null) {
    reads.requests++
    const list = await reads.api.listRuns(reads.modelId, { status: 'completed', limit: RUN_LIST_PAGE })
    reads.listed = new Set(list.runs.map((r) => r.run_id))
  }
  return reads.listed.has(runId) ? 'owned' : 'unproved'
}

/**
 * A run as evidence, or why it cannot be: it must be completed and a run of
 * this model, with where the caller found it (its provenance, which decides
 * whether it can let a finding through: knownOnMain). A run that cannot be
 * read throws (the service failure line).
 */
export async function readRunEvidence(
  reads: RunReads,
  runId: string,
  provenance: Provenance
): Promise<{ run: RunEvidence } | { problem: string; unplaced?: true }> {
  reads.requests++
  const run = await reads.api.getRun(runId)
  const id = oneLine(runId, 80)
  if (run.status !== 'completed') return { problem: `run ${id} is ${oneLine(run.status, 40)}, not completed` }
  const owner = await ownership(reads, runId, run.model_id)
  if (typeof owner === 'object') return { problem: `run ${id} is a run of another model (${oneLine(owner.other, 80)})` }
  if (owner === 'unproved')
    return {
      problem: `run ${id} is not among the ${RUN_LIST_PAGE} most recent completed runs of this model (GET /run names no model), so it cannot be shown to be one of its runs`,
      unplaced: true
    }
  reads.requests++
  const list = await reads.api.listFindings(runId)
  return {
    run: {
      runId,
      completedAt: typeof run.completed_at === 'string' ? run.completed_at : '',
      categoriesCompleted: run.categories_completed,
      findings: observedFindings(list.findings, runId),
      provenance
    }
  }
}
