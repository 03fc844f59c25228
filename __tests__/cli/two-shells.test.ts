/**
 * One engine, two shells: the same scenario (the demo agent, failing, then
 * fixed) through the action's main step (runMain over a fake runner) and the
 * command line (runCli), both in-process against one emulator over real
 * HTTP. The result, the counts and report.json agree, apart from what names
 * the run and its time.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { serviceClients } from '../../src/action/step-edges.js'
import { runCli } from '../../src/cli/program.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { systemClock } from '../../src/util/clock.js'
import { fakeActionIO, logged } from '../__fixtures__/fake-io.js'

function sink(): { write(s: string): boolean; text: string } {
  const s = { text: '', write: (t: string) => ((s.text += t), true) }
  return s
}

/** report.json without what differs between two runs of one scenario: ids, times, durations, the run's links. */
function comparable(path: string): unknown {
  const text = readFileSync(path, 'utf8')
  const ids = new Set<string>()
  const walk = (v: unknown, key = ''): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x))
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]))
    if (typeof v === 'string' && /(_id|Id)$/.test(key)) ids.add(v)
    if (/(_id|Id)$/.test(key)) return '<id>'
    if (/(_at|At|_ms|Ms|date)$/.test(key) || key === 'ms') return '<time>'
    return v
  }
  const json = JSON.parse(text) as { baseline?: { why?: unknown } }
  // Why no baseline was read is said in each shell's own terms (a GitHub token; a command-line option), checked apart.
  if (json.baseline && typeof json.baseline.why === 'string') json.baseline.why = '<why>'
  const first = walk(json)
  let again = JSON.stringify(first)
  for (const id of ids) again = again.split(id).join('<id>')
  again = again.replace(/ZX-[0-9a-f]{12}/g, 'ZX-<canary>')
  return JSON.parse(
    again.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z/g, '<time>').replace(/\d+(\.\d+)? ?(ms|s|min)\b/g, '<duration>')
  )
}

/** A JSON value as the action's output shows it. */
function asOutput(v: unknown): string {
  if (v === null || v === undefined) return ''
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v)
}

async function throughAction(emu: Emulator, dir: string): Promise<{ outputs: Record<string, string>; log: string[] }> {
  const io = fakeActionIO(
    { model_id: emu.demoModelId, api_key: emu.keys.full, base_url: emu.url, comment: 'off', commit_status: 'off' },
    { env: { GITHUB_ACTIONS: 'true', RUNNER_TEMP: dir, GITHUB_WORKSPACE: dir } }
  )
  await runMain({ io, clock: systemClock, signal: new AbortController().signal, makeApi: serviceClients(systemClock, io.log) })
  return { outputs: io.outputs, log: logged(io) }
}

async function throughCli(emu: Emulator, dir: string): Promise<{ code: number; json: Record<string, unknown>; log: string }> {
  const stdout = sink()
  const stderr = sink()
  const code = await runCli(['assess', '--model-id', emu.demoModelId, '--format', 'json', '--out', dir], {
    env: { ASAS_API_KEY: emu.keys.full, ASAS_BASE_URL: emu.url },
    stdout,
    stderr
  })
  return { code, json: JSON.parse(stdout.text) as Record<string, unknown>, log: stderr.text }
}

describe('the action and the command line, one scenario', () => {
  it('agree on the result, the counts and report.json, failing and then fixed', async () => {
    const emu = await startEmulator({ categoryDurationMs: 40, attacksPerCategory: 2 })
    const dirs = [mkdtempSync(join(tmpdir(), 'shell-a-')), mkdtempSync(join(tmpdir(), 'shell-c-'))]
    try {
      for (const [fixed, code] of [
        [false, 1],
        [true, 0]
      ] as const) {
        emu.demoAgent.setAllVulnerable(!fixed)
        const { outputs: action, log } = await throughAction(emu, dirs[0])
        expect(log).toContain(
          "No baseline: github_token is empty, so the default branch's records (the Actions caches API) cannot be listed; gating as with fail_on any."
        )
        const cli = await throughCli(emu, dirs[1])
        expect(cli.code).toBe(code)
        // Outside GitHub Actions no workflow records runs: the command line says so in its own terms.
        expect(cli.log.split('\n')[0]).toBe(
          "No baseline: outside GitHub Actions no earlier run of this agent is recorded (option '--baseline-run-id' names one to compare with); gating as with fail_on any."
        )
        for (const name of [
          'result',
          'findings_count',
          'new_count',
          'known_count',
          'accepted_count',
          'assessments_spent',
          'categories_planned',
          'categories_completed',
          'verdict',
          'status'
        ])
          expect([name, action[name]]).toEqual([name, asOutput(cli.json[name])])
        expect(comparable(String(cli.json.report_path))).toEqual(comparable(action.report_path))
      }
    } finally {
      await emu.stop()
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
    }
  })
})
