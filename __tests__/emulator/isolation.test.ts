/**
 * The emulator is a separate program: nothing the action runs imports it (so
 * its dependencies, `ws` and `ipaddr.js`, never reach the bundle), and it
 * takes nothing from the action but the wire contract and the seeded random
 * generator the soak shares with its fault mode (matched by file name, wherever
 * those modules live).
 */
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const SRC = path.join(ROOT, 'src')
const EMULATOR = path.join(SRC, 'emulator')

/** Relative imports of a TypeScript file (static, re-exports and dynamic), as absolute .ts paths. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1])
  return specs.map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')))
}

function graphFrom(entry: string): Set<string> {
  const seen = new Set<string>()
  const todo = [entry]
  while (todo.length > 0) {
    const f = todo.pop()!
    if (seen.has(f)) continue
    seen.add(f)
    todo.push(...relativeImports(f))
  }
  return seen
}

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFilesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []
  )
}

describe('the emulator stays apart from the action', () => {
  it('is not reached from the action entry', () => {
    const graph = [...graphFrom(path.join(SRC, 'index.ts'))]
    expect(graph.length).toBeGreaterThan(5)
    expect(graph.filter((f) => f.startsWith(EMULATOR + path.sep)).map((f) => path.relative(ROOT, f))).toEqual([])
  })

  it('imports nothing of the action but the contract and the seeded random generator', () => {
    const outside = tsFilesUnder(EMULATOR).flatMap((f) =>
      relativeImports(f)
        .filter((i) => !i.startsWith(EMULATOR + path.sep))
        .map((i) => `${path.relative(ROOT, f)} -> ${path.relative(ROOT, i)}`)
    )
    expect(outside.length).toBeGreaterThan(0)
    const shared = /-> \S*(contract[^/]*\.ts|\/contract\/\S+|seeded-random\.ts)$/
    expect(outside.filter((line) => !shared.test(line))).toEqual([])
  })
})
