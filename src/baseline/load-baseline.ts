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

/**
 * The findings of a finished run of the service as a baseline, or why that run
 * cannot be one: it must be of this model (when the service says) and
 * completed. A run that cannot be read throws (the service failure line).
 */
export async function baselineFromRun(
  api: ServiceApi,
  modelId: string,
  runId: string
): Promise<{ baseline: Baseline } | { problem: string }> {
  const run = await api.getRun(runId)
  const id = oneLine(runId, 80)
  if (typeof run.model_id === 'string' && run.model_id !== modelId) {
    return { problem: `run ${id} is a run of another model (${oneLine(run.model_id, 80)})` }
  }
  if (run.status !== 'completed') return { problem: `run ${id} is ${oneLine(run.status, 40)}, not completed` }
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
