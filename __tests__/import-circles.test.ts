/**
 * No circle of files in src/, type-only imports included: the vocabulary of a
 * step lives in a leaf (gate/gate-types.ts, validate/validate-types.ts,
 * github/viewer.ts, the stages' context) and every import points down.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
  )
}

/** Every relative import of a file (static, dynamic, type-only and re-exports), as paths of files in src/. */
export function importsOf(file: string, text: string): string[] {
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
    normalize(join(dirname(file), m[1])).replace(/\.js$/, '.ts')
  )
  return found.filter((f) => existsSync(f))
}

/** The strongly connected components of more than one file (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const on = new Set<string>()
  const out: string[][] = []
  let next = 0
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    on.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) out.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return out
}

describe('the import graph of src/', () => {
  it('finds a circle when there is one (the check can fail)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']]
    ])
    expect(circles(g)).toEqual([['a', 'b', 'c']])
  })

  it('reads type-only imports and re-exports as edges', () => {
    const text = "import type { X } from './x.js'\nexport { y } from '../y.js'"
    expect(importsOf('src/gate/a.ts', text)).toEqual([]) // neither file exists
    expect(importsOf('src/gate/assess-run.ts', "import type { GateArgs } from './gate-types.js'")).toEqual(['src/gate/gate-types.ts'])
  })

  it('has no circle of files', () => {
    const graph = new Map(sources('src').map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]))
    expect(graph.size).toBeGreaterThan(100)
    expect(circles(graph)).toEqual([])
  })
})
