/**
 * End to end: the bundled command line (dist/cli/index.js) spawned as a
 * user or another CI runs it, against the emulator over real HTTP. One case
 * per exit code, the log it writes when stderr is not a terminal, its JSON
 * and report files, and Ctrl-C (SIGINT) cancelling the remote run.
 */
import { describe, expect, it } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../__fixtures__/action-runner.js'
import { waitFor } from '../__fixtures__/emulator-helpers.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'

const CLI = join(PROJECT_ROOT, 'dist', 'cli', 'index.js')

interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

function runCli(w: World | null, args: string[], onSpawn?: (child: ChildProcess, stderr: () => string) => void): Promise<CliRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'cli-e2e-'))
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: cwd }
  if (w) Object.assign(env, { ASAS_API_KEY: w.emu.keys.full, ASAS_BASE_URL: w.emu.url })
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(kill)
      rmSync(cwd, { recursive: true, force: true })
      resolve({ code, stdout, stderr })
    })
    onSpawn?.(child, () => stderr)
  })
}

/** Control characters other than the line feed: none in a log that is not a terminal. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/

describe('agent-security-gate (bundled) against the emulator', () => {
  it('the bundle exists (npm run bundle)', () => {
    expect(existsSync(CLI)).toBe(true)
  })

  it.concurrent('exits 1 on the failing demo agent: the verdict first, then the blocking findings, then the reports', () =>
    inWorld(
      async (w) => {
        const out = mkdtempSync(join(tmpdir(), 'cli-out-'))
        try {
          const r = await runCli(w, ['assess', '--model-id', w.emu.demoModelId, '--out', out])
          expect(r.code).toBe(1)
          const lines = r.stdout.trim().split('\n')
          // The agent by name with its id, and how many block (no "Result: fail:" echo); the blockers follow by name.
          expect(lines[0]).toMatch(new RegExp(`^FAIL (?:.+ \\()?${w.emu.demoModelId}\\)?: \\d+ findings? blocks?$`))
          const blocking = lines.findIndex((l) => l.startsWith('Blocking findings'))
          const reports = lines.findIndex((l) => l === 'Reports:')
          expect(blocking).toBeGreaterThan(0)
          expect(reports).toBeGreaterThan(blocking)
          expect(lines[blocking + 1]).toMatch(/^ {2}HIGH /)
          expect(
            readdirSync(out)
              .map((f) => f.replace(/^report-.*?(\.[a-z.]+)$/, '$1'))
              .sort()
          ).toEqual(['.codequality.json', '.json', '.junit.xml', '.md', '.sarif'])
          for (const f of readdirSync(out)) expect(lines).toContain(`  ${join(out, f)}`)
          // Not a terminal: one line per state change, no control characters, and never the key.
          expect(r.stderr).toMatch(/Run \S+: running, \d+\/\d+ categories done/)
          expect(r.stderr).not.toMatch(CONTROL)
          expect(r.stdout + r.stderr).not.toContain(w.emu.keys.full)
        } finally {
          rmSync(out, { recursive: true, force: true })
        }
      },
      { categoryDurationMs: 60, attacksPerCategory: 2 }
    )
  )

  it.concurrent('exits 0 once the agent is fixed, with --format json on stdout only', () =>
    inWorld(
      async (w) => {
        w.emu.demoAgent.setAllVulnerable(false)
        const r = await runCli(w, ['assess', '--model-id', w.emu.demoModelId, '--format', 'json'])
        expect(r.code).toBe(0)
        const json = JSON.parse(r.stdout) as Record<string, unknown>
        expect(json).toMatchObject({
          result: 'pass',
          exit_code: 0,
          kind: 'assessed',
          model_id: w.emu.demoModelId,
          findings_count: 0,
          assessments_spent: 1
        })
        expect(r.stderr).toMatch(/^PASS /m)
      },
      { categoryDurationMs: 60, attacksPerCategory: 2 }
    )
  )

  it.concurrent('exits 2 when the run is incomplete (the agent goes away mid-run)', () =>
    inWorld(
      async (w) => {
        w.emu.demoAgent.setAllVulnerable(false)
        w.emu.control.setIngestIncomplete(w.emu.demoModelId, true)
        const r = await runCli(w, ['assess', '--model-id', w.emu.demoModelId])
        expect(r.code).toBe(2)
        expect(r.stdout).toMatch(/^INCOMPLETE /)
      },
      { categoryDurationMs: 60, attacksPerCategory: 2 }
    )
  )

  it.concurrent('validate: the replay of the findings marked fixed, its counts as JSON; nothing fixed is a pass', () =>
    inWorld(async (w) => {
      const r = await runCli(w, ['validate', '--model-id', w.emu.demoModelId, '--format', 'json'])
      expect(r.code).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ result: 'pass', kind: 'validated', resolved_count: 0, still_broken_count: 0 })
      expect(r.stderr).toMatch(/^PASS \S+: Validation: /m)
    })
  )

  it.concurrent('exits 3 on a service refusal (a wrong key), naming the endpoint and status', () =>
    inWorld(async (w) => {
      const r = await runCli(null, [
        'assess',
        '--model-id',
        w.emu.demoModelId,
        '--base-url',
        w.emu.url,
        '--api-key',
        'asas_wrong_key_0123456789abcdef'
      ])
      expect(r.code).toBe(3)
      expect(r.stdout).toMatch(
        /^ERROR \S+: Configuration error in option '--api-key' \(or ASAS_API_KEY\): the service rejected the key \(401/
      )
    })
  )

  it.concurrent.each([
    [
      ['assess', '--model-id', 'm', '--min-severity', 'urgent'],
      /^error: option '--min-severity': 'urgent' is not one of critical, high, medium, low/
    ],
    [['assess', '--model-id', 'm', '--fail-on-incomplete', 'maybe'], /^error: option '--fail-on-incomplete': /],
    [['assess', '--model-id', 'm'], /^error: option '--api-key' \(or ASAS_API_KEY\): is empty/],
    [
      ['assess', '--model-id', 'm', '--format', 'yaml'],
      /error: option '--format <format>' argument 'yaml' is invalid. Allowed choices are text, json/
    ],
    [['assess', '--no-such-flag'], /error: unknown option '--no-such-flag'/],
    [['emulator', '--port', 'x'], /^error: option '--port': 'x' is not a port/]
  ])('exits 3 on a bad option, naming it: %j', async (args, message) => {
    const withKey = args.includes('--min-severity') || args.includes('--fail-on-incomplete')
    const r = await runCli(null, withKey ? [...args, '--api-key', 'asas_dev_0123456789abcdef'] : args)
    expect(r.code).toBe(3)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
  })

  it('--help shows the options named like the inputs, and examples', async () => {
    const r = await runCli(null, ['assess', '--help'])
    expect(r.code).toBe(0)
    for (const flag of [
      '--model-id <id>',
      '--endpoint-url <url>',
      '--profile-file <file>',
      '--fail-on <policy>',
      '--baseline-run-id <run>',
      '--out <dir>'
    ])
      expect(r.stdout).toContain(flag)
    expect(r.stdout).toContain('Examples:')
    expect(r.stdout).toContain('Exit codes: 0 pass')
  })

  it.concurrent('Ctrl-C (SIGINT) cancels the remote run once and exits 3', () =>
    inWorld(
      async (w) => {
        const r = await runCli(w, ['assess', '--model-id', w.emu.demoModelId], (child, stderr) => {
          void waitFor('the run to start', () => /Run \S+ started/.test(stderr())).then(() => child.kill('SIGINT'))
        })
        expect(r.code).toBe(3)
        expect(r.stderr).toMatch(/Received SIGINT/)
        const runId = /Run (\S+) started/.exec(r.stderr)?.[1]
        await waitFor('the run to be cancelled', () => w.emu.control.runs().find((x) => x.run_id === runId)?.status === 'cancelled')
        expect(w.emu.requestLog.filter((q) => q.method === 'POST' && q.path.endsWith('/cancel'))).toHaveLength(1)
      },
      { categoryDurationMs: 5_000 }
    )
  )
})
