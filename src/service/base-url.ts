/**
 * The one rule for the service's base address, used by the inputs (before any
 * request) and by the HTTP transport (whoever builds a client):
 * https, or plain http for a loopback host only (the emulator, a local
 * tunnel); no credentials, query or fragment; a trailing slash or /api/v1
 * tolerated, nothing past /api/v1.
 *
 * What the user typed is echoed in a mistake's message only with its
 * user-info (user:password@) replaced, even when the text is not a URL at all.
 */
import { ConfigError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import { SECRET_MASK } from '../util/redact.js'

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h)
}

/**
 * The raw text with anything between `//` and the last `@` before the path
 * replaced: the user-info of a URL, whatever it holds (a password with a `/`
 * or a `#` in it, in a URL that does not parse).
 */
export function withoutUserInfo(raw: string): string {
  return raw.replace(/^([^@]*?\/\/)[^]*@/, `$1${SECRET_MASK}@`)
}

/** The user-info parts of a base address (to mask in every log), or none. */
export function baseUrlSecrets(raw: string): string[] {
  const m = /^[^@]*?\/\/([^]*)@/.exec(raw.trim())
  if (!m) return []
  const info = m[1]
  const colon = info.indexOf(':')
  const parts = colon >= 0 ? [info.slice(colon + 1), info] : [info]
  return parts.filter((p) => p.length >= 3)
}

/** Show at most 60 characters of what the user typed, its user-info replaced. */
function shown(raw: string): string {
  return oneLine(withoutUserInfo(raw), 60)
}

/** Validate and normalise the base address: `https://host[:port][/prefix]`, without a trailing slash or /api/v1. */
export function parseBaseUrl(input: string): string {
  const raw = input.trim()
  if (raw === '') {
    throw new ConfigError('base_url', "is required: the service's base address, the part before /api/v1 (e.g. https://asas.example.com)")
  }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('base_url', `'${shown(raw)}' is not a URL: give the service's base address, e.g. https://asas.example.com`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError('base_url', `scheme '${oneLine(url.protocol, 20)}' is not allowed: use https://`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError('base_url', 'must not carry credentials: pass the key in api_key')
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError('base_url', `plain http is allowed only for loopback hosts (localhost, 127.0.0.1, ::1): use https://${url.host}`)
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError('base_url', 'must not carry a query string or fragment')
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '')
  if (/\/api\/v1(\/|$)/.test(path)) {
    throw new ConfigError('base_url', `'${shown(raw)}' goes past /api/v1: give only the part before it, e.g. ${url.protocol}//${url.host}`)
  }
  return `${url.protocol}//${url.host}${path}`
}
