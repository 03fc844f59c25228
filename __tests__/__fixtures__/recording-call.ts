/**
 * A GitHub `Call` (src/github/transport.ts) that answers `data` to every
 * request and records what was asked; its reader gets the endpoint as the real
 * transport names it (`METHOD /path`).
 */
import type { Call } from '../../src/github/transport.js'

export interface AskedCall {
  method: string
  path: string
  route: string
  params: Record<string, unknown>
}

export function recordingCall(data: unknown): { call: Call; asked: AskedCall[] } {
  const asked: AskedCall[] = []
  const call = (async (
    method: string,
    path: string,
    route: string,
    params: Record<string, unknown>,
    read: (res: { headers: Record<string, string>; data: unknown }, endpoint: string) => unknown
  ) => {
    asked.push({ method, path, route, params })
    return read({ headers: {}, data }, `${method} ${path}`)
  }) as Call
  return { call, asked }
}
