/**
 * The example workflows use the action as it is: only inputs it declares,
 * every required input, and only outputs it sets.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'

const root = new URL('../', import.meta.url)
const action = parse(readFileSync(new URL('action.yml', root), 'utf8')) as {
  inputs: Record<string, { required?: boolean }>
  outputs: Record<string, unknown>
}
const files = readdirSync(new URL('examples/', root)).filter((f) => f.endsWith('.yml'))
const readmeBlocks = [...readFileSync(new URL('README.md', root), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1])

interface Step {
  id?: string
  uses?: string
  with?: Record<string, unknown>
}

function ourSteps(doc: { jobs: Record<string, { steps?: Step[] }> }): Step[] {
  return Object.values(doc.jobs).flatMap((j) => (j.steps ?? []).filter((s) => /agent-security-gate@|^\.\/?$/.test(s.uses ?? '')))
}

describe('example workflows', () => {
  it('are there', () => {
    expect(files.length).toBeGreaterThanOrEqual(6)
  })

  const sources: [string, string][] = [
    ...files.map((f): [string, string] => [f, readFileSync(new URL(`examples/${f}`, root), 'utf8')]),
    ...readmeBlocks.map((b, i): [string, string] => [`README.md yaml block ${i + 1}`, b])
  ]

  it('include the README snippets', () => {
    expect(readmeBlocks.length).toBeGreaterThanOrEqual(2)
  })

  it.each(sources)('%s uses only declared inputs, every required one, and only declared outputs', (_name, text) => {
    const steps = ourSteps(parse(text) as { jobs: Record<string, { steps?: Step[] }> })
    expect(steps.length).toBeGreaterThan(0)
    for (const step of steps) {
      const given = Object.keys(step.with ?? {})
      expect(given.filter((k) => !(k in action.inputs))).toEqual([])
      const required = Object.entries(action.inputs)
        .filter(([, v]) => v.required)
        .map(([k]) => k)
      expect(required.filter((k) => !given.includes(k))).toEqual([])
      if (step.id) {
        const used = [...text.matchAll(new RegExp(`steps\\.${step.id}\\.outputs\\.([A-Za-z0-9_-]+)`, 'g'))].map((m) => m[1])
        expect(used.filter((o) => !(o in action.outputs))).toEqual([])
      }
    }
  })
})
