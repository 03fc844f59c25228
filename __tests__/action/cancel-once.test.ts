/**
 * The trigger is a recorded intent, and a run is cancelled once: in-process, the main step's gate and the post step share
 * the step state as the runner carries it; the service is a small stateful
 * fake whose run list, status and cancel follow the description.
 */
import { describe, expect, it } from '@jest/globals'
import { assess, type GateDeps } from '../../src/gate/assess-run.js'
import { runPost } from '../../src/action/post-step.js'
import { saveCancelRequested, saveRunStarted, saveRunSettled, saveTriggerIntent } from '../../src/action/saved-state.js'
import type { RunListItem, RunStatusResponse } from '../../src/service/contract/index.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { AbortedError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, mainState } from '../__fixtures__/fake-io.js'

const INPUTS = { model_id: 'm', api_key: 'asas_test_key', base_url: 'https://asas.example.com', categories: 'jailbreak' }

/** A service with one model: runs, their status, and cancels that stop a run only after `stopAfterMs`. */
function service(clock: ReturnType<typeof fakeClock>, opts: { stopAfterMs?: number } = {}) {
  const runs: (RunListItem & { cancelAt: number | null })[] = []
  const cancels: string[] = []
  const statusOf = (r: (typeof runs)[number]): RunListItem['status'] =>
    r.cancelAt !== null && clock.now() >= r.cancelAt ? 'cancelled' : r.status
  const create = (planned: string[]): string => {
    const run_id = `run_${runs.length + 1}`
    runs.unshift({
      run_id,
      status: 'running',
      started_at: new Date(clock.now()).toISOString(),
      findings_count: 0,
      ingest_incomplete: false,
      categories_planned: planned,
      completed_at: null,
      cancelAt: null
    })
    return run_id
  }
  const methods: Partial<ServiceApi> = {
    listRuns: async () => {
      const list = runs.map(({ cancelAt: _c, ...r }) => ({ ...r, status: statusOf({ ...r, cancelAt: _c }) }))
      return { runs: list, total: list.length, returned: list.length }
    },
    getRun: async (id): Promise<RunStatusResponse> => {
      const r = runs.find((x) => x.run_id === id)
      if (!r) throw new ServiceError({ endpoint: 'GET /api/v1/run', status: 404, message: 'not found' })
      return { status: statusOf(r), categories_planned: r.categories_planned, categories_completed: [], verdict: null }
    },
    cancelRun: async (id) => {
      cancels.push(id)
      const r = runs.find((x) => x.run_id === id)!
      if (statusOf(r) !== 'running')
        throw new ServiceError({ endpoint: 'POST /api/v1/run/cancel', status: 409, code: 'run_not_running', message: 'not running' })
      r.cancelAt = clock.now() + (opts.stopAfterMs ?? 2_000)
      return {}
    }
  }
  return { runs, cancels, create, methods }
}

function gateDeps(
  api: ServiceApi,
  clock: ReturnType<typeof fakeClock>,
  signal: AbortSignal,
  io: ReturnType<typeof fakeActionIO>
): GateDeps {
  return {
    makeApi: () => api,
    clock,
    signal,
    log: io.log,
    onRunStarted: (id) => {
      saveRunStarted(io, id)
    },
    onRunSettled: () => {
      saveRunSettled(io)
    },
    onTriggerIntent: (i) => {
      saveTriggerIntent(io, i)
    },
    onCancelRequested: (id) => {
      saveCancelRequested(io, id)
    }
  }
}

const ARGS = { modelId: 'm', categories: ['jailbreak'], minSeverity: 'high' as const, timeoutMs: 600_000 }

describe('an abort while POST /run is pending', () => {
  it('the main step finds the run the service created, cancels it once, and the post step sends no second cancel', async () => {
    const clock = fakeClock()
    const svc = service(clock)
    const controller = new AbortController()
    const api = fakeApi({
      ...svc.methods,
      // The service creates the run, but its 202 never arrives: the job is cancelled meanwhile.
      triggerRun: (_body, opts) =>
        new Promise((_resolve, reject) => {
          svc.create(['jailbreak'])
          opts?.signal?.addEventListener(
            'abort',
            () => {
              reject(new AbortedError())
            },
            { once: true }
          )
          controller.abort()
        })
    })
    const io = fakeActionIO(INPUTS, { state: mainState(INPUTS) })
    await expect(assess(gateDeps(api, clock, controller.signal, io), ARGS)).rejects.toBeInstanceOf(AbortedError)
    expect(svc.cancels).toEqual(['run_1'])
    expect(io.log.lines.some((l) => l.line.includes('interrupted trigger created run run_1'))).toBe(true)
    expect(io.state.get('cancel_requested')).toBe('run_1')

    // The post step, with the state the main step left.
    const post = fakeActionIO(INPUTS, { state: io.state })
    await runPost({ io: post, clock, makeApi: () => api })
    expect(svc.cancels).toEqual(['run_1'])
  })

  it('the post step finds and cancels the run when the main step was killed before it learnt the run id', async () => {
    const clock = fakeClock()
    const svc = service(clock)
    const state = mainState(INPUTS)
    const main = fakeActionIO(INPUTS, { state: state })
    saveTriggerIntent(main, { modelId: 'm', categories: ['jailbreak'], baseline: [], sentAt: clock.now() })
    svc.create(['jailbreak'])
    const post = fakeActionIO(INPUTS, { state: state })
    await runPost({ io: post, clock, makeApi: () => fakeApi(svc.methods) })
    expect(svc.cancels).toEqual(['run_1'])
    expect(svc.runs[0].cancelAt).not.toBeNull()
    // Within the post step's 5 s, and saying why.
    expect(post.log.lines.map((l) => l.line)).toContain(
      'Cancelling run run_1 (the main step ended before its trigger was answered); waiting up to 5 s for it to stop.'
    )
  })

  it("the post step never cancels a run it cannot show its trigger created (another gate's, other categories)", async () => {
    const clock = fakeClock()
    const svc = service(clock)
    const state = mainState(INPUTS)
    saveTriggerIntent(fakeActionIO(INPUTS, { state: state }), {
      modelId: 'm',
      categories: ['jailbreak'],
      baseline: [],
      sentAt: clock.now()
    })
    svc.create(['prompt_injection'])
    const post = fakeActionIO(INPUTS, { state: state })
    await runPost({ io: post, clock, makeApi: () => fakeApi(svc.methods) })
    expect(svc.cancels).toEqual([])
    expect(
      post.log.lines.some((l) =>
        /plans categories prompt_injection where this step asked for categories jailbreak.*not cancelling/.test(l.line)
      )
    ).toBe(true)
  })
})

describe('one cancel per run', () => {
  it('the post step does not send a second cancel when the run had not stopped within the main step’s 5 s', async () => {
    const clock = fakeClock()
    // The run takes 20 s to stop after the cancel: longer than the main step waits.
    const svc = service(clock, { stopAfterMs: 20_000 })
    const controller = new AbortController()
    let polls = 0
    const api = fakeApi({
      ...svc.methods,
      triggerRun: async () => ({
        run_id: svc.create(['jailbreak']),
        model_id: 'm',
        status: 'running',
        started_at: new Date(clock.now()).toISOString()
      }),
      // The job is cancelled while the run is being watched.
      getRun: async (...a) => {
        polls += 1
        if (polls === 2) controller.abort()
        return svc.methods.getRun!(...a)
      }
    })
    const io = fakeActionIO(INPUTS, { state: mainState(INPUTS) })
    const outcome = await assess(gateDeps(api, clock, controller.signal, io), ARGS)
    expect(outcome.decision.result).toBe('error')
    expect(svc.cancels).toEqual(['run_1'])
    expect(io.state.get('run_settled')).toBe('false')
    expect(io.state.get('cancel_requested')).toBe('run_1')

    const post = fakeActionIO(INPUTS, { state: io.state })
    await runPost({ io: post, clock, makeApi: () => fakeApi(svc.methods) })
    expect(svc.cancels).toEqual(['run_1'])
    expect(
      post.log.lines.some((l) =>
        l.line.includes('cancel of run run_1 was accepted and the run is stopping (status running); not sending a second cancel')
      )
    ).toBe(true)
  })

  it('the post step cancels when the main step’s cancel was not accepted', async () => {
    const clock = fakeClock()
    const svc = service(clock)
    const state = mainState(INPUTS)
    const main = fakeActionIO(INPUTS, { state: state })
    saveRunStarted(main, svc.create(['jailbreak']))
    const post = fakeActionIO(INPUTS, { state: state })
    await runPost({ io: post, clock, makeApi: () => fakeApi(svc.methods) })
    expect(svc.cancels).toEqual(['run_1'])
  })
})

describe('an abort during the result reads', () => {
  it('stops the reads, keeps what was read, and never passes', async () => {
    const clock = fakeClock()
    const controller = new AbortController()
    const log = recordingLog()
    let coverageCalls = 0
    const api = fakeApi({
      triggerRun: async () => ({ run_id: 'run_1', model_id: 'm', status: 'running', started_at: new Date(clock.now()).toISOString() }),
      listRuns: async () => ({ runs: [], total: 0, returned: 0 }),
      getRun: async () => ({
        status: 'completed',
        categories_planned: ['jailbreak'],
        categories_completed: ['jailbreak'],
        verdict: 'pass'
      }),
      // A slow read: it answers only when the step is cancelled (then with the abort).
      getCoverage: (_id, opts) =>
        new Promise((_resolve, reject) => {
          coverageCalls += 1
          opts?.signal?.addEventListener(
            'abort',
            () => {
              reject(new AbortedError())
            },
            { once: true }
          )
          controller.abort()
        }),
      listFindings: async () => ({ findings: [], count: 0 }),
      listModels: async () => ({ models: [] })
    })
    const outcome = await assess(
      { makeApi: () => api, clock, signal: controller.signal, log, onRunStarted: () => {}, onRunSettled: () => {} },
      ARGS
    )
    expect(coverageCalls).toBe(1)
    expect(outcome.decision.result).not.toBe('pass')
    expect(outcome.decision.result).toBe('error')
    expect(outcome.decision.reason).toMatch(/the step was cancelled while the results were read/)
    expect(outcome.results.notes).toContain('Coverage was not read: the step was cancelled.')
  })
})
