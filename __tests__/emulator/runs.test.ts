import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import {
  CancelRunAccepted,
  CodedErrorBody,
  CoverageResponse,
  RunList,
  RunStatusResponse,
  TriggerRunResponse
} from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { SECURITY_KEYS } from '../../src/emulator/taxonomy.js'
import { api, runToEnd, trigger, waitFor, waitIdle, waitTerminal } from '../__fixtures__/emulator-helpers.js'

let emu: Emulator

beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 30, attacksPerCategory: 2 })
})
afterAll(async () => {
  await emu.stop()
})
beforeEach(async () => {
  emu.demoAgent.setAvailable(true)
  emu.demoAgent.setAllVulnerable(false)
  emu.demoAgent.setVulnerable('prompt_injection', true)
  emu.demoAgent.setVulnerable('system_prompt_leakage', true)
  emu.control.setCategoryDurationMs(30)
  await waitIdle(emu)
})

function expectCoded(r: { status: number; json: unknown }, status: number, code: string): void {
  expect(r.status).toBe(status)
  expect(CodedErrorBody.parse(r.json).detail.code).toBe(code)
}

describe('run lifecycle', () => {
  it('runs to completed, category by category, with findings, coverage and a verdict', async () => {
    const r = await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } })
    expect(r.status).toBe(202)
    const trig = TriggerRunResponse.parse(r.json)
    expect(trig).toMatchObject({ model_id: emu.demoModelId, status: 'running' })
    const seen = new Set<number>()
    const end = await waitFor('completion', async () => {
      const s = RunStatusResponse.parse((await api(emu, 'GET', `/api/v1/run/${trig.run_id}`, { query: { min_severity: 'high' } })).json)
      seen.add(s.categories_completed.length)
      if (s.status === 'running') expect(s.verdict ?? null).toBeNull()
      return s.status !== 'running' ? s : null
    })
    expect(end.status).toBe('completed')
    expect(end.completed_at).not.toBeNull()
    expect(end.categories_planned).toEqual([...SECURITY_KEYS])
    expect(end.categories_completed).toEqual([...SECURITY_KEYS])
    expect(end.verdict).toBe('fail')
    expect(seen.size).toBeGreaterThan(1) // categories_completed grew while polling
    // medium finding only at critical: pass; without min_severity: no verdict
    expect((await api(emu, 'GET', `/api/v1/run/${trig.run_id}`, { query: { min_severity: 'critical' } })).json.verdict).toBe('pass')
    expect((await api(emu, 'GET', `/api/v1/run/${trig.run_id}`)).json.verdict ?? null).toBeNull()

    const cov = CoverageResponse.parse((await api(emu, 'GET', `/api/v1/run/${trig.run_id}/coverage`)).json)
    expect(cov.run_status).toBe('completed')
    expect(cov.categories.map((c) => c.category)).toEqual([...SECURITY_KEYS])
    const pi = cov.categories.find((c) => c.category === 'prompt_injection')!
    expect(pi).toMatchObject({ attacks_succeeded: 2, attacks_blocked: 0, worst_severity: 'high', owasp: 'LLM01:2025', atlas: 'AML.T0051' })
    expect(cov.categories.find((c) => c.category === 'jailbreak')).toMatchObject({
      attacks_succeeded: 0,
      attacks_blocked: 2,
      worst_severity: null
    })

    const f = (await api(emu, 'GET', `/api/v1/run/${trig.run_id}/findings`)).json
    expect(f.findings.map((x: { category: string; severity: string }) => `${x.category}:${x.severity}`).sort()).toEqual([
      'prompt_injection:high',
      'system_prompt_leakage:medium'
    ])
  })

  it('passes when the agent is fixed everywhere', async () => {
    emu.demoAgent.setAllVulnerable(false)
    const runId = await runToEnd(emu, emu.demoModelId)
    const s = (await api(emu, 'GET', `/api/v1/run/${runId}`, { query: { min_severity: 'low' } })).json
    expect(s).toMatchObject({ status: 'completed', verdict: 'pass' })
  })

  it('cancels a running run within seconds, keeping what it produced', async () => {
    emu.control.setCategoryDurationMs(150)
    const runId = await trigger(emu, emu.demoModelId)
    await waitFor('a category', async () => (await api(emu, 'GET', `/api/v1/run/${runId}`)).json.categories_completed.length >= 1)
    const c = await api(emu, 'POST', `/api/v1/run/${runId}/cancel`)
    expect(c.status).toBe(202)
    expect(CancelRunAccepted.parse(c.json)).toEqual({ run_id: runId, status: 'running', cancel_requested: true })
    const end = await waitTerminal(emu, runId)
    expect(end.status).toBe('cancelled')
    expect(end.categories_completed.length).toBeGreaterThanOrEqual(1)
    expect(end.categories_completed.length).toBeLessThan(end.categories_planned.length)
    const cov = CoverageResponse.parse((await api(emu, 'GET', `/api/v1/run/${runId}/coverage`)).json)
    expect(cov.run_status).toBe('cancelled')
    expect(cov.categories.map((x) => x.category)).toEqual(end.categories_completed)
    const f = (await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json
    expect(f.findings.map((x: { category: string }) => x.category)).toContain('prompt_injection')
    expect((await api(emu, 'GET', `/api/v1/run/${runId}`, { query: { min_severity: 'high' } })).json.verdict).toBe('fail')
    expectCoded(await api(emu, 'POST', `/api/v1/run/${runId}/cancel`), 409, 'run_not_running')
  })

  it('honours a cancel between attacks even when a category lasts a minute', async () => {
    emu.control.setCategoryDurationMs(60_000)
    const runId = await trigger(emu, emu.demoModelId)
    const sent = emu.requestLog.length
    await waitFor('the first attack', () => emu.requestLog.slice(sent).some((e) => e.endpoint === 'demo-agent'))
    expect((await api(emu, 'POST', `/api/v1/run/${runId}/cancel`)).status).toBe(202)
    const end = await waitTerminal(emu, runId)
    expect(end).toMatchObject({ status: 'cancelled', categories_completed: [] })
    expect(CoverageResponse.parse((await api(emu, 'GET', `/api/v1/run/${runId}/coverage`)).json).categories).toEqual([])
    expect((await api(emu, 'GET', `/api/v1/run/${runId}`, { query: { min_severity: 'low' } })).json.verdict).toBe('pass')
  })

  it('ends in error when the target goes away mid-run, keeping the categories it reached', async () => {
    emu.control.setCategoryDurationMs(120)
    const runId = await trigger(emu, emu.demoModelId)
    await waitFor('a category', async () => (await api(emu, 'GET', `/api/v1/run/${runId}`)).json.categories_completed.length >= 1)
    emu.demoAgent.setAvailable(false)
    const end = await waitTerminal(emu, runId)
    expect(end.status).toBe('error')
    expect(end.categories_completed.length).toBeLessThan(end.categories_planned.length)
    const cov = CoverageResponse.parse((await api(emu, 'GET', `/api/v1/run/${runId}/coverage`)).json)
    expect(cov.run_status).toBe('error')
    expect(cov.categories.map((x) => x.category)).toEqual(end.categories_completed)
  })

  it('answers 409 for coverage and findings while running, and run_active for a second trigger', async () => {
    emu.control.setCategoryDurationMs(200)
    const runId = await trigger(emu, emu.demoModelId)
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}/coverage`), 409, 'run_in_progress')
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}/findings`), 409, 'run_in_progress')
    const again = await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId } })
    expectCoded(again, 409, 'run_active')
    expect(again.json.detail.run_id).toBe(runId)
    expect((await api(emu, 'POST', `/api/v1/run/${runId}/cancel`)).status).toBe(202)
    await waitTerminal(emu, runId)
  })

  it('focuses a run on the categories given', async () => {
    const runId = await runToEnd(emu, emu.demoModelId, 'full', ['system_prompt_leakage', 'jailbreak'])
    const s = (await api(emu, 'GET', `/api/v1/run/${runId}`)).json
    expect(s.categories_planned).toEqual(['system_prompt_leakage', 'jailbreak'])
    expect(s.categories_completed).toEqual(['system_prompt_leakage', 'jailbreak'])
  })
})

describe('POST /run errors', () => {
  it.each([
    [['harmful_content'], ['harmful_content']],
    [
      ['prompt_injection', 'nope', 'pii_retention'],
      ['nope', 'pii_retention']
    ]
  ])('400 invalid_categories for %j', async (categories, invalid) => {
    const r = await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.demoModelId, categories } })
    expectCoded(r, 400, 'invalid_categories')
    expect(r.json.detail.invalid).toEqual(invalid)
    for (const k of invalid) expect(r.json.detail.message).toContain(k)
  })

  it('400 incomplete_config for a model without agent config', async () => {
    expectCoded(await api(emu, 'POST', '/api/v1/run', { body: { model_id: emu.noConfigModelId } }), 400, 'incomplete_config')
  })

  it("404 for an unknown model and for another workspace's model", async () => {
    expectCoded(await api(emu, 'POST', '/api/v1/run', { body: { model_id: 'mdl_nope' } }), 404, 'not_found')
    expectCoded(await api(emu, 'POST', '/api/v1/run', { key: 'other', body: { model_id: emu.demoModelId } }), 404, 'not_found')
  })

  it('403 insufficient_scope for a key without test:run (trigger and cancel)', async () => {
    expectCoded(
      await api(emu, 'POST', '/api/v1/run', { key: 'readonly', body: { model_id: emu.demoModels.readonly } }),
      403,
      'insufficient_scope'
    )
    // the scope is checked before the run is looked up: the readonly workspace cannot create runs to cancel
    expectCoded(await api(emu, 'POST', '/api/v1/run/run_any/cancel', { key: 'readonly' }), 403, 'insufficient_scope')
    // reading is allowed
    expect((await api(emu, 'GET', '/api/v1/model', { key: 'readonly' })).status).toBe(200)
  })

  it('403 trial_focus_not_included when an evaluation workspace passes categories', async () => {
    expectCoded(
      await api(emu, 'POST', '/api/v1/run', { key: 'trial', body: { model_id: emu.demoModels.trial, categories: ['jailbreak'] } }),
      403,
      'trial_focus_not_included'
    )
  })

  it('401 unauthorized without a key or with an unknown key', async () => {
    for (const key of ['none', 'bogus'] as const) {
      expectCoded(await api(emu, 'POST', '/api/v1/run', { key, body: { model_id: emu.demoModelId } }), 401, 'unauthorized')
      expectCoded(await api(emu, 'GET', '/api/v1/model', { key }), 401, 'unauthorized')
    }
  })
})

describe('GET /run/{id} and /model/{id}/run', () => {
  it('400 invalid_min_severity, 404 unknown run or other workspace', async () => {
    const runId = await runToEnd(emu, emu.demoModelId, 'full', ['jailbreak'])
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}`, { query: { min_severity: 'urgent' } }), 400, 'invalid_min_severity')
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}`, { key: 'other' }), 404, 'not_found')
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}/coverage`, { key: 'other' }), 404, 'not_found')
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { key: 'other' }), 404, 'not_found')
    expectCoded(await api(emu, 'POST', `/api/v1/run/${runId}/cancel`, { key: 'other' }), 404, 'not_found')
    expectCoded(await api(emu, 'GET', '/api/v1/run/run_nope'), 404, 'not_found')
  })

  it('lists runs most recent first with filters, limit, totals and ingest_incomplete', async () => {
    const model = emu.demoModels.other
    const a = await runToEnd(emu, model, 'other', ['jailbreak'])
    const b = await runToEnd(emu, model, 'other', ['jailbreak'])
    emu.control.setIngestIncomplete(model, true)
    const list = RunList.parse((await api(emu, 'GET', `/api/v1/model/${model}/run`, { key: 'other' })).json)
    expect(list.runs.map((r) => r.run_id).slice(0, 2)).toEqual([b, a])
    expect(list.total).toBe(list.runs.length)
    expect(list.returned).toBe(list.runs.length)
    expect(list.runs.every((r) => r.ingest_incomplete)).toBe(true)
    emu.control.setIngestIncomplete(model, false)
    const one = RunList.parse(
      (await api(emu, 'GET', `/api/v1/model/${model}/run`, { key: 'other', query: { limit: '1', status: 'completed' } })).json
    )
    expect(one.returned).toBe(1)
    expect(one.total).toBeGreaterThanOrEqual(2)
    expect(one.runs[0]).toMatchObject({ run_id: b, status: 'completed', ingest_incomplete: false, findings_count: 0 })
    expect(
      RunList.parse((await api(emu, 'GET', `/api/v1/model/${model}/run`, { key: 'other', query: { status: 'error' } })).json).total
    ).toBe(0)
    expectCoded(
      await api(emu, 'GET', `/api/v1/model/${model}/run`, { key: 'other', query: { status: 'cancelled' } }),
      400,
      'invalid_status'
    )
    for (const limit of ['0', '101', 'abc', '1.5']) {
      const r = await api(emu, 'GET', `/api/v1/model/${model}/run`, { key: 'other', query: { limit } })
      expect(r.status).toBe(422)
      expect(r.json.detail[0].loc).toEqual(['query', 'limit'])
    }
    expectCoded(await api(emu, 'GET', `/api/v1/model/${model}/run`), 404, 'not_found')
  })
})
