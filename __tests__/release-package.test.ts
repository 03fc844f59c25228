/**
 * What the release installs and publishes: npm ci --ignore-scripts in the
 * release workflow's build job skips every dependency's install script, so the
 * lockfile's install scripts are listed here with why skipping each loses
 * nothing (a new one fails the test until someone has looked at it); and the
 * package the publish job puts on npm carries no lifecycle script of the
 * project's package.json (scripts/package-cli.mjs copies only its publishing
 * fields), so `npm publish` and `npm install` of it run none. The workflow
 * itself: __tests__/release.test.ts.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('the install scripts the build skips, and the package it publishes', () => {
  /** Every locked package with an install script, and why --ignore-scripts loses nothing the release needs. */
  const SKIPPED: Record<string, string> = {
    '@microsoft/sarif-multitool-linux': 'postinstall `chmod u+x Sarif.Multitool`: the build job runs that chmod itself',
    '@microsoft/sarif-multitool-darwin': 'the same, for macOS: not installed on the Linux runner',
    '@parcel/watcher':
      'install builds from source only when npm_config_build_from_source=true; the prebuilt binary is an optional dependency',
    'unrs-resolver': 'postinstall checks that its prebuilt binding (an optional dependency, @unrs/resolver-binding-*) is installed'
  }

  it('every locked package with an install script is one the release knows it skips (a new one fails here: look at it)', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>
    }
    const scripted = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript === true)
      .map(([name]) => name.replace(/^.*node_modules\//, ''))
    expect(scripted.sort()).toEqual(Object.keys(SKIPPED).sort())
    const sarif = JSON.parse(readFileSync(join(root, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'package.json'), 'utf8')) as {
      scripts?: unknown
    }
    expect(sarif.scripts).toEqual({ postinstall: 'chmod u+x Sarif.Multitool' })
  })

  it('scripts/package-cli.mjs stages a package.json without the project lifecycle scripts, so npm runs none of them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'package-cli-'))
    dirs.push(dir)
    const put = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }
    const scripts = { preinstall: 'x', install: 'x', postinstall: 'x', prepare: 'x', prepack: 'x', prepublishOnly: 'x', publish: 'x' }
    const { name, version, bin, files, engines, type } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >
    put('package.json', JSON.stringify({ name, version, bin, files, engines, type, scripts, gypfile: true }))
    put('scripts/package-cli.mjs', readFileSync(join(root, 'scripts', 'package-cli.mjs'), 'utf8'))
    put('dist/cli/index.js', '#!/usr/bin/env node\n')
    put('dist/cli/package.json', '{"type":"module"}')
    put('dist/cli/licenses.txt', '')
    put('binding.gyp', '{}')
    for (const f of ['LICENSE', 'README.md']) put(f, f)
    const r = spawnSync(process.execPath, [join(dir, 'scripts', 'package-cli.mjs'), '--out', join(dir, 'out')], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const staged = JSON.parse(readFileSync(join(dir, 'out', 'package.json'), 'utf8')) as Record<string, unknown>
    expect(staged).toMatchObject({ name, version, bin })
    expect(staged).not.toHaveProperty('scripts')
    expect(staged).not.toHaveProperty('gypfile')
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'package.json'])
  })
})
