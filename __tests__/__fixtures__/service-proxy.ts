/**
 * A stand-in for the network in front of the service: forwards every request
 * to the emulator (with the emulator's own Host, which it requires) except
 * those `refuse` picks, answered with its status instead (a 503 for every
 * read of one run, say), as a load balancer in front of a failing shard would.
 * With `refuse` always null, a plain forwarder: another host for the same
 * server (the pull-request lifecycle's per-deployment hosts).
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ServiceProxy {
  /** The base_url to give the action instead of the emulator's. */
  url: string
  /** Requests refused so far (method and path). */
  refused: string[]
  stop(): Promise<void>
}

export async function startServiceProxy(target: string, refuse: (path: string) => number | null): Promise<ServiceProxy> {
  const to = new URL(target)
  const refused: string[] = []
  const server = createServer((req, res) => {
    const status = refuse(req.url ?? '')
    if (status !== null) {
      refused.push(`${req.method ?? ''} ${req.url ?? ''}`)
      req.resume()
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ detail: { code: 'unavailable', message: 'service unavailable' } }))
      return
    }
    const up = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    up.on('error', () => res.destroy())
    req.pipe(up)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused,
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => {
          done()
        })
        server.closeAllConnections()
      })
  }
}
