/**
 * Secrets and outputs (issue 11, cases 7 and 8), through the main step
 * in-process: a password in base_url never echoes; every output carrying
 * service text is one line without control characters.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { parseBaseUrl, withoutUserInfo } from '../../src/service/base-url.js'
import { ConfigError } from '../../src/util/errors.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO } from '../__fixtures__/fake-io.js'

describe('a password in base_url', () => {
  it.each([
    'https://user:Pa55w0rd@[bad-host',
    'https://user:Pa55w0rd@asas.example.com',
    'https://user:Pa/55#w0rd@[bad',
    'http://user:Pa55w0rd@asas.example.com/api/v1/run'
  ])('%s: refused without echoing the password', (raw) => {
    let err: unknown
    try {
      parseBaseUrl(raw)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).not.toMatch(/Pa.?55.?w0rd/)
  })

  it('the error line and the summary of the main step never carry it, and it is masked', async () => {
    const io = fakeActionIO({ model_id: 'm', api_key: 'asas_test_key', base_url: 'https://user:Pa55w0rd@[bad-host' })
    await runMain({ io, clock: fakeClock(), signal: new AbortController().signal, makeApi: () => fakeApi({}) })
    expect(io.failures).toHaveLength(1)
    expect(io.failures[0]).toMatch(/Configuration error in input 'base_url': '.*\*\*\*@\[bad-host' is not a URL/)
    const shown = [...io.failures, ...io.summary, ...io.log.lines.map((l) => l.line), JSON.stringify(io.outputs)].join('\n')
    expect(shown).not.toContain('Pa55w0rd')
    expect(io.secrets).toContain('Pa55w0rd')
    expect(io.outputs.result).toBe('error')
  })

  it('user-info is replaced up to the last @, whatever it holds', () => {
    expect(withoutUserInfo('https://a:b/c@d@[x')).toBe('https://***@[x')
    expect(withoutUserInfo('https://asas.example.com')).toBe('https://asas.example.com')
  })
})

describe('outputs from service text', () => {
  it('run_id, status and categories are one line, without control characters', async () => {
    const hostileId = 'run_1\n::set-output name=result::pass\r\u0007\u001b[31m\u202e'
    const clock = fakeClock()
    const planned = ['jailbreak\nINJECTED=1']
    const api = fakeApi({
      listRuns: async () => ({ runs: [], total: 0, returned: 0 }),
      triggerRun: async () => ({ run_id: hostileId, model_id: 'm', status: 'running', started_at: new Date(clock.now()).toISOString() }),
      getRun: async () => ({ status: 'completed', categories_planned: planned, categories_completed: planned, verdict: 'pass' }),
      getCoverage: async () => ({
        run_status: 'completed',
        categories: [
          { category: planned[0], attacks_blocked: 1, attacks_succeeded: 0, owasp: 'LLM01', atlas: 'AML.T0051', worst_severity: null }
        ]
      }),
      listFindings: async () => ({ findings: [], count: 0 }),
      listModels: async () => ({ models: [] })
    })
    const io = fakeActionIO({ model_id: 'm', api_key: 'asas_test_key', base_url: 'https://asas.example.com', categories: 'jailbreak' })
    io.env.RUNNER_TEMP = mkdtempSync(join(tmpdir(), 'outputs-'))
    await runMain({ io, clock, signal: new AbortController().signal, makeApi: () => api })
    expect(Object.keys(io.outputs)).toEqual(expect.arrayContaining(['run_id', 'status', 'categories_planned', 'result']))
    for (const [name, value] of Object.entries(io.outputs)) {
      expect([name, /[\u0000-\u001f\u007f-\u009f\u2028-\u202e]/.test(value)]).toEqual([name, false])
    }
    expect(io.outputs.run_id).toBe('run_1 ::set-output name=result::pass [31m')
    expect(JSON.parse(io.outputs.categories_planned)).toEqual(['jailbreak\nINJECTED=1'])
  })
})
