/**
 * A tiny node:http server on 127.0.0.1:0 answering from a script, for the
 * client's unit tests. Each request takes the next step of the script (the
 * last step repeats when the script runs out). Every request is recorded.
 */
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { AbortedError } from '../../src/util/errors.js'
import type { Clock } from '../../src/util/clock.js'

export interface RecordedRequest {
  method: string
  /** Path and query as received. */
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

export type Step =
  | { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }
  /** Full control: answer (or not) as you like. */
  | ((req: http.IncomingMessage, res: http.ServerResponse, recorded: RecordedRequest) => void)

export interface ScriptedServer {
  url: string
  requests: RecordedRequest[]
  /** Replace the script. */
  script(...steps: Step[]): void
  /** Resolves once `n` requests have been received. */
  received(n: number): Promise<void>
  stop(): Promise<void>
}

export async function startScriptedServer(...initial: Step[]): Promise<ScriptedServer> {
  let steps: Step[] = initial
  let next = 0
  const requests: RecordedRequest[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8')
      }
      requests.push(recorded)
      for (const w of waiters.filter((w) => requests.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
      // No step scripted: at(-1) of an empty script is undefined.
      const step = steps.at(Math.min(next, steps.length - 1))
      next += 1
      if (step === undefined) {
        res.writeHead(599).end()
        return
      }
      if (typeof step === 'function') {
        step(req, res, recorded)
        return
      }
      const text = step.raw ?? (step.body === undefined ? '' : JSON.stringify(step.body))
      const headers: Record<string, string> = {
        ...(step.raw === undefined && step.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...step.headers
      }
      res.writeHead(step.status, headers).end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(...s: Step[]) {
      steps = s
      next = 0
    },
    received(n: number) {
      if (requests.length >= n) return Promise.resolve()
      return new Promise<void>((resolve) => waiters.push({ n, resolve }))
    },
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve, reject) =>
        server.close((err) => {
          if (err) reject(err)
          else resolve()
        })
      )
    }
  }
}

/** Reset the connection once the request has been read (the service may have acted on it). */
export const resetAfterRequest: Step = (req) => {
  req.socket.destroy()
}

/** Accept the request and never answer. */
export const neverAnswer: Step = () => {}

/** A Clock on virtual time: sleep records the delay, advances time and resolves at once. */
export function fakeClock(start = Date.parse('2026-11-21T12:00:00Z')): Clock & { sleeps: number[]; advance(ms: number): void } {
  let t = start
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => t,
    advance(ms: number) {
      t += ms
    },
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) throw new AbortedError()
      sleeps.push(ms)
      t += ms
    }
  }
}

/** A port on 127.0.0.1 with nothing listening. */
export async function closedPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve()
    })
  )
  return port
}
