/**
 * The shell in-process: runMainAction and runPostAction (src/action/main-entry.ts, src/action/post-entry.ts), runMain and runPost with a
 * fake ActionIO (outputs, state, summary, failure), the fake clock and a
 * scripted ServiceApi. One test per scenario, as actions/create-github-app-token
 * does; the bundle itself is still run end to end in __tests__/e2e.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMainAction } from '../../src/action/main-entry.js'
import { runPostAction } from '../../src/action/post-entry.js'
import { runMain } from '../../src/action/main.js'
import { runPost } from '../../src/action/post-step.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import type { RunStatusResponse } from '../../src/service/contract/index.js'
import { ServiceError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, logged, mainState, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { makeFinding, PLANNED as PLANNED_CATEGORIES } from '../__fixtures__/builders.js'
import { scriptedService } from '../__fixtures__/scripted-service.js'

const PLANNED: string[] = [...PLANNED_CATEGORIES]
const KEY = 'asas_key_in_process_0123456789'
const done: Partial<RunStatusResponse> = { status: 'completed', categories_completed: PLANNED, verdict: 'pass' }

let runnerTemp: string
beforeAll(async () => {
  runnerTemp = await mkdtemp(join(tmpdir(), 'shell-test-'))
})
afterAll(async () => {
  await rm(runnerTemp, { recursive: true, force: true })
})

function io(inputs: Record<string, string> = {}, state?: Map<string, string>): FakeActionIO {
  return fakeActionIO(
    { model_id: 'm', api_key: KEY, base_url: 'https://asas.example.test', ...inputs },
    {
      env: { RUNNER_TEMP: runnerTemp, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '42' },
      state
    }
  )
}

/** The state a main step of io() left with `entries` saved (sealed as runMainAction seals it). */
function sealed(entries: Record<string, string>): Map<string, string> {
  return mainState({ api_key: KEY }, entries, { GITHUB_RUN_ID: '42' })
}

/** runMainAction (or runPostAction) with the fake clock and `api`; returns the io and how often the api was made. */
async function runStep(step: FakeActionIO, api: ServiceApi, action = runMainAction): Promise<{ made: number }> {
  let made = 0
  await action(step, {
    clock: fakeClock(),
    makeApi: () => {
      made += 1
      return api
    }
  })
  return { made }
}

/** Nothing the step wrote holds the key. */
function expectKeyKeptOut(step: FakeActionIO): void {
  expect(step.secrets).toContain(KEY)
  const everything = JSON.stringify([step.outputs, step.summary, step.annotations, step.failures, step.log.lines])
  expect(everything).not.toContain(KEY)
}

describe('the main step, in-process', () => {
  it('pass: outputs, summary, report.json, the run marked settled, the step not failed', async () => {
    const step = io()
    await runStep(step, scriptedService({ statuses: [{}, done] }))
    expect(step.failures).toEqual([])
    expect(step.outputs).toMatchObject({ result: 'pass', run_id: 'run_1', status: 'completed', verdict: 'pass', findings_count: '0' })
    expect(JSON.parse(step.outputs.categories_completed)).toEqual(PLANNED)
    const report = JSON.parse(await readFile(step.outputs.report_path, 'utf8')) as { model_id: string; result: string }
    expect(report).toMatchObject({ model_id: 'm', result: 'pass' })
    expect(step.summary.join('')).toContain('pass')
    expect(step.state.get('seal')).toMatch(/^[\w-]{22}\.[\w-]{43}$/)
    expect(step.state.get('run_id')).toBe('run_1')
    expect(step.state.get('run_settled')).toBe('true')
    expect(logged(step, 'info')).toContainEqual(expect.stringMatching(/^Result: pass: /))
    expectKeyKeptOut(step)
  })

  it('fail: an open finding at or above min_severity fails the step with the reason', async () => {
    const step = io()
    const findings = [makeFinding('high', { status: 'open', attacks: [] })]
    await runStep(step, scriptedService({ statuses: [done], findings: async () => ({ findings, count: 1 }) }))
    expect(step.outputs).toMatchObject({ result: 'fail', findings_count: '1' })
    expect(step.failures).toHaveLength(1)
    expect(step.failures[0]).toMatch(/^Result: fail: 1 open finding at or above high/)
    expect(step.annotations.length).toBeGreaterThan(0)
    expectKeyKeptOut(step)
  })

  it('incomplete: a planned category not completed fails the step', async () => {
    const step = io()
    await runStep(step, scriptedService({ statuses: [{ ...done, categories_completed: PLANNED.slice(0, 2) }] }))
    expect(step.outputs.result).toBe('incomplete')
    expect(step.failures).toHaveLength(1)
    expect(step.failures[0]).toMatch(/^Result: incomplete: /)
  })

  it('incomplete with fail_on_incomplete false: a warning, the step not failed', async () => {
    const step = io({ fail_on_incomplete: 'false' })
    await runStep(step, scriptedService({ statuses: [{ ...done, categories_completed: PLANNED.slice(0, 2) }] }))
    expect(step.outputs.result).toBe('incomplete')
    expect(step.failures).toEqual([])
    expect(logged(step, 'warning')).toContainEqual(expect.stringContaining('fail_on_incomplete is false'))
  })

  it('a configuration error: one line naming the input, nothing sent, result error', async () => {
    const step = io({ min_severity: 'urgent' })
    const { made } = await runStep(step, fakeApi({}))
    expect(made).toBe(0)
    expect(step.failures).toHaveLength(1)
    expect(step.failures[0]).toMatch(/^Configuration error in input 'min_severity': 'urgent' is not one of /)
    expect(step.failures[0]).not.toContain('\n')
    expect(step.outputs).toEqual({ result: 'error', assessments_spent: '0' })
    expect(step.summary.join('')).toContain("Configuration error in input 'min\\_severity'")
  })

  it('a service failure: endpoint, status, code and message in one line, no stack', async () => {
    const step = io()
    const api = scriptedService({
      statuses: [done],
      trigger: async () => {
        throw new ServiceError({ endpoint: 'POST /api/v1/run', status: 400, code: 'bad_request', message: `refused ${KEY}` })
      }
    })
    await runStep(step, api)
    expect(step.outputs).toEqual({ model_id: 'm', result: 'error', assessments_spent: '0' })
    expect(step.failures).toHaveLength(1)
    expect(step.failures[0]).toMatch(/^POST \/api\/v1\/run HTTP 400 bad_request: refused \*\*\*/)
    expect(step.failures[0]).not.toMatch(/\n\s+at /)
    expectKeyKeptOut(step)
  })

  it('a bug: the stack is kept so it can be reported', async () => {
    const step = io()
    await runStep(step, scriptedService({ statuses: [done], trigger: async () => Promise.reject(new TypeError('boom')) }))
    expect(step.failures).toHaveLength(1)
    expect(step.failures[0]).toMatch(/^Unexpected error \(a bug in this action, please report it\): TypeError: boom\n\s+at /)
  })

  it('runMain directly, with the deps the shell builds', async () => {
    const step = io()
    await runMain({
      io: step,
      clock: fakeClock(),
      signal: new AbortController().signal,
      makeApi: () => scriptedService({ statuses: [done] })
    })
    expect(step.outputs.result).toBe('pass')
    expect(step.failures).toEqual([])
  })

  it('a job cancelled after a pass was decided (while it is being published) ends error, never pass', async () => {
    const step = io()
    const cancel = new AbortController()
    // The summary is written just before the comment is published: the SIGINT lands there.
    const summaries = step.summary
    step.appendSummary = (markdown) => {
      summaries.push(markdown)
      cancel.abort()
      return Promise.resolve()
    }
    await runMain({ io: step, clock: fakeClock(), signal: cancel.signal, makeApi: () => scriptedService({ statuses: [done] }) })
    expect(step.outputs.result).toBe('error')
    expect(step.failures).toHaveLength(1)
    expect(step.failures[0]).toMatch(/^Result: error: the step was cancelled before it finished \(the assessment read pass/)
  })
})

describe('the post step, in-process', () => {
  it('cancels a run the main step left running, with the same key', async () => {
    const step = io({}, sealed({ run_id: 'run_1', run_settled: 'false' }))
    const statuses: string[] = ['running', 'cancelled']
    const api = fakeApi({
      cancelRun: async () => ({ run_id: 'run_1', status: 'running', cancel_requested: true }),
      getRun: async () => ({ status: statuses.shift() ?? 'cancelled', categories_planned: PLANNED, categories_completed: [] })
    })
    await runStep(step, api, runPostAction)
    expect(api.calls[0]).toBe('cancelRun')
    expect(step.secrets).toContain(KEY)
    expect(logged(step, 'info')).toContainEqual('Post step: cancel of run run_1 requested; it has stopped.')
    expect(step.failures).toEqual([])
  })

  it('after a main step that saw its run end: nothing to do, nothing sent', async () => {
    const step = io()
    await runStep(step, scriptedService({ statuses: [done] }))
    const post = io({}, step.state)
    const { made } = await runStep(post, fakeApi({}), runPostAction)
    expect(made).toBe(0)
    expect(logged(post, 'debug')).toContain('No run left running by the main step.')
    expect(post.failures).toEqual([])
  })

  it('a run that ended meanwhile: the post step says it sent a cancel and the service answered the run was not running', async () => {
    const step = io({}, sealed({ run_id: 'run_5' }))
    const api = fakeApi({
      cancelRun: async () => {
        throw new ServiceError({ endpoint: 'POST /api/v1/run/run_5/cancel', status: 409, code: 'run_not_running', message: 'not running' })
      },
      getRun: async () => ({ status: 'completed', categories_planned: PLANNED, categories_completed: PLANNED })
    })
    await runPost({ io: step, clock: fakeClock(), makeApi: () => api })
    expect(api.calls).toEqual(['cancelRun', 'getRun'])
    const lines = logged(step, 'info')
    expect(lines).toContainEqual(
      'Sent a cancel for run run_5 (the main step ended without seeing the run end): the service answered that it was not running; its status reads completed, so nothing was cancelled.'
    )
    expect(lines.join('\n')).not.toMatch(/had already ended|ended before the run did/)
    expect(step.failures).toEqual([])
  })

  it('runPost directly: a cancel that fails is a warning, never a failed step', async () => {
    const step = io({}, sealed({ run_id: 'run_9' }))
    const api = fakeApi({
      cancelRun: async () => {
        throw new ServiceError({ endpoint: 'POST /api/v1/run/run_9/cancel', status: 503, message: 'down' })
      }
    })
    await runPost({ io: step, clock: fakeClock(), makeApi: () => api })
    expect(logged(step, 'warning')).toContainEqual('Could not cancel run run_9: POST /api/v1/run/run_9/cancel HTTP 503: down')
    expect(step.failures).toEqual([])
  })
})
