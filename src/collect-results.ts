/**
 * After the run ends: coverage, findings, the run's list item and the model
 * are fetched concurrently. Each one that cannot be read is null with a note
 * saying why; decide() then fails closed on what is missing.
 */
import type { CoverageResponse, Finding, ModelListItem, RunListItem } from './contract.js'
import { ServiceError } from './errors.js'
import type { ServiceApi } from './service-api.js'

export interface CollectedResults {
  coverage: CoverageResponse | null
  /** Every finding of the run (no filter). */
  findings: Finding[] | null
  runListItem: RunListItem | null
  model: ModelListItem | null
  notes: string[]
}

/** How many recent runs of the model are searched for this run's list item. */
const RUN_LIST_LIMIT = 20

async function settle<T>(what: string, notes: string[], p: Promise<T>): Promise<T | null> {
  try {
    return await p
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    notes.push(`${what} could not be read: ${err.describe()}`)
    return null
  }
}

export async function collectResults(api: ServiceApi, runId: string, modelId: string, signal?: AbortSignal): Promise<CollectedResults> {
  const notes: string[] = []
  const opts = { signal }
  const [coverage, findingList, runList, modelList] = await Promise.all([
    settle('Coverage', notes, api.getCoverage(runId, opts)),
    settle('Findings', notes, api.listFindings(runId, {}, opts)),
    settle('The run list', notes, api.listRuns(modelId, { limit: RUN_LIST_LIMIT }, opts)),
    settle('The model list', notes, api.listModels(opts))
  ])
  let findings: Finding[] | null = null
  if (findingList) {
    if (findingList.count !== findingList.findings.length) {
      notes.push(`Findings could not be trusted: the service counted ${findingList.count} but returned ${findingList.findings.length}.`)
    } else {
      findings = findingList.findings
    }
  }
  const runListItem = runList?.runs.find((r) => r.run_id === runId) ?? null
  if (runList && !runListItem) notes.push(`Run ${runId} is not among the ${runList.runs.length} most recent runs of the model.`)
  const model = modelList?.models.find((m) => m.model_id === modelId) ?? null
  if (coverage && coverage.run_id !== runId) {
    notes.push(`Coverage could not be trusted: it names run ${coverage.run_id}.`)
    return { coverage: null, findings, runListItem, model, notes }
  }
  return { coverage, findings, runListItem, model, notes }
}
