import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../src/util/clock.js'
import type { RunListItem, TriggerRunResponse } from '../../src/service/contract/index.js'
import { ConfigError, DeadlineExceededError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { triggerRun, UnprovenRunError } from '../../src/gate/trigger.js'
import type { TriggerIntent } from '../../src/gate/run-ownership.js'
import { fakeApi as bareFakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'

const ok = (clockNow: number, id = 'run_1'): TriggerRunResponse => ({
  run_id: id,
  model_id: 'm',
  status: 'running',
  started_at: new Date(clockNow).toISOString()
})
/** The security category list of these tests: a full-taxonomy run plans these. */
const FULL = ['prompt_injection', 'jailbreak']
const item = (id: string, startedAtMs: number, status: RunListItem['status'] = 'running'): RunListItem => ({
  run_id: id,
  status,
  started_at: new Date(startedAtMs).toISOString(),
  findings_count: 0,
  ingest_incomplete: false,
  categories_planned: [...FULL],
  completed_at: null
})
const svcErr = (status: number | undefined, code: string, extra: Partial<ConstructorParameters<typeof ServiceError>[0]> = {}) =>
  new ServiceError({ endpoint: 'POST /api/v1/run', status, code, message: code, ...extra })

/** The model has no earlier runs unless a test says otherwise. */
const fakeApi: typeof bareFakeApi = (methods) =>
  bareFakeApi({
    listRuns: async () => ({ runs: [], total: 0, returned: 0 }),
    listCategories: async () => ({ lens: 'security', categories: FULL.map((key) => ({ key, display_name: key, description: key })) }),
    ...methods
  })

function setup(timeoutMs = 600_000) {
  const clock = fakeClock()
  const log = recordingLog()
  const deadline = Deadline.after(clock, timeoutMs)
  return { clock, log, deadline, random: () => 0.5 }
}

describe('triggerRun', () => {
  it('returns the run on 202 and sends categories only when given', async () => {
    const s = setup()
    const bodies: unknown[] = []
    const api = fakeApi({ triggerRun: async (b) => (bodies.push(b), ok(s.clock.now())) })
    const t = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(t).toMatchObject({ runId: 'run_1', recovered: false, waitedFor: [] })
    await triggerRun({ ...s, api }, { modelId: 'm', categories: ['a', 'b'] })
    expect(bodies).toEqual([{ model_id: 'm' }, { model_id: 'm', categories: ['a', 'b'] }])
  })

  it('waits for another run of the model on 409 run_active, then triggers ours, never adopting it', async () => {
    const s = setup()
    let active = true
    let listCalls = 0
    const api = fakeApi({
      triggerRun: async () => {
        if (active) throw svcErr(409, 'run_active')
        return ok(s.clock.now(), 'run_ours')
      },
      listRuns: async () => {
        listCalls += 1
        if (listCalls >= 3) active = false
        const runs = active ? [item('run_other', s.clock.now() - 60_000)] : []
        return { runs, total: runs.length, returned: runs.length }
      }
    })
    const t = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(t.runId).toBe('run_ours')
    expect(t.waitedFor).toEqual(['run_other'])
    expect(s.log.lines.some((l) => l.line.includes('Another assessment of model m is running (run run_other)'))).toBe(true)
    expect(s.log.lines.some((l) => l.line.includes('has ended; triggering ours'))).toBe(true)
  })

  it('gives up waiting for another run at the deadline with advice', async () => {
    const s = setup(60_000)
    const api = fakeApi({
      triggerRun: async () => {
        throw svcErr(409, 'run_active')
      },
      listRuns: async () => ({ runs: [item('run_other', 0)], total: 1, returned: 1 })
    })
    await expect(triggerRun({ ...s, api }, { modelId: 'm', categories: [] })).rejects.toThrow(/concurrency group/)
  })

  it('waits as Retry-After says on 429 and retries', async () => {
    const s = setup()
    let n = 0
    const api = fakeApi({
      triggerRun: async () => {
        n += 1
        if (n === 1) throw svcErr(429, 'rate_limited', { retryAfterMs: 7_000, transient: true })
        return ok(s.clock.now())
      }
    })
    await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(s.clock.sleeps).toEqual([7_000])
    expect(s.log.lines.some((l) => l.line.includes('asked to retry after 7 s: retrying in 7 s'))).toBe(true)
  })

  it('fails when Retry-After is beyond the time left, saying so', async () => {
    const s = setup(5_000)
    const api = fakeApi({
      triggerRun: async () => {
        throw svcErr(429, 'daily_budget_exhausted', { retryAfterMs: 3_600_000, transient: true })
      }
    })
    const err = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ServiceError)
    expect((err as ServiceError).describe()).toMatch(/retry after 3600 s.*beyond what is left of timeout_minutes.*daily assessment budget/)
  })

  it('after a reset once the service accepted the trigger, continues with that run instead of creating a second', async () => {
    const s = setup()
    const created: string[] = []
    const api = fakeApi({
      triggerRun: async () => {
        created.push(`run_${created.length + 1}`)
        s.clock.advance(200)
        throw svcErr(undefined, 'ECONNRESET', { transient: true, ambiguous: true })
      },
      listRuns: async () => {
        const runs = created.map((id) => item(id, s.clock.now() - 100))
        return { runs, total: runs.length, returned: runs.length }
      }
    })
    const t = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(t).toMatchObject({ runId: 'run_1', recovered: true })
    expect(created).toEqual(['run_1'])
    expect(s.log.lines.some((l) => l.line.includes('it is the one this step created'))).toBe(true)
  })

  it('retries an ambiguous failure that created nothing, and ignores runs that started before the request', async () => {
    const s = setup()
    let n = 0
    const api = fakeApi({
      triggerRun: async () => {
        n += 1
        if (n === 1) throw svcErr(502, 'bad_gateway', { transient: true, ambiguous: true })
        return ok(s.clock.now(), 'run_new')
      },
      listRuns: async () => ({ runs: [item('run_old', s.clock.now() - 3_600_000, 'completed')], total: 1, returned: 1 })
    })
    const t = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(t).toMatchObject({ runId: 'run_new', recovered: false })
    expect(n).toBe(2)
  })

  it('never adopts a run that existed before its trigger, however recent', async () => {
    const s = setup()
    const previous = item('run_previous', s.clock.now() - 1_000, 'completed')
    let n = 0
    const api = fakeApi({
      listRuns: async () => ({ runs: [previous], total: 1, returned: 1 }),
      triggerRun: async () => {
        n += 1
        if (n === 1) throw svcErr(502, 'bad_gateway', { transient: true, ambiguous: true })
        return ok(s.clock.now(), 'run_ours')
      }
    })
    const t = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(t).toMatchObject({ runId: 'run_ours', recovered: false })
  })

  it('triggers even when the run list cannot be read beforehand', async () => {
    const s = setup()
    const api = fakeApi({
      listRuns: async () => {
        throw svcErr(503, 'service_unavailable', { transient: true })
      },
      triggerRun: async () => ok(s.clock.now())
    })
    await expect(triggerRun({ ...s, api }, { modelId: 'm', categories: [] })).resolves.toMatchObject({ runId: 'run_1' })
  })

  it('does not retry a connection refused forever', async () => {
    const s = setup()
    const api = fakeApi({
      triggerRun: async () => {
        throw svcErr(undefined, 'ECONNREFUSED', { transient: true, ambiguous: false })
      }
    })
    const err = (await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)) as ServiceError
    expect(err).toBeInstanceOf(ServiceError)
    expect(err.attempts).toBe(8)
    expect(err.describe()).toMatch(/after 8 attempts/)
  })

  it.each([
    [svcErr(401, 'unauthorized'), 'api_key', /rejected the key/],
    [svcErr(403, 'insufficient_scope'), 'api_key', /test:run/],
    [svcErr(403, 'trial_focus_not_included'), 'categories', /full taxonomy only: leave categories empty/],
    [svcErr(404, 'not_found'), 'model_id', /not found in this key's workspace/],
    [svcErr(400, 'incomplete_config'), 'model_id', /agent config is incomplete/]
  ])('explains %s as a configuration error', async (error, input, message) => {
    const s = setup()
    const api = fakeApi({
      triggerRun: async () => {
        throw error
      }
    })
    const err = (await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)) as ConfigError
    expect(err).toBeInstanceOf(ConfigError)
    expect(err.input).toBe(input)
    expect(err.message).toMatch(message)
  })

  it('names bad category keys and lists the valid ones', async () => {
    const s = setup()
    const api = fakeApi({
      triggerRun: async () => {
        throw svcErr(400, 'invalid_categories')
      },
      listCategories: async () => ({
        lens: 'security',
        categories: [
          { key: 'prompt_injection', display_name: 'PI', description: '' },
          { key: 'data_leakage', display_name: 'DL', description: '' }
        ]
      })
    })
    const err = (await triggerRun({ ...s, api }, { modelId: 'm', categories: ['prompt_injection', 'nope'] }).catch(
      (e: unknown) => e
    )) as ConfigError
    expect(err).toBeInstanceOf(ConfigError)
    expect(err.message).toBe('unknown category keys: nope; valid keys: prompt_injection, data_leakage')
  })

  it.each([
    [svcErr(403, 'allowance_exhausted', { extra: { resets_on: '2026-12-01' } }), /resets on 2026-12-01/],
    [svcErr(403, 'evaluation_ceiling'), /operator can lift it/]
  ])('explains %s', async (error, message) => {
    const s = setup()
    const api = fakeApi({
      triggerRun: async () => {
        throw error
      }
    })
    const err = (await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)) as ServiceError
    expect(err.describe()).toMatch(message)
  })

  it('on 409 while the run list shows nothing running, waits a growing interval before each new trigger', async () => {
    const s = setup(60_000)
    const api = fakeApi({
      triggerRun: async () => {
        throw svcErr(409, 'run_active')
      }
    })
    const err = (await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)) as DeadlineExceededError
    expect(err).toBeInstanceOf(DeadlineExceededError)
    expect(err.describe()).toMatch(/kept answering HTTP 409 run_active .*run list showed none running.*concurrency group/)
    // 2, 4, 8, 15, 15 s...: a handful of triggers in a minute, not a storm.
    const triggers = api.calls.filter((c) => c === 'triggerRun').length
    expect(triggers).toBeGreaterThanOrEqual(4)
    expect(triggers).toBeLessThanOrEqual(8)
    expect(s.clock.sleeps.slice(0, 4)).toEqual([2_000, 4_000, 8_000, 15_000])
    expect(
      s.log.lines.some((l) =>
        l.line.includes('already active (HTTP 409 run_active), but its run list shows none running; trying again in 2 s')
      )
    ).toBe(true)
  })

  it('treats a 409 without the run_active code (or any body) as an active assessment', async () => {
    const s = setup()
    let n = 0
    let listed = 0
    const api = fakeApi({
      triggerRun: async () => {
        n += 1
        if (n === 1) throw new ServiceError({ endpoint: 'POST /api/v1/run', status: 409, message: 'An assessment is already active' })
        return ok(s.clock.now(), 'run_ours')
      },
      listRuns: async () => {
        listed += 1
        const runs = listed === 2 ? [item('run_other', s.clock.now() - 5_000)] : []
        return { runs, total: runs.length, returned: runs.length }
      }
    })
    const t = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(t).toMatchObject({ runId: 'run_ours', waitedFor: ['run_other'] })
  })

  it.each([
    ['0', 0],
    ['a date in the past', 0],
    ['absent', undefined]
  ])('on 429 with Retry-After %s, waits a floor that doubles, so the triggers do not storm', async (_what, retryAfterMs) => {
    const s = setup(60_000)
    const api = fakeApi({
      triggerRun: async () => {
        throw svcErr(429, 'rate_limited', { retryAfterMs, transient: true })
      }
    })
    await expect(triggerRun({ ...s, api }, { modelId: 'm', categories: [] })).rejects.toBeInstanceOf(ServiceError)
    const triggers = api.calls.filter((c) => c === 'triggerRun').length
    expect(triggers).toBeLessThanOrEqual(10)
    expect(s.clock.sleeps.slice(0, 4)).toEqual([1_000, 2_000, 4_000, 8_000])
  })

  it.each([
    ['Forbidden', /HTTP 403: Forbidden\. On POST \/run a 403 means .*test:run.*resets on the 1st.*operator/],
    // The message says which refusal it is: the one budget line, with the reset date (the 1st of next month when none is named).
    [
      'Monthly allowance spent',
      /HTTP 403: Monthly allowance spent\. The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 \(UTC; the 1st of next month/
    ]
  ])('explains a 403 with a code it does not know (%s) as the service refusing, not as a bad key', async (message, said) => {
    const s = setup()
    const api = fakeApi({
      triggerRun: async () => {
        throw new ServiceError({ endpoint: 'POST /api/v1/run', status: 403, message })
      }
    })
    const err = (await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)) as ServiceError
    expect(err).not.toBeInstanceOf(ConfigError)
    expect(err.describe()).toMatch(said)
  })

  it.each<[string, number | undefined, RegExp]>([
    [
      'an hour: run again then (no timeout_minutes waits that long)',
      3_600_000,
      /The daily assessment budget is used up; the service asks to retry after 1 h 0 min \(2026-11-21 13:00 UTC\): run the job again then$/
    ],
    ['90 minutes', 5_400_000, /retry after 1 h 30 min \(2026-11-21 13:30 UTC\): run the job again then$/],
    [
      'ten minutes: raising timeout_minutes can wait for it',
      600_000,
      /retry after 10 min 0 s .*: run the job again then, or raise timeout_minutes to wait for it$/
    ],
    ['no Retry-After', undefined, /the answer gave no Retry-After: run the job again later$/]
  ])('ends a 429 of the daily budget with one line naming the Retry-After and what to do (%s)', async (_what, retryAfterMs, said) => {
    const s = setup(5_000)
    const api = fakeApi({
      triggerRun: async () => {
        throw svcErr(429, 'daily_budget_exhausted', { retryAfterMs, transient: true })
      }
    })
    const err = (await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)) as ServiceError
    expect(err.describe()).toMatch(said)
    expect(err.describe()).not.toMatch(/\n|\.;|\.\./)
  })

  it.each([
    ['8 s behind ours', (sentAt: number) => new Date(sentAt - 8_000).toISOString()],
    ['in a form Date.parse cannot read', () => '1763726400']
  ])('recovers a lost trigger answer when the service clock is %s, using the ids listed before the trigger', async (_what, startedAt) => {
    const s = setup()
    const created: RunListItem[] = [item('run_before', s.clock.now() - 30_000, 'completed')]
    const api = fakeApi({
      triggerRun: async () => {
        created.unshift({ ...item('run_mine', 0), started_at: startedAt(s.clock.now()) })
        s.clock.advance(200)
        throw svcErr(502, 'bad_gateway', { transient: true, ambiguous: true })
      },
      listRuns: async () => ({ runs: [...created], total: created.length, returned: created.length })
    })
    const t = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] })
    expect(t).toMatchObject({ runId: 'run_mine', recovered: true })
    expect(api.calls.filter((c) => c === 'triggerRun')).toHaveLength(1)
  })

  it("after a lost answer, never adopts another workflow's run that plans other categories: fails closed, cancels nothing", async () => {
    const s = setup()
    const runs: RunListItem[] = []
    const api = fakeApi({
      triggerRun: async () => {
        // Our request never reached the service; meanwhile another gate's run started.
        runs.unshift({ ...item('run_a', s.clock.now() + 50), categories_planned: ['prompt_injection'] })
        throw svcErr(502, 'bad_gateway', { transient: true, ambiguous: true })
      },
      listRuns: async () => ({ runs: [...runs], total: runs.length, returned: runs.length })
    })
    const err = await triggerRun({ ...s, api }, { modelId: 'm', categories: ['jailbreak'] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnprovenRunError)
    expect((err as UnprovenRunError).seen).toEqual(['run_a'])
    expect((err as ServiceError).describe()).toMatch(
      /trigger_outcome_unknown: the answer to our trigger was lost \(POST \/api\/v1\/run HTTP 502 bad_gateway.*\) and run run_a of model m appeared, but it plans categories prompt_injection where this step asked for categories jailbreak.*Not taking it, and not cancelling it.*concurrency group/
    )
    expect(api.calls).not.toContain('cancelRun')
    expect(api.calls.filter((c) => c === 'triggerRun')).toHaveLength(1)
  })

  it('after a lost answer and then a 409, does not take the active run of another gate', async () => {
    const s = setup()
    const runs: RunListItem[] = []
    let n = 0
    const api = fakeApi({
      triggerRun: async () => {
        n += 1
        if (n === 1) throw svcErr(503, 'service_unavailable', { transient: true, ambiguous: true })
        runs.unshift({ ...item('run_a', s.clock.now()), categories_planned: ['prompt_injection'] })
        throw svcErr(409, 'run_active')
      },
      listRuns: async () => ({ runs: [...runs], total: runs.length, returned: runs.length })
    })
    await expect(triggerRun({ ...s, api }, { modelId: 'm', categories: ['jailbreak'] })).rejects.toBeInstanceOf(UnprovenRunError)
  })

  it.each([
    ['the category list cannot be read: not taken', svcErr(503, 'service_unavailable', { transient: true }), false],
    ['an evaluation workspace (category list withheld, every run is full): taken', svcErr(403, 'taxonomy_not_included'), true]
  ])('a full-taxonomy trigger whose answer was lost: %s', async (_what, listError, adopted) => {
    const s = setup()
    const runs: RunListItem[] = []
    const api = fakeApi({
      triggerRun: async () => {
        runs.unshift(item('run_mine', s.clock.now()))
        throw svcErr(undefined, 'ECONNRESET', { transient: true, ambiguous: true })
      },
      listRuns: async () => ({ runs: [...runs], total: runs.length, returned: runs.length }),
      listCategories: async () => {
        throw listError
      }
    })
    const outcome = await triggerRun({ ...s, api }, { modelId: 'm', categories: [] }).catch((e: unknown) => e)
    if (adopted) expect(outcome).toMatchObject({ runId: 'run_mine', recovered: true })
    else {
      expect(outcome).toBeInstanceOf(UnprovenRunError)
      expect((outcome as ServiceError).describe()).toMatch(/category list could not be read to confirm it is the full-taxonomy run/)
    }
  })

  it('records its intent (model, categories, the runs listed before, the moment) before each POST /run', async () => {
    const s = setup()
    const intents: TriggerIntent[] = []
    let n = 0
    const api = fakeApi({
      listRuns: async () => ({ runs: [item('run_old', s.clock.now() - 60_000, 'completed')], total: 1, returned: 1 }),
      triggerRun: async () => {
        expect(intents).toHaveLength(n + 1)
        n += 1
        if (n === 1) throw svcErr(502, 'bad_gateway', { transient: true, ambiguous: true })
        return ok(s.clock.now(), 'run_ours')
      }
    })
    const t0 = s.clock.now()
    await triggerRun({ ...s, api, onIntent: (i) => intents.push(i) }, { modelId: 'm', categories: ['jailbreak'] })
    expect(intents[0]).toEqual({ modelId: 'm', categories: ['jailbreak'], baseline: ['run_old'], sentAt: t0 })
    // The second attempt keeps the moment of the first: a run created by either is found.
    expect(intents[1]).toMatchObject({ sentAt: t0 })
  })

  it('stops at once when the deadline has passed', async () => {
    const s = setup(1)
    s.clock.advance(10)
    const api = fakeApi({})
    await expect(triggerRun({ ...s, api }, { modelId: 'm', categories: [] })).rejects.toBeInstanceOf(DeadlineExceededError)
    expect(api.calls).toEqual([])
  })
})
