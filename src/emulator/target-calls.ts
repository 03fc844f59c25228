/**
 * How the emulator talks to a registered target (an emulator choice, since the
 * API description does not show it): POST JSON `{"message", "session_id"}` to
 * the endpoint URL with the auth of section 2.2, and read the reply text at the
 * config's `response_field` dot-path. `request_timeout` is in seconds.
 * For oauth_client_credentials a token is minted at token_url with the
 * client_credentials grant and re-minted once half of its lifetime is gone.
 * Every connection goes through the SSRF-guarded DNS lookup, and every answer
 * is read under a size limit (1 MiB) and a time limit (request_timeout), see
 * target-io.ts: a target that streams without end or never answers fails that
 * one exchange (`parse_error` or `no_reply`), it does not grow the emulator.
 */
import type { AgentConfig, AuthType, OAuthConfig } from '../service/contract/index.js'
import { guardedLookup } from './ssrf.js'
import { TARGET_MAX_REPLY_BYTES, TargetIoError, httpExchange, wsExchange } from './target-io.js'
import type { RawResponse, ReadLimits } from './target-io.js'

export type ProbeErrorCategory = 'unreachable' | 'auth_failed' | 'parse_error' | 'no_reply' | 'not_an_endpoint'

export interface TargetSpec {
  config: AgentConfig
  auth_type: AuthType
  credential: string | null
  oauth: OAuthConfig | null
}

export interface Exchange {
  method: string
  url: string
  /** Headers sent to the target, Authorization included (replay steps record them). */
  headers: Record<string, string>
  body: string
  status?: number
  responseBody?: string
}

export type TargetOutcome =
  ({ ok: true; reply: string } & Exchange) | ({ ok: false; category: ProbeErrorCategory; message: string } & Exchange)

export const DEFAULT_REQUEST_TIMEOUT_S = 30

/** Reads a dot-path (`output.text`, `choices.0.message.content`). */
export function readDotPath(value: unknown, path: string): unknown {
  let v = value
  for (const seg of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<string, unknown>)[seg]
  }
  return v
}

function failure(e: unknown): { category: ProbeErrorCategory; message: string } {
  const kind = e instanceof TargetIoError ? e.kind : 'network'
  const detail = e instanceof Error ? e.message : String(e)
  switch (kind) {
    case 'timeout':
      return { category: 'no_reply', message: `the target sent no complete reply in time (${detail})` }
    case 'closed':
      return { category: 'no_reply', message: detail }
    case 'too_large':
      return { category: 'parse_error', message: `the target's reply was not read: ${detail}` }
    case 'binary':
      return { category: 'parse_error', message: detail }
    default:
      return { category: 'unreachable', message: 'the target could not be reached' }
  }
}

export class TargetClient {
  private token: { value: string; refreshAt: number } | null = null
  /** Number of tokens minted (oauth only). */
  mints = 0

  constructor(
    private readonly spec: TargetSpec,
    private readonly allowLoopback: boolean,
    private readonly maxReplyBytes: number = TARGET_MAX_REPLY_BYTES
  ) {}

  get timeoutMs(): number {
    return Math.round((this.spec.config.request_timeout ?? DEFAULT_REQUEST_TIMEOUT_S) * 1000)
  }

  get limits(): ReadLimits {
    return { maxBytes: this.maxReplyBytes, timeoutMs: this.timeoutMs }
  }

  get transport(): 'http' | 'websocket' {
    return this.spec.config.transport === 'websocket' ? 'websocket' : 'http'
  }

  private async accessToken(): Promise<string> {
    const now = Date.now()
    if (this.token && now < this.token.refreshAt) return this.token.value
    const oauth = this.spec.oauth
    if (!oauth) throw new Error('an access token was asked of a target without oauth settings')
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: oauth.client_id,
      client_secret: this.spec.credential ?? ''
    })
    if (oauth.scope) form.set('scope', oauth.scope)
    if (oauth.audience) form.set('audience', oauth.audience)
    const res = await httpExchange(
      new URL(oauth.token_url),
      'POST',
      { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      form.toString(),
      this.limits,
      guardedLookup(this.allowLoopback)
    )
    if (res.status < 200 || res.status >= 300) throw Object.assign(new Error(`token endpoint answered ${res.status}`), { auth: true })
    let parsed: { access_token?: unknown; expires_in?: unknown }
    try {
      parsed = JSON.parse(res.body) as typeof parsed
    } catch {
      throw Object.assign(new Error('token endpoint answered non-JSON'), { auth: true })
    }
    if (typeof parsed.access_token !== 'string' || parsed.access_token === '') {
      throw Object.assign(new Error('token endpoint gave no access_token'), { auth: true })
    }
    const ttl = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : 3600
    this.token = { value: parsed.access_token, refreshAt: now + (ttl * 1000) / 2 }
    this.mints++
    return parsed.access_token
  }

  private async authHeaders(): Promise<Record<string, string>> {
    const cred = this.spec.credential ?? ''
    switch (this.spec.auth_type) {
      case 'bearer':
        return { authorization: `Bearer ${cred}` }
      case 'api_key':
        return { 'x-api-key': cred }
      case 'basic':
        return { authorization: `Basic ${Buffer.from(cred, 'utf8').toString('base64')}` }
      case 'oauth_client_credentials':
        return { authorization: `Bearer ${await this.accessToken()}` }
      default:
        return {}
    }
  }

  /** One chat round trip. Never throws: failures come back categorised. */
  async send(message: string, sessionId: string): Promise<TargetOutcome> {
    const url = this.spec.config.endpoint_url
    const body = JSON.stringify({ message, session_id: sessionId })
    const base: Exchange = { method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body }
    try {
      base.headers = { ...base.headers, ...(await this.authHeaders()) }
    } catch (e) {
      const auth = (e as { auth?: boolean }).auth === true
      return {
        ...base,
        ok: false,
        category: auth ? 'auth_failed' : 'unreachable',
        message: auth ? 'the token endpoint refused the client credentials' : 'the token endpoint could not be reached'
      }
    }
    let res: RawResponse
    try {
      const lookup = guardedLookup(this.allowLoopback)
      res =
        this.transport === 'websocket'
          ? await wsExchange(new URL(url), base.headers, body, this.limits, lookup)
          : await httpExchange(new URL(url), 'POST', base.headers, body, this.limits, lookup)
    } catch (e) {
      return { ...base, ok: false, ...failure(e) }
    }
    const exchange: Exchange = { ...base, status: res.status, responseBody: res.body }
    if (res.status === 401 || res.status === 403) {
      return { ...exchange, ok: false, category: 'auth_failed', message: `the target refused the credentials (HTTP ${res.status})` }
    }
    if (res.status < 200 || res.status >= 300) {
      return { ...exchange, ok: false, category: 'not_an_endpoint', message: `the target answered HTTP ${res.status}` }
    }
    let json: unknown
    try {
      json = JSON.parse(res.body)
    } catch {
      return { ...exchange, ok: false, category: 'parse_error', message: 'the target answered with a body that is not JSON' }
    }
    const reply = readDotPath(json, this.spec.config.response_field)
    if (typeof reply !== 'string' || reply.trim() === '') {
      return {
        ...exchange,
        ok: false,
        category: 'no_reply',
        message: `the target's answer has no text at response_field '${this.spec.config.response_field}'`
      }
    }
    return { ...exchange, ok: true, reply }
  }
}
