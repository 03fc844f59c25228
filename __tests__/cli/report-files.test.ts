/**
 * The report files the command line writes, through the bundled command
 * line (dist/cli/index.js) against the emulator, as another user of a shared
 * machine (a GitLab shell executor, a Jenkins agent) would attack them:
 * - by default, a fresh private folder per run (mode 0700, an unpredictable
 *   name under the system's temporary folder), files of mode 0600: a link
 *   planted at the old predictable place (<tmp>/asas-gate, its
 *   validation-<model>.json) is never followed;
 * - in a folder given by --out, a link or a file at a report's name is never
 *   followed nor overwritten: the next free name is taken;
 * - --out is checked before any request: naming a file, or a folder that
 *   cannot be created, is one configuration line naming --out, exit 3, and no
 *   assessment spent (the emulator sees no POST /run).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { BUNDLED_CLI, runBundledCli } from '../__fixtures__/bundled-cli.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'report-files-'))
})
afterEach(() => {
  rmSync(root, { recursive: true, force: true })
})

/** The command line with its temporary folder (TMPDIR) in `tmp`. */
function cli(w: World, args: string[], tmp: string) {
  return runBundledCli(args, { env: { ASAS_API_KEY: w.emu.keys.full, ASAS_BASE_URL: w.emu.url, TMPDIR: tmp } })
}

/** The report paths a run lists (text mode: under "Reports:"; validate: its one report line). */
function listed(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('  /'))
    .map((l) => l.trim())
}

const mode = (path: string): number => statSync(path).mode & 0o777
const posts = (w: World) => w.emu.requestLog.filter((r) => r.method === 'POST' && r.path === '/api/v1/run')

describe('report files of the command line (bundled)', () => {
  it('the bundle exists (npm run bundle)', () => {
    expect(existsSync(BUNDLED_CLI)).toBe(true)
  })

  it('by default: a fresh folder per run, mode 0700, files 0600; a link planted at the old folder is not followed', () =>
    inWorld(
      async (w) => {
        const tmp = join(root, 'tmp')
        const attacker = join(root, 'attacker')
        mkdirSync(tmp)
        mkdirSync(attacker)
        // Another user's link where the reports used to go: <tmp>/asas-gate -> a folder they read.
        symlinkSync(attacker, join(tmp, 'asas-gate'))
        const first = await cli(w, ['assess', '--model-id', w.emu.demoModelId], tmp)
        const second = await cli(w, ['assess', '--model-id', w.emu.demoModelId], tmp)
        expect([first.code, second.code]).toEqual([1, 1])
        expect(readdirSync(attacker)).toEqual([])
        const files = listed(first.stdout)
        expect(files).toHaveLength(5)
        const dir = dirname(files[0])
        expect(dirname(dir)).toBe(tmp)
        expect(basename(dir)).toMatch(/^asas-gate-[A-Za-z0-9]{6}$/)
        expect(mode(dir)).toBe(0o700)
        for (const f of files) {
          expect(dirname(f)).toBe(dir)
          expect(mode(f)).toBe(0o600)
        }
        // Each run its own folder.
        expect(dirname(listed(second.stdout)[0])).not.toBe(dir)
      },
      { categoryDurationMs: 60, attacksPerCategory: 2 }
    ))

  it('validate: a link planted at the old predictable name (asas-gate/validation-<model>.json) is not followed, its target untouched', () =>
    inWorld(async (w) => {
      const tmp = join(root, 'tmp')
      mkdirSync(join(tmp, 'asas-gate'), { recursive: true })
      const victim = join(root, 'victim.txt')
      writeFileSync(victim, 'precious\n')
      symlinkSync(victim, join(tmp, 'asas-gate', `validation-${w.emu.demoModelId}.json`))
      const r = await cli(w, ['validate', '--model-id', w.emu.demoModelId], tmp)
      expect(r.code).toBe(0)
      expect(readFileSync(victim, 'utf8')).toBe('precious\n')
      const [report] = listed(r.stdout)
      expect(basename(report)).toBe(`validation-${w.emu.demoModelId}.json`)
      expect(dirname(dirname(report))).toBe(tmp)
      expect(mode(dirname(report))).toBe(0o700)
      expect(mode(report)).toBe(0o600)
      expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ resolved: 0 })
    }))

  it('--out: a link or a file at the name is neither followed nor overwritten; the next free name is taken', () =>
    inWorld(async (w) => {
      const out = join(root, 'reports')
      mkdirSync(out)
      const victim = join(root, 'victim.txt')
      writeFileSync(victim, 'precious\n')
      const name = `validation-${w.emu.demoModelId}`
      symlinkSync(victim, join(out, `${name}.json`))
      writeFileSync(join(out, `${name}-2.json`), 'yesterday\n')
      const r = await cli(w, ['validate', '--model-id', w.emu.demoModelId, '--out', out], join(root, 'unused'))
      expect(r.code).toBe(0)
      expect(readFileSync(victim, 'utf8')).toBe('precious\n')
      expect(readFileSync(join(out, `${name}-2.json`), 'utf8')).toBe('yesterday\n')
      expect(listed(r.stdout)).toEqual([join(out, `${name}-3.json`)])
      expect(mode(join(out, `${name}-3.json`))).toBe(0o600)
    }))

  it('--out naming a missing folder: created (mode 0700), the reports in it', () =>
    inWorld(
      async (w) => {
        const out = join(root, 'new', 'reports')
        const r = await cli(w, ['assess', '--model-id', w.emu.demoModelId, '--out', out], root)
        expect(r.code).toBe(1)
        expect(mode(out)).toBe(0o700)
        expect(readdirSync(out)).toHaveLength(5)
      },
      { categoryDurationMs: 60, attacksPerCategory: 2 }
    ))

  it.each([
    ['an existing file', (file: string) => file, /^error: option '--out': '.*\/taken' is a file, not a folder/],
    [
      'a folder under a file, which cannot be created',
      (file: string) => join(file, 'reports'),
      /^error: option '--out': the folder '.*\/taken\/reports' cannot be created \(ENOTDIR\)/
    ]
  ])('--out naming %s: one line naming --out, exit 3, before any request (no assessment spent)', (_name, outOf, message) =>
    inWorld(async (w) => {
      const file = join(root, 'taken')
      writeFileSync(file, 'mine\n')
      for (const format of ['text', 'json']) {
        const r = await cli(w, ['assess', '--model-id', w.emu.demoModelId, '--out', outOf(file), '--format', format], root)
        expect(r.code).toBe(3)
        expect(r.stdout).toBe('')
        expect(r.stderr).toMatch(message)
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1)
      }
      expect(readFileSync(file, 'utf8')).toBe('mine\n')
      expect(posts(w)).toEqual([])
      expect(w.emu.requestLog).toEqual([])
    })
  )
})
