/**
 * The command line as people install it: `npx --yes agent-security-gate@1`.
 * The package is staged and packed as the release workflow publishes it
 * (scripts/package-cli.mjs, then `npm pack`), installed from the tarball into
 * an empty directory with production dependencies only and offline (so it
 * installs nothing but itself), by npm running on Node 22 (engines.node's
 * floor) and on Node 24, with --engine-strict; then its `bin` runs on that
 * Node: --version, --help, and an assessment against the emulator. The
 * tarball's file list and size are checked. Needs `npm run bundle` first; the
 * two Nodes are found by scripts/node-runtime.mjs (`npm test` fetches them).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { PROJECT_ROOT } from '../__fixtures__/action-runner.js'
import { inWorld } from '../__fixtures__/e2e-world.js'
import { nodeOfMajor, type Runtime } from '../__fixtures__/node-runtimes.js'

const tmp = mkdtempSync(join(tmpdir(), 'pack-install-'))
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true })
})

const project = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }

/** npm's own CLI script, to run npm on a chosen Node (npm_execpath under npm, else the `npm` on PATH). */
function npmCli(): string {
  const fromNpm = process.env.npm_execpath
  if (fromNpm?.endsWith('.js')) return fromNpm
  const onPath = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim()
  return join(dirname(realpathSync(onPath)), 'npm-cli.js')
}

let tarball = ''
beforeAll(() => {
  const out = execFileSync(
    process.execPath,
    [join(PROJECT_ROOT, 'scripts', 'package-cli.mjs'), '--out', join(tmp, 'stage'), '--pack', join(tmp, 'packed')],
    { encoding: 'utf8' }
  )
  tarball = out.trim().split('\n').pop() ?? ''
}, 120_000)

describe('the tarball npm publishes', () => {
  it('holds the CLI bundle, its licenses, LICENSE and README, and nothing else', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort()
    const chunks = files.filter((f) => /^package\/dist\/cli\/\d+\.index\.js$/.test(f))
    expect(chunks.length).toBeGreaterThan(0)
    expect(files).toEqual(
      [
        'package/LICENSE',
        'package/README.md',
        'package/package.json',
        'package/dist/cli/index.js',
        'package/dist/cli/package.json',
        'package/dist/cli/licenses.txt',
        ...chunks
      ].sort()
    )
  })

  it('is small: under 2 MiB packed, under 8 MiB installed', () => {
    expect(statSync(tarball).size).toBeLessThan(2 * 1024 * 1024)
    const unpacked = execFileSync('tar', ['-tvzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .reduce((sum, line) => sum + Number(line.split(/\s+/)[2]), 0)
    expect(unpacked).toBeLessThan(8 * 1024 * 1024)
  })

  it('its package.json: the name, the version of the release, the bin and engines, no dependency and no script', () => {
    const text = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })
    const manifest = JSON.parse(text) as Record<string, unknown>
    expect(manifest).toMatchObject({
      name: 'agent-security-gate',
      version: project.version,
      type: 'module',
      bin: { 'agent-security-gate': 'dist/cli/index.js' },
      engines: { node: '^22.13.0 || >=24' }
    })
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'scripts', 'private'])
      expect(manifest).not.toHaveProperty(field)
  })
})

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      resolve({ code, stdout, stderr })
    })
  })
}

/** An empty directory where npm on `node` installs the tarball, offline, production dependencies only; the installed bin. */
async function install(node: Runtime): Promise<{ bin: string; env: NodeJS.ProcessEnv; cwd: string }> {
  const cwd = mkdtempSync(join(tmp, `${node.name}-`))
  writeFileSync(join(cwd, 'package.json'), '{"private": true}\n')
  // `#!/usr/bin/env node` finds this Node first; HOME and the npm cache are the empty directory's own.
  const env = { PATH: `${dirname(node.path)}${delimiter}${process.env.PATH ?? ''}`, HOME: cwd, npm_config_cache: join(cwd, '.npm') }
  const args = ['install', '--omit=dev', '--no-audit', '--no-fund', '--offline', '--engine-strict', '--no-update-notifier', tarball]
  const r = await run(node.path, [npmCli(), ...args], { cwd, env })
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  const installed = execFileSync('sh', ['-c', 'ls node_modules'], { cwd, encoding: 'utf8' }).trim().split('\n')
  expect(installed).toEqual(['agent-security-gate'])
  return { bin: join(cwd, 'node_modules', '.bin', 'agent-security-gate'), env, cwd }
}

describe.each([22, 24] as const)('installed by npm on Node %i', (major) => {
  const node = nodeOfMajor(major)

  it(`a Node ${String(major)} is at hand (npm test fetches one: scripts/node-runtime.mjs)`, () => {
    expect(node?.version).toMatch(new RegExp(`^v${String(major)}\\.`))
  })

  ;(node ? it : it.skip)(
    'runs through its bin: --version, --help, and an assessment against the emulator',
    async () => {
      if (!node) return
      const { bin, env, cwd } = await install(node)
      expect(execFileSync('sh', ['-c', 'node --version'], { env, encoding: 'utf8' }).trim()).toBe(node.version)

      const version = await run(bin, ['--version'], { cwd, env })
      expect(version).toEqual({ code: 0, stdout: `${project.version}\n`, stderr: '' })
      const help = await run(bin, ['--help'], { cwd, env })
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(/^Usage: agent-security-gate /)
      expect(help.stdout).toMatch(/^ {2}assess /m)

      await inWorld(
        async (w) => {
          w.emu.demoAgent.setAllVulnerable(false)
          const r = await run(bin, ['assess', '--model-id', w.emu.demoModelId, '--format', 'json', '--out', join(cwd, 'reports')], {
            cwd,
            env: { ...env, ASAS_API_KEY: w.emu.keys.full, ASAS_BASE_URL: w.emu.url }
          })
          expect(r.code).toBe(0)
          expect(JSON.parse(r.stdout)).toMatchObject({ result: 'pass', exit_code: 0, model_id: w.emu.demoModelId })
        },
        { categoryDurationMs: 40, attacksPerCategory: 2 }
      )
    },
    120_000
  )
})

describe('what people copy', () => {
  const major = project.version.split('.')[0]
  const files = ['README.md', 'examples/other-ci/generic-ci.sh', 'examples/gitlab/gitlab-ci.yml', ...docs()]

  function docs(): string[] {
    return execFileSync('sh', ['-c', 'ls docs/*.md'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim().split('\n')
  }

  it.each(files)('%s: every npx of the command line names a version', (file) => {
    const text = readFileSync(join(PROJECT_ROOT, file), 'utf8')
    const calls = [...text.matchAll(/npx(?: --yes| -y)? agent-security-gate(@[^\s`]+)?/g)]
    expect(calls.map((m) => m[0]).filter((call) => !call.includes('@'))).toEqual([])
  })

  it.each(['README.md', 'examples/other-ci/generic-ci.sh', 'examples/gitlab/gitlab-ci.yml', 'docs/command-line.md', 'docs/gitlab.md'])(
    '%s runs the package pinned to the major of this release',
    (file) => {
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8')
      expect(text).toContain(`npx --yes agent-security-gate@${major} `)
    }
  )

  it('docs/command-line.md says how to pin an exact version and verify its provenance', () => {
    const text = readFileSync(join(PROJECT_ROOT, 'docs', 'command-line.md'), 'utf8')
    expect(text).toMatch(/npx --yes agent-security-gate@\d+\.\d+\.\d+ /)
    expect(text).toMatch(/npm install --save-exact agent-security-gate@\d+\.\d+\.\d+/)
    expect(text).toContain('npm audit signatures')
  })
})
