/**
 * dist/licenses.txt attributes every npm package bundled into dist/, and
 * nothing else: the bundled packages are read here from the source map of
 * every chunk of the bundle (each module compiled into a chunk is a source of
 * its map), independently of scripts/licenses.mjs, which writes the file.
 * A new dependency that reaches the bundle without a rebuilt licenses.txt
 * fails this test (and .ci/run rebuilds dist/ before it runs).
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const RULE = '='.repeat(80)

/** name@version of every package with code in the chunks of `distDir`. */
function bundled(distDir: string): string[] {
  const found = new Set<string>()
  for (const chunk of readdirSync(distDir).filter((f) => f.endsWith('.js'))) {
    const map = JSON.parse(readFileSync(join(distDir, `${chunk}.map`), 'utf8')) as { sources: string[] }
    for (const source of map.sources) {
      // The innermost package of a path like node_modules/a/node_modules/@b/c/lib/x.js is @b/c.
      const at = source.indexOf('node_modules/')
      if (at < 0) continue
      const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(source.slice(at))
      if (!m) continue
      const pkg = JSON.parse(readFileSync(join(root, m[1], 'package.json'), 'utf8')) as { name: string; version: string }
      found.add(`${pkg.name}@${pkg.version}`)
    }
  }
  return [...found].sort()
}

/** The entries of a licenses.txt: the id line after each rule, and the rest of the block. */
function entries(text: string): { id: string; body: string }[] {
  return text
    .split(`${RULE}\n`)
    .slice(1)
    .map((block) => {
      const [id, ...rest] = block.split('\n')
      return { id: id, body: rest.join('\n') }
    })
}

describe('dist/cli/licenses.txt', () => {
  const cli = join(dist, 'cli')
  it('lists exactly the packages bundled into the command line (dist/cli/), each with its license text', () => {
    const inBundle = bundled(cli)
    for (const dep of ['commander', 'log-update', 'zod']) expect(inBundle.some((id) => id.startsWith(`${dep}@`))).toBe(true)
    const listed = entries(readFileSync(join(cli, 'licenses.txt'), 'utf8'))
    expect(listed.map((e) => e.id).sort()).toEqual(inBundle)
    for (const e of listed) expect(e.body).toMatch(/^License: \S+/)
  })
})

describe('dist/post/licenses.txt', () => {
  const post = join(dist, 'post')
  it('lists exactly the packages bundled into the post step (dist/post/), each with its license text', () => {
    const inBundle = bundled(post)
    for (const dep of ['@actions/core', 'zod']) expect(inBundle.some((id) => id.startsWith(`${dep}@`))).toBe(true)
    const listed = entries(readFileSync(join(post, 'licenses.txt'), 'utf8'))
    expect(listed.map((e) => e.id).sort()).toEqual(inBundle)
    for (const e of listed) expect(e.body).toMatch(/^License: \S+/)
  })
})

describe('dist/licenses.txt', () => {
  const text = readFileSync(join(dist, 'licenses.txt'), 'utf8')
  const listed = entries(text)

  it('every chunk of the bundle has its source map, so its modules can be listed', () => {
    const chunks = readdirSync(dist).filter((f) => f.endsWith('.js'))
    expect(chunks).toContain('index.js')
    for (const chunk of chunks) expect(readdirSync(dist)).toContain(`${chunk}.map`)
  })

  it('lists exactly the packages bundled into dist/', () => {
    const inBundle = bundled(dist)
    // The action's own dependencies are bundled, so the check cannot pass on an empty list.
    for (const dep of ['@actions/core', '@actions/github', '@actions/http-client', 'zod', 'undici', '@octokit/core']) {
      expect(inBundle.some((id) => id.startsWith(`${dep}@`))).toBe(true)
    }
    expect(listed.map((e) => e.id).sort()).toEqual(inBundle)
  })

  it('gives each package its license and the license text', () => {
    for (const e of listed) {
      expect(e.body).toMatch(/^License: \S+/)
      const licenseText = e.body.split('\n\n').slice(1).join('\n\n')
      expect(licenseText.length).toBeGreaterThan(100)
    }
  })
})

describe('scripts/licenses.mjs', () => {
  function run(distDir: string): { code: number | null; out: string } {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'licenses.mjs'), '--dist', distDir], { encoding: 'utf8' })
    return { code: r.status, out: `${r.stdout}${r.stderr}` }
  }

  it('attributes the packages named by the source maps of a bundle', () => {
    const dir = mkdtempSync(join(tmpdir(), 'licenses-'))
    try {
      writeFileSync(join(dir, 'index.js'), '')
      writeFileSync(
        join(dir, 'index.js.map'),
        JSON.stringify({ version: 3, sources: ['webpack://x/./src/index.ts', '.././node_modules/zod/index.js'] })
      )
      writeFileSync(join(dir, '1.index.js'), '')
      writeFileSync(join(dir, '1.index.js.map'), JSON.stringify({ version: 3, sources: ['.././node_modules/@actions/core/lib/core.js'] }))
      const r = run(dir)
      expect(r.code).toBe(0)
      const ids = entries(readFileSync(join(dir, 'licenses.txt'), 'utf8')).map((e) => e.id.replace(/@[^@]+$/, ''))
      expect(ids).toEqual(['@actions/core', 'zod'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('fails, naming the chunk, when a chunk has no source map', () => {
    const dir = mkdtempSync(join(tmpdir(), 'licenses-'))
    try {
      writeFileSync(join(dir, 'index.js'), '')
      const r = run(dir)
      expect(r.code).toBe(1)
      expect(r.out).toContain('index.js has no source map')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
