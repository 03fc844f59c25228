/**
 * No circle of files in src/, type-only imports included: the vocabulary of a
 * step lives in a leaf (gate/gate-types.ts, validate/validate-types.ts,
 * github/viewer.ts, the stages' context) and every import points down: the
 * pure rooms at the bottom (decision/, evidence/, report/) import none of
 * the rooms above them (LAYERS). The post step's entry reaches none of the main step's stages, so its bundle
 * holds what the post step runs (its size is measured by `npm run bench`).
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

/**
 * The rooms each pure room never imports from (the shells, the effectful
 * gate/ and validate/, and what sits above it), but for the vocabulary leaves
 * named beside it.
 */
const LAYERS: { room: string; never: string[]; leaves?: string[] }[] = [
  { room: 'decision', never: ['action', 'cli', 'gate', 'validate', 'report'] },
  { room: 'evidence', never: ['action', 'cli', 'gate', 'validate', 'report', 'decision'] },
  { room: 'report', never: ['action', 'cli', 'gate', 'validate'], leaves: ['src/validate/validate-types.ts'] }
]

/** The imports of `graph` that break LAYERS, as `from -> to`. */
export function upwardImports(graph: Map<string, string[]>): string[] {
  const roomOf = (file: string): string => file.split('/')[1] ?? ''
  return [...graph].flatMap(([from, tos]) => {
    const rule = LAYERS.find((l) => roomOf(from) === l.room)
    if (!rule) return []
    return tos.filter((to) => rule.never.includes(roomOf(to)) && !rule.leaves?.includes(to)).map((to) => `${from} -> ${to}`)
  })
}

/** The files a bundle built from `entry` holds: every file reached by imports the compiler keeps (not `import type`). */
export function bundledFrom(entry: string): Set<string> {
  const reached = new Set<string>()
  const visit = (file: string): void => {
    if (reached.has(file)) return
    reached.add(file)
    const kept = readFileSync(file, 'utf8').replace(/^(?:import|export)\s+type\s[\s\S]*?from\s*['"][^'"]+['"]/gm, '')
    for (const next of importsOf(file, kept)) visit(next)
  }
  visit(entry)
  return reached
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

  it('has the pure rooms import nothing from the rooms above them', () => {
    const graph = new Map(sources('src').map((f) => [f, importsOf(f, readFileSync(f, 'utf8'))]))
    expect(upwardImports(new Map([['src/report/x.ts', ['src/gate/y.ts', 'src/validate/validate-types.ts']]]))).toEqual([
      'src/report/x.ts -> src/gate/y.ts'
    ]) // the check can fail
    expect(upwardImports(graph)).toEqual([])
  })

  it("keeps the main step's stages out of the post step's bundle", () => {
    const stagesOf = (entry: string): string[] =>
      [...bundledFrom(entry)].filter((f) => f === join('src', 'action', 'main.ts') || f.startsWith(join('src', 'action', 'stages'))).sort()
    expect(stagesOf(join('src', 'index.ts'))).toContain(join('src', 'action', 'main.ts')) // the check can fail
    // conclude.ts: the line and outputs a step still held after a signal ends with (step-edges.ts abortOnSignals).
    expect(stagesOf(join('src', 'post.ts'))).toEqual([join('src', 'action', 'stages', 'conclude.ts')])
  })
})
