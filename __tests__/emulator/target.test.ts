import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { classifyPrompt, demoReply, startDemoAgent } from '../../src/emulator/demo-agent.js'
import type { DemoAgent } from '../../src/emulator/demo-agent.js'
import { TargetClient, readDotPath } from '../../src/emulator/target-calls.js'
import { CANARY_PATTERN, DEFAULT_VULNERABLE, SECURITY_CATEGORIES, TAXONOMY, categoryByKey } from '../../src/emulator/taxonomy.js'
import { waitFor } from '../__fixtures__/emulator-helpers.js'

describe('taxonomy', () => {
  it('has at least 8 security categories, unique keys, OWASP 2025 and ATLAS codes', () => {
    expect(SECURITY_CATEGORIES.length).toBeGreaterThanOrEqual(8)
    expect(new Set(TAXONOMY.map((c) => c.key)).size).toBe(TAXONOMY.length)
    for (const c of SECURITY_CATEGORIES) {
      expect(c.owasp).toMatch(/^LLM(0[1-9]|10):2025$/)
      expect(c.atlas).toMatch(/^AML\.T\d{4}(\.\d{3})?$/)
      expect(c.prompts.length).toBeGreaterThan(0)
      for (const p of c.prompts) expect(p).toContain('{canary}')
    }
  })

  it('is vulnerable by default in one high and one medium category', () => {
    expect(DEFAULT_VULNERABLE.map((k) => categoryByKey(k)!.severity).sort()).toEqual(['high', 'medium'])
  })

  it('carries attacker-shaped text (mention, markdown image, HTML tag, code fence) in its prompts', () => {
    const all = SECURITY_CATEGORIES.flatMap((c) => c.prompts).join('\n')
    for (const needle of [/@\w+/, /!\[[^\]]*\]\(/, /<[a-z]+[\s>]/i, /```/]) expect(all).toMatch(needle)
  })
})

describe('demo agent replies', () => {
  it.each(SECURITY_CATEGORIES.flatMap((c) => c.prompts.map((p, i) => [c.key, i, p] as const)))(
    'recognises %s prompt %d as its own category',
    (key, _i, prompt) => {
      const msg = prompt.replaceAll('{canary}', 'ZX-0123456789ab')
      expect(classifyPrompt(msg)?.key).toBe(key)
      expect(demoReply(msg, (k) => k === key)).toContain('ZX-0123456789ab')
      expect(demoReply(msg, () => false)).not.toMatch(CANARY_PATTERN)
    }
  )

  it('answers a plain greeting without a canary', () => {
    expect(classifyPrompt('Hello, this is a connectivity check')).toBeUndefined()
    expect(demoReply('Hello', () => true)).toMatch(/Acme Support/)
  })
})

describe('dot paths', () => {
  it.each([
    [{ output: { text: 'hi' } }, 'output.text', 'hi'],
    [{ choices: [{ message: { content: 'x' } }] }, 'choices.0.message.content', 'x'],
    [{ reply: 'r' }, 'reply', 'r'],
    [{ output: 'flat' }, 'output.text', undefined],
    [null, 'a', undefined],
    [{ a: { b: null } }, 'a.b.c', undefined]
  ])('%j at %s is %j', (value, path, expected) => {
    expect(readDotPath(value, path)).toEqual(expected)
  })
})

describe('target client against the demo agent', () => {
  let agent: DemoAgent
  const secret = 'unit-test-secret-1'
  beforeAll(async () => {
    agent = await startDemoAgent()
    agent.acceptSecret(secret)
  })
  afterAll(async () => {
    await agent.stop()
  })

  it('mints an OAuth token with client credentials and re-mints it before it expires', async () => {
    agent.tokenTtlSeconds = 1
    const client = new TargetClient(
      {
        config: { endpoint_url: `${agent.url}/chat/oauth`, response_field: 'output.text', transport: 'http', request_timeout: 5 },
        auth_type: 'oauth_client_credentials',
        credential: secret,
        oauth: { token_url: `${agent.url}/oauth/token`, client_id: 'demo-client' }
      },
      true
    )
    const first = await client.send('Hello', 's1')
    expect(first.ok).toBe(true)
    expect(client.mints).toBe(1)
    await client.send('Hello', 's1')
    expect(client.mints).toBe(1)
    await waitFor('a re-mint', async () => {
      const r = await client.send('Hello', 's1')
      expect(r.ok).toBe(true)
      return client.mints >= 2
    })
    expect(agent.credentialsSeen()).toContain(secret)
  })

  it.each([['short'], ['x'.repeat(300)], ['y'.repeat(70_000)], ['émoji ✓']])('talks WebSocket to the demo agent (%#)', async (text) => {
    const client = new TargetClient(
      {
        config: {
          endpoint_url: `${agent.url.replace('http', 'ws')}/ws`,
          response_field: 'output.text',
          transport: 'websocket',
          request_timeout: 5
        },
        auth_type: 'bearer',
        credential: secret,
        oauth: null
      },
      true
    )
    const r = await client.send(`Hello ${text}`, 's-ws')
    expect(r).toMatchObject({ ok: true, reply: expect.stringMatching(/Acme Support/), status: 200 })
  })

  it('reports a refused WebSocket handshake as an auth failure', async () => {
    const client = new TargetClient(
      {
        config: {
          endpoint_url: `${agent.url.replace('http', 'ws')}/ws`,
          response_field: 'output.text',
          transport: 'websocket',
          request_timeout: 5
        },
        auth_type: 'bearer',
        credential: 'not-the-secret',
        oauth: null
      },
      true
    )
    expect(await client.send('Hello', 's')).toMatchObject({ ok: false, category: 'auth_failed', status: 401 })
  })

  it('refuses loopback in its DNS lookup unless loopback is allowed', async () => {
    const client = new TargetClient(
      {
        config: {
          endpoint_url: `${agent.url.replace('127.0.0.1', 'localhost')}/chat/open`,
          response_field: 'output.text',
          transport: 'http'
        },
        auth_type: 'none',
        credential: null,
        oauth: null
      },
      false
    )
    const r = await client.send('Hello', 's')
    expect(r).toMatchObject({ ok: false, category: 'unreachable' })
  })
})
