/**
 * Reading the baseline for a gate run: from a named run of the service
 * (baseline_run_id), else from the store (the Actions cache). No baseline is
 * not a failure: the gate says why and runs as with fail_on any.
 */
import type { ServiceApi } from '../service/service-api.js'
import type { Log } from '../util/log.js'
import { ConfigError, describeFailure } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import { buildBaseline, type Baseline } from './baseline.js'
import type { BaselineStore } from './store.js'

export interface LoadedBaseline {
  baseline: Baseline | null
  /** Where it came from. */
  source: string | null
  /** Why there is none. */
  why: string | null
}

/** The most runs GET /model/{model_id}/run lists in one answer (its limit is 1 to 100). */
export const OWNERSHIP_LIST_LIMIT = 100

/**
 * Whether `runId` is a run of `modelId`, proved by the service: GET /run names
 * the model, or (the description does not promise model_id there) the run is
 * among the model's most recent completed runs. A run it cannot place is not
 * the model's: a baseline of another model would hide this model's findings.
 */
async function ownership(
  api: ServiceApi,
  modelId: string,
  runId: string,
  named: unknown
): Promise<'owned' | 'unproved' | { other: string }> {
  if (typeof named === 'string' && named !== '') return named === modelId ? 'owned' : { other: named }
  const list = await api.listRuns(modelId, { status: 'completed', limit: OWNERSHIP_LIST_LIMIT })
  return list.runs.some((r) => r.run_id === runId) ? 'owned' : 'unproved'
}

/**
 * The findings of a finished run of the service as a baseline, or why that run
 * cannot be one: it must be completed and a run of this model. A run that
 * cannot be read throws (the service failure line).
 */
export async function baselineFromRun(
  api: ServiceApi,
  modelId: string,
  runId: string
): Promise<{ baseline: Baseline } | { problem: string }> {
  const run = await api.getRun(runId)
  const id = oneLine(runId, 80)
  if (run.status !== 'completed') return { problem: `run ${id} is ${oneLine(run.status, 40)}, not completed` }
  const owner = await ownership(api, modelId, runId, run.model_id)
  if (typeof owner === 'object') return { problem: `run ${id} is a run of another model (${oneLine(owner.other, 80)})` }
  if (owner === 'unproved')
    return {
      problem: `run ${id} is not among the ${OWNERSHIP_LIST_LIMIT} most recent completed runs of this model (GET /run names no model), so it cannot be shown to be one of its runs`
    }
  const list = await api.listFindings(runId)
  return {
    baseline: buildBaseline({
      modelId,
      runId,
      createdAt: typeof run.completed_at === 'string' ? run.completed_at : '',
      commit: null,
      categoriesCompleted: run.categories_completed,
      findings: list.findings
    })
  }
}

export async function loadBaseline(
  deps: { api: () => ServiceApi; store: BaselineStore; log: Log },
  args: { modelId: string; baselineRunId: string }
): Promise<LoadedBaseline> {
  if (args.baselineRunId !== '') {
    const read = await baselineFromRun(deps.api(), args.modelId, args.baselineRunId)
    if ('problem' in read) throw new ConfigError('baseline_run_id', `${read.problem}: name a completed run of this model`)
    return { baseline: read.baseline, source: `run ${args.baselineRunId} (baseline_run_id)`, why: null }
  }
  try {
    const got = await deps.store.load(args.modelId)
    if (got.baseline === null) return { baseline: null, source: null, why: got.why }
    // The cache is only trusted to name the run: a pull request can save a cache entry of its own
    // (restored before the base branch's), so the findings are read again from the service, where
    // only a real, completed run of this model can supply them.
    const cached = got.baseline
    const read = await baselineFromRun(deps.api(), args.modelId, cached.run_id)
    if ('problem' in read) return { baseline: null, source: null, why: `the cached baseline names ${read.problem}: not trusted` }
    return { baseline: { ...read.baseline, commit: cached.commit }, source: `${got.where}, its run re-read from the service`, why: null }
  } catch (err) {
    deps.log.warning(`The baseline could not be read: ${describeFailure(err)}`)
    return { baseline: null, source: null, why: `the baseline could not be read: ${describeFailure(err)}` }
  }
}
