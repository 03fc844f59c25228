/**
 * validate mode against a scripted fake of the service, on virtual time.
 *
 * The fake holds a small world: runs, their findings (with statuses that the
 * scripted validations change), and per finding a script of answers to POST
 * validate. A validation running in the background becomes visible in the
 * findings list after a number of reads, like the real service.
 */
import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../src/util/clock.js'
import type { Finding, FindingStatus, RunListItem, RunStatus, Severity, ValidateFindingResponse } from '../../src/service/contract/index.js'
import { AbortedError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { renderValidationMarkdown } from '../../src/report/validation.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { runValidateMode, type ValidateModeResult, type ValidatedFinding } from '../../src/validate/validate-mode.js'
import { NOT_ATTEMPTED_DETAIL } from '../../src/validate/outcomes.js'
import { replaysEndedSince } from '../../src/validate/follow.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { makeAttack, makeFinding, makeRunListItem } from '../__fixtures__/builders.js'

// ---------------------------------------------------------------------------
// The scripted world
// ---------------------------------------------------------------------------

/** A validation running in the background: after `reads` unfiltered reads of its run's findings, the status becomes `final`. */
interface Pending {
  reads: number
  final: FindingStatus
}

type Step =
  | { verdict: 'resolved' | 'still_broken' | 'not_eligible' }
  | { validating: Pending }
  /** `pending`: the request did start a replay (409 of someone else's, or an ambiguous failure that got through). `effect`: it already finished. */
  | { error: ServiceError; pending?: Pending; effect?: FindingStatus }

interface FindingSpec {
  id: string
  run: string
  severity?: Severity
  category?: string
  status?: FindingStatus
  attacks?: number
  script?: Step[]
}

interface RunSpec {
  id: string
  status?: RunStatus
  /** listFindings answers 409 run_in_progress (a run whose list item was stale). */
  busy?: boolean
}

function svcError(
  status: number | undefined,
  code: string | undefined,
  message: string,
  more: Partial<ConstructorParameters<typeof ServiceError>[0]> = {}
): ServiceError {
  return new ServiceError({ endpoint: 'POST /api/v1/findings/x/validate', status, code, message, ...more })
}

function findingOf(spec: FindingSpec): Finding {
  const n = spec.attacks ?? 2
  return makeFinding(spec.severity ?? 'high', {
    finding_id: spec.id,
    category: spec.category ?? 'prompt_injection',
    description: 'd',
    expected_behavior: 'e',
    status: spec.status ?? 'fixed',
    created_at: '2026-11-20T00:00:00Z',
    attacks: Array.from({ length: n }, (_, i) =>
      makeAttack({
        attack_id: `${spec.id}_a${i + 1}`,
        score: 80,
        source: { source_type: 'manual', assessment_id: spec.run, attack_index: i, date: '2026-11-20T00:00:00Z' },
        replay_script: [{ step: 'chat', message: 'hi' }],
        last_replay_status: 'pending',
        created_at: '2026-11-20T00:00:00Z',
        last_replayed_at: null
      })
    )
  })
}

function runItem(spec: RunSpec): RunListItem {
  return makeRunListItem({
    run_id: spec.id,
    status: spec.status ?? 'completed',
    started_at: '2026-11-20T00:00:00Z',
    categories_planned: ['prompt_injection'],
    completed_at: spec.status === 'running' ? null : '2026-11-20T01:00:00Z'
  })
}

/** The status a finished replay leaves, and its attacks' replay statuses. */
function settle(f: Finding, status: FindingStatus): void {
  f.status = status
  f.attacks.forEach((a, i) => {
    a.last_replay_status = status === 'FIXED_VERIFIED' ? 'not_reproduced' : i === 0 ? 'reproduced' : 'not_reproduced'
    a.last_replayed_at = '2026-11-21T12:00:00Z'
  })
}

function world(runs: RunSpec[], findings: FindingSpec[]) {
  const byId = new Map<string, { spec: FindingSpec; f: Finding; pending: Pending | null; script: Step[] }>()
  const byRun = new Map<string, Finding[]>()
  for (const spec of findings) {
    // The same id in two runs is the same finding (one state, the first script).
    const f = byId.get(spec.id)?.f ?? findingOf(spec)
    if (!byId.has(spec.id)) byId.set(spec.id, { spec, f, pending: null, script: [...(spec.script ?? [])] })
    byRun.set(spec.run, [...(byRun.get(spec.run) ?? []), f])
  }
  const validated: string[] = []
  const trace: string[] = []
  const api = fakeApi({
    listRuns: async (_modelId, query) => {
      trace.push(`listRuns limit=${query?.limit}`)
      const items = runs.map(runItem).slice(0, query?.limit ?? 20)
      return { runs: items, total: runs.length, returned: items.length }
    },
    listFindings: async (runId, query) => {
      trace.push(`listFindings ${runId}${query?.status ? ` status=${query.status}` : ''}`)
      if (runs.find((r) => r.id === runId)?.busy) {
        throw new ServiceError({
          endpoint: `GET /api/v1/run/${runId}/findings`,
          status: 409,
          code: 'run_in_progress',
          message: 'run still in progress'
        })
      }
      const list = byRun.get(runId) ?? []
      if (!query?.status) {
        for (const f of list) {
          const e = byId.get(f.finding_id)!
          if (e.pending) {
            e.pending.reads -= 1
            if (e.pending.reads <= 0) {
              settle(f, e.pending.final)
              e.pending = null
            }
          }
        }
      }
      const out = list.filter((f) => !query?.status || f.status === query.status).map((f) => structuredClone(f))
      return { findings: out, count: out.length }
    },
    validateFinding: async (id): Promise<ValidateFindingResponse> => {
      trace.push(`validate ${id}`)
      validated.push(id)
      const e = byId.get(id)
      if (!e) throw svcError(404, 'not_found', 'unknown finding')
      const step = e.script.shift()
      if (!step) throw new Error(`no scripted answer left for ${id}`)
      if ('error' in step) {
        if (step.pending) e.pending = { ...step.pending }
        if (step.effect) settle(e.f, step.effect)
        throw step.error
      }
      if ('validating' in step) {
        e.pending = { ...step.validating }
        return { finding_id: id, replay_run_id: `rpl_${id}`, verdict: 'validating', finding: structuredClone(e.f) }
      }
      if (step.verdict === 'resolved') settle(e.f, 'FIXED_VERIFIED')
      if (step.verdict === 'still_broken') settle(e.f, 'open')
      return {
        finding_id: id,
        replay_run_id: step.verdict === 'not_eligible' ? '' : `rpl_${id}`,
        verdict: step.verdict,
        finding: structuredClone(e.f)
      }
    }
  })
  return { api, validated, trace, findings: byId }
}

async function run(
  w: { api: ServiceApi },
  opts: { timeoutMs?: number; maxRuns?: number; failOnIncomplete?: boolean; signal?: AbortSignal } = {}
): Promise<{ result: ValidateModeResult; clock: ReturnType<typeof fakeClock>; log: ReturnType<typeof recordingLog> }> {
  const clock = fakeClock()
  const log = recordingLog()
  const deadline = Deadline.after(clock, opts.timeoutMs ?? 30 * 60_000)
  const result = await runValidateMode(
    { api: w.api, clock, deadline, log, random: () => 0.5, ...(opts.signal ? { signal: opts.signal } : {}) },
    { modelId: 'mdl_1', maxRuns: opts.maxRuns ?? 20, failOnIncomplete: opts.failOnIncomplete ?? true }
  )
  return { result, clock, log }
}

function byId(result: ValidateModeResult, id: string): ValidatedFinding {
  const f = result.findings.find((x) => x.finding_id === id)
  if (!f) throw new Error(`finding ${id} not in the result`)
  return f
}

const R1 = { id: 'run_1' }

// ---------------------------------------------------------------------------
// One finding, one answer
// ---------------------------------------------------------------------------

describe('runValidateMode: outcome of a single fixed finding', () => {
  const cases: {
    name: string
    script: Step[]
    timeoutMs?: number
    outcome: ValidatedFinding['outcome']
    status: FindingStatus | null
    detail: RegExp
    validateCalls: number
    replay?: string[]
  }[] = [
    {
      name: 'verdict resolved',
      script: [{ verdict: 'resolved' }],
      outcome: 'resolved',
      status: 'FIXED_VERIFIED',
      detail: /FIXED_VERIFIED/,
      validateCalls: 1,
      replay: ['not_reproduced', 'not_reproduced']
    },
    {
      name: 'verdict still_broken',
      script: [{ verdict: 'still_broken' }],
      outcome: 'still_broken',
      status: 'open',
      detail: /1 of 2 attacks still reproduces; the finding is open again/,
      validateCalls: 1,
      replay: ['reproduced', 'not_reproduced']
    },
    {
      name: 'verdict not_eligible',
      script: [{ verdict: 'not_eligible' }],
      outcome: 'not_eligible',
      status: 'fixed',
      detail: /no replay run was spent/,
      validateCalls: 1
    },
    {
      name: 'validating, followed to FIXED_VERIFIED',
      script: [{ validating: { reads: 3, final: 'FIXED_VERIFIED' } }],
      outcome: 'resolved',
      status: 'FIXED_VERIFIED',
      detail: /FIXED_VERIFIED/,
      validateCalls: 1,
      replay: ['not_reproduced', 'not_reproduced']
    },
    {
      name: 'validating, followed to open',
      script: [{ validating: { reads: 2, final: 'open' } }],
      outcome: 'still_broken',
      status: 'open',
      detail: /still reproduces/,
      validateCalls: 1
    },
    {
      name: 'validating, followed to a status the description does not name: not resolved',
      script: [{ validating: { reads: 2, final: 'reopened' } }],
      outcome: 'still_broken',
      status: 'reopened',
      detail: /the finding is now reopened, a status this action does not know; not counted as resolved/,
      validateCalls: 1
    },
    {
      name: 'validating past the deadline',
      script: [{ validating: { reads: Number.POSITIVE_INFINITY, final: 'FIXED_VERIFIED' } }],
      timeoutMs: 90_000,
      outcome: 'not_attempted',
      status: 'fixed',
      detail: /^still validating when timeout_minutes ran out$/,
      validateCalls: 1
    },
    {
      name: '409 validation_in_progress, followed (no second validation)',
      script: [{ error: svcError(409, 'validation_in_progress', 'already running'), pending: { reads: 2, final: 'FIXED_VERIFIED' } }],
      outcome: 'resolved',
      status: 'FIXED_VERIFIED',
      detail: /FIXED_VERIFIED/,
      validateCalls: 1
    },
    {
      name: '409, the other validation ends still_broken leaving the status fixed: asks again, and its own verdict counts',
      script: [
        { error: svcError(409, 'validation_in_progress', 'already running'), pending: { reads: 2, final: 'fixed' } },
        { verdict: 'still_broken' }
      ],
      outcome: 'still_broken',
      status: 'open',
      detail: /1 of 2 attacks still reproduces/,
      validateCalls: 2
    },
    {
      name: '409, the other validation ends leaving the status fixed, asked again: resolved',
      script: [
        { error: svcError(409, 'validation_in_progress', 'already running'), pending: { reads: 3, final: 'fixed' } },
        { verdict: 'resolved' }
      ],
      outcome: 'resolved',
      status: 'FIXED_VERIFIED',
      detail: /FIXED_VERIFIED/,
      validateCalls: 2
    },
    {
      name: '429 with Retry-After inside the deadline, then success',
      script: [
        { error: svcError(429, 'replay_cap_exceeded', 'at most 2 validations at once', { retryAfterMs: 30_000, transient: true }) },
        { verdict: 'resolved' }
      ],
      outcome: 'resolved',
      status: 'FIXED_VERIFIED',
      detail: /FIXED_VERIFIED/,
      validateCalls: 2
    },
    {
      name: '403 proof_withheld',
      script: [{ error: svcError(403, 'proof_withheld', 'the plan withholds proof') }],
      outcome: 'not_attempted',
      status: 'fixed',
      detail: /plan withholds the proof.*needs a plan that includes proof/,
      validateCalls: 1
    },
    {
      name: '422 replay_unwireable',
      script: [{ error: svcError(422, 'replay_unwireable', 'this target uses the websocket transport') }],
      outcome: 'not_attempted',
      status: 'fixed',
      detail: /cannot be wired for replay.*reachable.*HTTP transport.*credentials.*websocket transport/,
      validateCalls: 1
    },
    {
      name: '404 unknown finding',
      script: [{ error: svcError(404, 'not_found', 'unknown finding') }],
      outcome: 'not_attempted',
      status: null,
      detail: /404/,
      validateCalls: 1
    },
    {
      name: 'ambiguous failure; the replay got through and finished: read back, not validated again',
      script: [{ error: svcError(502, undefined, 'bad gateway', { transient: true, ambiguous: true }), effect: 'FIXED_VERIFIED' }],
      outcome: 'resolved',
      status: 'FIXED_VERIFIED',
      detail: /FIXED_VERIFIED/,
      validateCalls: 1
    },
    {
      name: 'ambiguous failure; the replay got through and still runs: retry meets 409 and follows it',
      script: [
        {
          error: svcError(undefined, 'ECONNRESET', 'socket hang up', { transient: true, ambiguous: true }),
          pending: { reads: 3, final: 'open' }
        },
        { error: svcError(409, 'validation_in_progress', 'already running') }
      ],
      outcome: 'still_broken',
      status: 'open',
      detail: /open again/,
      validateCalls: 2
    },
    {
      name: 'ambiguous failure; nothing happened: read back still fixed, then validated again',
      script: [
        { error: svcError(503, 'service_unavailable', 'unavailable', { transient: true, ambiguous: true }) },
        { verdict: 'still_broken' }
      ],
      outcome: 'still_broken',
      status: 'open',
      detail: /still reproduces/,
      validateCalls: 2
    }
  ]

  it.each(cases)('$name', async (c) => {
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: c.script }])
    const { result } = await run(w, c.timeoutMs === undefined ? {} : { timeoutMs: c.timeoutMs })
    expect(result.findings).toHaveLength(1)
    const f = byId(result, 'f_1')
    expect(f.outcome).toBe(c.outcome)
    expect(f.finding_status).toBe(c.status)
    expect(f.detail).toMatch(c.detail)
    expect(f.detail).not.toMatch(/\n/)
    expect(f.run_id).toBe('run_1')
    expect(f.category).toBe('prompt_injection')
    expect(f.severity).toBe('high')
    expect(w.validated).toHaveLength(c.validateCalls)
    if (c.replay) expect(f.attacks.map((a) => a.last_replay_status)).toEqual(c.replay)
    expect(f.attacks.map((a) => a.attack_id)).toEqual(['f_1_a1', 'f_1_a2'])
  })
})

describe('runValidateMode: after a 409, what the attacks show', () => {
  it('replays that ended before the 409 (unchanged since read) do not count: it keeps following, no second validation', async () => {
    const w = world(
      [R1],
      [
        {
          id: 'f_1',
          run: 'run_1',
          script: [
            {
              error: svcError(409, 'validation_in_progress', 'already running'),
              pending: { reads: Number.POSITIVE_INFINITY, final: 'fixed' }
            }
          ]
        }
      ]
    )
    for (const a of w.findings.get('f_1')!.f.attacks) {
      a.last_replay_status = 'reproduced'
      a.last_replayed_at = '2026-11-20T00:00:00Z'
    }
    const { result } = await run(w, { timeoutMs: 120_000 })
    expect(byId(result, 'f_1')).toMatchObject({ outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.stillValidating })
    expect(w.validated).toHaveLength(1)
  })

  it('says why it asks again', async () => {
    const w = world(
      [R1],
      [
        {
          id: 'f_1',
          run: 'run_1',
          script: [
            { error: svcError(409, 'validation_in_progress', 'already running'), pending: { reads: 1, final: 'fixed' } },
            { verdict: 'resolved' }
          ]
        }
      ]
    )
    const { log, clock } = await run(w)
    expect(
      log.lines.some((l) =>
        l.line.includes(
          'other validation has ended (every attack replayed since the 409: f_1_a1 reproduced, f_1_a2 not_reproduced), but the finding still reads fixed; asking for a validation again'
        )
      )
    ).toBe(true)
    // Well before the deadline.
    expect(clock.now() - Date.parse('2026-11-21T12:00:00Z')).toBeLessThan(60_000)
  })

  it('asks again at most twice, then follows to the deadline', async () => {
    const again = { error: svcError(409, 'validation_in_progress', 'already running'), pending: { reads: 1, final: 'fixed' as const } }
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [again, again, again] }])
    const { result } = await run(w, { timeoutMs: 120_000 })
    expect(w.validated).toHaveLength(3)
    expect(byId(result, 'f_1').outcome).toBe('not_attempted')
  })

  it.each<[string, { status: string; at: string | null }[], (string | null)[], boolean]>([
    [
      'every attack replayed after the 409',
      [
        { status: 'reproduced', at: '2026-11-21T12:00:10Z' },
        { status: 'not_reproduced', at: '2026-11-21T12:00:12Z' }
      ],
      [null, null],
      true
    ],
    [
      'one still pending',
      [
        { status: 'pending', at: '2026-11-21T12:00:10Z' },
        { status: 'reproduced', at: '2026-11-21T12:00:12Z' }
      ],
      [null, null],
      false
    ],
    [
      'one not replayed since',
      [
        { status: 'reproduced', at: '2026-11-21T12:00:10Z' },
        { status: 'reproduced', at: '2026-11-20T00:00:00Z' }
      ],
      [null, '2026-11-20T00:00:00Z'],
      false
    ],
    [
      'service clock behind, but the replay time moved since read',
      [{ status: 'reproduced', at: '2026-11-21T11:50:00Z' }],
      ['2026-11-20T00:00:00Z'],
      true
    ],
    ['an unreadable time', [{ status: 'reproduced', at: 'yesterday' }], [null], false]
  ])('replaysEndedSince: %s -> %s', (_what, now, before, expected) => {
    const mk = (attacks: { status: string; at: string | null }[]): Finding => ({
      ...findingOf({ id: 'f', run: 'r', attacks: attacks.length }),
      attacks: findingOf({ id: 'f', run: 'r', attacks: attacks.length }).attacks.map((a, i) => ({
        ...a,
        last_replay_status: attacks[i].status,
        last_replayed_at: attacks[i].at
      }))
    })
    const since = Date.parse('2026-11-21T12:00:00Z')
    expect(replaysEndedSince(mk(now), mk(before.map((at) => ({ status: 'reproduced', at }))), since)).toBe(expected)
  })
})

describe('runValidateMode: waiting and following', () => {
  it('follows a validating verdict with growing, bounded waits and stops polling once the status changes', async () => {
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [{ validating: { reads: 8, final: 'FIXED_VERIFIED' } }] }])
    const { clock } = await run(w)
    const reads = w.trace.filter((t) => t === 'listFindings run_1')
    expect(reads).toHaveLength(8)
    expect(clock.sleeps).toHaveLength(8)
    expect(clock.sleeps[1]).toBeGreaterThan(clock.sleeps[0])
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(15_000 * 1.2)
    expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(2_000 * 0.8)
  })

  it('never polls past the deadline while following', async () => {
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [{ validating: { reads: Number.POSITIVE_INFINITY, final: 'open' } }] }])
    const start = Date.parse('2026-11-21T12:00:00Z')
    const { clock } = await run(w, { timeoutMs: 120_000 })
    expect(clock.now() - start).toBeLessThanOrEqual(120_000)
  })

  it('waits as long as Retry-After says on a 429', async () => {
    const w = world(
      [R1],
      [
        {
          id: 'f_1',
          run: 'run_1',
          script: [
            { error: svcError(429, 'replay_cap_exceeded', 'concurrency', { retryAfterMs: 42_000, transient: true }) },
            { verdict: 'resolved' }
          ]
        }
      ]
    )
    const { clock, log } = await run(w)
    expect(clock.sleeps).toEqual([42_000])
    expect(log.lines.some((l) => l.line.includes('waiting 42 s'))).toBe(true)
  })

  it('429 beyond the deadline: this finding and all after it are not attempted, without further calls', async () => {
    const w = world(
      [R1],
      [
        { id: 'f_1', run: 'run_1', script: [{ verdict: 'resolved' }] },
        {
          id: 'f_2',
          run: 'run_1',
          script: [
            {
              error: svcError(429, 'replay_cap_exceeded', 'the daily replay cap (100) is spent', {
                retryAfterMs: 6 * 3600_000,
                transient: true
              })
            }
          ]
        },
        { id: 'f_3', run: 'run_1', script: [{ verdict: 'resolved' }] }
      ]
    )
    const { result, clock } = await run(w, { timeoutMs: 10 * 60_000 })
    expect(result.findings.map((f) => f.outcome)).toEqual(['resolved', 'not_attempted', 'not_attempted'])
    expect(byId(result, 'f_2').detail).toMatch(/^daily replay cap or concurrency limit reached: the daily replay cap \(100\) is spent/)
    expect(byId(result, 'f_3').detail).toBe(NOT_ATTEMPTED_DETAIL.capReached)
    expect(w.validated).toEqual(['f_1', 'f_2'])
    expect(clock.sleeps).toEqual([])
    expect(result.failed).toBe(true)
  })

  it('repeated 429s keep waiting while they fit, then give up at the deadline', async () => {
    const e = (): Step => ({ error: svcError(429, 'replay_cap_exceeded', 'concurrency', { retryAfterMs: 60_000, transient: true }) })
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [e(), e(), e(), e(), e()] }])
    const { result, clock } = await run(w, { timeoutMs: 200_000 })
    expect(clock.sleeps).toEqual([60_000, 60_000, 60_000])
    expect(byId(result, 'f_1').outcome).toBe('not_attempted')
    expect(w.validated).toHaveLength(4)
  })

  it('a 429 without Retry-After still waits a little before retrying', async () => {
    const w = world(
      [R1],
      [
        {
          id: 'f_1',
          run: 'run_1',
          script: [{ error: svcError(429, 'replay_cap_exceeded', 'x', { transient: true }) }, { verdict: 'resolved' }]
        }
      ]
    )
    const { result, clock } = await run(w)
    expect(byId(result, 'f_1').outcome).toBe('resolved')
    expect(clock.sleeps).toHaveLength(1)
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(1_000)
  })

  it('an ambiguous failure reads the finding back before the next attempt', async () => {
    const w = world(
      [R1],
      [
        {
          id: 'f_1',
          run: 'run_1',
          script: [{ error: svcError(500, 'internal_error', 'oops', { transient: true, ambiguous: true }) }, { verdict: 'resolved' }]
        }
      ]
    )
    await run(w)
    const afterCollect = w.trace.slice(w.trace.indexOf('validate f_1'))
    expect(afterCollect).toEqual(['validate f_1', 'listFindings run_1', 'validate f_1'])
  })

  it('persistent ambiguous failures propagate after a bounded number of attempts', async () => {
    const e = (): Step => ({ error: svcError(502, undefined, 'bad gateway', { transient: true, ambiguous: true }) })
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [e(), e(), e(), e(), e()] }])
    await expect(run(w)).rejects.toBeInstanceOf(ServiceError)
    expect(w.validated).toHaveLength(3)
  })

  it.each([
    ['401 unauthorized', svcError(401, 'unauthorized', 'bad key')],
    ['403 insufficient_scope', svcError(403, 'insufficient_scope', 'no')],
    ['400 with no code', svcError(400, undefined, 'bad request')]
  ])('other service errors propagate: %s', async (_name, err) => {
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [{ error: err }] }])
    await expect(run(w)).rejects.toBe(err)
  })

  it('an abort while following propagates as AbortedError', async () => {
    const ctl = new AbortController()
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [{ validating: { reads: Number.POSITIVE_INFINITY, final: 'open' } }] }])
    const api = w.api
    let reads = 0
    const wrapped = new Proxy(api, {
      get(t, p: string) {
        if (p === 'listFindings') {
          return async (...a: Parameters<ServiceApi['listFindings']>) => {
            if (++reads === 3) ctl.abort()
            return api.listFindings(...a)
          }
        }
        return (t as unknown as Record<string, unknown>)[p]
      }
    }) as ServiceApi
    await expect(run({ api: wrapped }, { signal: ctl.signal })).rejects.toBeInstanceOf(AbortedError)
  })
})

describe('runValidateMode: many findings', () => {
  it('403 proof_withheld stops after the first: the same answer holds for all', async () => {
    const w = world(
      [R1],
      [
        { id: 'f_1', run: 'run_1', script: [{ error: svcError(403, 'proof_withheld', 'withheld') }] },
        { id: 'f_2', run: 'run_1', script: [{ verdict: 'resolved' }] },
        { id: 'f_3', run: 'run_1', script: [{ verdict: 'resolved' }] }
      ]
    )
    const { result, log } = await run(w)
    expect(w.validated).toEqual(['f_1'])
    expect(result.findings.map((f) => [f.outcome, f.detail])).toEqual([
      ['not_attempted', NOT_ATTEMPTED_DETAIL.proofWithheld],
      ['not_attempted', NOT_ATTEMPTED_DETAIL.proofWithheld],
      ['not_attempted', NOT_ATTEMPTED_DETAIL.proofWithheld]
    ])
    expect(log.lines.filter((l) => l.level === 'warning')).toHaveLength(1)
  })

  it('422 unwireable affects only that finding; the others are validated', async () => {
    const w = world(
      [R1],
      [
        { id: 'f_1', run: 'run_1', script: [{ error: svcError(422, 'replay_unwireable', 'an attack has no replayable message') }] },
        { id: 'f_2', run: 'run_1', script: [{ verdict: 'resolved' }] }
      ]
    )
    const { result } = await run(w)
    expect(result.findings.map((f) => f.outcome)).toEqual(['not_attempted', 'resolved'])
  })

  it('dedupes across runs (most recent run wins) and skips running and in-progress runs', async () => {
    const w = world(
      [{ id: 'run_live', status: 'running' }, { id: 'run_new' }, { id: 'run_stale', busy: true }, { id: 'run_old' }],
      [
        { id: 'f_1', run: 'run_new', script: [{ verdict: 'resolved' }] },
        { id: 'f_1', run: 'run_old', script: [] },
        { id: 'f_2', run: 'run_old', script: [{ verdict: 'still_broken' }] },
        { id: 'f_open', run: 'run_old', status: 'open' },
        { id: 'f_live', run: 'run_live', script: [{ verdict: 'resolved' }] }
      ]
    )
    const { result } = await run(w)
    expect(result.findings.map((f) => [f.finding_id, f.run_id])).toEqual([
      ['f_1', 'run_new'],
      ['f_2', 'run_old']
    ])
    expect(w.validated).toEqual(['f_1', 'f_2'])
    expect(w.trace).not.toContain('listFindings run_live status=fixed')
    expect(w.trace).toContain('listFindings run_stale status=fixed')
    expect(result.runsScanned).toBe(2)
  })

  it('validates the most severe first, then in run order', async () => {
    const w = world(
      [{ id: 'run_a' }, { id: 'run_b' }],
      [
        { id: 'low_a', run: 'run_a', severity: 'low', script: [{ verdict: 'resolved' }] },
        { id: 'high_a', run: 'run_a', severity: 'high', script: [{ verdict: 'resolved' }] },
        { id: 'crit_b', run: 'run_b', severity: 'critical', script: [{ verdict: 'resolved' }] },
        { id: 'high_b', run: 'run_b', severity: 'high', script: [{ verdict: 'resolved' }] }
      ]
    )
    await run(w)
    expect(w.validated).toEqual(['crit_b', 'high_a', 'high_b', 'low_a'])
  })

  it('passes max_runs to the run list, clamped to the service range', async () => {
    for (const [maxRuns, limit] of [
      [5, 5],
      [500, 100],
      [0, 1]
    ] as const) {
      const w = world([R1], [])
      await run(w, { maxRuns })
      expect(w.trace[0]).toBe(`listRuns limit=${limit}`)
    }
  })

  it('logs progress per finding and a result line', async () => {
    const w = world(
      [R1],
      [
        { id: 'f_1', run: 'run_1', category: 'data_leakage', severity: 'critical', script: [{ verdict: 'resolved' }] },
        { id: 'f_2', run: 'run_1', script: [{ verdict: 'still_broken' }] }
      ]
    )
    const { log } = await run(w)
    const lines = log.lines.map((l) => l.line)
    expect(lines).toContain('Validating 1/2: finding f_1 (data_leakage, critical)…')
    expect(lines).toContain('Validating 2/2: finding f_2 (prompt_injection, high)…')
    expect(lines.some((l) => l.includes('→ resolved:'))).toBe(true)
    expect(lines.some((l) => l.includes('→ still broken:'))).toBe(true)
  })

  it('a deadline already spent leaves every finding not attempted without a validate call', async () => {
    const w = world([R1], [{ id: 'f_1', run: 'run_1', script: [{ verdict: 'resolved' }] }])
    const { result } = await run(w, { timeoutMs: 0 })
    expect(w.validated).toEqual([])
    expect(byId(result, 'f_1')).toMatchObject({ outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.timedOutBefore })
  })
})

describe('runValidateMode: counts and the failed flag', () => {
  const S = {
    resolved: { verdict: 'resolved' } as Step,
    broken: { verdict: 'still_broken' } as Step,
    ineligible: { verdict: 'not_eligible' } as Step,
    unwireable: { error: svcError(422, 'replay_unwireable', 'no') } as Step
  }
  const cases: {
    name: string
    steps: Step[]
    failOnIncomplete: boolean
    counts: [number, number, number, number]
    failed: boolean
    reason: RegExp
  }[] = [
    { name: 'nothing fixed', steps: [], failOnIncomplete: true, counts: [0, 0, 0, 0], failed: false, reason: /No findings marked fixed/ },
    {
      name: 'all resolved',
      steps: [S.resolved, S.resolved],
      failOnIncomplete: true,
      counts: [2, 0, 0, 0],
      failed: false,
      reason: /2 resolved\. Every fix/
    },
    {
      name: 'one still broken',
      steps: [S.resolved, S.broken],
      failOnIncomplete: false,
      counts: [1, 1, 0, 0],
      failed: true,
      reason: /1 still broken.*Failing: a fix does not hold/
    },
    {
      name: 'not eligible does not fail',
      steps: [S.ineligible, S.resolved],
      failOnIncomplete: true,
      counts: [1, 0, 1, 0],
      failed: false,
      reason: /1 not eligible/
    },
    {
      name: 'not attempted fails by default',
      steps: [S.unwireable, S.resolved],
      failOnIncomplete: true,
      counts: [1, 0, 0, 1],
      failed: true,
      reason: /Failing: not every finding/
    },
    {
      name: 'not attempted passes with fail_on_incomplete false',
      steps: [S.unwireable, S.resolved],
      failOnIncomplete: false,
      counts: [1, 0, 0, 1],
      failed: false,
      reason: /Passing: fail_on_incomplete is false/
    },
    {
      name: 'mixed',
      steps: [S.resolved, S.broken, S.ineligible, S.unwireable, S.resolved],
      failOnIncomplete: false,
      counts: [2, 1, 1, 1],
      failed: true,
      reason: /5 fixed findings/
    }
  ]
  it.each(cases)('$name', async (c) => {
    const w = world(
      [R1],
      c.steps.map((s, i) => ({ id: `f_${i + 1}`, run: 'run_1', script: [s] }))
    )
    const { result } = await run(w, { failOnIncomplete: c.failOnIncomplete })
    expect([result.resolved, result.stillBroken, result.notEligible, result.notAttempted]).toEqual(c.counts)
    expect(result.findings).toHaveLength(c.steps.length)
    expect(result.failed).toBe(c.failed)
    expect(result.reason).toMatch(c.reason)
    expect(result.runsScanned).toBe(1)
  })
})

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

function vf(over: Partial<ValidatedFinding>): ValidatedFinding {
  return {
    finding_id: 'f_1',
    category: 'prompt_injection',
    severity: 'high',
    run_id: 'run_1',
    outcome: 'resolved',
    detail: 'ok',
    finding_status: 'FIXED_VERIFIED',
    attacks: [{ attack_id: 'a_1', last_replay_status: 'not_reproduced' }],
    ...over
  }
}

function resultOf(findings: ValidatedFinding[], over: Partial<ValidateModeResult> = {}): ValidateModeResult {
  const n = (o: ValidatedFinding['outcome']): number => findings.filter((f) => f.outcome === o).length
  return {
    findings,
    resolved: n('resolved'),
    stillBroken: n('still_broken'),
    notEligible: n('not_eligible'),
    notAttempted: n('not_attempted'),
    runsScanned: 1,
    failed: n('still_broken') > 0,
    reason: 'r',
    ...over
  }
}

/** Table rows of the rendered markdown, split on unescaped pipes. */
function tableRows(md: string): string[][] {
  return md
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .map((l) => l.split(/(?<!\\)\|/).slice(1, -1))
}

describe('renderValidationMarkdown', () => {
  it('lists every finding with category, severity, outcome and replay status per attack, most urgent first', () => {
    const md = renderValidationMarkdown(
      resultOf([
        vf({ finding_id: 'f_ok' }),
        vf({
          finding_id: 'f_bad',
          outcome: 'still_broken',
          finding_status: 'open',
          severity: 'critical',
          attacks: [
            { attack_id: 'a_1', last_replay_status: 'reproduced' },
            { attack_id: 'a_2', last_replay_status: 'not_reproduced' }
          ]
        })
      ]),
      { modelId: 'mdl_1' }
    )
    const rows = tableRows(md)
    expect(rows).toHaveLength(3)
    expect(rows.every((r) => r.length === 5)).toBe(true)
    expect(rows[0].map((c) => c.trim())).toEqual(['Outcome', 'Finding', 'Category', 'Replays', 'Detail'])
    expect(rows[1].join('|')).toMatch(/still broken \(open\).*🔴 `f_bad`.*1\/2 reproduced/)
    expect(rows[2].join('|')).toMatch(/resolved \(FIXED_VERIFIED\).*🟠 `f_ok`/)
    expect(md.split('\n')[0]).toBe('### ❌ Agent security validation: fail · 1 of 2 fixes do not hold · mdl\\_1')
  })

  it.each([
    [resultOf([]), /^### ✅ Agent security validation: pass · nothing marked fixed to validate · m\n/],
    [resultOf([vf({})]), /^### ✅ Agent security validation: pass · 1 of 1 fix holds · m\n/],
    [
      resultOf([vf({ outcome: 'not_attempted' })], { failed: true }),
      /^### ❌ Agent security validation: fail · 1 of 1 could not be validated · m\n/
    ],
    [
      resultOf([vf({ outcome: 'not_attempted' })], { failed: false }),
      /^### ⚠️ Agent security validation: pass · 1 of 1 could not be validated · m\n/
    ]
  ])('headline %#', (result, headline) => {
    expect(renderValidationMarkdown(result, { modelId: 'm' })).toMatch(headline)
  })

  it('keeps hostile service text inert: no broken table, no HTML, no mentions, no line breaks', () => {
    const hostile = 'x | y\n\n## Injected <img src=x onerror=alert(1)> @octocat #12 [link](https://evil.example) `code`'
    const md = renderValidationMarkdown(
      resultOf(
        [
          vf({
            finding_id: hostile,
            category: hostile,
            detail: hostile,
            attacks: [{ attack_id: hostile, last_replay_status: 'weird<b>' }],
            finding_status: 'PWNED|x'
          })
        ],
        { reason: hostile }
      ),
      { modelId: hostile }
    )
    const rows = tableRows(md)
    expect(rows).toHaveLength(2)
    expect(rows.every((r) => r.length === 5)).toBe(true)
    // Inside code spans text is shown literally; outside them nothing may be live.
    const live = md.replace(/(`+)[^\n]*?\1/g, '')
    expect(live).toContain('＠octocat')
    expect(live).not.toMatch(/<img|<b>/)
    expect(live).not.toMatch(/@octocat/)
    expect(live).not.toMatch(/(^|[^\\])#12/)
    expect(live).not.toMatch(/\]\(https:\/\/evil/)
    expect(md).not.toMatch(/^#+ Injected/m)
  })

  it('bounds the table and says how many rows were left out', () => {
    const many = Array.from({ length: 400 }, (_, i) => vf({ finding_id: `f_${i}` }))
    const md = renderValidationMarkdown(resultOf(many), { modelId: 'm' })
    expect(tableRows(md).length).toBeLessThan(400)
    expect(md).toMatch(/more findings not shown/)
    expect(md.length).toBeLessThan(65_000)
  })
})
