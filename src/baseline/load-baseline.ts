/**
 * Reading the baseline for a gate run: from a named run of the service
 * (baseline_run_id), else from the store (the Actions cache). No baseline is
 * not a failure: the gate says why and runs as with fail_on any.
 */
import type { ServiceApi } from '../service/service-api.js'
import type { Log } from '../util/log.js'
import { describeFailure } from '../util/errors.js'
import { buildBaseline, type Baseline } from './baseline.js'
import type { BaselineStore } from './store.js'

export interface LoadedBaseline {
  baseline: Baseline | null
  /** Where it came from. */
  source: string | null
  /** Why there is none. */
  why: string | null
}

/** The findings of a finished run of the service as a baseline. A run that cannot be read is a failure (the user named it). */
export async function baselineFromRun(api: ServiceApi, modelId: string, runId: string): Promise<Baseline> {
  const run = await api.getRun(runId)
  const list = await api.listFindings(runId)
  return buildBaseline({
    modelId,
    runId,
    createdAt: typeof run.completed_at === 'string' ? run.completed_at : '',
    commit: null,
    categoriesCompleted: run.categories_completed,
    findings: list.findings
  })
}

export async function loadBaseline(
  deps: { api: () => ServiceApi; store: BaselineStore; log: Log },
  args: { modelId: string; baselineRunId: string }
): Promise<LoadedBaseline> {
  if (args.baselineRunId !== '') {
    const baseline = await baselineFromRun(deps.api(), args.modelId, args.baselineRunId)
    return { baseline, source: `run ${args.baselineRunId} (baseline_run_id)`, why: null }
  }
  try {
    const got = await deps.store.load(args.modelId)
    if (got.baseline === null) return { baseline: null, source: null, why: got.why }
    return { baseline: got.baseline, source: got.where, why: null }
  } catch (err) {
    deps.log.warning(`The baseline could not be read: ${describeFailure(err)}`)
    return { baseline: null, source: null, why: `the baseline could not be read: ${describeFailure(err)}` }
  }
}
