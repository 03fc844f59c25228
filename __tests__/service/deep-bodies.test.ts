/**
 * A deeply nested JSON body: about 100k levels, 200 KB,
 * on a 409, 404 or 503 and on a 200. Parsing and redaction are bounded: the
 * body is read as malformed (a service failure, retried like any malformed
 * answer or by its status), never a stack overflow reported as a bug; the
 * 503 is retried; and the gate still cancels its run when the status reads
 * keep answering such bodies.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { AssessmentClient } from '../../src/service/client.js'
import { MAX_BODY_DEPTH, nestedDeeperThan, parseErrorBody } from '../../src/service/parse-response.js'
import { MalformedResponseError, ServiceError, describeFailure, failureKind } from '../../src/util/errors.js'
import { headerValueText, scrubSecretsDeep } from '../../src/util/redact.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import type { RetryPolicy } from '../../src/util/retry-policy.js'
import { assess } from '../../src/gate/assess-run.js'
import { bodies } from '../__fixtures__/service-bodies.js'
import { fakeClock, startScriptedServer, type ScriptedServer } from '../__fixtures__/scripted-server.js'

const KEY = 'asas_test_SECRET_key_123456'
const POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 10,
  maxDelayMs: 20,
  maxRetryAfterMs: 1_000,
  minRetryAfterMs: 0,
  maxMalformedAttempts: 3
}
const LEVELS = 100_000
/** The service's error shape with an extra field 100k arrays deep: about 200 KB. */
const deepError = `{"detail":{"code":"run_in_progress","message":"m","extra":${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}}}`
const deepObject = `${'{"a":'.repeat(LEVELS)}1${'}'.repeat(LEVELS)}`

let server: ScriptedServer
beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(async () => {
  await server.stop()
})
beforeEach(() => {
  server.requests.length = 0
})

const client = () =>
  new AssessmentClient({
    baseUrl: server.url,
    apiKey: KEY,
    clock: fakeClock(),
    retryPolicy: POLICY,
    random: () => 0.5,
    log: recordingLog()
  })

async function failureOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e
  )
}

describe('bounded depth, pure', () => {
  it('measures depth without recursion, however deep', () => {
    expect(nestedDeeperThan(JSON.parse(deepError), MAX_BODY_DEPTH)).toBe(true)
    expect(nestedDeeperThan(JSON.parse(deepObject), MAX_BODY_DEPTH)).toBe(true)
    expect(nestedDeeperThan(JSON.parse(JSON.stringify(bodies.listFindings)), MAX_BODY_DEPTH)).toBe(false)
    expect(nestedDeeperThan([[[1]]], 3)).toBe(false)
    expect(nestedDeeperThan([[[[1]]]], 3)).toBe(true)
  })

  it('an error body nested too deep is read as a status without a body, in one line', () => {
    const parsed = parseErrorBody(409, 'Conflict', deepError)
    expect(parsed.message).toBe(`Conflict: error body nests deeper than ${MAX_BODY_DEPTH} levels (not read)`)
    expect(parseErrorBody(503, '', `{"detail":{"code":"x","message":"m","extra":${deepObject}}}`).message).toMatch(/nests deeper/)
  })

  it('redaction of a hand-built deep value stops at the bound instead of overflowing', () => {
    let v: unknown = 'asas_test_SECRET_key_123456'
    for (let i = 0; i < LEVELS; i++) v = [v]
    expect(() => scrubSecretsDeep(v, [KEY])).not.toThrow()
    expect(() => headerValueText(v)).not.toThrow()
  })
})

describe('through the client over HTTP', () => {
  it.each([
    ['409 from GET coverage', 409, (c: AssessmentClient) => c.getCoverage('r_1')],
    ['404 from GET run', 404, (c: AssessmentClient) => c.getRun('r_1')]
  ])('%s: a service failure with its status, never a bug', async (_what, status, call) => {
    server.script({ status, raw: deepError, headers: { 'content-type': 'application/json' } })
    const err = await failureOf(call(client()))
    expect(failureKind(err)).toBe('service')
    expect((err as ServiceError).status).toBe(status)
    expect(describeFailure(err)).toMatch(new RegExp(`HTTP ${status}: .*error body nests deeper than ${MAX_BODY_DEPTH} levels`))
    expect(describeFailure(err)).not.toMatch(/bug|stack|RangeError/i)
  })

  it('503 with the deep body is retried, then answers', async () => {
    server.script({ status: 503, raw: deepError }, { status: 200, body: bodies.getRun })
    await expect(client().getRun('r_1')).resolves.toMatchObject({ status: 'completed' })
    expect(server.requests).toHaveLength(2)
  })

  it('a 200 with a deep body is malformed: retried like any malformed answer, then a service failure', async () => {
    server.script({ status: 200, raw: deepObject })
    const err = await failureOf(client().getRun('r_1'))
    expect(err).toBeInstanceOf(MalformedResponseError)
    expect(describeFailure(err)).toMatch(/response body nests deeper than 64 levels/)
    expect(server.requests.length).toBe(POLICY.maxMalformedAttempts)
  })

  it('the gate still cancels its run when every status read answers 503 with the deep body', async () => {
    const started = { status: 202, body: { run_id: 'r_1', model_id: 'm', status: 'running', started_at: new Date().toISOString() } }
    const runs = { status: 200, body: { runs: [], total: 0, returned: 0 } }
    const deep503 = { status: 503, raw: deepError }
    server.script(
      runs, // the baseline
      started, // POST /run
      deep503, // GET /run: retried by the policy until it gives up
      deep503,
      deep503,
      { status: 202, body: {} }, // POST cancel
      { status: 200, body: { ...bodies.getRun, status: 'cancelled', categories_completed: [] } }
    )
    const log = recordingLog()
    const clock = fakeClock()
    const outcome = await assess(
      {
        makeApi: (deadline) =>
          new AssessmentClient({ baseUrl: server.url, apiKey: KEY, clock, deadline, retryPolicy: POLICY, random: () => 0.5, log }),
        clock,
        signal: new AbortController().signal,
        log,
        onRunStarted: () => {},
        onRunSettled: () => {}
      },
      { modelId: 'm', categories: [], minSeverity: 'high', timeoutMs: 600_000 }
    )
    expect(outcome.end).toBe('unreadable')
    expect(outcome.decision.result).toBe('error')
    expect(server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toContain('POST /api/v1/run/r_1/cancel')
    expect(outcome.decision.reason).toMatch(/HTTP 503: .*nests deeper than 64 levels/)
  })
})
