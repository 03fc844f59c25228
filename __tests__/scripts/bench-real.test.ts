/**
 * The pure helpers of the real benchmark (scripts/bench-real.ts): what it
 * reads from the emulator's request log. No timing is asserted here: the
 * logs are built by hand with the arrival times they would carry.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  afterEndFromLogs,
  bundleSize,
  detectionFromLog,
  fixedIntervalPolls,
  isStatusPoll,
  manyFindingsInput,
  median,
  percentile
} from '../../scripts/bench-real.js'
import { buildReport } from '../../src/report/build-report.js'

interface Entry {
  at: number
  method: string
  path: string
  endpoint: string
}

const RUN = 'run_abc'
const poll = (at: number, runId = RUN): Entry => ({ at, method: 'GET', path: `/api/v1/run/${runId}`, endpoint: 'getRun' })
const req = (at: number, endpoint: string, path: string, method = 'GET'): Entry => ({ at, method, path, endpoint })

describe('median and percentile', () => {
  it.each([
    [[], NaN],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, 10, 1, 10], 10]
  ])('median(%j) = %p', (xs, want) => {
    expect(median(xs)).toEqual(want)
  })

  it('does not reorder its input', () => {
    const xs = [3, 1, 2]
    median(xs)
    expect(xs).toEqual([3, 1, 2])
  })

  it.each([
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5, 5],
    [[7], 0.95, 7],
    [[4, 2], 0.5, 2],
    [[], 0.5, NaN]
  ])('percentile(%j, %p) = %p (nearest rank)', (xs, q, want) => {
    expect(percentile(xs, q)).toEqual(want)
  })
})

describe('isStatusPoll', () => {
  it.each([
    [poll(0), true],
    [{ ...poll(0), path: `/api/v1/run/${RUN}/` }, true],
    [poll(0, 'run_other'), false],
    [req(0, 'getCoverage', `/api/v1/run/${RUN}/coverage`), false],
    [{ ...poll(0), method: 'POST', endpoint: 'cancelRun' }, false],
    [{ ...poll(0), endpoint: 'unknown' }, false]
  ])('%j -> %p', (e, want) => {
    expect(isStatusPoll(e as never, RUN)).toBe(want)
  })
})

describe('detectionFromLog', () => {
  it('takes the first poll of the run arriving at or after the end, and counts only that run’s status polls', () => {
    const log = [
      req(900, 'triggerRun', '/api/v1/run', 'POST'),
      poll(1_000),
      poll(5_000),
      poll(6_000, 'run_other'),
      poll(9_000),
      poll(10_400),
      req(10_410, 'getCoverage', `/api/v1/run/${RUN}/coverage`)
    ]
    expect(detectionFromLog(log as never, RUN, 10_000)).toEqual({ polls: 4, terminalPollAt: 10_400, latencyMs: 400 })
  })

  it('a poll arriving exactly at the end is the terminal one (latency 0)', () => {
    expect(detectionFromLog([poll(1_000), poll(2_000)] as never, RUN, 2_000)).toEqual({ polls: 2, terminalPollAt: 2_000, latencyMs: 0 })
  })

  it('when no poll arrived after the end, the last poll saw it (answered after the end): latency 0', () => {
    expect(detectionFromLog([poll(1_000), poll(1_999)] as never, RUN, 2_000)).toEqual({ polls: 2, terminalPollAt: 1_999, latencyMs: 0 })
  })

  it('no poll of the run: nothing detected', () => {
    expect(detectionFromLog([poll(5_000, 'run_other')] as never, RUN, 1_000)).toEqual({ polls: 0, terminalPollAt: null, latencyMs: null })
  })
})

describe('fixedIntervalPolls', () => {
  it.each([
    [0, 1_000, 1],
    [999, 1_000, 2],
    [1_000, 1_000, 2],
    [1_001, 1_000, 3],
    [30_000, 1_000, 31],
    [30_200, 5_000, 8],
    [-5, 1_000, 1]
  ])('%p ms at %p ms -> %p polls', (duration, interval, want) => {
    expect(fixedIntervalPolls(duration, interval)).toBe(want)
  })

  it('refuses a non-positive interval', () => {
    expect(() => fixedIntervalPolls(1_000, 0)).toThrow()
  })
})

describe('bundleSize', () => {
  it('counts the entry file, and every JavaScript file of the folder but the maps and licences', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-bundle-'))
    try {
      writeFileSync(join(dir, 'index.js'), 'x'.repeat(300))
      writeFileSync(join(dir, '587.index.js'), 'x'.repeat(20))
      writeFileSync(join(dir, 'index.js.map'), 'x'.repeat(4000))
      writeFileSync(join(dir, 'licenses.txt'), 'x'.repeat(500))
      expect(bundleSize(dir)).toEqual({ entryBytes: 300, allBytes: 320 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('afterEndFromLogs', () => {
  const terminal = 50_000
  const log = [
    poll(40_000),
    poll(terminal),
    req(terminal + 5, 'getCoverage', `/api/v1/run/${RUN}/coverage`),
    req(terminal + 6, 'listFindings', `/api/v1/run/${RUN}/findings`),
    req(terminal + 6, 'listRuns', '/api/v1/model/m/run'),
    req(terminal + 8, 'listModels', '/api/v1/model'),
    req(terminal + 9, 'demo-agent', '/chat', 'POST'),
    req(terminal + 400, 'triggerRun', '/api/v1/run', 'POST') // after the exit: not counted
  ]

  it('splits the time after the end by the reads, the GitHub requests and the exit', () => {
    expect(afterEndFromLogs(log as never, [terminal + 80, terminal + 95, 10], terminal, terminal + 110)).toEqual({
      totalMs: 110,
      readsIssuedMs: 8,
      reads: 4,
      otherServiceRequests: 0,
      toFirstGitHubMs: 80,
      gitHubSpanMs: 15,
      gitHubRequests: 2,
      tailMs: 15
    })
  })

  it('counts a service request other than the result reads (a sequential chain would show)', () => {
    const extra = [...log, req(terminal + 50, 'getRun', `/api/v1/run/${RUN}`)]
    expect(afterEndFromLogs(extra as never, [], terminal, terminal + 110)).toMatchObject({ reads: 4, otherServiceRequests: 1 })
  })

  it('without GitHub requests the tail runs from the last read', () => {
    expect(afterEndFromLogs(log as never, [], terminal, terminal + 60)).toMatchObject({
      toFirstGitHubMs: null,
      gitHubSpanMs: null,
      gitHubRequests: 0,
      tailMs: 52
    })
  })
})

describe('manyFindingsInput', () => {
  it('builds a valid report input with the asked number of findings, every severity present', () => {
    const input = manyFindingsInput(40)
    expect(input.findings).toHaveLength(40)
    expect(new Set(input.findings!.map((f) => f.severity))).toEqual(new Set(['critical', 'high', 'medium', 'low']))
    const report = buildReport(input)
    expect(JSON.stringify(report)).not.toContain('tgt-secret-bench')
  })
})
