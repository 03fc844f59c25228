/**
 * Fail closed: every way a result can be untrusted, run through the whole
 * gate (trigger, wait, collect, decide) against a scripted service on virtual
 * time. None of them may yield `pass`; the control row shows the same script
 * does pass when nothing is wrong.
 */
import { describe, expect, it } from '@jest/globals'
import type {
  CoverageResponse,
  Finding,
  FindingList,
  RunList,
  RunStatusResponse
} from '../src/contract.js'
import { MalformedResponseError, ServiceError } from '../src/errors.js'
import { runGate } from '../src/gate.js'
import type { GateResult } from '../src/decide.js'
import { recordingLog } from '../src/log.js'
import type { ServiceApi } from '../src/service-api.js'
import { fakeApi } from './support/fake-api.js'
import { fakeClock } from './support/fake-clock.js'
import { finding } from './support/findings.js'

const planned = ['prompt_injection', 'data_leakage', 'jailbreak']

interface Script {
  /** Status answers in order; the last repeats. */
  statuses: Array<Partial<RunStatusResponse>>
  coverage?: () => Promise<CoverageResponse>
  findings?: () => Promise<FindingList>
  ingestIncomplete?: boolean
  runListMissing?: boolean
  timeoutMs?: number
}

function scripted(s: Script): ServiceApi {
  let polls = 0
  const status = (): RunStatusResponse => {
    const patch = s.statuses[Math.min(polls, s.statuses.length - 1)]
    polls += 1
    return {
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
  }
  const findings: Finding[] = []
  return fakeApi({
    triggerRun: async () => ({ run_id: 'run_1', model_id: 'm', status: 'running', started_at: '2026-11-21T12:00:00Z' }),
    getRun: async () => status(),
    cancelRun: async () => ({ run_id: 'run_1', status: 'running', cancel_requested: true }),
    getCoverage:
      s.coverage ??
      (async () => ({
        run_id: 'run_1',
        run_status: 'completed',
        categories: planned.map((c) => ({ category: c, attacks_blocked: 3, attacks_succeeded: 0, owasp: 'LLM01:2025', atlas: 'AML.T0051', worst_severity: null }))
      })),
    listFindings: s.findings ?? (async () => ({ findings, count: findings.length })),
    listRuns: async (): Promise<RunList> => {
      const runs = s.runListMissing
        ? []
        : [{ run_id: 'run_1', status: 'completed' as const, started_at: '2026-11-21T12:00:00Z', findings_count: 0, ingest_incomplete: s.ingestIncomplete ?? false, categories_planned: planned, completed_at: null }]
      return { runs, total: runs.length, returned: runs.length }
    },
    listModels: async () => ({ models: [] })
  })
}

const done: Partial<RunStatusResponse> = { status: 'completed', categories_completed: planned, verdict: 'pass' }
const err409 = new ServiceError({ endpoint: 'GET /api/v1/run/run_1/findings', status: 409, code: 'run_in_progress', message: 'run still in progress' })
const malformed = new MalformedResponseError({ endpoint: 'GET /api/v1/run/run_1/coverage', message: 'response field categories[0].attacks_blocked: expected number', fieldPath: 'categories[0].attacks_blocked' })

const cases: Array<[string, Script, GateResult]> = [
  ['control: everything read, nothing wrong', { statuses: [{}, done] }, 'pass'],
  ['run ended with status error', { statuses: [{}, { ...done, status: 'error', categories_completed: planned.slice(0, 1) }] }, 'incomplete'],
  ['run was cancelled by someone else', { statuses: [{}, { ...done, status: 'cancelled', categories_completed: planned.slice(0, 2) }] }, 'incomplete'],
  ['completed, but a planned category is missing', { statuses: [{}, { ...done, categories_completed: planned.slice(0, 2) }] }, 'incomplete'],
  ['completed, but ingest is incomplete', { statuses: [done], ingestIncomplete: true }, 'incomplete'],
  ["the run's list item cannot be found", { statuses: [done], runListMissing: true }, 'incomplete'],
  [
    'verdict missing and findings unreadable',
    { statuses: [{ ...done, verdict: null }], findings: async () => Promise.reject(err409) },
    'error'
  ],
  ['findings answer 409 after a terminal status', { statuses: [done], findings: async () => Promise.reject(err409) }, 'error'],
  ['coverage unparseable', { statuses: [done], coverage: async () => Promise.reject(malformed) }, 'error'],
  [
    'coverage names another run',
    { statuses: [done], coverage: async () => ({ run_id: 'run_other', run_status: 'completed', categories: [] }) },
    'error'
  ],
  [
    'findings count disagrees with the list',
    { statuses: [done], findings: async () => ({ findings: [], count: 2 }) },
    'error'
  ],
  ['service says pass but an open high finding exists', { statuses: [done], findings: async () => ({ findings: [finding('high')], count: 1 }) }, 'fail'],
  ['timeout: the run never ends', { statuses: [{ categories_completed: planned.slice(0, 1) }], timeoutMs: 120_000 }, 'error'],
  ['a run with no planned categories', { statuses: [{ ...done, categories_planned: [], categories_completed: [] }] }, 'incomplete']
]

describe('fail closed', () => {
  it.each(cases.map(([name, script, expected]) => [`${name} -> ${expected}`, script, expected] as const))('%s', async (_name, script, expected) => {
    const clock = fakeClock()
    const log = recordingLog()
    const api = scripted(script)
    const outcome = await runGate(
      {
        makeApi: () => api,
        clock,
        signal: new AbortController().signal,
        log,
        onRunStarted: () => {},
        onRunSettled: () => {}
      },
      { modelId: 'm', categories: [], minSeverity: 'high', timeoutMs: script.timeoutMs ?? 3_600_000 }
    )
    expect(outcome.decision.result).toBe(expected)
  })

  it('never yields pass for any untrusted row', () => {
    expect(cases.filter(([, , r]) => r === 'pass').map(([n]) => n)).toEqual(['control: everything read, nothing wrong'])
  })

  it('cancels the run when the timeout runs out', async () => {
    const clock = fakeClock()
    const api = scripted({ statuses: [{}] })
    const settled: string[] = []
    const outcome = await runGate(
      { makeApi: () => api, clock, signal: new AbortController().signal, log: recordingLog(), onRunStarted: () => {}, onRunSettled: (id) => settled.push(id) },
      { modelId: 'm', categories: [], minSeverity: 'high', timeoutMs: 30_000 }
    )
    expect(outcome.end).toBe('timeout')
    expect((api as ServiceApi & { calls: string[] }).calls).toContain('cancelRun')
    expect(settled).toEqual([])
  })
})

describe('when the status cannot be read any more', () => {
  it('cancels the run, then fails with the service error', async () => {
    const clock = fakeClock()
    const calls: string[] = []
    const api = fakeApi({
      triggerRun: async () => ({ run_id: 'run_1', model_id: 'm', status: 'running', started_at: '2026-11-21T12:00:00Z' }),
      listRuns: async () => ({ runs: [], total: 0, returned: 0 }),
      getRun: async () => {
        calls.push('getRun')
        throw new ServiceError({ endpoint: 'GET /api/v1/run/run_1', status: 401, code: 'unauthorized', message: 'key revoked' })
      },
      cancelRun: async () => {
        calls.push('cancelRun')
        return { run_id: 'run_1', status: 'running', cancel_requested: true }
      }
    })
    await expect(
      runGate(
        { makeApi: () => api, clock, signal: new AbortController().signal, log: recordingLog(), onRunStarted: () => {}, onRunSettled: () => {} },
        { modelId: 'm', categories: [], minSeverity: 'high', timeoutMs: 600_000 }
      )
    ).rejects.toMatchObject({ status: 401 })
    expect(calls).toContain('cancelRun')
  })
})
