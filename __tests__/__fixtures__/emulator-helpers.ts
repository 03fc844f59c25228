/** Shared helpers of the emulator tests (raw HTTP with global fetch). */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import { systemClock } from '../../src/util/clock.js'
import { recordingLog } from './recording-log.js'

/**
 * A parsed response body as tests read it: field by field, unchecked, so a
 * missing field fails the test's own expectation rather than the compiler.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one untyped JSON type of the tests (eslint.config.js relaxes the no-unsafe-* rules for it)
export type UntypedJson = any

export type KeyName = 'full' | 'other' | 'trial' | 'redacted' | 'readonly' | 'none' | 'bogus'

export interface ApiResponse {
  status: number
  headers: Headers
  text: string
  json: UntypedJson
}

export interface CallOptions {
  key?: KeyName
  body?: unknown
  rawBody?: string
  contentType?: string | null
  query?: Record<string, string>
}

export async function api(emu: Emulator, method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {}
  const key = opts.key ?? 'full'
  if (key === 'bogus') headers.authorization = 'Bearer asas_not_a_key'
  else if (key !== 'none') headers.authorization = `Bearer ${emu.keys[key]}`
  let body: string | undefined
  if (opts.rawBody !== undefined) body = opts.rawBody
  else if (opts.body !== undefined) body = JSON.stringify(opts.body)
  if (body !== undefined && opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json'
  const qs = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : ''
  const res = await fetch(`${emu.url}${path}${qs}`, { method, headers, body })
  const text = await res.text()
  let json: UntypedJson
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 15))
  }
}

export async function trigger(emu: Emulator, modelId: string, key: KeyName = 'full', categories?: string[]): Promise<string> {
  const r = await api(emu, 'POST', '/api/v1/run', { key, body: categories ? { model_id: modelId, categories } : { model_id: modelId } })
  if (r.status !== 202) throw new Error(`trigger failed: ${r.status} ${r.text}`)
  return r.json.run_id as string
}

export async function waitTerminal(emu: Emulator, runId: string, key: KeyName = 'full'): Promise<UntypedJson> {
  return waitFor(`run ${runId} to end`, async () => {
    const r = await api(emu, 'GET', `/api/v1/run/${runId}`, { key })
    return r.json?.status !== 'running' ? r.json : null
  })
}

/** Triggers a run and waits until it ends; returns its run id. */
export async function runToEnd(emu: Emulator, modelId: string, key: KeyName = 'full', categories?: string[]): Promise<string> {
  const runId = await trigger(emu, modelId, key, categories)
  await waitTerminal(emu, runId, key)
  return runId
}

/** Waits until no run of the emulator is running. */
export async function waitIdle(emu: Emulator): Promise<void> {
  await waitFor('every run to end', () => emu.control.runs().every((r) => r.status !== 'running'))
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const s = http.createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>((r) =>
    s.close(() => {
      r()
    })
  )
  return port
}

export function demoCredential(emu: Emulator, ws = 'full'): string {
  const c = emu.control.registeredCredentials().find((x) => x.startsWith(`demo-target-secret-${ws}-`))
  if (!c) throw new Error('no demo credential')
  return c
}

/** The gate's edges for an in-process run against the emulator (full key, real clock, no signal). */
export function emulatorGateDeps(emu: Emulator): import('../../src/gate/assess-run.js').GateDeps {
  return {
    makeApi: (deadline) => createClient({ baseUrl: emu.url, apiKey: emu.keys.full, deadline }),
    clock: systemClock,
    signal: new AbortController().signal,
    log: recordingLog(),
    onRunStarted: () => {},
    onRunSettled: () => {}
  }
}
