/**
 * The post step (src/action/post-step.ts) case by case, in-process, on a state its
 * main step sealed (fake-io.ts mainState) and a scripted ServiceApi: what it
 * cancels, what it says, the time it gives the service, and what it does when
 * it cannot read its inputs, the run's status or a github_token. The state it
 * will not read: state-seal.test.ts; through the bundle: job-env-e2e.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { runPost, POST_SETTLE_MS } from '../../src/action/post-step.js'
import type { Deadline } from '../../src/util/clock.js'
import { ServiceError } from '../../src/util/errors.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, logged, mainState, type FakeActionIO } from '../__fixtures__/fake-io.js'

const KEY = 'asas_key_post_step_0123456789'
const JOB = { GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'gate' }
const INPUTS = { model_id: 'm', api_key: KEY, base_url: 'https://asas.example.test' }
const PLANNED = ['jailbreak']

/** The post step of a main step that saved `entries`, with `inputs`; returns its io, the api calls and the deadline it was given. */
async function post(
  entries: Record<string, string>,
  methods: Partial<ServiceApi>,
  inputs: Record<string, string> = INPUTS
): Promise<{ io: FakeActionIO; calls: string[]; deadlines: Deadline[] }> {
  const io = fakeActionIO(inputs, { env: JOB, state: mainState(inputs, entries, JOB) })
  const api = fakeApi(methods)
  const deadlines: Deadline[] = []
  await runPost({
    io,
    clock: fakeClock(),
    makeApi: (_inputs, deadline) => {
      deadlines.push(deadline)
      return api
    }
  })
  return { io, calls: api.calls, deadlines }
}

const status = (s: string) => async () => ({ status: s, categories_planned: PLANNED, categories_completed: [] })
const cancelled = async (runId: string) => ({ run_id: runId, status: 'running', cancel_requested: true })
const unavailable = (endpoint: string) => () => {
  throw new ServiceError({ endpoint, status: 503, message: 'down' })
}

describe('a run the main step left running', () => {
  it('is cancelled with the settle time said, the client given twice that, and the stop reported', async () => {
    const { io, calls, deadlines } = await post({ run_id: 'run_1' }, { cancelRun: cancelled, getRun: status('cancelled') })
    expect(calls[0]).toBe('cancelRun')
    expect(deadlines.map((d) => d.remainingMs())).toEqual([2 * POST_SETTLE_MS])
    expect(POST_SETTLE_MS).toBe(5_000)
    expect(logged(io, 'info')).toEqual([
      'Cancelling run run_1 (the main step ended without seeing the run end); waiting up to 5 s for it to stop.',
      'Post step: cancel of run run_1 requested; it has stopped.'
    ])
    expect(io.failures).toEqual([])
  })

  it('that has not stopped within the settle time: the cancel is said, not a stop', async () => {
    const { io } = await post({ run_id: 'run_1', run_settled: 'false' }, { cancelRun: cancelled, getRun: status('running') })
    expect(logged(io, 'info')).toContain('Post step: cancel of run run_1 requested.')
    expect(logged(io, 'info').join('\n')).not.toMatch(/it has stopped/)
  })

  it('that the service says is not running: stopRun says so, and the post step claims no cancel', async () => {
    const { io, calls } = await post(
      { run_id: 'run_1' },
      {
        cancelRun: () => {
          throw new ServiceError({
            endpoint: 'POST /api/v1/run/run_1/cancel',
            status: 409,
            code: 'run_not_running',
            message: 'not running'
          })
        },
        getRun: status('completed')
      }
    )
    expect(calls).toEqual(['cancelRun', 'getRun'])
    expect(logged(io).filter((l) => l.startsWith('Post step: cancel of run'))).toEqual([])
  })

  it('settled by the main step: nothing is sent', async () => {
    const { io, calls } = await post({ run_id: 'run_1', run_settled: 'true' }, {})
    expect(calls).toEqual([])
    expect(logged(io, 'debug')).toContain('No run left running by the main step.')
  })

  it("with a cancel accepted for another run: this one's cancel is sent", async () => {
    const { calls } = await post({ run_id: 'run_1', cancel_requested: 'run_0' }, { cancelRun: cancelled, getRun: status('cancelled') })
    expect(calls[0]).toBe('cancelRun')
  })
})

describe("a run whose cancel the main step's was accepted: one read, no second cancel", () => {
  it.each<[string, Partial<ServiceApi>, string]>([
    [
      'it has stopped',
      { getRun: status('cancelled') },
      "Post step: run run_1 has stopped (status cancelled) after the main step's cancel."
    ],
    [
      'it is stopping',
      { getRun: status('running') },
      "Post step: the main step's cancel of run run_1 was accepted and the run is stopping (status running); not sending a second cancel."
    ],
    [
      'its status cannot be read',
      { getRun: unavailable('GET /api/v1/run/run_1') },
      "Post step: the main step's cancel of run run_1 was accepted; its status could not be read (GET /api/v1/run/run_1 HTTP 503: down); not sending a second cancel."
    ]
  ])('%s', async (_what, methods, line) => {
    const { io, calls } = await post({ run_id: 'run_1', cancel_requested: 'run_1' }, methods)
    expect(calls).toEqual(['getRun'])
    expect(logged(io, 'info')).toEqual([line])
    expect(logged(io, 'warning')).toEqual([])
  })

  it('a read that fails with a bug: a warning naming the run, never a failed post step', async () => {
    const { io } = await post(
      { run_id: 'run_1', cancel_requested: 'run_1' },
      {
        getRun: () => {
          throw new Error('boom')
        }
      }
    )
    expect(logged(io, 'warning')).toEqual([expect.stringMatching(/^Post step could not stop run run_1: .*boom/)])
    expect(io.failures).toEqual([])
  })
})

describe('inputs the post step cannot read', () => {
  const broken = { model_id: 'm', api_key: KEY, base_url: 'ftp://asas.example.test' }

  it.each<[string, Record<string, string>, RegExp]>([
    ['a run left running', { run_id: 'run_7' }, /^Post step could not stop run run_7: Configuration error in input 'base_url': /],
    [
      'a trigger never answered',
      { trigger_intent: JSON.stringify({ modelId: 'm', categories: [], baseline: null, sentAt: 0 }) },
      /^Post step could not stop the run of the interrupted trigger: Configuration error in input 'base_url': /
    ]
  ])('%s: a warning that says what was not stopped, and no request', async (_what, entries, line) => {
    const { io, calls, deadlines } = await post(entries, {}, broken)
    expect(deadlines).toEqual([])
    expect(calls).toEqual([])
    expect(logged(io, 'warning')).toEqual([expect.stringMatching(line)])
    expect(io.secrets).toContain(KEY)
  })
})

describe('the api_key the post step masks', () => {
  it('masks only a key it will use: none with nothing to stop, none too short to be a secret', async () => {
    const settled = await post({ run_id: 'run_1', run_settled: 'true' }, {})
    expect(settled.io.secrets).toEqual([])
    const { io } = await post({ run_id: 'run_7' }, {}, { ...INPUTS, api_key: 'k1' })
    expect(io.secrets).toEqual([])
    expect(logged(io, 'warning')).toEqual([
      expect.stringMatching(/^Post step could not stop run run_7: Configuration error in input 'api_key': is shorter than/)
    ])
  })
})

describe('a commit status the main step owes', () => {
  it('without a github_token: left pending with a warning saying why, and still owed', async () => {
    const owed = JSON.stringify({
      repo: { owner: 'octo', repo: 'agent' },
      status: { sha: 'b'.repeat(40), state: 'error', context: 'agent-security/m', description: 'stopped', targetUrl: null, owner: null }
    })
    const { io } = await post({ owed_status: owed }, {}, { ...INPUTS, github_token: '' })
    expect(logged(io, 'warning')).toEqual([
      'Post step: the commit status agent-security/m on bbbbbbb is left pending: github_token is empty.'
    ])
    expect(io.state.get('owed_status')).toBe(owed)
  })
})
