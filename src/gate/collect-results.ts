/**
 * After the run ends: coverage, findings, the run's list item and the model
 * are fetched concurrently. Each one that cannot be read is null with a note
 * saying why; decide() then fails closed on what is missing.
 *
 * Coverage and findings answer 409 while the run is running. Right after the
 * status turned terminal, a service whose read side lags can still answer 409:
 * that answer is retried a few times with a short growing wait (1 s, 2 s, 4 s),
 * then given up on as unreadable (fail closed: never a pass).
 *
 * Every read and wait honours the abort signal: on the job's cancellation
 * what was read is kept and the rest is null, with a note.
 */
import { systemClock, type Clock } from '../util/clock.js'
import type { CoverageResponse, Finding, ModelListItem, RunListItem } from '../service/contract/index.js'
import { AbortedError, ServiceError } from '../util/errors.js'
import type { Log } from '../util/log.js'
import type { ServiceApi } from '../service/service-api.js'

export interface CollectedResults {
  coverage: CoverageResponse | null
  /** Every finding of the run (no filter). */
  findings: Finding[] | null
  runListItem: RunListItem | null
  model: ModelListItem | null
  notes: string[]
}

export interface CollectOptions {
  /** Aborts the requests and the waits between 409 retries. */
  signal?: AbortSignal
  /** Waits between 409 retries (default the system clock). */
  clock?: Clock
  /** An info line per 409 retry. */
  log?: Log
}

/** How many recent runs of the model are searched for this run's list item. */
const RUN_LIST_LIMIT = 20

/** Waits before each retry of a 409 from coverage or findings after the run ended: about 7 s in all. */
export const READ_LAG_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000]

async function settle<T>(what: string, notes: string[], p: Promise<T>): Promise<T | null> {
  try {
    return await p
  } catch (err) {
    if (err instanceof AbortedError) {
      notes.push(`${what} was not read: the step was cancelled.`)
      return null
    }
    if (!(err instanceof ServiceError)) throw err
    notes.push(`${what} could not be read: ${err.describe()}`)
    return null
  }
}

/**
 * `read`, retried while it answers 409 (the run still in progress, as the
 * read side sees it), after each of READ_LAG_RETRY_DELAYS_MS. The last 409
 * is thrown with what was retried.
 */
async function readLagging<T>(read: () => Promise<T>, opts: { clock: Clock; signal?: AbortSignal; log?: Log }): Promise<T> {
  const waited: number[] = []
  for (;;) {
    try {
      return await read()
    } catch (err) {
      if (!(err instanceof ServiceError) || err.status !== 409) throw err
      const delay = READ_LAG_RETRY_DELAYS_MS.at(waited.length)
      if (delay === undefined) {
        const gaveUp = `still 409 after the run ended, retried ${waited.length} times over ${waited.reduce((a, b) => a + b, 0) / 1000} s`
        throw err.withDetail({ hint: err.hint ? `${err.hint}; ${gaveUp}` : gaveUp })
      }
      opts.log?.info(
        `${err.endpoint}: HTTP 409${err.code ? ` ${err.code}` : ''} although the run has ended; retrying in ${delay / 1000} s.`
      )
      await opts.clock.sleep(delay, opts.signal)
      waited.push(delay)
    }
  }
}

export async function collectResults(
  api: ServiceApi,
  runId: string,
  modelId: string,
  options: CollectOptions = {}
): Promise<CollectedResults> {
  const notes: string[] = []
  const { signal, log } = options
  const clock = options.clock ?? systemClock
  const opts = { signal }
  const lagging = { clock, signal, log }
  const [coverage, findingList, runList, modelList] = await Promise.all([
    settle(
      'Coverage',
      notes,
      readLagging(() => api.getCoverage(runId, opts), lagging)
    ),
    settle(
      'Findings',
      notes,
      readLagging(() => api.listFindings(runId, {}, opts), lagging)
    ),
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
  // run_id is optional in the coverage body; when it is there it must name this run.
  if (coverage?.run_id !== undefined && coverage.run_id !== null && coverage.run_id !== runId) {
    notes.push(`Coverage could not be trusted: it names run ${coverage.run_id}.`)
    return { coverage: null, findings, runListItem, model, notes }
  }
  return { coverage, findings, runListItem, model, notes }
}
