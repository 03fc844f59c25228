/**
 * Fail closed: every way a result can be untrusted, run through the whole
 * gate (trigger, wait, collect, decide) against a scripted service on virtual
 * time. None of them may yield `pass`; the control row shows the same script
 * does pass when nothing is wrong.
 */
import { describe, expect, it } from '@jest/globals'
import type { CoverageResponse, CoverageRow, FindingList, RunStatusResponse } from '../../src/service/contract/index.js'
import { MalformedResponseError, ServiceError } from '../../src/util/errors.js'
import { assess } from '../../src/gate/assess-run.js'
import type { GateResult } from '../../src/decision/decide.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { scriptedService as scripted, type Script } from '../__fixtures__/scripted-service.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { makeFinding, PLANNED as PLANNED_CATEGORIES } from '../__fixtures__/builders.js'

const planned: string[] = [...PLANNED_CATEGORIES]

const done: Partial<RunStatusResponse> = { status: 'completed', categories_completed: planned, verdict: 'pass' }
const err409 = new ServiceError({
  endpoint: 'GET /api/v1/run/run_1/findings',
  status: 409,
  code: 'run_in_progress',
  message: 'run still in progress'
})
const coverage409 = new ServiceError({
  endpoint: 'GET /api/v1/run/run_1/coverage',
  status: 409,
  code: 'run_in_progress',
  message: 'run still in progress'
})

function row(category: string, worst: CoverageRow['worst_severity'] = null): CoverageRow {
  return { category, attacks_blocked: 3, attacks_succeeded: worst ? 1 : 0, owasp: 'LLM01:2025', atlas: 'AML.T0051', worst_severity: worst }
}
function coverageOf(rows: CoverageRow[], over: Partial<CoverageResponse> = {}): () => Promise<CoverageResponse> {
  return async () => ({ run_id: 'run_1', run_status: 'completed', categories: rows, ...over })
}
/** Rejects with `error` the first `n` times, then answers with `then`. */
function failing<T>(n: number, error: Error, then: () => Promise<T>): () => Promise<T> {
  let calls = 0
  return async () => {
    calls += 1
    if (calls <= n) throw error
    return then()
  }
}
const noFindings = async (): Promise<FindingList> => ({ findings: [], count: 0 })
const cleanCoverage = coverageOf(planned.map((c) => row(c)))
const malformed = new MalformedResponseError({
  endpoint: 'GET /api/v1/run/run_1/coverage',
  message: 'response field categories[0].attacks_blocked: expected number',
  fieldPath: 'categories[0].attacks_blocked'
})

const cases: [string, Script, GateResult][] = [
  ['control: everything read, nothing wrong', { statuses: [{}, done] }, 'pass'],
  [
    'a service pass beside a high finding in a status that does not close it ("reopened")',
    { statuses: [{}, done], findings: async () => ({ findings: [makeFinding('high', { status: 'reopened' })], count: 1 }) },
    'fail'
  ],
  [
    'run ended with status error',
    { statuses: [{}, { ...done, status: 'error', categories_completed: planned.slice(0, 1) }] },
    'incomplete'
  ],
  [
    'run was cancelled by someone else',
    { statuses: [{}, { ...done, status: 'cancelled', categories_completed: planned.slice(0, 2) }] },
    'incomplete'
  ],
  [
    'completed, but a planned category is missing',
    { statuses: [{}, { ...done, categories_completed: planned.slice(0, 2) }] },
    'incomplete'
  ],
  ['completed, but ingest is incomplete', { statuses: [done], ingestIncomplete: true }, 'incomplete'],
  ["the run's list item cannot be found", { statuses: [done], runListMissing: true }, 'incomplete'],
  [
    'verdict missing and findings unreadable',
    { statuses: [{ ...done, verdict: null }], findings: async () => Promise.reject(err409) },
    'error'
  ],
  [
    'findings answer 409 after a terminal status, on every retry',
    { statuses: [done], findings: async () => Promise.reject(err409) },
    'error'
  ],
  [
    'coverage answers 409 after a terminal status, on every retry',
    { statuses: [done], coverage: async () => Promise.reject(coverage409) },
    'error'
  ],
  ['coverage unparseable', { statuses: [done], coverage: async () => Promise.reject(malformed) }, 'error'],
  [
    'coverage names another run',
    { statuses: [done], coverage: async () => ({ run_id: 'run_other', run_status: 'completed', categories: [] }) },
    'error'
  ],
  ['findings count disagrees with the list', { statuses: [done], findings: async () => ({ findings: [], count: 2 }) }, 'error'],
  [
    'service says pass but an open high finding exists',
    { statuses: [done], findings: async () => ({ findings: [makeFinding('high')], count: 1 }) },
    'fail'
  ],
  ['timeout: the run never ends', { statuses: [{ categories_completed: planned.slice(0, 1) }], timeoutMs: 120_000 }, 'error'],
  [
    'timeout, and the cancel 202 has an empty body',
    { statuses: [{ categories_completed: planned.slice(0, 1) }], timeoutMs: 120_000, cancelBody: '' },
    'error'
  ],
  ['a run with no planned categories', { statuses: [{ ...done, categories_planned: [], categories_completed: [] }] }, 'incomplete'],
  ['a status the description does not name ("queued") that never ends', { statuses: [{ status: 'queued' }], timeoutMs: 120_000 }, 'error'],
  ['"queued" forever, with a pass verdict on it', { statuses: [{ status: 'queued', verdict: 'pass' }], timeoutMs: 120_000 }, 'error'],
  ['a status in another case ("COMPLETED") is not terminal', { statuses: [{ ...done, status: 'COMPLETED' }], timeoutMs: 120_000 }, 'error'],
  [
    'no verdict, and a finding with an unknown status at or above the threshold',
    {
      statuses: [{ ...done, verdict: null }],
      findings: async () => ({ findings: [makeFinding('high', { status: 'reopened' })], count: 1 })
    },
    'fail'
  ],
  [
    'a completed category has no coverage row',
    { statuses: [done], coverage: coverageOf(planned.slice(0, 2).map((c) => row(c))) },
    'incomplete'
  ],
  [
    'the coverage run_status disagrees with the run status',
    {
      statuses: [done],
      coverage: coverageOf(
        planned.map((c) => row(c)),
        { run_status: 'cancelled' }
      )
    },
    'incomplete'
  ],
  [
    'coverage reports a high finding the findings list does not hold',
    { statuses: [done], coverage: coverageOf([row(planned[0], 'high'), ...planned.slice(1).map((c) => row(c))]) },
    'error'
  ],
  [
    'timeout after the run found an open high finding (the result was not reached)',
    {
      statuses: [{ categories_completed: planned.slice(0, 1), verdict: 'fail' }],
      timeoutMs: 120_000,
      findings: async () => ({ findings: [makeFinding('high')], count: 1 })
    },
    'error'
  ],
  [
    'the status stops being readable mid-run (401: key revoked)',
    {
      statuses: [{}],
      statusFailsAfter: 2,
      statusError: new ServiceError({ endpoint: 'GET /api/v1/run/run_1', status: 401, code: 'unauthorized', message: 'key revoked' })
    },
    'error'
  ],
  [
    'the run is never found (404 on every read)',
    {
      statuses: [{}],
      statusFailsAfter: 0,
      statusError: new ServiceError({ endpoint: 'GET /api/v1/run/run_1', status: 404, code: 'not_found', message: 'no such run' })
    },
    'error'
  ]
]

/**
 * Spec-conforming answers that differ from the emulator's: each still passes
 * when nothing is wrong (the gate must not break on them).
 */
const lenient: [string, Script][] = [
  ['status bodies with only status, categories and verdict', { statuses: [{}, done], minimalStatus: true }],
  ['"queued" before running, then completed', { statuses: [{ status: 'queued' }, {}, done] }],
  [
    'coverage without run_id',
    { statuses: [done], coverage: async () => ({ run_status: 'completed', categories: planned.map((c) => row(c)) }) }
  ],
  ['findings answer 409 twice after the status turned terminal, then read', { statuses: [done], findings: failing(2, err409, noFindings) }],
  ['coverage answers 409 three times, then read', { statuses: [done], coverage: failing(3, coverage409, cleanCoverage) }],
  [
    'the new run answers 404 twice before it can be read (a lagging read side)',
    {
      statuses: [done],
      statusFailsFirst: 2,
      statusError: new ServiceError({ endpoint: 'GET /api/v1/run/run_1', status: 404, code: 'not_found', message: 'no such run' })
    }
  ]
]

/** Runs the gate on a fake clock: its waits are instant. */
function gate(script: Script): Promise<Awaited<ReturnType<typeof assess>>> {
  const api = scripted(script)
  return assess(
    {
      makeApi: () => api,
      clock: fakeClock(),
      signal: new AbortController().signal,
      log: recordingLog(),
      onRunStarted: () => {},
      onRunSettled: () => {}
    },
    { modelId: 'm', categories: [], minSeverity: 'high', timeoutMs: script.timeoutMs ?? 3_600_000 }
  )
}

describe('fail closed', () => {
  it.each(cases.map(([name, script, expected]) => [`${name} -> ${expected}`, script, expected] as const))(
    '%s',
    async (_name, script, expected) => {
      const outcome = await gate(script)
      expect(outcome.decision.result).toBe(expected)
    }
  )

  it.each(lenient)('spec-conforming variation: %s -> pass', async (_name, script) => {
    const outcome = await gate(script)
    expect(outcome.decision.result).toBe('pass')
  })

  it('never yields pass for any untrusted row', () => {
    expect(cases.filter(([, , r]) => r === 'pass').map(([n]) => n)).toEqual(['control: everything read, nothing wrong'])
  })

  it('cancels the run when the timeout runs out', async () => {
    const clock = fakeClock()
    const api = scripted({ statuses: [{}] })
    const settled: string[] = []
    const outcome = await assess(
      {
        makeApi: () => api,
        clock,
        signal: new AbortController().signal,
        log: recordingLog(),
        onRunStarted: () => {},
        onRunSettled: (id) => settled.push(id)
      },
      { modelId: 'm', categories: [], minSeverity: 'high', timeoutMs: 30_000 }
    )
    expect(outcome.end).toBe('timeout')
    expect((api as ServiceApi & { calls: string[] }).calls).toContain('cancelRun')
    expect(settled).toEqual([])
  })
})

describe('when the status cannot be read any more', () => {
  it('cancels the run, then fails with error, keeping the run id and the service error', async () => {
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
    const outcome = await assess(
      {
        makeApi: () => api,
        clock,
        signal: new AbortController().signal,
        log: recordingLog(),
        onRunStarted: () => {},
        onRunSettled: () => {}
      },
      { modelId: 'm', categories: [], minSeverity: 'high', timeoutMs: 600_000 }
    )
    expect(outcome.end).toBe('unreadable')
    expect(outcome.triggered.runId).toBe('run_1')
    expect(outcome.decision.result).toBe('error')
    expect(outcome.decision.reason).toBe('the run status could not be read: GET /api/v1/run/run_1 HTTP 401 unauthorized: key revoked')
    expect(calls).toContain('cancelRun')
  })
})
