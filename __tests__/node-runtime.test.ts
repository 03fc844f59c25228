/**
 * How the tests choose the Node 24 and the Node 22 they run the bundle on
 * (scripts/node-runtime.mjs, one helper for both majors): NODE<M>, this Node
 * when it is M, a node M on PATH, then the registry package in the cache;
 * nothing is installed without --install. Stand-in `node` binaries (shell
 * scripts printing a version) play the machines. Under `npm test` (whose
 * pretest fetches both when the machine has none), the bundle tests always get
 * a Node 24 and a Node 22.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeOfMajor, runtimes } from './__fixtures__/node-runtimes.js'

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'node-runtime.mjs')
const tmp = mkdtempSync(join(tmpdir(), 'node-runtime-'))
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

function find(
  env: Record<string, string>,
  major = '24'
): {
  code: number | null
  found: { path: string; version: string; source: string } | null
  err: string
} {
  const r = spawnSync(process.execPath, [script, major], { encoding: 'utf8', env: { HOME: tmp, ...env } })
  return { code: r.status, found: r.status === 0 ? JSON.parse(r.stdout) : null, err: r.stderr }
}

const thisIs24 = process.version.startsWith('v24.')
const emptyCache = join(tmp, 'empty-cache')

describe('scripts/node-runtime.mjs 24', () => {
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

describe('scripts/node-runtime.mjs 22: the same helper, its own variable, version and cache', () => {
  const thisIs22 = process.version.startsWith('v22.')

  it('takes a node 22 on PATH, never a node 24', () => {
    const n24 = fakeNode('new', 'v24.3.0')
    const n22 = fakeNode('n22', 'v22.13.0')
    const r = find({ PATH: `${n24}:${n22}`, NODE22_CACHE: emptyCache }, '22')
    if (thisIs22) expect(r.found).toEqual({ path: process.execPath, version: process.version, source: 'this process' })
    else expect(r.found).toEqual({ path: join(n22, 'node'), version: 'v22.13.0', source: 'PATH' })
  })

  it('looks in its own cache, under the version of the floor of engines.node', () => {
    const cache = join(tmp, 'cache22')
    const bin = join(cache, '22.13.0', 'node_modules', `node-linux-${process.arch}`, 'bin')
    mkdirSync(bin, { recursive: true })
    writeFileSync(join(bin, 'node'), '#!/bin/sh\necho v22.13.0\n')
    chmodSync(join(bin, 'node'), 0o755)
    const r = find({ PATH: fakeNode('old', 'v20.1.0'), NODE22_CACHE: cache, NODE24_CACHE: cache }, '22')
    expect(r.found).toEqual(
      thisIs22
        ? { path: process.execPath, version: process.version, source: 'this process' }
        : { path: join(bin, 'node'), version: 'v22.13.0', source: 'cache' }
    )
  })

  it('NODE22 names the binary and must be a Node 22; an unknown major is refused', () => {
    const wrong = fakeNode('wrong24', 'v24.1.0')
    const r = find({ PATH: '', NODE22: join(wrong, 'node') }, '22')
    expect(r.code).toBe(1)
    expect(r.err.trim()).toBe(`node22: NODE22=${join(wrong, 'node')} is not a Node 22 binary (it says v24.1.0)`)
    const u = find({ PATH: '' }, '18')
    expect(u.code).toBe(1)
    expect(u.err.trim()).toBe('node18: no Node 18 is known here: one of 22, 24')
  })
})

describe('npm test', () => {
  const viaNpmTest = process.env.npm_lifecycle_event === 'test'
  ;(viaNpmTest && process.env.NODE24 !== 'off' ? it : it.skip)(
    'runs the bundle tests on Node 24 (its pretest fetched one if the machine had none)',
    () => {
      expect(runtimes().some((r) => r.name === 'node24' && r.version.startsWith('v24.'))).toBe(true)
    }
  )
  ;(viaNpmTest && process.env.NODE22 !== 'off' ? it : it.skip)(
    'has a Node 22 for the installed command line (its pretest fetched one)',
    () => {
      expect(nodeOfMajor(22)?.version).toMatch(/^v22\./)
    }
  )
})
