import { afterEach, describe, expect, it } from '@jest/globals'
import { RunList } from '../../src/service/contract/index.js'
import { FAULT_KINDS, FaultInjector, parseFaultSpec } from '../../src/emulator/faults.js'
import type { FaultConfig } from '../../src/emulator/faults.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { api, waitIdle } from '../__fixtures__/emulator-helpers.js'

const started: Emulator[] = []
async function emulator(faults: FaultConfig | null): Promise<Emulator> {
  const e = await startEmulator({ categoryDurationMs: 10, attacksPerCategory: 1, faults })
  started.push(e)
  return e
}
afterEach(async () => {
  while (started.length > 0) await started.pop()!.stop()
})

describe('parseFaultSpec', () => {
  it.each([
    ['seed=42,rate=0.2', { seed: 42, rate: 0.2 }],
    [
      'seed=1,rate=0.1,kinds=status503+reset_after,getRun=0.5,hangMs=20000',
      { seed: 1, rate: 0.1, kinds: ['status503', 'reset_after'], endpoints: { getRun: 0.5 }, hangMs: 20000 }
    ],
    [
      'seed=3, rate=1, burstLength=2, retryAfterSeconds=4, maxFaults=5',
      { seed: 3, rate: 1, burstLength: 2, retryAfterSeconds: 4, maxFaults: 5 }
    ],
    ['seed=0', { seed: 0, rate: 0 }]
  ])('%s', (spec, expected) => {
    expect(parseFaultSpec(spec)).toEqual(expected)
  })

  it.each([
    'rate=0.2',
    'seed=1,rate=2',
    'seed=1,rate=x',
    'seed=-1',
    'seed=1,kinds=explode',
    'seed=1,nope=1',
    'seed=1,getRun=1.5',
    'seed',
    'seed=1,burstLength=0'
  ])('refuses %s', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/fault spec/)
  })
})

describe('FaultInjector', () => {
  const sequence = (config: FaultConfig, n: number): (string | null)[] => {
    const inj = new FaultInjector(config)
    return Array.from({ length: n }, (_, i) => inj.next(i % 2 === 0 ? 'getRun' : 'listFindings'))
  }

  it('is deterministic for a seed, and differs between seeds', () => {
    const a = sequence({ seed: 42, rate: 0.3 }, 200)
    expect(sequence({ seed: 42, rate: 0.3 }, 200)).toEqual(a)
    expect(sequence({ seed: 43, rate: 0.3 }, 200)).not.toEqual(a)
    const rate = a.filter((x) => x !== null).length / a.length
    expect(rate).toBeGreaterThan(0.15)
    expect(rate).toBeLessThan(0.5)
  })

  it('uses per-endpoint probabilities and the kinds given', () => {
    const inj = new FaultInjector({ seed: 5, rate: 0, endpoints: { getRun: 1 }, kinds: ['status503', 'truncated'] })
    for (let i = 0; i < 50; i++) {
      expect(inj.next('listModels')).toBeNull()
      expect(['status503', 'truncated']).toContain(inj.next('getRun'))
    }
  })

  it('makes a 429 burst of burstLength requests of the endpoint, and stops at maxFaults', () => {
    const inj = new FaultInjector({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['burst429'], burstLength: 3, maxFaults: 4 })
    expect([1, 2, 3, 4, 5, 6].map(() => inj.next('triggerRun'))).toEqual(['burst429', 'burst429', 'burst429', 'burst429', null, null])
  })

  it('draws every kind eventually', () => {
    const inj = new FaultInjector({ seed: 9, rate: 1, burstLength: 1 })
    const seen = new Set(Array.from({ length: 500 }, () => inj.next('listModels')))
    expect([...seen].sort()).toEqual([...FAULT_KINDS].sort())
  })
})

describe('fault mode over HTTP', () => {
  const kinds: FaultConfig['kinds'] = [
    'status500',
    'status502',
    'status503',
    'status504',
    'truncated',
    'non_json',
    'burst429',
    'reset_before',
    'reset_after'
  ]

  async function observe(emu: Emulator, n: number): Promise<string[]> {
    const out: string[] = []
    for (let i = 0; i < n; i++) {
      try {
        const r = await fetch(`${emu.url}/api/v1/model`, { headers: { authorization: `Bearer ${emu.keys.full}` } })
        const text = await r.text()
        let shape = 'json'
        try {
          JSON.parse(text)
        } catch {
          shape = 'not-json'
        }
        out.push(`${r.status}:${shape}`)
      } catch {
        out.push('network-error')
      }
    }
    return out
  }

  it('gives the same fault sequence for the same seed', async () => {
    const a = await emulator({ seed: 7, rate: 0.5, kinds, burstLength: 2 })
    const b = await emulator({ seed: 7, rate: 0.5, kinds, burstLength: 2 })
    const sa = await observe(a, 40)
    const sb = await observe(b, 40)
    expect(sb).toEqual(sa)
    expect(new Set(sa).size).toBeGreaterThan(2)
    const faults = a.requestLog.filter((e) => e.endpoint === 'listModels').map((e) => e.fault)
    expect(b.requestLog.filter((e) => e.endpoint === 'listModels').map((e) => e.fault)).toEqual(faults)
    expect(faults.filter((f) => f !== null).length).toBeGreaterThan(5)
  })

  it.each([
    ['status500', 500, 'application/json'],
    ['status502', 502, 'text/html'],
    ['status503', 503, 'application/json'],
    ['status504', 504, 'application/json'],
    ['non_json', 200, 'text/html']
  ] as const)('%s answers %d with %s', async (kind, status, type) => {
    const emu = await emulator({ seed: 1, rate: 1, kinds: [kind] })
    const r = await fetch(`${emu.url}/api/v1/model`, { headers: { authorization: `Bearer ${emu.keys.full}` } })
    expect(r.status).toBe(status)
    expect(r.headers.get('content-type')).toContain(type)
    const text = await r.text()
    if (type === 'text/html') expect(text).toMatch(/<html/i)
    else expect(JSON.parse(text).detail.code).toEqual(expect.any(String))
    expect(emu.requestLog.at(-1)).toMatchObject({ endpoint: 'listModels', fault: kind, status })
  })

  it('truncated sends half of a valid JSON body', async () => {
    const emu = await emulator({ seed: 1, rate: 1, kinds: ['truncated'] })
    const r = await fetch(`${emu.url}/api/v1/model`, { headers: { authorization: `Bearer ${emu.keys.full}` } })
    expect(r.status).toBe(200)
    const text = await r.text()
    expect(() => JSON.parse(text)).toThrow()
    emu.control.setFaults(null)
    const whole = await (await fetch(`${emu.url}/api/v1/model`, { headers: { authorization: `Bearer ${emu.keys.full}` } })).text()
    expect(whole.startsWith(text)).toBe(true)
    expect(text.length).toBe(Math.floor(whole.length / 2))
  })

  it('burst429 answers 429 rate_limited with Retry-After for burstLength requests of that endpoint', async () => {
    const emu = await emulator({
      seed: 1,
      rate: 0,
      endpoints: { listModels: 1 },
      kinds: ['burst429'],
      burstLength: 2,
      retryAfterSeconds: 3,
      maxFaults: 2
    })
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const r = await api(emu, 'GET', '/api/v1/model')
      statuses.push(r.status)
      if (r.status === 429) {
        expect(r.headers.get('retry-after')).toBe('3')
        expect(r.json.detail.code).toBe('rate_limited')
      }
    }
    expect(statuses).toEqual([429, 429, 200])
  })

  it('reset_after runs the handler (the run IS created) and then resets the connection', async () => {
    const emu = await emulator({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['reset_after'] })
    await expect(
      fetch(`${emu.url}/api/v1/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.full}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model_id: emu.demoModelId })
      })
    ).rejects.toThrow()
    expect(emu.requestLog.find((e) => e.endpoint === 'triggerRun')).toMatchObject({ fault: 'reset_after', status: 'reset' })
    emu.control.setFaults(null)
    const list = RunList.parse((await api(emu, 'GET', `/api/v1/model/${emu.demoModelId}/run`)).json)
    expect(list.total).toBe(1)
    await waitIdle(emu)
  })

  it('reset_before resets without running the handler (no run)', async () => {
    const emu = await emulator({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['reset_before'] })
    await expect(
      fetch(`${emu.url}/api/v1/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.full}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model_id: emu.demoModelId })
      })
    ).rejects.toThrow()
    emu.control.setFaults(null)
    expect(RunList.parse((await api(emu, 'GET', `/api/v1/model/${emu.demoModelId}/run`)).json).total).toBe(0)
  })

  it('hang delays the answer past a client timeout; a patient client gets it', async () => {
    const emu = await emulator({ seed: 1, rate: 1, kinds: ['hang'], hangMs: 300 })
    await expect(
      fetch(`${emu.url}/api/v1/model`, { headers: { authorization: `Bearer ${emu.keys.full}` }, signal: AbortSignal.timeout(50) })
    ).rejects.toThrow()
    const r = await fetch(`${emu.url}/api/v1/model`, { headers: { authorization: `Bearer ${emu.keys.full}` } })
    expect(r.status).toBe(200)
    expect(emu.requestLog.filter((e) => e.fault === 'hang').length).toBe(2)
  })

  it('never injects faults into admin endpoints, unknown paths or the demo agent', async () => {
    const emu = await emulator({ seed: 1, rate: 1, kinds: ['status500'] })
    expect((await fetch(`${emu.url}/__emulator/runs`)).status).toBe(200)
    expect((await fetch(`${emu.url}/nope`)).status).toBe(404)
    const chat = await fetch(`${emu.demoAgent.url}/chat/open`, { method: 'POST', body: JSON.stringify({ message: 'hi', session_id: 's' }) })
    expect(chat.status).toBe(200)
    expect(emu.requestLog.filter((e) => e.fault !== null)).toEqual([])
  })

  it('can be switched on and off at run time, also over the admin endpoint with a spec string', async () => {
    const emu = await emulator(null)
    expect((await api(emu, 'GET', '/api/v1/model')).status).toBe(200)
    const c = await fetch(`${emu.url}/__emulator/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: 'seed=1,rate=1,kinds=status503' })
    })
    expect(c.status).toBe(200)
    expect((await api(emu, 'GET', '/api/v1/model')).status).toBe(503)
    await fetch(`${emu.url}/__emulator/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: null })
    })
    expect((await api(emu, 'GET', '/api/v1/model')).status).toBe(200)
    const bad = await fetch(`${emu.url}/__emulator/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: 'rate=1' })
    })
    expect(bad.status).toBe(422)
  })
})
