/**
 * DNS rebinding: a page in a browser on the same machine can point a name it
 * controls at 127.0.0.1 and read the emulator as same-origin, but its
 * requests carry that name in Host. Every route of the emulator and of its
 * demo agent answers only a loopback name with the listening port; the rest
 * get 421 with a JSON body, and change nothing.
 */
import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import WebSocket from 'ws'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { isLoopbackHost } from '../../src/emulator/host-guard.js'
import { createClient } from '../../src/service/client.js'
import { demoCredential } from '../__fixtures__/emulator-helpers.js'
import { stopStarted } from '../__fixtures__/teardown.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 10, attacksPerCategory: 1 })
})
afterAll(async () => {
  await stopStarted(emu)
})

interface RawAnswer {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
}

/** One request to `base` (a 127.0.0.1 URL) with the Host header given, whatever the URL says. */
function request(
  base: string,
  method: string,
  path: string,
  host: string,
  opts: { headers?: Record<string, string>; body?: string } = {}
): Promise<RawAnswer> {
  const u = new URL(base)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path, agent: false, headers: { host, ...opts.headers } }, (res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c.toString()))
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text })
      })
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

/**
 * Raw bytes on a socket (a request without any Host header); resolves with
 * what came back before the close, or with the interim answer at once when
 * the server says `100 Continue` (the client would then send a body).
 */
function rawExchange(base: string, bytes: string): Promise<string> {
  const u = new URL(base)
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(u.port), u.hostname, () => s.write(bytes))
    let got = ''
    s.on('data', (c: Buffer) => {
      got += c.toString()
      if (got.startsWith('HTTP/1.1 100')) {
        s.destroy()
        resolve(got)
      }
    })
    s.on('end', () => {
      resolve(got)
    })
    s.on('error', reject)
  })
}

const port = (base: string): string => new URL(base).port
const json = { 'content-type': 'application/json' }

describe('isLoopbackHost', () => {
  it.each([
    ['localhost:8080', true],
    ['127.0.0.1:8080', true],
    ['[::1]:8080', true],
    ['LocalHost:8080', true],
    ['localhost:8081', false],
    ['localhost', false],
    ['evil.example:8080', false],
    ['evil.example', false],
    ['localhost.:8080', false],
    ['127.0.0.2:8080', false],
    ['localhost.evil.example:8080', false],
    ['127.0.0.1.nip.io:8080', false],
    ['[::1]', false],
    ['::1:8080', false],
    ['localhost:8080:8080', false],
    ['localhost:08080', true],
    ['user@localhost:8080', false],
    ['', false]
  ])('%s on port 8080: %s', (host, allowed) => {
    expect(isLoopbackHost(host, 8080)).toBe(allowed)
  })

  it('takes a Host without port only for a server on port 80, and no Host at all never', () => {
    expect(isLoopbackHost('localhost', 80)).toBe(true)
    expect(isLoopbackHost('127.0.0.1', 80)).toBe(true)
    expect(isLoopbackHost(undefined, 80)).toBe(false)
  })
})

describe('the emulator refuses a foreign Host on every route', () => {
  const routes: [string, string, string, string | undefined][] = [
    ['admin: info', 'GET', '/__emulator/info', undefined],
    ['admin: credentials', 'GET', '/__emulator/credentials', undefined],
    ['admin: request log', 'GET', '/__emulator/requests', undefined],
    ['admin: runs', 'GET', '/__emulator/runs', undefined],
    ['admin: demo agent state', 'GET', '/__emulator/demo-agent', undefined],
    ['admin: demo agent switch', 'POST', '/__emulator/demo-agent', '{"all_vulnerable":true}'],
    ['admin: control', 'POST', '/__emulator/control', '{"exhaust_allowance":{"full":true}}'],
    ['admin: unknown', 'GET', '/__emulator/nothing', undefined],
    ['API: list models', 'GET', '/api/v1/model', undefined],
    ['API: trigger a run', 'POST', '/api/v1/run', 'MODEL'],
    ['API: unknown endpoint', 'GET', '/api/v1/nothing', undefined],
    ['no route', 'GET', '/', undefined]
  ]

  it.each(routes)('%s (%s %s): 421 with a JSON body, nothing done', async (_label, method, path, body) => {
    const before = { snapshot: emu.control.snapshot(), agent: JSON.stringify(emu.demoAgentState()), runs: emu.control.runs().length }
    const r = await request(emu.url, method, path, 'evil.example', {
      headers: { authorization: `Bearer ${emu.keys.full}`, ...(body ? json : {}) },
      body: body === 'MODEL' ? JSON.stringify({ model_id: emu.demoModelId }) : body
    })
    expect(r.status).toBe(421)
    expect(r.headers['content-type']).toBe('application/json')
    expect(JSON.parse(r.text)).toEqual({
      detail: {
        code: 'misdirected_request',
        message: expect.stringContaining('"evil.example" is refused'),
        allowed_hosts: [`localhost:${port(emu.url)}`, `127.0.0.1:${port(emu.url)}`, `[::1]:${port(emu.url)}`]
      }
    })
    for (const secret of emu.control.registeredCredentials()) expect(r.text).not.toContain(secret)
    expect(r.text).not.toContain(emu.keys.other)
    expect(emu.control.snapshot()).toBe(before.snapshot)
    expect(JSON.stringify(emu.demoAgentState())).toBe(before.agent)
    expect(emu.control.runs()).toHaveLength(before.runs)
    expect(emu.requestLog.at(-1)).toMatchObject({ method, path, status: 421 })
  })

  it.each([
    ['the wrong port', () => `127.0.0.1:${Number(port(emu.url)) + 1}`],
    ['no port', () => 'localhost'],
    ['a rebinding-style name', () => `127.0.0.1.nip.io:${port(emu.url)}`]
  ])('refuses %s', async (_label, host) => {
    const r = await request(emu.url, 'GET', '/__emulator/credentials', host())
    expect(r.status).toBe(421)
    expect(JSON.parse(r.text).detail.code).toBe('misdirected_request')
  })

  it('refuses a request without any Host header', async () => {
    const got = await rawExchange(emu.url, 'GET /__emulator/credentials HTTP/1.0\r\n\r\n')
    expect(got).toMatch(/^HTTP\/1\.1 421 /)
    expect(got).toContain('"code":"misdirected_request"')
    expect(got).not.toContain('demo-target-secret')
  })

  it('never asks a client waiting for 100 Continue to send its body, and closes', async () => {
    const got = await rawExchange(
      emu.url,
      'POST /__emulator/control HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 38\r\nExpect: 100-continue\r\n\r\n'
    )
    expect(got).not.toMatch(/100 Continue/)
    expect(got).toMatch(/^HTTP\/1\.1 421 /)
    expect(got).toMatch(/connection: close/i)
  })

  it.each(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST'])('answers %s with the listening port', async (name) => {
    const r = await request(emu.url, 'GET', '/__emulator/info', `${name}:${port(emu.url)}`)
    expect(r.status).toBe(200)
    expect(JSON.parse(r.text).demo_model_id).toBe(emu.demoModelId)
  })

  it("the action's client works with base_url on localhost as on 127.0.0.1 (it sends Host from base_url)", async () => {
    for (const baseUrl of [emu.url, emu.url.replace('127.0.0.1', 'localhost')]) {
      const models = await createClient({ baseUrl, apiKey: emu.keys.full }).listModels()
      expect(models.models.map((m) => m.model_id)).toContain(emu.demoModelId)
    }
  })
})

describe('the demo agent refuses a foreign Host on every route', () => {
  it.each([
    ['open chat', 'POST', '/chat/open', '{"message":"hi","session_id":"s"}'],
    ['bearer chat', 'POST', '/chat', '{"message":"hi","session_id":"s"}'],
    ['token endpoint', 'POST', '/oauth/token', 'grant_type=client_credentials&client_id=demo-client&client_secret=x'],
    ['html page', 'GET', '/html', undefined],
    ['unknown path', 'GET', '/nothing', undefined]
  ])('%s (%s %s): 421 with a JSON body', async (_label, method, path, body) => {
    const seen = emu.demoAgent.credentialsSeen().length
    const r = await request(emu.demoAgent.url, method, path, 'evil.example', {
      headers: { authorization: `Bearer ${demoCredential(emu)}` },
      body
    })
    expect(r.status).toBe(421)
    expect(r.headers['content-type']).toBe('application/json')
    expect(JSON.parse(r.text).error).toMatch(/^misdirected request/)
    expect(emu.demoAgent.credentialsSeen()).toHaveLength(seen)
  })

  it('refuses a WebSocket upgrade, and answers one on its own name', async () => {
    const headers = { authorization: `Bearer ${demoCredential(emu)}` }
    const wsUrl = `${emu.demoAgent.url.replace('http', 'ws')}/ws`
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(wsUrl, { headers: { ...headers, host: 'evil.example' } })
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0)
      })
      ws.on('open', () => {
        ws.close()
        resolve(101)
      })
      ws.on('error', () => {
        resolve(-1)
      })
    })
    expect(refused).toBe(421)
    const reply = await new Promise<string>((resolve, reject) => {
      const ws = new WebSocket(wsUrl, { headers })
      ws.on('open', () => {
        ws.send(JSON.stringify({ message: 'hi', session_id: 's' }))
      })
      ws.on('message', (data: Buffer) => {
        resolve(data.toString())
        ws.close()
      })
      ws.on('error', reject)
    })
    expect(JSON.parse(reply).output.text).toMatch(/Acme Support/)
  })
})
