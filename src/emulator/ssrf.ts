/**
 * SSRF rules of POST /model (section 2.2: the endpoint URL "must use an
 * accepted scheme and must not be a private or internal address"): http,
 * https, ws or wss, and neither the host nor any address it resolves to may be
 * anything but a public unicast address. Loopback is accepted only when the
 * emulator allows loopback targets (the demo). Checked before any connection
 * is made; the same address check runs in the DNS lookup of every later
 * connection, so a name cannot be re-pointed at a private address.
 *
 * Addresses are parsed and placed in their special-purpose range by
 * `ipaddr.js` (the IANA IPv4 and IPv6 special-purpose registries), so the
 * legacy forms an attacker uses (`2130706433`, `0x7f.0.0.1`, `0177.0.0.1`)
 * read as the address they mean. Everything ipaddr.js does not call `unicast`
 * is refused, and IPv6 outside 2000::/3 (the only global unicast block) is
 * refused too. Addresses that embed an IPv4 address are judged by it: IPv4-
 * mapped (`::ffff:a.b.c.d`), NAT64 `64:ff9b::/96` and 6to4 `2002::/16`; a
 * translated or tunnelled loopback is never "loopback" (it does not reach this
 * host), so it stays refused even when loopback targets are allowed. Teredo
 * (`2001::/32`) and local-use NAT64 (`64:ff9b:1::/48`) hide their IPv4 address
 * and are always refused. On top: the cloud metadata addresses, `localhost`,
 * `*.localhost` and `*.internal` names.
 */
import { lookup as dnsLookup, promises as dns } from 'node:dns'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

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
  | 'ipv4_compatible'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'discard'
  | 'nat64'
  | 'teredo'
  | '6to4'
  | 'not_an_address'

/** Cloud metadata services by address (AWS, GCP, Azure, OpenStack; Alibaba; AWS over IPv6). */
const METADATA = ['169.254.169.254', '100.100.100.200', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toNormalizedString())

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number]
const cidr = (s: string): Cidr => ipaddr.parseCIDR(s)

/** Refinements of ipaddr.js's `reserved` range (it folds these into one name). */
const DOCUMENTATION = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20'].map(cidr)
const BENCHMARKING = ['198.18.0.0/15', '2001:2::/48'].map(cidr)
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96')
const GLOBAL_UNICAST_V6 = cidr('2000::/3')
const IPV4_COMPATIBLE = cidr('::/96')

function inAny(addr: ipaddr.IPv4 | ipaddr.IPv6, ranges: readonly Cidr[]): boolean {
  return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match([net, bits] as never))
}

/** ipaddr.js range names -> our classes (names not listed are `reserved`). */
const V4_RANGE: Record<string, AddressClass> = {
  unicast: 'public',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link_local',
  loopback: 'loopback',
  carrierGradeNat: 'cgnat',
  private: 'private'
}
const V6_RANGE: Record<string, AddressClass> = {
  unicast: 'public',
  unspecified: 'unspecified',
  linkLocal: 'link_local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique_local',
  deprecatedSiteLocal: 'private',
  discard: 'discard',
  teredo: 'teredo',
  benchmarking: 'benchmarking'
}

function classifyV4(a: ipaddr.IPv4): AddressClass {
  if (METADATA.includes(a.toNormalizedString())) return 'metadata'
  if (inAny(a, DOCUMENTATION)) return 'documentation'
  if (inAny(a, BENCHMARKING)) return 'benchmarking'
  return V4_RANGE[a.range()] ?? 'reserved'
}

/** The class of an IPv4 address carried inside a translated or tunnelled IPv6 one. */
function embedded(v4: ipaddr.IPv4, form: 'nat64' | '6to4'): AddressClass {
  const cls = classifyV4(v4)
  return cls === 'loopback' ? form : cls
}

function classifyV6(a: ipaddr.IPv6): AddressClass {
  if (METADATA.includes(a.toNormalizedString())) return 'metadata'
  const p = a.parts
  if (a.isIPv4MappedAddress()) {
    // A dual-stack socket really reaches the IPv4 address: loopback is loopback, anything else is refused.
    return classifyV4(a.toIPv4Address()) === 'loopback' ? 'loopback' : 'ipv4_mapped'
  }
  const range = a.range()
  if (range === 'rfc6052') {
    if (!a.match(NAT64_WELL_KNOWN)) return 'nat64' // local-use 64:ff9b:1::/48: where the IPv4 sits is not known
    return embedded(ipaddr.fromByteArray(a.toByteArray().slice(12)) as ipaddr.IPv4, 'nat64')
  }
  if (range === '6to4') return embedded(new ipaddr.IPv4([p[1] >> 8, p[1] & 0xff, p[2] >> 8, p[2] & 0xff]), '6to4')
  if (inAny(a, DOCUMENTATION)) return 'documentation'
  const cls = V6_RANGE[range] ?? 'reserved'
  if (cls !== 'public') return cls
  if (a.match(GLOBAL_UNICAST_V6)) return 'public'
  return a.match(IPV4_COMPATIBLE) ? 'ipv4_compatible' : 'reserved'
}

/** Parses an address literal, legacy IPv4 forms and bracketed IPv6 included; null when it is not one. */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let s = text.trim()
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1)
  while (s.endsWith('.') && !s.includes(':')) s = s.slice(0, -1)
  // An IPv6 address with a dotted IPv4 tail: spell the tail as two hex groups, since
  // ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped).
  const tail = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s)
  if (tail) {
    const [b0, b1, b2, b3] = tail.slice(2).map(Number) as [number, number, number, number]
    if ([b0, b1, b2, b3].some((b) => b > 255)) return null
    s = `${tail[1]}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`
  }
  if (!ipaddr.isValid(s)) return null
  try {
    return ipaddr.parse(s)
  } catch {
    return null
  }
}

export function classifyAddress(ip: string): AddressClass {
  const a = parseAddress(ip)
  if (!a) return 'not_an_address'
  return a.kind() === 'ipv4' ? classifyV4(a as ipaddr.IPv4) : classifyV6(a as ipaddr.IPv6)
}

export function addressAllowed(cls: AddressClass, allowLoopback: boolean): boolean {
  return cls === 'public' || (cls === 'loopback' && allowLoopback)
}

const describeClass = (cls: AddressClass): string => cls.replaceAll('_', ' ')

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string }

function hostOf(url: URL): string {
  let host = url.hostname.toLowerCase()
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  while (host.endsWith('.')) host = host.slice(0, -1)
  return host
}

const isLoopbackName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost')

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
  if (isLoopbackName(host)) {
    return allowLoopback ? { ok: true, url } : { ok: false, reason: `host '${host}' is a loopback name` }
  }
  if (host.endsWith('.internal') || host === 'internal') {
    return { ok: false, reason: `host '${host}' is an internal name` }
  }
  if (parseAddress(host)) {
    const cls = classifyAddress(host)
    if (!addressAllowed(cls, allowLoopback)) return { ok: false, reason: `address ${host} is ${describeClass(cls)}` }
  }
  return { ok: true, url }
}

export type Resolver = (host: string) => Promise<string[]>

export const systemResolver: Resolver = async (host) => {
  const res = await dns.lookup(host, { all: true, order: 'verbatim' })
  return res.map((r) => r.address)
}

/**
 * Full check: syntax, then every address the name resolves to. A name that
 * does not resolve passes here (the live probe then reports it unreachable).
 */
export async function checkEndpointUrl(raw: string, allowLoopback: boolean, resolve: Resolver = systemResolver): Promise<UrlCheck> {
  const syntax = checkEndpointUrlSyntax(raw, allowLoopback)
  if (!syntax.ok) return syntax
  const host = hostOf(syntax.url)
  if (parseAddress(host) || isLoopbackName(host)) return syntax
  let addresses: string[]
  try {
    addresses = await resolve(host)
  } catch {
    return syntax
  }
  for (const a of addresses) {
    const cls = classifyAddress(a)
    if (!addressAllowed(cls, allowLoopback)) {
      return { ok: false, reason: `host '${host}' resolves to ${a}, which is ${describeClass(cls)}` }
    }
  }
  return syntax
}

/** A dns lookup for outgoing connections that refuses addresses the rules forbid. */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const opts = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) {
        callback(err)
        return
      }
      const list = addresses as unknown as { address: string; family: number }[]
      for (const a of list) {
        if (!addressAllowed(classifyAddress(a.address), allowLoopback)) {
          const e = Object.assign(new Error(`refused to connect to ${a.address}`), { code: 'EADDRREFUSED' })
          callback(e)
          return
        }
      }
      if (opts.all) {
        callback(null, list)
        return
      }
      const first = list.at(0)
      if (!first) {
        callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }))
        return
      }
      callback(null, first.address, first.family)
    })
  }) as unknown as LookupFunction
}
