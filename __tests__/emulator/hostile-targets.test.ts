/**
 * Registered targets that misbehave on purpose: they never answer, answer
 * forever, answer with gigabytes, redirect to where the SSRF rules forbid, or
 * speak WebSocket in fragments, pings, binary or without ever closing. Each
 * must fail its own exchange (the probe's 422 with the description's
 * error_category, or the run's `error`), quickly and without the emulator
 * holding what the target sends.
 */
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { ProbeFailureBody, RegisterModelResponse } from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { TARGET_MAX_REPLY_BYTES } from '../../src/emulator/target-io.js'
import { api, trigger, waitFor, waitTerminal } from '../__fixtures__/emulator-helpers.js'

const REPLY = JSON.stringify({ output: { text: 'Hello from a hostile target' } })
const MIB = 1024 * 1024

let emu: Emulator
const servers: { server: http.Server; sockets: Set<Socket> }[] = []

beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 10, attacksPerCategory: 1, allowLoopbackTargets: true })
})
afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const s of sockets) s.destroy()
    await new Promise<void>((r) =>
      server.close(() => {
        r()
      })
    )
  }
})
afterAll(async () => {
  await emu.stop()
})

/** A loopback HTTP server (closed after each test); returns its base URL. */
async function serve(handler: http.RequestListener, onUpgrade?: (req: http.IncomingMessage, socket: Duplex) => void): Promise<string> {
  const server = http.createServer(handler)
  const sockets = new Set<Socket>()
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  if (onUpgrade) server.on('upgrade', onUpgrade)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  servers.push({ server, sockets })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function register(endpointUrl: string, extra: Record<string, unknown> = {}) {
  return api(emu, 'POST', '/api/v1/model', {
    body: { name: 'hostile', config: { endpoint_url: endpointUrl, response_field: 'output.text', ...extra } }
  })
}

function expectProbeFailure(r: { status: number; json: unknown }, category: string, message?: RegExp): void {
  expect(r.status).toBe(422)
  const body = ProbeFailureBody.parse(r.json)
  expect(body.detail).toMatchObject({ error: 'probe_failed', error_category: category })
  if (message) expect(body.detail.message).toMatch(message)
}

/** Writes `chunk` for as long as the connection lets it; returns the bytes written so far and whether it was closed. */
function streamForever(res: http.ServerResponse, chunk: Buffer): { written: () => number; closed: () => boolean } {
  let written = 0
  let closed = false
  res.on('close', () => {
    closed = true
  })
  const pump = (): void => {
    while (!closed && !res.destroyed) {
      written += chunk.length
      if (!res.write(chunk)) {
        res.once('drain', pump)
        return
      }
    }
  }
  pump()
  return { written: () => written, closed: () => closed }
}

describe('HTTP targets', () => {
  it('a target that never answers fails the probe with no_reply', async () => {
    const url = await serve(() => undefined)
    expectProbeFailure(await register(`${url}/chat`, { request_timeout: 0.3 }), 'no_reply', /no complete reply/)
  })

  it('a target that answers the headers and then drips its body forever fails with no_reply at request_timeout', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"output": {"text": "')
      const t = setInterval(() => res.write('.'), 20)
      res.on('close', () => {
        clearInterval(t)
      })
    })
    expectProbeFailure(await register(`${url}/chat`, { request_timeout: 0.3 }), 'no_reply')
  })

  it('a target that streams without end fails with parse_error once 1 MiB is crossed, and is cut off', async () => {
    let stream: ReturnType<typeof streamForever> | null = null
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      stream = streamForever(res, Buffer.alloc(64 * 1024, 'a'))
    })
    // The time limit is far away: only the size limit can end this.
    expectProbeFailure(await register(`${url}/chat`, { request_timeout: 120 }), 'parse_error', /larger than 1 MiB/)
    await waitFor('the emulator to drop the connection', () => stream!.closed())
    // What the target got into the connection before it was dropped: the limit plus socket buffers, not an endless stream.
    expect(stream!.written()).toBeLessThan(64 * MIB)
  })

  it('a target that declares a body of gigabytes fails with parse_error before it is read', async () => {
    let stream: ReturnType<typeof streamForever> | null = null
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3 * 1024 * MIB) })
      stream = streamForever(res, Buffer.alloc(64 * 1024, 'b'))
    })
    expectProbeFailure(await register(`${url}/chat`, { request_timeout: 120 }), 'parse_error', /larger than 1 MiB/)
    await waitFor('the emulator to drop the connection', () => stream!.closed())
  })

  it('an answer of exactly 1 MiB is still read', async () => {
    const text = 'z'.repeat(TARGET_MAX_REPLY_BYTES - Buffer.byteLength('{"output":{"text":""}}'))
    const body = JSON.stringify({ output: { text } })
    expect(Buffer.byteLength(body)).toBe(TARGET_MAX_REPLY_BYTES)
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(body)
    })
    expect(RegisterModelResponse.parse((await register(`${url}/chat`)).json).connected).toBe(true)
  })

  it.each([
    ['a loopback server', 'loopback'],
    ['the metadata address', 'metadata']
  ])('a redirect to %s is not followed (not_an_endpoint)', async (_label, where) => {
    let hits = 0
    const elsewhere = await serve((_req, res) => {
      hits++
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(REPLY)
    })
    const location = where === 'loopback' ? `${elsewhere}/chat` : 'http://169.254.169.254/latest/meta-data/'
    const url = await serve((_req, res) => {
      res.writeHead(302, { location })
      res.end()
    })
    expectProbeFailure(await register(`${url}/chat`), 'not_an_endpoint', /HTTP 302/)
    expect(hits).toBe(0)
  })

  it('a target that turns hostile during a run ends that run in error; the emulator keeps answering', async () => {
    let requests = 0
    const url = await serve((_req, res) => {
      requests++
      res.writeHead(200, { 'content-type': 'application/json' })
      if (requests === 1) res.end(REPLY)
      else streamForever(res, Buffer.alloc(64 * 1024, 'c'))
    })
    const model = RegisterModelResponse.parse((await register(`${url}/chat`, { request_timeout: 120 })).json)
    const runId = await trigger(emu, model.model_id, 'full', ['prompt_injection'])
    const run = await waitTerminal(emu, runId)
    expect(run).toMatchObject({ status: 'error', categories_completed: [] })
    expect(run.error_message).toMatch(/larger than 1 MiB/)
    expect((await api(emu, 'GET', `/api/v1/run/${runId}/coverage`)).status).toBe(200)
  })
})

// ---------------------------------------------------------------------------
// WebSocket targets, spoken byte by byte so they can break the protocol's manners
// ---------------------------------------------------------------------------

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

/** One unmasked server frame. */
function frame(opcode: number, payload: Buffer | string, fin = true): Buffer {
  const data = Buffer.from(payload)
  const first = (fin ? 0x80 : 0) | opcode
  let head: Buffer
  if (data.length < 126) head = Buffer.from([first, data.length])
  else if (data.length < 65536) head = Buffer.from([first, 126, data.length >> 8, data.length & 0xff])
  else {
    head = Buffer.alloc(10)
    head[0] = first
    head[1] = 127
    head.writeBigUInt64BE(BigInt(data.length), 2)
  }
  return Buffer.concat([head, data])
}

/** A WebSocket target: completes the handshake, then `onMessage` runs when the emulator's message arrives. */
async function wsTarget(onMessage: (socket: Duplex) => void): Promise<{ url: string; closed: () => boolean }> {
  let closed = false
  const url = await serve(
    (_req, res) => res.writeHead(426).end(),
    (req, socket) => {
      const accept = createHash('sha1')
        .update(String(req.headers['sec-websocket-key']) + GUID)
        .digest('base64')
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`
      )
      // The server keeps its half open (http servers allow half-open sockets): 'end' is the emulator hanging up.
      const hungUp = (): void => {
        closed = true
      }
      socket.on('end', hungUp)
      socket.on('close', hungUp)
      socket.on('error', () => undefined)
      socket.once('data', () => {
        onMessage(socket)
      })
    }
  )
  return { url: `${url.replace('http', 'ws')}/ws`, closed: () => closed }
}

describe('WebSocket targets', () => {
  it('a reply in many fragments, with pings between them, is put back together', async () => {
    const t = await wsTarget((socket) => {
      const parts = REPLY.match(/.{1,5}/g)!
      parts.forEach((p, i) => {
        socket.write(frame(i === 0 ? 0x1 : 0x0, p, i === parts.length - 1))
        if (i % 3 === 0) socket.write(frame(0x9, 'ping'))
      })
    })
    const r = await register(t.url, { transport: 'websocket', request_timeout: 5 })
    expect(r.status).toBe(201)
  })

  it('a reply that never sends or answers a close still succeeds, and the connection is dropped', async () => {
    const t = await wsTarget((socket) => {
      socket.write(frame(0x1, REPLY))
      socket.removeAllListeners('data')
      socket.on('data', () => undefined) // ignores the emulator's close frame
    })
    expect((await register(t.url, { transport: 'websocket', request_timeout: 5 })).status).toBe(201)
    await waitFor('the emulator to drop the connection', () => t.closed())
  })

  it('fragments without end fail with parse_error once 1 MiB is crossed', async () => {
    const t = await wsTarget((socket) => {
      socket.write(frame(0x1, 'x'.repeat(1000), false))
      const chunk = frame(0x0, 'x'.repeat(64 * 1024), false)
      const pump = (): void => {
        while (!socket.destroyed) if (!socket.write(chunk)) return void socket.once('drain', pump)
      }
      pump()
    })
    expectProbeFailure(await register(t.url, { transport: 'websocket', request_timeout: 120 }), 'parse_error', /larger than 1 MiB/)
    await waitFor('the emulator to drop the connection', () => t.closed())
  })

  it('one message of 2 MiB fails with parse_error', async () => {
    const t = await wsTarget((socket) => {
      socket.write(frame(0x1, 'y'.repeat(2 * MIB)))
    })
    expectProbeFailure(await register(t.url, { transport: 'websocket', request_timeout: 120 }), 'parse_error', /larger than 1 MiB/)
  })

  it('a target that completes the handshake and says nothing fails with no_reply', async () => {
    const t = await wsTarget(() => undefined)
    expectProbeFailure(await register(t.url, { transport: 'websocket', request_timeout: 0.3 }), 'no_reply')
    await waitFor('the emulator to drop the connection', () => t.closed())
  })

  it('a target that closes without a reply fails with no_reply', async () => {
    const t = await wsTarget((socket) => {
      socket.end(frame(0x8, Buffer.from([0x03, 0xe8])))
    })
    expectProbeFailure(await register(t.url, { transport: 'websocket', request_timeout: 5 }), 'no_reply', /without a reply/)
  })

  it('a target that sends a close frame but keeps the connection open fails with no_reply at request_timeout', async () => {
    const t = await wsTarget((socket) => {
      socket.write(frame(0x8, Buffer.from([0x03, 0xe8])))
    })
    expectProbeFailure(await register(t.url, { transport: 'websocket', request_timeout: 0.3 }), 'no_reply', /in time/)
    await waitFor('the emulator to drop the connection', () => t.closed())
  })

  it('a binary reply fails with parse_error', async () => {
    const t = await wsTarget((socket) => {
      socket.write(frame(0x2, REPLY))
    })
    expectProbeFailure(await register(t.url, { transport: 'websocket', request_timeout: 5 }), 'parse_error', /binary/)
  })

  it('a handshake answered with a redirect is not followed', async () => {
    let hits = 0
    const elsewhere = await wsTarget((socket) => {
      hits++
      socket.write(frame(0x1, REPLY))
    })
    const url = await serve(
      (_req, res) => res.writeHead(426).end(),
      (_req, socket) => {
        socket.end(`HTTP/1.1 302 Found\r\nlocation: ${elsewhere.url}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`)
      }
    )
    expectProbeFailure(
      await register(`${url.replace('http', 'ws')}/ws`, { transport: 'websocket', request_timeout: 5 }),
      'not_an_endpoint',
      /HTTP 302/
    )
    expect(hits).toBe(0)
  })

  it('a handshake answered with an endless HTTP body fails with parse_error', async () => {
    let stream: ReturnType<typeof streamForever> | null = null
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      stream = streamForever(res, Buffer.alloc(64 * 1024, 'd'))
    })
    expectProbeFailure(
      await register(`${url.replace('http', 'ws')}/ws`, { transport: 'websocket', request_timeout: 120 }),
      'parse_error',
      /larger than 1 MiB/
    )
    await waitFor('the emulator to drop the connection', () => stream!.closed())
  })
})
