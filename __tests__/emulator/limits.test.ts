import { afterEach, describe, expect, it } from '@jest/globals'
import { CodedErrorBody } from '../../src/service/contract/index.js'
import { firstOfNextMonth, Limits, msUntilNextUtcDay } from '../../src/emulator/workspace-limits.js'
import type { LimitValues } from '../../src/emulator/workspace-limits.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { api, runToEnd, waitIdle } from '../__fixtures__/emulator-helpers.js'

const started: Emulator[] = []
async function emulator(limits: Partial<LimitValues>): Promise<Emulator> {
  const e = await startEmulator({ categoryDurationMs: 5, attacksPerCategory: 1, limits })
  started.push(e)
  return e
}
afterEach(async () => {
  while (started.length > 0) await started.pop()!.stop()
})

function expectCoded(r: { status: number; json: unknown }, status: number, code: string): void {
  expect(r.status).toBe(status)
  expect(CodedErrorBody.parse(r.json).detail.code).toBe(code)
}

describe('limit arithmetic', () => {
  it.each([
    ['2026-01-15T10:00:00Z', '2026-02-01'],
    ['2026-12-31T23:59:59Z', '2027-01-01'],
    ['2028-02-29T00:00:00Z', '2028-03-01']
  ])('the monthly allowance of %s resets on %s', (now, day) => {
    expect(firstOfNextMonth(Date.parse(now))).toBe(day)
  })

  it('counts triggers per workspace in a sliding minute', () => {
    const l = new Limits({ triggersPerMinute: 2, dailyAssessmentBudget: 100 })
    const t0 = Date.parse('2026-03-03T12:00:00Z')
    l.countTrigger('full', t0)
    l.countTrigger('full', t0 + 10_000)
    expect(l.checkTrigger('full', t0 + 20_000)).toMatchObject({ code: 'rate_limited', retryAfterMs: 40_000 })
    expect(l.checkTrigger('other', t0 + 20_000)).toBeNull()
    expect(l.checkTrigger('full', t0 + 60_001)).toBeNull()
  })

  it('refuses past the daily budget until the next UTC day', () => {
    const l = new Limits({ triggersPerMinute: 100, dailyAssessmentBudget: 1 })
    const t0 = Date.parse('2026-03-03T23:00:00Z')
    l.countTrigger('full', t0)
    expect(l.checkTrigger('full', t0 + 120_000)).toMatchObject({
      code: 'daily_budget_exhausted',
      retryAfterMs: msUntilNextUtcDay(t0 + 120_000)
    })
    expect(l.checkTrigger('full', Date.parse('2026-03-04T00:00:01Z'))).toBeNull()
  })
})

describe('limits over HTTP', () => {
  it('429 rate_limited with an integer Retry-After past the per-minute trigger limit; nothing created', async () => {
    const emu = await emulator({ triggersPerMinute: 2 })
    await runToEnd(emu, emu.demoModelId, 'full', ['jailbreak'])
    await runToEnd(emu, emu.demoModelId, 'full', ['jailbreak'])
    const before = emu.control.snapshot()
    const r = await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } })
    expectCoded(r, 429, 'rate_limited')
    const ra = r.headers.get('retry-after')!
    expect(ra).toMatch(/^\d+$/)
    expect(Number(ra)).toBeGreaterThanOrEqual(1)
    expect(Number(ra)).toBeLessThanOrEqual(60)
    expect(emu.control.snapshot()).toBe(before)
    // per workspace
    expect((await api(emu, 'POST', '/api/v1/run', { key: 'other', body: { model_id: emu.demoModels.other } })).status).toBe(202)
    await waitIdle(emu)
  })

  it('429 daily_budget_exhausted with Retry-After', async () => {
    const emu = await emulator({ dailyAssessmentBudget: 1 })
    await runToEnd(emu, emu.demoModelId, 'full', ['jailbreak'])
    const r = await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } })
    expectCoded(r, 429, 'daily_budget_exhausted')
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    emu.control.setLimits({ dailyAssessmentBudget: 5 })
    expect((await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } })).status).toBe(202)
    await waitIdle(emu)
  })

  it('403 allowance_exhausted with resets_on and no Retry-After while the switch is on', async () => {
    const emu = await emulator({})
    emu.control.exhaustAllowance('full')
    const r = await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } })
    expectCoded(r, 403, 'allowance_exhausted')
    expect(r.json.detail.resets_on).toBe(firstOfNextMonth(Date.now()))
    expect(r.headers.get('retry-after')).toBeNull()
    expect((await api(emu, 'POST', '/api/v1/run', { key: 'other', body: { model_id: emu.demoModels.other } })).status).toBe(202)
    emu.control.exhaustAllowance('full', false)
    expect((await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } })).status).toBe(202)
    await waitIdle(emu)
  })

  it('403 evaluation_ceiling after the evaluation workspace used its runs (and not for other workspaces)', async () => {
    const emu = await emulator({ evaluationCeiling: 1 })
    await runToEnd(emu, emu.demoModels.trial, 'trial')
    const r = await api(emu, 'POST', '/api/v1/run', { key: 'trial', body: { model_id: emu.demoModels.trial } })
    expectCoded(r, 403, 'evaluation_ceiling')
    expect(r.headers.get('retry-after')).toBeNull()
    emu.control.setLimits({ evaluationCeiling: 2 })
    expect((await api(emu, 'POST', '/api/v1/run', { key: 'trial', body: { model_id: emu.demoModels.trial } })).status).toBe(202)
    await waitIdle(emu)
  })

  it('is switchable over the admin endpoint', async () => {
    const emu = await emulator({})
    const c = await fetch(`${emu.url}/__emulator/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exhaust_allowance: { full: true }, limits: { triggersPerMinute: 0 } })
    })
    expect(c.status).toBe(200)
    expectCoded(await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } }), 403, 'allowance_exhausted')
    expectCoded(await api(emu, 'POST', '/api/v1/run', { key: 'other', body: { model_id: emu.demoModels.other } }), 429, 'rate_limited')
  })
})
