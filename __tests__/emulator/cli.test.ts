/**
 * The CLI (scripts/emulator.ts), compiled to JavaScript and run as a child
 * process: it prints one line with the URL, the dev keys and the demo model
 * id, serves requests, and exits 0 on SIGINT/SIGTERM. Compiled file by file
 * without type-checking (`npm run typecheck` checks the same sources), which
 * emits the same modules as tsc does for this isolatedModules project in a
 * fraction of the time.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import ts from 'typescript'

const root = process.cwd()
let outDir = ''
const children: ReturnType<typeof spawn>[] = []

async function waitFor(what: string, fn: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** Compiles `entry` and every module it imports by a relative path into `out`, keeping the layout under the project root. */
function compileTree(entry: string, out: string): number {
  const todo = [path.join(root, entry)]
  const done = new Set<string>()
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (done.has(file)) continue
    done.add(file)
    const source = readFileSync(file, 'utf8')
    const js = ts.transpileModule(source, {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, isolatedModules: true, esModuleInterop: true }
    })
    const problems = (js.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`)
    const target = path.join(out, path.relative(root, file)).replace(/\.ts$/, '.js')
    mkdirSync(path.dirname(target), { recursive: true })
    writeFileSync(target, js.outputText)
    for (const m of source.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)\.js['"]/g)) todo.push(path.resolve(path.dirname(file), `${m[1]}.ts`))
  }
  return done.size
}

beforeAll(() => {
  outDir = mkdtempSync(path.join(tmpdir(), 'asas-emulator-cli-'))
  expect(compileTree('scripts/emulator.ts', outDir)).toBeGreaterThan(10)
  writeFileSync(path.join(outDir, 'package.json'), '{"type":"module"}')
  symlinkSync(path.join(root, 'node_modules'), path.join(outDir, 'node_modules'))
})

afterAll(() => {
  // a failed assertion must not leave a child running (the cases run concurrently: only once all are done)
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
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
  it.concurrent.each(['SIGTERM', 'SIGINT'] as const)(
    'prints the URL, keys and demo model, serves, and stops cleanly on %s',
    async (signal) => {
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
    }
  )

  it.concurrent('refuses a bad option with exit code 2', async () => {
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

  it.concurrent('sets the demo agent flaky categories and seed from --agent-comply and --agent-seed', async () => {
    const { child, lines, exit } = await start([
      '--port',
      '0',
      '--quiet',
      '--agent-comply',
      'jailbreak=0.3,prompt_injection=0',
      '--agent-seed',
      '5'
    ])
    const url = /http:\/\/127\.0\.0\.1:(\d+)/.exec(lines.find((l) => l.includes('listening on'))!)![0]
    await waitFor('the flaky line', () => lines.some((l) => l.includes('complies by chance')))
    expect(lines).toContain('Demo agent complies by chance: jailbreak=0.3 (seed 5)')
    const state = (await (await fetch(`${url}/__emulator/demo-agent`)).json()) as Record<string, unknown>
    expect(state).toMatchObject({ vulnerable: ['system_prompt_leakage'], comply_probability: { jailbreak: 0.3 }, seed: 5 })
    child.kill('SIGTERM')
    expect(await exit).toBe(0)
  })

  it.concurrent.each([
    [['--agent-comply', 'jailbrake=0.3'], /agentComply\.jailbrake: not a security category/],
    [['--agent-comply', 'jailbreak=1.5'], /agentComply\.jailbreak: .*1/],
    [['--agent-comply', 'jailbreak'], /category=probability/],
    [['--agent-seed', '-1'], /--agent-seed must be an integer/],
    [['--attacks-per-category', '0'], /--attacks-per-category must be an integer 1\.\.100/]
  ])('refuses %j with exit code 2, naming what is wrong', async (args, message) => {
    const child = spawn(process.execPath, [path.join(outDir, 'scripts/emulator.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(child)
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    // 'close': after stderr is read to its end ('exit' can come first)
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(2)
    expect(err).toMatch(message)
    expect(err).toMatch(/usage: emulator .*--agent-comply SPEC/)
  })

  it.concurrent('does not print the loopback line without --allow-loopback-targets', async () => {
    const { child, lines, exit } = await start(['--port', '0', '--quiet'])
    child.kill('SIGTERM')
    expect(await exit).toBe(0)
    expect(lines.some((l) => /loopback/i.test(l))).toBe(false)
  })
})
