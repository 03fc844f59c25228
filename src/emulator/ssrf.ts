/**
 * SSRF rules of POST /model (section 2.2): the endpoint URL must use http,
 * https, ws or wss, and neither its host name nor any address it resolves to
 * may be private, loopback, link-local, metadata, unspecified, CGNAT, IPv6
 * ULA/link-local, IPv4-mapped IPv6 or an internal name. Loopback is accepted
 * only when the emulator allows loopback targets. Checked before any
 * connection is made; the same address check runs in the DNS lookup of every
 * later connection (so a name cannot be re-pointed at a private address).
 */
import { promises as dns } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { isIP } from 'node:net'
import { lookup as dnsLookup } from 'node:dns'

export const ACCEPTED_SCHEMES = ['http:', 'https:', 'ws:', 'wss:'] as const

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'unspecified'
  | 'cgnat'
  | 'unique_local'
  | 'ipv4_mapped'
  | 'multicast'
  | 'reserved'

function ipv4ToInt(ip: string): number {
  const parts = ip.split('.').map((p) => Number(p))
  return (((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!) >>> 0
}

function inV4(ip: number, base: string, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  return ((ip & mask) >>> 0) === ((ipv4ToInt(base) & mask) >>> 0)
}

export function classifyIPv4(ip: string): AddressClass {
  const n = ipv4ToInt(ip)
  if (ip === '169.254.169.254') return 'metadata'
  if (inV4(n, '0.0.0.0', 8)) return 'unspecified'
  if (inV4(n, '127.0.0.0', 8)) return 'loopback'
  if (inV4(n, '10.0.0.0', 8) || inV4(n, '172.16.0.0', 12) || inV4(n, '192.168.0.0', 16)) return 'private'
  if (inV4(n, '169.254.0.0', 16)) return 'link_local'
  if (inV4(n, '100.64.0.0', 10)) return 'cgnat'
  if (inV4(n, '224.0.0.0', 4)) return 'multicast'
  if (inV4(n, '240.0.0.0', 4) || inV4(n, '192.0.0.0', 24) || inV4(n, '198.18.0.0', 15)) return 'reserved'
  return 'public'
}

/** Expands an IPv6 address (possibly with an embedded IPv4 tail) to 8 groups. */
export function expandIPv6(ip: string): number[] {
  let addr = ip.toLowerCase()
  const zone = addr.indexOf('%')
  if (zone >= 0) addr = addr.slice(0, zone)
  const lastColon = addr.lastIndexOf(':')
  const last = addr.slice(lastColon + 1)
  if (last.includes('.')) {
    const v = ipv4ToInt(last)
    addr = `${addr.slice(0, lastColon + 1)}${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`
  }
  if (addr.includes('::')) {
    const [head, rest] = addr.split('::') as [string, string]
    const h = head === '' ? [] : head.split(':').map((g) => parseInt(g, 16))
    const r = rest === '' ? [] : rest.split(':').map((g) => parseInt(g, 16))
    return [...h, ...new Array<number>(Math.max(0, 8 - h.length - r.length)).fill(0), ...r]
  }
  return addr.split(':').map((g) => parseInt(g, 16))
}

export function classifyIPv6(ip: string): AddressClass {
  const g = expandIPv6(ip)
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return 'reserved'
  const allZeroPrefix = (n: number): boolean => g.slice(0, n).every((x) => x === 0)
  if (g.every((x) => x === 0)) return 'unspecified'
  if (allZeroPrefix(7) && g[7] === 1) return 'loopback'
  // fd00:ec2::254 (AWS IMDS over IPv6)
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return 'metadata'
  const v4tail = `${g[6]! >>> 8}.${g[6]! & 0xff}.${g[7]! >>> 8}.${g[7]! & 0xff}`
  if (allZeroPrefix(5) && g[5] === 0xffff) {
    // IPv4-mapped: loopback stays loopback (allowed with loopback targets), everything else is refused.
    return classifyIPv4(v4tail) === 'loopback' ? 'loopback' : 'ipv4_mapped'
  }
  if (allZeroPrefix(6)) return 'ipv4_mapped' // deprecated IPv4-compatible form
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const c = classifyIPv4(v4tail)
    return c === 'public' ? 'public' : c
  }
  if ((g[0]! & 0xfe00) === 0xfc00) return 'unique_local'
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link_local'
  if ((g[0]! & 0xffc0) === 0xfec0) return 'private' // deprecated site-local
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast'
  return 'public'
}

export function classifyAddress(ip: string): AddressClass {
  const family = isIP(ip)
  if (family === 4) return classifyIPv4(ip)
  if (family === 6) return classifyIPv6(ip)
  return 'reserved'
}

export function addressAllowed(cls: AddressClass, allowLoopback: boolean): boolean {
  return cls === 'public' || (cls === 'loopback' && allowLoopback)
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string }

function hostOf(url: URL): string {
  let host = url.hostname.toLowerCase()
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  while (host.endsWith('.')) host = host.slice(0, -1)
  return host
}

/** Checks everything that can be checked without DNS. */
export function checkEndpointUrlSyntax(raw: string, allowLoopback: boolean): UrlCheck {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'endpoint_url is not a valid absolute URL' }
  }
  if (!(ACCEPTED_SCHEMES as readonly string[]).includes(url.protocol)) {
    return { ok: false, reason: `scheme '${url.protocol.replace(/:$/, '')}' is not accepted (use http, https, ws or wss)` }
  }
  const host = hostOf(url)
  if (host === '') return { ok: false, reason: 'endpoint_url has no host' }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return allowLoopback ? { ok: true, url } : { ok: false, reason: `host '${host}' is a loopback name` }
  }
  if (host.endsWith('.internal') || host === 'internal') {
    return { ok: false, reason: `host '${host}' is an internal name` }
  }
  if (isIP(host) !== 0) {
    const cls = classifyAddress(host)
    if (!addressAllowed(cls, allowLoopback)) return { ok: false, reason: `address ${host} is ${cls.replace('_', ' ')}` }
  }
  return { ok: true, url }
}

export type Resolver = (host: string) => Promise<string[]>

export const systemResolver: Resolver = async (host) => {
  const res = await dns.lookup(host, { all: true, verbatim: true })
  return res.map((r) => r.address)
}

/**
 * Full check: syntax, then every address the name resolves to. A name that
 * does not resolve passes here (the live probe then reports it unreachable).
 */
export async function checkEndpointUrl(
  raw: string,
  allowLoopback: boolean,
  resolve: Resolver = systemResolver
): Promise<UrlCheck> {
  const syntax = checkEndpointUrlSyntax(raw, allowLoopback)
  if (!syntax.ok) return syntax
  const host = hostOf(syntax.url)
  if (isIP(host) !== 0 || host === 'localhost' || host.endsWith('.localhost')) return syntax
  let addresses: string[]
  try {
    addresses = await resolve(host)
  } catch {
    return syntax
  }
  for (const a of addresses) {
    const cls = classifyAddress(a)
    if (!addressAllowed(cls, allowLoopback)) {
      return { ok: false, reason: `host '${host}' resolves to ${a}, which is ${cls.replace('_', ' ')}` }
    }
  }
  return syntax
}

/** A dns lookup for outgoing connections that refuses addresses the rules forbid. */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const opts = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err)
      const list = addresses as unknown as Array<{ address: string; family: number }>
      for (const a of list) {
        if (!addressAllowed(classifyAddress(a.address), allowLoopback)) {
          const e = Object.assign(new Error(`refused to connect to ${a.address}`), { code: 'EADDRREFUSED' })
          return callback(e)
        }
      }
      if (opts.all) return callback(null, list)
      const first = list[0]
      if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }))
      return callback(null, first.address, first.family)
    })
  }) as unknown as LookupFunction
}
