/**
 * GitHub shows about 10 error and 10 warning annotations per step and drops
 * the rest: the step's own result line must be one of those shown. Through
 * the main step in-process, and at the scrubbing edge.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { scrubbingIO } from '../../src/action/scrubbed-io.js'
import { makeFinding } from '../__fixtures__/builders.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, type FakeActionIO } from '../__fixtures__/fake-io.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** What GitHub would show as error and warning annotations of the step, in order. */
function shown(io: FakeActionIO): { errors: string[]; warnings: string[] } {
  return {
    errors: [...io.annotations.filter((a) => a.level === 'error').map((a) => a.message), ...io.failures],
    warnings: [
      ...io.annotations.filter((a) => a.level === 'warning').map((a) => a.message),
      ...io.log.lines.filter((l) => l.level === 'warning').map((l) => l.line)
    ]
  }
}

describe('a failing run with many blocking findings', () => {
  it.each([9, 10, 12, 40])('%i blocking findings: at most 10 errors, the last the Result: fail line', async (n) => {
    const clock = fakeClock()
    const planned = ['jailbreak']
    const findings = Array.from({ length: n }, (_, i) =>
      makeFinding(i % 2 === 0 ? 'high' : 'critical', { finding_id: `f_${i}`, category: 'jailbreak' })
    )
    const api = fakeApi({
      listRuns: async () => ({ runs: [], total: 0, returned: 0 }),
      triggerRun: async () => ({ run_id: 'run_1', model_id: 'm', status: 'running', started_at: new Date(clock.now()).toISOString() }),
      getRun: async () => ({ status: 'completed', categories_planned: planned, categories_completed: planned, verdict: 'fail' }),
      getCoverage: async () => ({
        run_status: 'completed',
        categories: [
          {
            category: 'jailbreak',
            attacks_blocked: 0,
            attacks_succeeded: n,
            owasp: 'LLM01',
            atlas: 'AML.T0051',
            worst_severity: 'critical'
          }
        ]
      }),
      listFindings: async () => ({ findings, count: findings.length }),
      listModels: async () => ({ models: [] })
    })
    const io = fakeActionIO({ model_id: 'm', api_key: 'asas_test_key', base_url: 'https://asas.example.com', categories: 'jailbreak' })
    const dir = mkdtempSync(join(tmpdir(), 'annotation-budget-'))
    dirs.push(dir)
    io.env.RUNNER_TEMP = dir
    await runMain({ io, clock, signal: new AbortController().signal, makeApi: () => api })
    expect(io.outputs.result).toBe('fail')
    const { errors, warnings } = shown(io)
    expect(errors.length).toBeLessThanOrEqual(10)
    expect(warnings.length).toBeLessThanOrEqual(10)
    expect(errors.at(-1)).toMatch(/^Result: fail/)
    // The findings past the annotations are summed up in one, not lost.
    if (n > 9) expect(errors.some((e) => e.includes('more findings at or above'))).toBe(true)
  })
})

describe('the scrubbing edge keeps the step within the annotations GitHub shows', () => {
  const edge = (): { raw: FakeActionIO; io: ReturnType<typeof scrubbingIO> } => {
    const raw = fakeActionIO({})
    return { raw, io: scrubbingIO(raw, [], { clock: fakeClock(), signal: new AbortController().signal }) }
  }

  it('errors past the budget become log lines; the failure line is always an annotation', () => {
    const { raw, io } = edge()
    for (let i = 0; i < 15; i++) io.annotate('error', `finding ${i}`, 't')
    io.setFailed('Result: fail: 15 findings')
    const { errors } = shown(raw)
    expect(errors).toHaveLength(10)
    expect(errors.at(-1)).toBe('Result: fail: 15 findings')
    // Nothing is lost: the rest are in the log, saying why.
    expect(raw.log.lines.filter((l) => l.line.includes('finding 14'))).toHaveLength(1)
  })

  it('warnings past the budget become log lines; the result warning is always an annotation', () => {
    const { raw, io } = edge()
    for (let i = 0; i < 6; i++) io.annotate('warning', `finding ${i}`, 't')
    for (let i = 0; i < 8; i++) io.log.warning(`warning ${i}`)
    io.resultWarning('Result: incomplete: 3 categories not reached')
    const { warnings } = shown(raw)
    expect(warnings).toHaveLength(10)
    expect(warnings).toContain('Result: incomplete: 3 categories not reached')
    expect(raw.log.lines.filter((l) => l.line.includes('warning 7'))).toHaveLength(1)
  })
})
