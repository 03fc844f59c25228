/**
 * `agent-security-gate overview` end to end against the emulator's demo
 * fleet (fleet.ts) over real HTTP: stale and never-assessed agents, a 429
 * storm waited out, an unreadable run named, reads only.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli/program.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import { ServiceError } from '../../src/util/errors.js'
import { systemClock } from '../../src/util/clock.js'
import type { OverviewReader } from '../../src/overview/read.js'

function sink(): { write(s: string): boolean; text: string } {
  const s = { text: '', write: (t: string) => ((s.text += t), true) }
  return s
}

async function overview(
  emu: Emulator,
  args: string[],
  env: Record<string, string> = {},
  makeReader?: (b: string, k: string) => OverviewReader
) {
  const stdout = sink()
  const stderr = sink()
  const code = await runCli(['overview', ...args], {
    env: { ASAS_API_KEY: emu.keys.readonly, ASAS_BASE_URL: emu.url, ...env },
    stdout,
    stderr,
    makeReader
  })
  return { code, stdout: stdout.text, stderr: stderr.text }
}

describe('overview against the emulator fleet', () => {
  let emu: Emulator
  beforeAll(async () => {
    emu = await startEmulator({ fleet: { agents: 5, runs: 6, seed: 3 } })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it('names the stale and the never-assessed agent, reads only, and does not exit 0', async () => {
    const before = emu.requestLog.length
    const r = await overview(emu, ['--format', 'json', '--max-age-days', '14'])
    const page = JSON.parse(r.stdout)
    expect(page.schema).toBe('agent-security-gate/overview/v1')
    // The fleet's five and the workspace's own demo model, which never ran.
    expect(page.verdict).toMatchObject({ agents: 6, assessed: 3, stale: 1, never: 2, unreadable: 0 })
    expect(r.code).toBe(page.verdict.failing > 0 ? 1 : 2)
    expect(page.agents.filter((a: { state: string }) => a.state === 'never').map((a: { name: string }) => a.name)).toContain(
      'Sales copilot'
    )
    expect(page.agents.find((a: { state: string }) => a.state === 'stale').ageDays).toBeGreaterThanOrEqual(40)
    expect(page.spent.assessments).toBe(18)
    expect(page.categories.every((c: { owasp: string }) => c.owasp !== '')).toBe(true)
    const methods = new Set(emu.requestLog.slice(before).map((e) => e.method))
    expect([...methods]).toEqual(['GET'])
  })

  it('waits out a 429 storm and draws the same page; progress lines only outside CI', async () => {
    const calm = JSON.parse((await overview(emu, ['--format', 'json'])).stdout)
    emu.control.setFaults({ seed: 9, rate: 0.4, kinds: ['burst429'], retryAfterSeconds: 0, burstLength: 2, maxFaults: 4 })
    const before = emu.requestLog.length
    try {
      const stormy = await overview(emu, ['--concurrency', '4'])
      expect(emu.requestLog.slice(before).filter((e) => e.status === 429).length).toBeGreaterThan(0)
      expect(stormy.stderr).toMatch(/^\[6\/6\] /m)
      expect(stormy.stdout).toContain(`Workspace overview: ${calm.verdict.headline}\n`)
      expect(stormy.stdout).not.toContain('Not read:')
      emu.control.setFaults(null)
      const again = JSON.parse((await overview(emu, ['--format', 'json'])).stdout)
      expect(again.verdict).toEqual(calm.verdict)
    } finally {
      emu.control.setFaults(null)
    }
    const quiet = await overview(emu, [], { CI: 'true' })
    expect(quiet.stderr).toBe('')
  })

  it('names a run it could not read on every format, and writes an HTML file with no external reference', async () => {
    let victim = ''
    const reader = (baseUrl: string, apiKey: string): OverviewReader => {
      const api = createClient({ baseUrl, apiKey, clock: systemClock })
      return {
        listModels: (o) => api.listModels(o),
        listCategories: (q, o) => api.listCategories(q, o),
        listRuns: (id, q, o) => api.listRuns(id, q, o),
        listFindings: (id, q, o) => api.listFindings(id, q, o),
        getRun: async (id, q, o) => {
          if (victim === '' || victim === id) {
            victim = id
            throw new ServiceError({ endpoint: `GET /api/v1/run/${id}`, status: 500, message: 'HTTP 500 from the service' })
          }
          return api.getRun(id, q, o)
        }
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'overview-'))
    const r = await overview(emu, ['--format', 'markdown', '--html', join(dir, 'o.html')], {}, reader)
    expect(r.code).not.toBe(0)
    expect(r.stdout).toContain('### Not read')
    expect(r.stdout).toContain(`run \`${victim}\``)
    const html = readFileSync(join(dir, 'o.html'), 'utf8')
    expect(html).toContain(victim)
    expect(html).not.toMatch(/(src|href)=["']?https?:/i)
    expect(html).toContain('<svg')
  })
})
