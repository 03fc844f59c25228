import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { api, runToEnd, waitFor } from '../__fixtures__/emulator-helpers.js'
import type { ApiResponse } from '../__fixtures__/emulator-helpers.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 10, attacksPerCategory: 1 })
})
afterAll(async () => {
  await emu.stop()
})

/** The admin endpoints take no API key. */
function admin(method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return api(emu, method, `/__emulator/${path}`, { key: 'none', body })
}

describe('admin endpoints', () => {
  it('GET info gives the url, keys and demo model ids', async () => {
    const r = await admin('GET', 'info')
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      url: emu.url,
      keys: {
        full: 'asas_dev_full',
        other: 'asas_dev_other',
        trial: 'asas_dev_trial',
        redacted: 'asas_dev_redacted',
        readonly: 'asas_dev_readonly'
      },
      demo_model_id: emu.demoModelId,
      demo_models: emu.demoModels,
      no_config_model_id: emu.noConfigModelId,
      demo_agent_url: emu.demoAgent.url
    })
    expect(new Set(Object.values(emu.demoModels)).size).toBe(5)
  })

  it('POST demo-agent switches vulnerabilities, availability and delay', async () => {
    const r = await admin('POST', 'demo-agent', {
      all_vulnerable: false,
      vulnerable: { jailbreak: true },
      reply_delay_ms: 5,
      available: true
    })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ vulnerable: ['jailbreak'], comply_probability: {}, seed: 1, available: true, reply_delay_ms: 5 })
    const runId = await runToEnd(emu, emu.demoModelId, 'full', ['jailbreak', 'prompt_injection'])
    const f = (await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json
    expect(f.findings.map((x: { category: string }) => x.category)).toEqual(['jailbreak'])
    expect((await admin('POST', 'demo-agent', { all_vulnerable: true, reply_delay_ms: 0 })).json.vulnerable.length).toBe(10)
    expect((await admin('POST', 'demo-agent', { vulnerable: { jailbreak: 'yes' } })).status).toBe(422)
    expect((await admin('GET', 'demo-agent')).json.reply_delay_ms).toBe(0)
  })

  it('POST control sets ingest_incomplete and the category duration; refuses unknown fields', async () => {
    expect((await admin('POST', 'control', { ingest_incomplete: { [emu.demoModelId]: true }, category_duration_ms: 5 })).status).toBe(200)
    const runId = await runToEnd(emu, emu.demoModelId, 'full', ['jailbreak'])
    const list = (await api(emu, 'GET', `/api/v1/model/${emu.demoModelId}/run`)).json
    expect(list.runs.find((r: { run_id: string }) => r.run_id === runId).ingest_incomplete).toBe(true)
    expect((await admin('POST', 'control', { ingest_incomplete: { [emu.demoModelId]: false } })).status).toBe(200)
    expect((await admin('POST', 'control', { reboot: true })).status).toBe(422)
    expect((await admin('POST', 'control', { exhaust_allowance: { nobody: true } })).status).toBe(422)
  })

  it('GET runs lists every run ever created; GET requests the request log; GET credentials the stored secrets', async () => {
    const runId = await runToEnd(emu, emu.demoModels.other, 'other', ['jailbreak'])
    const runs = (await admin('GET', 'runs')).json.runs
    expect(runs).toContainEqual({
      run_id: runId,
      model_id: emu.demoModels.other,
      status: 'completed',
      started_at: expect.any(String),
      workspace: 'other',
      cancel_requested: false
    })
    expect(emu.control.runs()).toEqual(runs)
    const log = (await admin('GET', 'requests')).json
    expect(log.total).toBeGreaterThan(0)
    const trig = log.requests.find((e: { endpoint: string; key: string }) => e.endpoint === 'triggerRun' && e.key === 'asas_dev_other')
    expect(trig).toMatchObject({ method: 'POST', path: '/api/v1/run', status: 202, fault: null })
    expect(log.requests.some((e: { endpoint: string; key: string | null }) => e.endpoint === 'demo-agent' && e.key === null)).toBe(true)
    const since = (await admin('GET', `requests?since=${log.total}`)).json
    expect(since.requests.every((e: { endpoint: string }) => e.endpoint === 'admin')).toBe(true)
    const creds = (await admin('GET', 'credentials')).json.credentials
    expect(creds).toEqual(emu.control.registeredCredentials())
    expect(creds.length).toBe(5)
    // the request log never holds a target credential
    expect(JSON.stringify(emu.requestLog)).not.toContain(creds[0])
  })

  it('404 for an unknown admin endpoint', async () => {
    const r = await admin('GET', 'nothing')
    expect(r.status).toBe(404)
    expect(r.json.detail.code).toBe('not_found')
  })
})

describe('stop', () => {
  it('is idempotent, ends runs and closes the port', async () => {
    const e = await startEmulator({ categoryDurationMs: 10_000 })
    const r = await fetch(`${e.url}/api/v1/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.keys.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model_id: e.demoModelId })
    })
    expect(r.status).toBe(202)
    await waitFor('a request to the demo agent', () => e.requestLog.some((x) => x.endpoint === 'demo-agent'))
    await Promise.all([e.stop(), e.stop()])
    await e.stop()
    await expect(fetch(`${e.url}/api/v1/model`)).rejects.toThrow()
  })
})
