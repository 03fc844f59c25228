/**
 * Stopping a run: what the cancel answered, what the status then reads, and
 * the one consistent line the log says about it. Scripted api, virtual time.
 */
import { describe, expect, it } from '@jest/globals'
import type { RunStatusResponse } from '../../src/service/contract/index.js'
import { ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { stopRun, type StopResult } from '../../src/gate/stop-run.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'

const notRunning = new ServiceError({
  endpoint: 'POST /api/v1/run/run_1/cancel',
  status: 409,
  code: 'run_not_running',
  message: 'the run is completed, not running'
})
const forbidden = new ServiceError({
  endpoint: 'POST /api/v1/run/run_1/cancel',
  status: 403,
  code: 'insufficient_scope',
  message: 'no test:run'
})
const unreadable = new ServiceError({ endpoint: 'GET /api/v1/run/run_1', status: 503, message: 'busy' })

/** A minimal status body: only the fields the description guarantees. */
function status(s: string): RunStatusResponse {
  return { status: s, categories_planned: ['a'], categories_completed: [] }
}

interface Row {
  /** What cancelRun resolves with, or the error it rejects with. */
  cancel: { body: unknown } | { error: Error }
  /** Status reads in order (the last repeats); an Error is a failed read. */
  reads: (RunStatusResponse | Error)[]
  expected: Pick<StopResult, 'requested' | 'settled' | 'notRunning'>
  /** Every info and warning line, in order. */
  lines: [level: 'info' | 'warning', RegExp][]
}

const cancelling: [level: 'info', RegExp] = ['info', /^Cancelling run run_1 \(timeout\); waiting up to 15 s for it to stop\.$/]

const rows: [string, Row][] = [
  [
    '202 with the emulator body, then cancelled',
    {
      cancel: { body: { run_id: 'run_1', status: 'running', cancel_requested: true } },
      reads: [status('running'), status('cancelled')],
      expected: { requested: true, settled: true, notRunning: false },
      lines: [cancelling]
    }
  ],
  [
    '202 with an empty body',
    {
      cancel: { body: '' },
      reads: [status('cancelled')],
      expected: { requested: true, settled: true, notRunning: false },
      lines: [cancelling]
    }
  ],
  [
    '202 with {}',
    {
      cancel: { body: {} },
      reads: [status('cancelled')],
      expected: { requested: true, settled: true, notRunning: false },
      lines: [cancelling]
    }
  ],
  [
    '202 with {"status":"cancelling"}',
    {
      cancel: { body: { status: 'cancelling' } },
      reads: [status('cancelled')],
      expected: { requested: true, settled: true, notRunning: false },
      lines: [cancelling]
    }
  ],
  [
    '202, but the run never stops',
    {
      cancel: { body: undefined },
      reads: [status('running')],
      expected: { requested: true, settled: false, notRunning: false },
      lines: [cancelling, ['warning', /^Run run_1 had not stopped 15 s after the cancel request \(its status still reads running\)\.$/]]
    }
  ],
  [
    '202, then an unknown status that never ends',
    {
      cancel: { body: {} },
      reads: [status('cancelling')],
      expected: { requested: true, settled: false, notRunning: false },
      lines: [cancelling, ['warning', /had not stopped 15 s after the cancel request \(its status still reads cancelling\)\.$/]]
    }
  ],
  [
    '409, and the status is terminal: the cancel was sent, the run was not running',
    {
      cancel: { error: notRunning },
      reads: [status('completed')],
      expected: { requested: true, settled: true, notRunning: true },
      lines: [
        [
          'info',
          /^Sent a cancel for run run_1 \(timeout\): the service answered that it was not running; its status reads completed, so nothing was cancelled\.$/
        ]
      ]
    }
  ],
  [
    '409, and the status catches up a moment later',
    {
      cancel: { error: notRunning },
      reads: [status('running'), status('error')],
      expected: { requested: true, settled: true, notRunning: true },
      lines: [['info', /not running; its status reads error, so nothing was cancelled/]]
    }
  ],
  [
    '409, but the status still reads running: says both, not "had not stopped"',
    {
      cancel: { error: notRunning },
      reads: [status('running')],
      expected: { requested: true, settled: false, notRunning: true },
      lines: [
        [
          'warning',
          /^Sent a cancel for run run_1 \(timeout\): the service answered that it was not running, but its status still reads running after 15 s\.$/
        ]
      ]
    }
  ],
  [
    '409, and the status cannot be read',
    {
      cancel: { error: notRunning },
      reads: [unreadable],
      expected: { requested: true, settled: false, notRunning: true },
      lines: [['warning', /answered that it was not running, but its status could not be read after 15 s\.$/]]
    }
  ],
  [
    '403: not requested, nothing read',
    {
      cancel: { error: forbidden },
      reads: [status('running')],
      expected: { requested: false, settled: false, notRunning: false },
      lines: [['warning', /^Could not cancel run run_1: POST \/api\/v1\/run\/run_1\/cancel HTTP 403 insufficient_scope: no test:run$/]]
    }
  ]
]

describe('stopRun', () => {
  it.each(rows)('%s', async (_name, row) => {
    const clock = fakeClock()
    const log = recordingLog()
    let n = 0
    const api = fakeApi({
      cancelRun: async () => {
        if ('error' in row.cancel) throw row.cancel.error
        return row.cancel.body
      },
      getRun: async () => {
        const r = row.reads[Math.min(n, row.reads.length - 1)]
        n += 1
        if (r instanceof Error) throw r
        return r
      }
    })
    const result = await stopRun({ api, clock, log }, 'run_1', { settleMs: 15_000, why: 'timeout' })
    expect({ requested: result.requested, settled: result.settled, notRunning: result.notRunning }).toEqual(row.expected)
    const lines = log.lines.filter((l) => l.level !== 'debug')
    expect(lines.map((l) => l.level)).toEqual(row.lines.map(([level]) => level))
    lines.forEach((l, i) => {
      expect(l.line).toMatch(row.lines[i][1])
    })
    // Never both "not running" and "had not stopped".
    expect(
      lines.some((l) => l.line.includes('answered that it was not running')) && lines.some((l) => l.line.includes('had not stopped'))
    ).toBe(false)
    // Bounded by settleMs on virtual time.
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(15_000)
  })
})
