/**
 * The overview's reading edge: the inventory (GET /model), the categories
 * (GET /category), and per model its completed runs within the age bound
 * (GET /model/{id}/run), each read again as the gate reads evidence
 * (read-runs.ts: GET /run/{id} and its findings). Reads only: no run is
 * triggered, nothing is written. The client's retry policy waits out a 429;
 * at most `concurrency` models are read at once. A model or run that cannot be
 * read is named (Unreadable), never left out.
 */
import type { ServiceApi } from '../service/service-api.js'
import type { ModelListItem, RunListItem, Severity } from '../service/contract/index.js'
import { readRunEvidence, RUN_LIST_PAGE, runReads } from '../evidence/read-runs.js'
import type { RunEvidence } from '../evidence/pool.js'
import { isRecord, oneLine } from '../util/text.js'
import type { AgentRead, OverviewCategory, OverviewInput, Unreadable } from './page-model.js'

export type OverviewReader = Pick<ServiceApi, 'listModels' | 'listRuns' | 'getRun' | 'listFindings' | 'listCategories'>

export interface ReadOverviewOptions {
  api: OverviewReader
  now: number
  maxAgeDays: number
  minSeverity: Severity
  /** Models read at once (default 4). */
  concurrency?: number
  /** Most runs read per model, newest first (default and at most one page: 100). */
  maxRuns?: number
  /** One line per model read. */
  progress?: (line: string) => void
  signal?: AbortSignal
}

export const OVERVIEW_CONCURRENCY = 4

function reason(err: unknown): string {
  return oneLine(err instanceof Error ? err.message : String(err), 300)
}

/** Runs `job` over `items`, at most `limit` at once, results in the order given. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, job: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await job(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return out
}

function codeOf(c: Record<string, unknown>, key: string): string {
  const v = c[key]
  return typeof v === 'string' ? v : ''
}

async function readCategories(api: OverviewReader, signal?: AbortSignal): Promise<{ categories: OverviewCategory[]; problem?: string }> {
  try {
    const list = await api.listCategories({ lens: 'security' }, { signal })
    return {
      categories: list.categories.map((c) => {
        const r: Record<string, unknown> = isRecord(c) ? c : {}
        return { key: c.key, name: c.display_name, owasp: codeOf(r, 'owasp'), atlas: codeOf(r, 'atlas') }
      })
    }
  } catch (err) {
    return { categories: [], problem: reason(err) }
  }
}

function inWindow(r: RunListItem, now: number, maxAgeDays: number): boolean {
  const at = Date.parse(r.completed_at ?? '')
  return Number.isFinite(at) && now - at <= maxAgeDays * 86_400_000
}

async function readModel(model: ModelListItem, o: ReadOverviewOptions): Promise<AgentRead> {
  const base = { modelId: model.model_id, name: model.name, runs: [] as RunEvidence[], unreadable: [] as Unreadable[] }
  const named = (runId: string | null, why: string): Unreadable => ({ agent: model.name, modelId: model.model_id, runId, reason: why })
  let listed: RunListItem[]
  let total: number
  try {
    const list = await o.api.listRuns(model.model_id, { status: 'completed', limit: RUN_LIST_PAGE }, { signal: o.signal })
    listed = list.runs.filter((r) => r.status === 'completed')
    total = list.total
  } catch (err) {
    return { ...base, lastCompletedAt: null, runsInWindow: 0, moreThanListed: false, unreadable: [named(null, reason(err))] }
  }
  const newest =
    listed
      .map((r) => r.completed_at ?? '')
      .sort()
      .at(-1) ?? ''
  const recent = listed.filter((r) => inWindow(r, o.now, o.maxAgeDays))
  const reads = runReads(o.api, model.model_id)
  reads.listed = new Set(listed.map((r) => r.run_id))
  for (const r of recent.slice(0, Math.min(o.maxRuns ?? RUN_LIST_PAGE, RUN_LIST_PAGE))) {
    try {
      const got = await readRunEvidence(reads, r.run_id, 'service-list')
      if ('run' in got) base.runs.push(got.run)
      else base.unreadable.push(named(r.run_id, got.problem))
    } catch (err) {
      base.unreadable.push(named(r.run_id, reason(err)))
    }
  }
  const moreThanListed = total > listed.length && recent.length === listed.length
  return { ...base, lastCompletedAt: newest, runsInWindow: recent.length, moreThanListed }
}

/** Everything the overview shows, read from the service. Only the inventory failing throws. */
export async function readOverview(o: ReadOverviewOptions): Promise<OverviewInput> {
  const { models } = await o.api.listModels({ signal: o.signal })
  const cats = await readCategories(o.api, o.signal)
  let done = 0
  const agents = await mapBounded(models, o.concurrency ?? OVERVIEW_CONCURRENCY, async (m) => {
    const a = await readModel(m, o)
    done++
    o.progress?.(
      `[${done}/${models.length}] ${oneLine(m.name, 60)}: ${a.runs.length} run(s) read${a.unreadable.length > 0 ? `, ${a.unreadable.length} not read` : ''}`
    )
    return a
  })
  return {
    now: o.now,
    maxAgeDays: o.maxAgeDays,
    minSeverity: o.minSeverity,
    categories: cats.categories,
    agents,
    ...(cats.problem === undefined ? {} : { categoriesUnreadable: cats.problem })
  }
}
