/**
 * How the tests choose the Node 24 they run the bundle on (scripts/node24.mjs):
 * NODE24, this Node when it is 24, a node 24 on PATH, then the registry
 * package in the cache; nothing is installed without --install. Stand-in
 * `node` binaries (shell scripts printing a version) play the machines.
 * Under `npm test` (whose pretest fetches Node 24 when the machine has none),
 * the bundle tests always get a Node 24.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runtimes } from './__fixtures__/node-runtimes.js'

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'node24.mjs')
const tmp = mkdtempSync(join(tmpdir(), 'node24-'))
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true })
})

/** A directory holding a `node` that prints `version`. */
function fakeNode(name: string, version: string): string {
  const dir = join(tmp, name)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'node')
  writeFileSync(path, `#!/bin/sh\necho ${version}\n`)
  chmodSync(path, 0o755)
  return dir
}

function find(env: Record<string, string>): {
  code: number | null
  found: { path: string; version: string; source: string } | null
  err: string
} {
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { HOME: tmp, ...env } })
  return { code: r.status, found: r.status === 0 ? JSON.parse(r.stdout) : null, err: r.stderr }
}

const thisIs24 = process.version.startsWith('v24.')
const emptyCache = join(tmp, 'empty-cache')

describe('scripts/node24.mjs', () => {
  it('finds a node 24 on PATH after skipping older ones, when this Node is not 24', () => {
    const old = fakeNode('old', 'v20.1.0')
    const new24 = fakeNode('new', 'v24.3.0')
    const r = find({ PATH: `${old}:${new24}`, NODE24_CACHE: emptyCache })
    expect(r.code).toBe(0)
    if (thisIs24) expect(r.found).toEqual({ path: process.execPath, version: process.version, source: 'this process' })
    else expect(r.found).toEqual({ path: join(new24, 'node'), version: 'v24.3.0', source: 'PATH' })
  })

  it('falls back on the registry package in the cache, and finds nothing (installs nothing) without it', () => {
    const old = fakeNode('old', 'v20.1.0')
    const cache = join(tmp, 'cache')
    const r1 = find({ PATH: old, NODE24_CACHE: cache })
    expect(r1.code).toBe(0)
    expect(r1.found?.source ?? null).toBe(thisIs24 ? 'this process' : null)
    const bin = join(cache, '24.9.0', 'node_modules', `node-linux-${process.arch}`, 'bin')
    mkdirSync(bin, { recursive: true })
    writeFileSync(join(bin, 'node'), '#!/bin/sh\necho v24.9.0\n')
    chmodSync(join(bin, 'node'), 0o755)
    const r2 = find({ PATH: old, NODE24_CACHE: cache })
    expect(r2.found).toEqual(
      thisIs24
        ? { path: process.execPath, version: process.version, source: 'this process' }
        : { path: join(bin, 'node'), version: 'v24.9.0', source: 'cache' }
    )
  })
})

describe('NODE24', () => {
  it('names the binary, before anything else', () => {
    const dir = fakeNode('explicit', 'v24.0.1')
    expect(find({ PATH: '', NODE24: join(dir, 'node') }).found).toEqual({ path: join(dir, 'node'), version: 'v24.0.1', source: 'NODE24' })
  })

  it('=off means none: the bundle tests run on the machine Node only', () => {
    expect(find({ PATH: fakeNode('new', 'v24.3.0'), NODE24: 'off' })).toMatchObject({ code: 0, found: null })
  })

  it('refuses a binary that is not Node 24, in one line', () => {
    const dir = fakeNode('wrong', 'v22.0.0')
    const r = find({ PATH: '', NODE24: join(dir, 'node') })
    expect(r.code).toBe(1)
    expect(r.err.trim()).toBe(`node24: NODE24=${join(dir, 'node')} is not a Node 24 binary (it says v22.0.0)`)
  })
})

describe('npm test', () => {
  const viaNpmTest = process.env.npm_lifecycle_event === 'test' && process.env.NODE24 !== 'off'
  ;(viaNpmTest ? it : it.skip)('runs the bundle tests on Node 24 (its pretest fetched one if the machine had none)', () => {
    expect(runtimes().some((r) => r.name === 'node24' && r.version.startsWith('v24.'))).toBe(true)
  })
})
