/**
 * Everything a workflow author copies: the example workflows and every yaml
 * block of README.md, CONTRIBUTING.md and docs/. They use the action as it is
 * (only inputs it declares, every required input, only outputs it sets), one
 * current major of every action (the table below, which the repository's own
 * workflows agree with, pinned there by commit SHA with "# vX.Y.Z"), one
 * concurrency group per model, and never paste an
 * expression into a `run:` script. (scripts/lint-workflows.sh runs actionlint
 * and the schema check on the same snippets.)
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'

const root = new URL('../', import.meta.url)
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8')

/**
 * The one major every snippet uses, per action: the current one. When a new
 * major comes out, change it here, and the test lists every snippet and
 * workflow to update (Dependabot updates only .github/workflows).
 */
const CURRENT_MAJOR: Record<string, string> = {
  'actions/checkout': 'v7',
  'actions/setup-node': 'v7',
  'actions/upload-artifact': 'v7',
  'actions/download-artifact': 'v8',
  'actions/attest-build-provenance': 'v4',
  'github/codeql-action/upload-sarif': 'v4',
  'dorny/test-reporter': 'v3'
}
/** This action, as users reference it: the moving major tag, or a full commit SHA with its version in a comment. */
const OUR_ACTION = 'your-org/agent-security-gate'
const OUR_MAJOR = 'v1'

const action = parse(read('action.yml')) as {
  inputs: Record<string, { required?: boolean }>
  outputs: Record<string, unknown>
}

const exampleFiles = readdirSync(new URL('examples/', root)).filter((f) => /\.ya?ml$/.test(f))
const markdownFiles = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(new URL('docs/', root))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
]

/** Every yaml text a user may copy: [where, text]. */
const sources: [string, string][] = [
  ...exampleFiles.map((f): [string, string] => [`examples/${f}`, read(`examples/${f}`)]),
  ...markdownFiles.flatMap((file) => {
    const text = read(file)
    return [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m): [string, string] => [
      `${file}:${String(text.slice(0, m.index).split('\n').length)}`,
      m[1]
    ])
  })
]
/** The sources that are whole workflows. */
const workflows = sources.filter(([, text]) => /^jobs:/m.test(text))

interface Step {
  id?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
}
interface Job {
  steps?: Step[]
  concurrency?: string | { group?: string; 'cancel-in-progress'?: unknown }
}
interface Workflow {
  jobs: Record<string, Job>
  concurrency?: Job['concurrency']
}

const isOurs = (s: Step): boolean => /agent-security-gate@|^\.\/?$/.test(s.uses ?? '')

/** The steps of a source: every job's of a workflow, or the list itself of a fragment of steps. */
function stepsOf(text: string): Step[] {
  const doc = parse(text) as unknown
  if (Array.isArray(doc)) return doc as Step[]
  const jobs = (doc as Partial<Workflow> | null)?.jobs
  return jobs ? Object.values(jobs).flatMap((j) => j.steps ?? []) : []
}

/** Every `uses:` of a yaml text, with the comment after it: [reference, comment]. */
function usesOf(text: string): [string, string][] {
  return [...text.matchAll(/^\s*(?:-\s+)?uses:\s*['"]?([^\s'"#]+)['"]?[ \t]*(?:#[ \t]*(.*))?$/gm)].map((m) => [
    m[1],
    (m.at(2) ?? '').trim()
  ])
}

/** What is wrong with one `uses:` reference, or null. */
function versionProblem(ref: string, comment: string): string | null {
  if (ref.startsWith('./') || ref === '.') return null
  const at = ref.lastIndexOf('@')
  const [name, version] = at < 0 ? [ref, ''] : [ref.slice(0, at), ref.slice(at + 1)]
  if (name === OUR_ACTION) {
    if (version === OUR_MAJOR) return null
    if (/^[0-9a-f]{40}$/.test(version) && new RegExp(`^${OUR_MAJOR}\\.\\d+\\.\\d+$`).test(comment)) return null
    return `${ref}: use @${OUR_MAJOR}, or a full commit SHA followed by "# ${OUR_MAJOR}.x.y"`
  }
  const want = CURRENT_MAJOR[name] as string | undefined
  if (want === undefined) return `${ref}: ${name} is not in the table of current majors (__tests__/examples.test.ts)`
  if (/^[0-9a-f]{40}$/.test(version))
    return new RegExp(`^${want}\\.\\d+\\.\\d+$`).test(comment) ? null : `${ref}: a commit SHA of ${name} needs "# ${want}.x.y" after it`
  return version === want ? null : `${ref}: the current major of ${name} is ${want}`
}

/** `${{ a.b }}` and `${{a.b}}` are the same expression. */
const norm = (s: string): string => s.replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_m, e: string) => `\${{ ${e.replace(/\s+/g, ' ')} }}`)

const groupOf = (c: Job['concurrency']): string | null => (typeof c === 'string' ? c : (c?.group ?? null))

describe('the snippets users copy', () => {
  it('are there: the examples and the yaml blocks of the docs', () => {
    expect(exampleFiles.length).toBeGreaterThanOrEqual(6)
    expect(workflows.filter(([where]) => where.startsWith('README.md')).length).toBeGreaterThanOrEqual(1)
    expect(workflows.filter(([where]) => where.startsWith('docs/')).length).toBeGreaterThanOrEqual(4)
  })

  it.each(sources)('%s uses the current major of every action', (_where, text) => {
    const problems = usesOf(text)
      .map(([ref, comment]) => versionProblem(ref, comment))
      .filter(Boolean)
    expect(problems).toEqual([])
  })

  it.each(workflows)('%s uses only declared inputs, every required one, and only declared outputs', (_where, text) => {
    const doc = parse(text) as Workflow
    const steps = Object.values(doc.jobs).flatMap((j) => (j.steps ?? []).filter(isOurs))
    expect(steps.length).toBeGreaterThan(0)
    const required = Object.entries(action.inputs)
      .filter(([, v]) => v.required)
      .map(([k]) => k)
    for (const step of steps) {
      const given = Object.keys(step.with ?? {})
      expect(given.filter((k) => !(k in action.inputs))).toEqual([])
      expect(required.filter((k) => !given.includes(k))).toEqual([])
      if (step.id) {
        const used = [...text.matchAll(new RegExp(`steps\\.${step.id}\\.outputs\\.([A-Za-z0-9_-]+)`, 'g'))].map((m) => m[1])
        expect(used.filter((o) => !(o in action.outputs))).toEqual([])
      }
    }
  })

  it.each(workflows)('%s: every job assessing a model_id holds the group agent-security-<model_id>, never cancelled', (_where, text) => {
    const doc = parse(text) as Workflow
    const problems: string[] = []
    const workflowGroup = groupOf(doc.concurrency)
    if (workflowGroup?.startsWith('agent-security-'))
      problems.push(`workflow-level group ${workflowGroup}: agent-security-<model_id> belongs to the job; name this one after the workflow`)
    for (const [id, job] of Object.entries(doc.jobs)) {
      const models = [
        ...new Set(
          (job.steps ?? [])
            .filter(isOurs)
            .map((s) => s.with?.model_id)
            .filter((m): m is string => typeof m === 'string' && m !== '')
        )
      ]
      const group = groupOf(job.concurrency)
      if (models.length === 0) {
        if (group?.startsWith('agent-security-')) problems.push(`job ${id}: group ${group} but no model_id`)
        continue
      }
      const want = models.map((m) => norm(`agent-security-${m}`))
      if (want.length > 1) problems.push(`job ${id} assesses ${String(want.length)} models; give each its own job`)
      else if (group === null || norm(group) !== want[0])
        problems.push(`job ${id}: concurrency group ${String(group)}, expected ${want[0]}`)
      else if (typeof job.concurrency !== 'object' || job.concurrency['cancel-in-progress'] !== false)
        problems.push(`job ${id}: cancel-in-progress must be false`)
    }
    expect(problems).toEqual([])
  })

  it.each(workflows.filter(([, text]) => /^\s+(deployment_status|repository_dispatch):/m.test(text)))(
    '%s runs only for the platform: a deployment event job checks who created it',
    (_where, text) => {
      const doc = parse(text) as { jobs: Record<string, { if?: string }> }
      const unchecked = Object.entries(doc.jobs)
        .filter(([, job]) => !/github\.event\.(deployment\.creator\.login|sender\.login)\s*==/.test(job.if ?? ''))
        .map(([id]) => id)
      expect(unchecked).toEqual([])
    }
  )

  it.each(sources)('%s puts no expression straight into a run: script (outputs go through env:)', (_where, text) => {
    const runs = stepsOf(text)
      .map((s) => s.run)
      .filter((r): r is string => typeof r === 'string')
    expect(runs.filter((r) => r.includes('${{'))).toEqual([])
  })

  it.each(sources)('%s reads only outputs the action sets (steps.gate is the action in every snippet)', (_where, text) => {
    const used = [...text.matchAll(/steps\.gate\.outputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1])
    expect(used.filter((o) => !(o in action.outputs))).toEqual([])
  })
})

describe('the table of current majors', () => {
  const own = readdirSync(new URL('.github/workflows/', root))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f): [string, string] => [`.github/workflows/${f}`, read(`.github/workflows/${f}`)])

  it.each(own)('agrees with %s (Dependabot updates the workflows; then update the table and the snippets)', (_file, text) => {
    const problems = usesOf(text)
      .map(([ref, comment]) => versionProblem(ref, comment))
      .filter(Boolean)
    expect(problems).toEqual([])
  })

  it('rejects an outdated major, an action missing from the table and a SHA pin of ours without its version', () => {
    expect(versionProblem('actions/checkout@v4', '')).toMatch(/current major of actions\/checkout is v7/)
    expect(versionProblem('github/codeql-action/upload-sarif@v3', '')).toMatch(/is v4/)
    expect(versionProblem('someone/else@v1', '')).toMatch(/not in the table/)
    expect(versionProblem(`${OUR_ACTION}@main`, '')).toMatch(/use @v1/)
    expect(versionProblem(`${OUR_ACTION}@${'a'.repeat(40)}`, '')).toMatch(/full commit SHA/)
    expect(versionProblem(`${OUR_ACTION}@${'a'.repeat(40)}`, 'v1.0.0')).toBeNull()
    expect(versionProblem(`actions/checkout@${'a'.repeat(40)}`, 'v7.0.1')).toBeNull()
    expect(versionProblem(`actions/checkout@${'a'.repeat(40)}`, 'v6.0.0')).toMatch(/"# v7.x.y"/)
    expect(versionProblem(`actions/checkout@${'a'.repeat(40)}`, '')).toMatch(/"# v7.x.y"/)
    expect(usesOf(`      - uses: ${OUR_ACTION}@${'a'.repeat(40)} # v1.2.3\n`)).toEqual([[`${OUR_ACTION}@${'a'.repeat(40)}`, 'v1.2.3']])
  })
})
