import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { CodedErrorBody } from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { addressAllowed, checkEndpointUrl, checkEndpointUrlSyntax, classifyAddress } from '../../src/emulator/ssrf.js'
import type { Resolver } from '../../src/emulator/ssrf.js'
import { api, runToEnd } from '../__fixtures__/emulator-helpers.js'

const DNS: Partial<Record<string, string[]>> = {
  'evil.example': ['10.0.0.5'],
  'mixed.example': ['93.184.216.34', '192.168.1.1'],
  'v6evil.example': ['fd12::1'],
  'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
  'loop.example': ['127.0.0.1'],
  'doc.example': ['192.0.2.10'],
  'sixtofour.example': ['2002:7f00:1::1'],
  'teredo.example': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'compat.example': ['::7f00:1'],
  'cgnat.example': ['100.64.3.3'],
  'meta.example': ['169.254.169.254']
}
const resolver: Resolver = async (host) => {
  const a = DNS[host]
  if (!a) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })
  return a
}

describe('address classification', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.10.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['224.0.0.1', 'multicast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:10.0.0.1', 'ipv4_mapped'],
    ['::ffff:169.254.169.254', 'ipv4_mapped'],
    ['::ffff:8.8.8.8', 'ipv4_mapped'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2606:2800:220:1::1', 'public'],
    ['ff02::1', 'multicast']
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls)
  })
})

// One row per special-purpose range (IANA IPv4 and IPv6 registries), its first and last address
// where that matters, and the public neighbours that must stay public.
describe('special-purpose ranges', () => {
  it.each([
    // IPv4
    ['0.0.0.1', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['172.16.0.0', 'private'],
    ['192.168.255.255', 'private'],
    ['100.63.255.255', 'public'],
    ['100.64.0.0', 'cgnat'],
    ['127.255.255.255', 'loopback'],
    ['169.254.0.1', 'link_local'],
    ['169.254.255.255', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.0', 'documentation'],
    ['192.0.2.255', 'documentation'],
    ['192.0.3.1', 'public'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.1', 'public'],
    ['192.88.99.1', 'reserved'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::2', 'ipv4_compatible'],
    ['::7f00:1', 'ipv4_compatible'],
    ['::127.0.0.1', 'ipv4_compatible'],
    ['::8.8.8.8', 'ipv4_compatible'],
    ['::ffff:8.8.8.8', 'ipv4_mapped'],
    ['::ffff:0:10.0.0.1', 'reserved'],
    ['fe80::1', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['fec0::1', 'private'],
    ['fc00::1', 'unique_local'],
    ['fdff:ffff::1', 'unique_local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['100::', 'discard'],
    ['100::ffff:ffff:ffff:ffff', 'discard'],
    ['2001::', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:4:112::1', 'reserved'],
    ['2001:10::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['2001:1ff::1', 'reserved'],
    ['2001:200::1', 'public'],
    ['2001:db8::', 'documentation'],
    ['2001:db8:ffff:ffff::1', 'documentation'],
    ['2001:db9::1', 'public'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'reserved'],
    ['2002:7f00:1::', '6to4'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:a00:1::', 'private'],
    ['2002:a9fe:a9fe::', 'metadata'],
    ['2002:c000:201::', 'documentation'],
    ['2002:6440:1::', 'cgnat'],
    ['2002:808:808::', 'public'],
    ['64:ff9b::127.0.0.1', 'nat64'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::192.168.1.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::1', 'nat64'],
    ['64:ff9b:1:ffff::8.8.8.8', 'nat64'],
    ['1::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['e000::1', 'reserved'],
    ['2a00:1450:4001::1', 'public']
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls)
  })

  // The forms an attacker writes for one address all read as that address.
  it.each([
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['017700000001', 'loopback'],
    ['127.1', 'loopback'],
    ['127.0.0.1.', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:169.254.169.254]', 'ipv4_mapped'],
    ['0xa9.0xfe.0xa9.0xfe', 'metadata'],
    ['2852039166', 'metadata'],
    ['0300.0250.1.1', 'private'],
    ['3232235777', 'private'],
    ['0xc0a80101', 'private'],
    ['[FE80::1]', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', 'loopback'],
    ['::ffff:300.0.0.1', 'not_an_address'],
    ['agent.example.com', 'not_an_address']
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls)
  })

  it('allows only public addresses, and loopback when loopback targets are allowed', () => {
    for (const cls of [
      'private',
      'metadata',
      '6to4',
      'nat64',
      'teredo',
      'documentation',
      'discard',
      'ipv4_mapped',
      'reserved',
      'not_an_address'
    ] as const) {
      expect(addressAllowed(cls, true)).toBe(false)
    }
    expect(addressAllowed('public', false)).toBe(true)
    expect(addressAllowed('loopback', false)).toBe(false)
    expect(addressAllowed('loopback', true)).toBe(true)
  })
})

describe('endpoint URL rules', () => {
  it.each([
    ['https://agent.example.com/chat', false, true],
    ['http://agent.example.com/chat', false, true],
    ['ws://agent.example.com/ws', false, true],
    ['wss://agent.example.com/ws', false, true],
    ['ftp://agent.example.com/', false, false],
    ['file:///etc/passwd', false, false],
    ['gopher://agent.example.com/', false, false],
    ['javascript:alert(1)', false, false],
    ['not a url', false, false],
    ['http://127.0.0.1:8080/chat', false, false],
    ['http://127.0.0.1:8080/chat', true, true],
    ['http://localhost/chat', false, false],
    ['http://localhost/chat', true, true],
    ['http://api.localhost/chat', false, false],
    ['http://LOCALHOST./chat', false, false],
    ['http://metadata.google.internal/computeMetadata/v1/', true, false],
    ['http://service.internal/', true, false],
    ['http://169.254.169.254/latest/meta-data/', true, false],
    ['http://[fd00:ec2::254]/', true, false],
    ['http://[::1]:8080/', false, false],
    ['http://[::1]:8080/', true, true],
    ['http://[::ffff:10.0.0.1]/', true, false],
    ['http://[::ffff:a9fe:a9fe]/', true, false],
    ['http://[fe80::1]/', true, false],
    ['http://[fc00::1]/', true, false],
    ['http://[::]/', true, false],
    ['http://0.0.0.0/', true, false],
    ['http://10.0.0.1/', true, false],
    ['http://172.20.1.1/', true, false],
    ['http://192.168.1.10/', true, false],
    ['http://100.100.100.200/', true, false],
    ['http://2130706433/', false, false], // 127.0.0.1 as a number: the URL parser normalises it
    ['http://0x7f.0.0.1/', false, false],
    ['http://0177.0.0.1/', false, false],
    ['http://0x7f000001/', false, false],
    ['http://127.1/', false, false],
    ['http://127.0.0.1./', false, false],
    ['http://127.0.0.1.:8080/', true, true],
    ['http://2852039166/latest/meta-data/', true, false],
    ['http://0xa9fea9fe/', true, false],
    ['http://[::ffff:127.0.0.1]/', true, true],
    ['http://[::ffff:127.0.0.1]/', false, false],
    ['http://[::127.0.0.1]/', true, false],
    ['http://[2002:7f00:1::]/', true, false],
    ['http://[2002:a9fe:a9fe::]/', true, false],
    ['http://[2002:808:808::]/', false, true],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', true, false],
    ['http://[64:ff9b::127.0.0.1]/', true, false],
    ['http://[64:ff9b::a9fe:a9fe]/', true, false],
    ['http://[64:ff9b:1::a00:1]/', true, false],
    ['http://[64:ff9b::8.8.8.8]/', false, true],
    ['http://[100::1]/', true, false],
    ['http://[2001:db8::1]/', true, false],
    ['http://192.0.2.1/', true, false],
    ['http://198.51.100.1/', true, false],
    ['http://203.0.113.1/', true, false],
    ['http://198.18.0.1/', true, false],
    ['http://255.255.255.255/', true, false],
    ['http://224.0.0.1/', true, false],
    ['http://[ff02::1]/', true, false],
    ['ws://10.0.0.1/ws', true, false],
    ['wss://[::ffff:a00:1]/ws', true, false],
    ['http://METADATA.GOOGLE.INTERNAL./', true, false],
    ['http://metadata.google.internal:80/', true, false],
    ['http://user:pw@169.254.169.254/', true, false],
    ['http://agent.example.com@10.0.0.1/', true, false],
    ['http://8.8.8.8/', false, true],
    ['https://[2a00:1450:4001::1]/', false, true]
  ])('%s (loopback allowed: %s) accepted: %s', (url, allowLoopback, accepted) => {
    expect(checkEndpointUrlSyntax(url, allowLoopback).ok).toBe(accepted)
  })

  it.each([
    ['http://evil.example/', false],
    ['http://mixed.example/', false],
    ['http://v6evil.example/', false],
    ['http://loop.example/', false],
    ['http://public.example/', true],
    ['http://public.example./', true],
    ['http://EVIL.example./', false],
    ['http://doc.example/', false],
    ['http://sixtofour.example/', false],
    ['http://teredo.example/', false],
    ['http://nat64.example/', false],
    ['http://compat.example/', false],
    ['http://cgnat.example/', false],
    ['http://meta.example/', false],
    ['http://unresolvable.example/', true] // the probe then reports unreachable
  ])('checks every address %s resolves to (accepted: %s)', async (url, accepted) => {
    expect((await checkEndpointUrl(url, false, resolver)).ok).toBe(accepted)
  })
})

describe('POST /model refuses rejected endpoints with 400 before any connection', () => {
  let emu: Emulator
  beforeAll(async () => {
    emu = await startEmulator({ categoryDurationMs: 10, attacksPerCategory: 1, resolver })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it.each([
    ['loopback (not allowed here)', () => `${emu.demoAgent.url}/chat/open`],
    ['localhost', () => 'http://localhost:1/chat'],
    ['*.localhost', () => 'http://agent.localhost/chat'],
    ['*.internal', () => 'https://agent.corp.internal/chat'],
    ['metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 metadata', () => 'http://[fd00:ec2::254]/'],
    ['private IPv4', () => 'http://10.0.0.8/chat'],
    ['CGNAT', () => 'http://100.64.1.1/chat'],
    ['IPv6 ULA', () => 'http://[fd12::1]/chat'],
    ['IPv6 link-local', () => 'http://[fe80::1]/chat'],
    ['IPv4-mapped IPv6', () => 'http://[::ffff:192.168.0.1]/chat'],
    ['unspecified', () => 'http://0.0.0.0/chat'],
    ['a name resolving to a private address', () => 'http://evil.example/chat'],
    ['a name with one private address among others', () => 'http://mixed.example/chat'],
    ['6to4 embedding loopback', () => 'http://[2002:7f00:1::]/chat'],
    ['Teredo', () => 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/chat'],
    ['NAT64 embedding the metadata address', () => 'http://[64:ff9b::a9fe:a9fe]/chat'],
    ['local-use NAT64', () => 'http://[64:ff9b:1::a00:1]/chat'],
    ['discard-only', () => 'http://[100::1]/chat'],
    ['IPv4 documentation', () => 'http://203.0.113.5/chat'],
    ['IPv6 documentation', () => 'http://[2001:db8::5]/chat'],
    ['decimal metadata address', () => 'http://2852039166/latest/meta-data/'],
    ['a name resolving to 6to4 loopback', () => 'http://sixtofour.example/chat'],
    ['ftp scheme', () => 'ftp://agent.example.com/chat'],
    ['file scheme', () => 'file:///etc/passwd']
  ])('%s', async (_label, url) => {
    const before = emu.control.snapshot()
    const demoRequests = emu.requestLog.filter((e) => e.endpoint === 'demo-agent').length
    const r = await api(emu, 'POST', '/api/v1/model', {
      body: { name: 'x', config: { endpoint_url: url(), response_field: 'output.text' } }
    })
    expect(r.status).toBe(400)
    expect(CodedErrorBody.parse(r.json).detail.code).toBe('endpoint_rejected')
    expect(emu.requestLog.filter((e) => e.endpoint === 'demo-agent').length).toBe(demoRequests)
    expect(emu.control.snapshot()).toBe(before)
  })

  it('checks the OAuth token_url too', async () => {
    const r = await api(emu, 'POST', '/api/v1/model', {
      body: {
        name: 'x',
        config: { endpoint_url: 'https://agent.example.com/chat', response_field: 'output.text' },
        auth_type: 'oauth_client_credentials',
        credential: 'client-secret',
        oauth: { token_url: 'http://169.254.169.254/token', client_id: 'c' }
      }
    })
    expect(r.status).toBe(400)
    expect(r.json.detail).toMatchObject({ code: 'endpoint_rejected', field: 'oauth.token_url' })
  })

  it('still runs the seeded demo model (seeded regardless of the loopback setting)', async () => {
    const runId = await runToEnd(emu, emu.demoModelId, 'full', ['prompt_injection'])
    expect((await api(emu, 'GET', `/api/v1/run/${runId}`)).json.status).toBe('completed')
  })
})
