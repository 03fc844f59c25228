/**
 * A whole service scripted for one gate run (trigger, status polls, coverage,
 * findings, run list, cancel) on virtual time: run `run_1` of model `m`,
 * status answers in order. Used by the fail-closed table and the shell's
 * in-process tests.
 */
import type { CoverageResponse, Finding, FindingList, RunList, RunStatusResponse } from '../../src/service/contract/index.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { PLANNED } from './builders.js'
import { fakeApi } from './fake-api.js'

const planned: string[] = [...PLANNED]

export interface Script {
  /** Replaces the trigger (default: run_1 starts). */
  trigger?: ServiceApi['triggerRun']
  /** Status answers in order; the last repeats. */
  statuses: Partial<RunStatusResponse>[]
  coverage?: () => Promise<CoverageResponse>
  findings?: () => Promise<FindingList>
  ingestIncomplete?: boolean
  runListMissing?: boolean
  timeoutMs?: number
  /** Status bodies carry only what the description guarantees (no run_id, model_id, started_at, completed_at). */
  minimalStatus?: boolean
  /** What the cancel 202 carries (default the emulator's body). */
  cancelBody?: unknown
  /** GET /run fails with statusError from this read on (0: every read)... */
  statusFailsAfter?: number
  /** ...or on the first this many reads only. */
  statusFailsFirst?: number
  statusError?: Error
}

export function scriptedService(s: Script): ServiceApi {
  let polls = 0
  let reads = 0
  const status = (): RunStatusResponse => {
    reads += 1
    if (s.statusError && ((s.statusFailsAfter !== undefined && reads > s.statusFailsAfter) || reads <= (s.statusFailsFirst ?? 0)))
      throw s.statusError
    const patch = s.statuses[Math.min(polls, s.statuses.length - 1)]
    polls += 1
    const full: RunStatusResponse = {
      run_id: 'run_1',
      model_id: 'm',
      status: 'running',
      started_at: '2026-11-21T12:00:00Z',
      completed_at: null,
      categories_planned: planned,
      categories_completed: [],
      verdict: null,
      ...patch
    }
    if (!s.minimalStatus) return full
    const { status: st, categories_planned, categories_completed, verdict } = full
    return { status: st, categories_planned, categories_completed, ...(verdict ? { verdict } : {}) }
  }
  const findings: Finding[] = []
  return fakeApi({
    triggerRun: s.trigger ?? (async () => ({ run_id: 'run_1', model_id: 'm', status: 'running', started_at: '2026-11-21T12:00:00Z' })),
    getRun: async () => status(),
    cancelRun: async () => ('cancelBody' in s ? s.cancelBody : { run_id: 'run_1', status: 'running', cancel_requested: true }),
    getCoverage:
      s.coverage ??
      (async () => ({
        run_id: 'run_1',
        run_status: 'completed',
        categories: planned.map((c) => ({
          category: c,
          attacks_blocked: 3,
          attacks_succeeded: 0,
          owasp: 'LLM01:2025',
          atlas: 'AML.T0051',
          worst_severity: null
        }))
      })),
    listFindings: s.findings ?? (async () => ({ findings, count: findings.length })),
    listRuns: async (): Promise<RunList> => {
      const runs = s.runListMissing
        ? []
        : [
            {
              run_id: 'run_1',
              status: 'completed' as const,
              started_at: '2026-11-21T12:00:00Z',
              findings_count: 0,
              ingest_incomplete: s.ingestIncomplete ?? false,
              categories_planned: planned,
              completed_at: null
            }
          ]
      return { runs, total: runs.length, returned: runs.length }
    },
    listModels: async () => ({ models: [] })
  })
}
