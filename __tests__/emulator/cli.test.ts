/**
 * The CLI (scripts/emulator.ts), compiled with tsc the way `npm run emulator`
 * does, run as a child process: it prints one line with the URL, the dev keys
 * and the demo model id, serves requests, and exits 0 on SIGINT/SIGTERM.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'

const root = process.cwd()
let outDir = ''
const children: ReturnType<typeof spawn>[] = []

afterEach(() => {
  // a failed assertion must not leave a child running
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

async function waitFor(what: string, fn: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'asas-emulator-cli-'))
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      [
        path.join(root, 'node_modules/typescript/bin/tsc'),
        'scripts/emulator.ts',
        '--outDir',
        outDir,
        '--rootDir',
        '.',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2023',
        '--types',
        'node',
        '--skipLibCheck',
        '--strict',
        '--ignoreConfig'
      ],
      { cwd: root },
      (err, stdout) => {
        if (err) reject(new Error(`tsc failed: ${stdout}`))
        else resolve()
      }
    )
  })
  writeFileSync(path.join(outDir, 'package.json'), '{"type":"module"}')
  symlinkSync(path.join(root, 'node_modules'), path.join(outDir, 'node_modules'))
}, 60_000)

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true })
})

function start(args: string[]): Promise<{ child: ReturnType<typeof spawn>; lines: string[]; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [path.join(outDir, 'scripts/emulator.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  const lines: string[] = []
  let buf = ''
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code)
    })
  )
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString()
      const parts = buf.split('\n')
      buf = parts.pop()!
      lines.push(...parts)
      if (lines.some((l) => l.includes('listening on'))) resolve({ child, lines, exit })
    })
    child.on('exit', (code) => {
      reject(new Error(`exited early with ${code}`))
    })
  })
}

describe('scripts/emulator.ts', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('prints the URL, keys and demo model, serves, and stops cleanly on %s', async (signal) => {
    const { child, lines, exit } = await start(['--port', '0', '--allow-loopback-targets', '--quiet', '--category-ms', '10'])
    const line = lines.find((l) => l.includes('listening on'))!
    const url = /http:\/\/127\.0\.0\.1:(\d+)/.exec(line)![0]
    for (const k of ['asas_dev_full', 'asas_dev_other', 'asas_dev_trial', 'asas_dev_redacted', 'asas_dev_readonly'])
      expect(line).toContain(k)
    const demo = /mdl_[0-9a-f]+/.exec(line)![0]
    await waitFor('the loopback line', () => lines.some((l) => /loopback targets are allowed/i.test(l)))
    const r = await fetch(`${url}/api/v1/model`, { headers: { authorization: 'Bearer asas_dev_full' } })
    expect(r.status).toBe(200)
    expect(((await r.json()) as { models: { model_id: string }[] }).models.map((m) => m.model_id)).toContain(demo)
    const info = (await (await fetch(`${url}/__emulator/info`)).json()) as { demo_model_id: string }
    expect(info.demo_model_id).toBe(demo)
    child.kill(signal)
    expect(await exit).toBe(0)
  })

  it('refuses a bad option with exit code 2', async () => {
    const child = spawn(process.execPath, [path.join(outDir, 'scripts/emulator.js'), '--faults', 'rate=2'], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    children.push(child)
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(2)
    expect(err).toMatch(/fault spec/)
  })

  it('does not print the loopback line without --allow-loopback-targets', async () => {
    const { child, lines, exit } = await start(['--port', '0', '--quiet'])
    child.kill('SIGTERM')
    expect(await exit).toBe(0)
    expect(lines.some((l) => /loopback/i.test(l))).toBe(false)
  })
})
