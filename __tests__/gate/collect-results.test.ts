/**
 * Reading the results after the run ended, against a scripted api on virtual
 * time: a 409 from coverage or findings (a read side that lags the status) is
 * retried after 1 s, 2 s and 4 s, then given up on (fail closed).
 */
import { describe, expect, it } from '@jest/globals'
import { collectResults, READ_LAG_RETRY_DELAYS_MS } from '../../src/gate/collect-results.js'
import type { CoverageResponse, FindingList } from '../../src/service/contract/index.js'
import { ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { makeFinding } from '../__fixtures__/builders.js'

const coverage: CoverageResponse = {
  run_id: 'run_1',
  run_status: 'completed',
  categories: [{ category: 'a', attacks_blocked: 3, attacks_succeeded: 0, owasp: 'LLM01:2025', atlas: 'AML.T0051', worst_severity: null }]
}
const findingList: FindingList = { findings: [makeFinding('low', { status: 'open', category: 'a' })], count: 1 }

function refusal(endpoint: string, status: number, code: string): ServiceError {
  return new ServiceError({ endpoint, status, code, message: `HTTP ${status}` })
}
const coverage409 = refusal('GET /api/v1/run/run_1/coverage', 409, 'run_in_progress')
const findings409 = refusal('GET /api/v1/run/run_1/findings', 409, 'run_in_progress')

/** Rejects with `error` the first `failures` times, then resolves with `value`. */
function flaky<T>(failures: number, error: Error, value: T): { read: () => Promise<T>; calls: () => number } {
  let n = 0
  return {
    read: async () => {
      n += 1
      if (n <= failures) throw error
      return value
    },
    calls: () => n
  }
}

function scripted(over: { getCoverage?: () => Promise<CoverageResponse>; listFindings?: () => Promise<FindingList> }) {
  return fakeApi({
    getCoverage: over.getCoverage ?? (async () => coverage),
    listFindings: over.listFindings ?? (async () => findingList),
    listRuns: async () => ({
      runs: [
        {
          run_id: 'run_1',
          status: 'completed',
          started_at: 't',
          findings_count: 1,
          ingest_incomplete: false,
          categories_planned: ['a'],
          completed_at: 't'
        }
      ],
      total: 1,
      returned: 1
    }),
    listModels: async () => ({ models: [] })
  })
}

describe('a 409 from coverage or findings after the run ended', () => {
  const cases: [string, 'coverage' | 'findings', number, Error, { reads: number; sleeps: number[]; readable: boolean; note?: RegExp }][] = [
    ['coverage read at once', 'coverage', 0, coverage409, { reads: 1, sleeps: [], readable: true }],
    ['coverage: one 409, then read', 'coverage', 1, coverage409, { reads: 2, sleeps: [1_000], readable: true }],
    ['coverage: three 409s, then read', 'coverage', 3, coverage409, { reads: 4, sleeps: [1_000, 2_000, 4_000], readable: true }],
    [
      'coverage: 409 on every read -> given up after about 7 s',
      'coverage',
      Infinity,
      coverage409,
      {
        reads: 4,
        sleeps: [1_000, 2_000, 4_000],
        readable: false,
        note: /^Coverage could not be read: GET \/api\/v1\/run\/run_1\/coverage HTTP 409 run_in_progress: HTTP 409\. still 409 after the run ended, retried 3 times over 7 s$/
      }
    ],
    ['findings: two 409s, then read', 'findings', 2, findings409, { reads: 3, sleeps: [1_000, 2_000], readable: true }],
    [
      'findings: 409 on every read -> given up',
      'findings',
      Infinity,
      findings409,
      {
        reads: 4,
        sleeps: [1_000, 2_000, 4_000],
        readable: false,
        note: /^Findings could not be read: .*HTTP 409.*retried 3 times over 7 s$/
      }
    ],
    [
      'a 409 without the documented code is retried too',
      'findings',
      1,
      refusal('GET /api/v1/run/run_1/findings', 409, 'conflict'),
      { reads: 2, sleeps: [1_000], readable: true }
    ],
    [
      'a 404 is not retried',
      'coverage',
      Infinity,
      refusal('GET /api/v1/run/run_1/coverage', 404, 'not_found'),
      { reads: 1, sleeps: [], readable: false, note: /^Coverage could not be read: .*HTTP 404/ }
    ],
    [
      'a 503 (after the client gave up on it) is not retried here',
      'findings',
      Infinity,
      refusal('GET /api/v1/run/run_1/findings', 503, 'unavailable'),
      { reads: 1, sleeps: [], readable: false }
    ]
  ]

  it.each(cases)('%s', async (_name, which, failures, error, expected) => {
    const clock = fakeClock()
    const log = recordingLog()
    const script = which === 'coverage' ? flaky(failures, error, coverage) : flaky(failures, error, findingList)
    const api = scripted(
      which === 'coverage'
        ? { getCoverage: script.read as () => Promise<CoverageResponse> }
        : { listFindings: script.read as () => Promise<FindingList> }
    )
    const results = await collectResults(api, 'run_1', 'm', { clock, log })
    expect(script.calls()).toBe(expected.reads)
    expect(clock.sleeps).toEqual(expected.sleeps)
    const value = which === 'coverage' ? results.coverage : results.findings
    expect(value !== null).toBe(expected.readable)
    if (expected.note) expect(results.notes).toEqual([expect.stringMatching(expected.note)])
    else if (expected.readable) expect(results.notes).toEqual([])
    // One info line per retry, naming the endpoint.
    expect(log.lines.filter((l) => l.level === 'info').map((l) => l.line)).toEqual(
      expected.sleeps.map(
        (ms) =>
          `${error instanceof ServiceError ? error.endpoint : ''}: HTTP 409${error instanceof ServiceError && error.code ? ` ${error.code}` : ''} although the run has ended; retrying in ${ms / 1000} s.`
      )
    )
  })

  it('waits at most the documented delays (about 7 s in all)', () => {
    expect(READ_LAG_RETRY_DELAYS_MS).toEqual([1_000, 2_000, 4_000])
  })

  it('retries coverage and findings side by side', async () => {
    const clock = fakeClock()
    const cov = flaky(1, coverage409, coverage)
    const fin = flaky(1, findings409, findingList)
    const results = await collectResults(scripted({ getCoverage: cov.read, listFindings: fin.read }), 'run_1', 'm', { clock })
    expect([cov.calls(), fin.calls()]).toEqual([2, 2])
    expect(results.coverage).not.toBeNull()
    expect(results.findings).not.toBeNull()
  })

  it('a cancelled step stops the wait, keeping what was read and saying what was not', async () => {
    const clock = fakeClock()
    const ac = new AbortController()
    ac.abort()
    const api = scripted({ getCoverage: flaky(Infinity, coverage409, coverage).read })
    const results = await collectResults(api, 'run_1', 'm', { clock, signal: ac.signal })
    expect(results.coverage).toBeNull()
    expect(results.notes).toContain('Coverage was not read: the step was cancelled.')
    expect(clock.sleeps).toEqual([])
  })
})

describe('the coverage envelope', () => {
  it.each([
    ['names this run', { run_id: 'run_1' }, true],
    ['leaves run_id out (optional)', { run_id: undefined }, true],
    ['has run_id null', { run_id: null }, true],
    ['names another run', { run_id: 'run_2' }, false]
  ] as const)('coverage that %s -> kept: %s', async (_name, patch, kept) => {
    const results = await collectResults(scripted({ getCoverage: async () => ({ ...coverage, ...patch }) }), 'run_1', 'm', {
      clock: fakeClock()
    })
    expect(results.coverage !== null).toBe(kept)
    if (!kept) expect(results.notes).toEqual(['Coverage could not be trusted: it names run run_2.'])
  })
})
