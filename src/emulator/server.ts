/**
 * The emulator of the Agent Security Assessment Service: a real HTTP server on
 * 127.0.0.1 implementing every endpoint of the API description over an
 * in-memory store, with a demo agent to assess, admin controls and a seeded
 * fault mode. This module is its lifecycle: start the demo agent, seed the
 * store, listen, stop.
 *
 * Why node:http and no framework: zero dependencies, and full control over the
 * socket, which the fault mode needs (reset a connection before or after the
 * handler ran, hang, send half a body). Route handlers return
 * {status, headers, body}; request-handler.ts writes it, or cuts it, as the
 * fault mode says.
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { startDemoAgent } from './demo-agent.js'
import { checkAgentOptions } from './demo-compliance.js'
import type { DemoAgent } from './demo-agent.js'
import { emulatorHandle } from './handle.js'
import { isLoopbackHost } from './host-guard.js'
import { MAX_BODY_BYTES } from './http-util.js'
import { handleRequest } from './request-handler.js'
import type { RequestContext } from './request-handler.js'
import { write } from './respond.js'
import { seedModels } from './seed.js'
import { seedFleet } from './fleet.js'
import { createState } from './emulator-state.js'
import type { EmulatorState } from './emulator-state.js'

export type { FaultConfig, FaultKind } from './faults.js'

export type { Emulator, EmulatorOptions, RequestLogEntry } from './emulator.js'
import type { Emulator, EmulatorOptions } from './emulator.js'

/** The demo agent, its requests logged in the emulator's request log. */
function startLoggedDemoAgent(state: EmulatorState): Promise<DemoAgent> {
  return startDemoAgent({
    log: (method, path, status) => {
      state.requestLog.push({ at: Date.now(), method, path, query: '', endpoint: 'demo-agent', status, fault: null, key: null })
    }
  })
}

/** The HTTP server, every open socket tracked so that stop() can end them. */
function createServer(rc: RequestContext, sockets: Set<Socket>): http.Server {
  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    handleRequest(rc, req, res).catch((e: unknown) => {
      rc.state.log(`emulator error: ${(e as Error).stack ?? String(e)}`)
      if (!res.headersSent) write(res, { status: 500, body: { detail: { code: 'internal_error', message: 'emulator error' } } })
      else res.destroy()
    })
  }
  const server = http.createServer(handle)
  // Expect: 100-continue: a body declared over the limit, or sent to a name this server does not answer for, is refused before it is sent.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!(Number(req.headers['content-length']) > MAX_BODY_BYTES) && isLoopbackHost(req.headers.host, rc.port())) res.writeContinue()
    handle(req, res)
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  return server
}

/** Listens on 127.0.0.1 only (see host-guard.ts for why no other address); resolves with the port. */
async function listenOnLoopback(server: http.Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}

/** Stops once however often it is called: timers, sockets, the server, the demo agent. */
function stopper(state: EmulatorState, server: http.Server, sockets: Set<Socket>, agent: DemoAgent): () => Promise<void> {
  let stopping: Promise<void> | null = null
  return () => {
    stopping ??= (async () => {
      state.scheduler.stop()
      for (const s of sockets) s.destroy()
      await Promise.all([
        new Promise<void>((resolve) =>
          server.close(() => {
            resolve()
          })
        ),
        agent.stop()
      ])
    })()
    return stopping
  }
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const compliance = checkAgentOptions(opts)
  const state = createState(opts)
  const agent = await startLoggedDemoAgent(state)
  for (const [category, p] of compliance.comply) agent.setComplyProbability(category, p)
  if (compliance.seed !== undefined) agent.setSeed(compliance.seed)
  const seeded = seedModels(state.store, agent)
  if (opts.fleet) seedFleet(state.store, opts.fleet)
  // set once listening, before any request can arrive
  const live: { port: number; emu: Emulator | null } = { port: 0, emu: null }
  const rc: RequestContext = {
    state,
    port: () => live.port,
    emulator: () => {
      if (!live.emu) throw new Error('the emulator is not listening yet')
      return live.emu
    }
  }
  const sockets = new Set<Socket>()
  const server = createServer(rc, sockets)
  try {
    live.port = await listenOnLoopback(server, opts.port ?? 0)
  } catch (e) {
    await agent.stop()
    throw e
  }
  live.emu = emulatorHandle(state, agent, seeded, `http://127.0.0.1:${live.port}`, stopper(state, server, sockets, agent))
  return live.emu
}
