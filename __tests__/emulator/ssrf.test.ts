import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { CodedErrorBody } from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { checkEndpointUrl, checkEndpointUrlSyntax, classifyAddress } from '../../src/emulator/ssrf.js'
import type { Resolver } from '../../src/emulator/ssrf.js'
import { api, runToEnd } from '../__fixtures__/emulator-helpers.js'

const DNS: Record<string, string[]> = {
  'evil.example': ['10.0.0.5'],
  'mixed.example': ['93.184.216.34', '192.168.1.1'],
  'v6evil.example': ['fd12::1'],
  'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
  'loop.example': ['127.0.0.1']
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
    ['http://0x7f.0.0.1/', false, false]
  ])('%s (loopback allowed: %s) accepted: %s', (url, allowLoopback, accepted) => {
    expect(checkEndpointUrlSyntax(url, allowLoopback).ok).toBe(accepted)
  })

  it.each([
    ['http://evil.example/', false],
    ['http://mixed.example/', false],
    ['http://v6evil.example/', false],
    ['http://loop.example/', false],
    ['http://public.example/', true],
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
    ['ftp scheme', () => 'ftp://agent.example.com/chat'],
    ['file scheme', () => 'file:///etc/passwd']
  ])('%s', async (_label, url) => {
    const before = emu.control.snapshot()
    const demoRequests = emu.requestLog.filter((e) => e.endpoint === 'demo-agent').length
    const r = await api(emu, 'POST', '/api/v1/model', { body: { name: 'x', config: { endpoint_url: url(), response_field: 'output.text' } } })
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
