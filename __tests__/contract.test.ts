import { describe, expect, it } from '@jest/globals'
import { atOrAbove, RunStatusResponse, RegisterModelBody, CloseFindingBody, ChangeProfileBody, API_ASSUMPTIONS, ERROR_CODES } from '../src/contract.js'

describe('contract', () => {
  it.each([
    ['critical', 'high', true],
    ['high', 'high', true],
    ['medium', 'high', false],
    ['low', 'critical', false],
    ['critical', 'low', true]
  ] as const)('%s at or above %s is %s', (s, t, expected) => {
    expect(atOrAbove(s, t)).toBe(expected)
  })

  it('keeps unknown response fields and rejects a missing known one with its path', () => {
    const ok = RunStatusResponse.parse({
      run_id: 'r', model_id: 'm', status: 'running', started_at: 't', completed_at: null,
      categories_planned: ['a'], categories_completed: [], extra_field: 1
    })
    expect(ok).toMatchObject({ extra_field: 1 })
    const bad = RunStatusResponse.safeParse({ run_id: 'r', model_id: 'm', status: 'paused' })
    expect(bad.success).toBe(false)
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toContain('status')
  })

  it('enforces the registration rules of section 2.2', () => {
    const base = { name: 'x', config: { endpoint_url: 'https://a.example', response_field: 'reply' } }
    expect(RegisterModelBody.safeParse(base).success).toBe(true)
    expect(RegisterModelBody.safeParse({ ...base, auth_type: 'bearer' }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, auth_type: 'bearer', credential: 'abcd' }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, auth_type: 'bearer', credential: 'abcde' }).success).toBe(true)
    expect(RegisterModelBody.safeParse({ ...base, oauth: { token_url: 'u', client_id: 'c' } }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, name: '' }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, name: 'n'.repeat(201) }).success).toBe(false)
    expect(RegisterModelBody.safeParse({ ...base, config: { ...base.config, request_timeout: 181 } }).success).toBe(false)
  })

  it('enforces the close rules of section 4.9', () => {
    expect(CloseFindingBody.safeParse({ status: 'fixed', explanation: '   ' }).success).toBe(false)
    expect(CloseFindingBody.safeParse({ status: 'dismissed', explanation: 'why' }).success).toBe(false)
    expect(CloseFindingBody.safeParse({ status: 'dismissed', explanation: 'why', reason_code: 'other' }).success).toBe(true)
    expect(CloseFindingBody.safeParse({ status: 'fixed', explanation: 'x'.repeat(4001) }).success).toBe(false)
  })

  it('refuses a profile value that still holds an untrusted fence', () => {
    expect(ChangeProfileBody.safeParse({ changes: { purpose: '[UNTRUSTED:abc]x[/UNTRUSTED:abc]' } }).success).toBe(false)
    expect(ChangeProfileBody.safeParse({ changes: { purpose: 'support bot' } }).success).toBe(true)
    expect(ChangeProfileBody.safeParse({ changes: {}, version: 1 }).success).toBe(false)
  })

  it('lists every error code among the assumptions', () => {
    const codes = API_ASSUMPTIONS.find((a) => a.topic === 'error codes')?.decision ?? ''
    for (const list of Object.values(ERROR_CODES)) for (const c of list) expect(codes).toContain(c)
  })
})

describe('README', () => {
  it('lists every API assumption of the contract module', async () => {
    const { readFileSync } = await import('node:fs')
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    for (const a of API_ASSUMPTIONS) expect(readme).toContain(`| ${a.topic} | ${a.decision.replace(/\|/g, '\\|')} |`)
  })
})
