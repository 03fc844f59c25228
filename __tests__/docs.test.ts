/**
 * The README is for the person adding the step, and says what the action
 * really takes and gives: its inputs and outputs tables match action.yml
 * (names, order, defaults, required), it stays short, and every relative link
 * of the user and maintainer docs points at a file that exists.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import { parse } from 'yaml'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const read = (path: string): string => readFileSync(join(root, path), 'utf8')
const readme = read('README.md')
const action = parse(read('action.yml')) as {
  name: string
  description: string
  inputs: Record<string, { description: string; required?: boolean; default?: string }>
  outputs: Record<string, { description: string }>
}

/** The rows of the Markdown table between `<!-- NAME:start...-->` and `<!-- NAME:end -->`, as arrays of cells. */
/** Every file under a folder of the repository, as paths from the root. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)]
  )
}

function tableRows(text: string, name: string): string[][] {
  const start = text.indexOf(`<!-- ${name}:start`)
  const end = text.indexOf(`<!-- ${name}:end -->`)
  if (start < 0 || end < start) throw new Error(`README.md has no ${name} markers`)
  return text
    .slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2) // header and separator
    .map((l) =>
      l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim())
    )
}

/** `name` from a cell written as `` `name` ``. */
function code(cell: string): string {
  const m = /^`([^`]+)`$/.exec(cell)
  if (!m) throw new Error(`not a single code span: ${cell}`)
  return m[1]
}

describe('README', () => {
  it('keeps its prose under 14 KB (generated tables between markers do not count, so a new input never trims prose)', () => {
    const prose = readme.replace(/<!-- (\w+):start[\s\S]*?<!-- \1:end -->/g, '')
    expect(prose).not.toContain(':start')
    expect(Buffer.byteLength(prose)).toBeLessThan(14 * 1024)
  })

  it('opens with what the action does, then the service and its key, the quick start, and the two commands of a fresh clone', () => {
    const firstSection = readme.indexOf('\n## ')
    const intro = readme
      .slice(0, firstSection)
      .split('\n')
      .slice(1)
      .filter((l) => l.trim() !== '')
    expect(intro.length).toBeLessThanOrEqual(3)
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1])
    expect(sections.slice(0, 3)).toEqual(['What you need: the service and a key', 'Quick start: gate pull requests', 'Try it locally'])
    const need = /\n## What you need[^\n]*\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? ''
    for (const fact of ['`test:run`', 'workspace', 'not say how keys are issued']) expect(need).toContain(fact)
    const tryIt = /\n## Try it locally\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? ''
    const block = /```sh\n([\s\S]*?)```/.exec(tryIt)?.[1] ?? ''
    const commands = block
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean)
    expect(commands).toEqual(['npm run demo', 'npm test'])
    expect(tryIt).toContain('](docs/emulator.md#run-the-bundled-action-by-hand)')
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> }
    expect(pkg.scripts.demo).toBeDefined()
    expect(pkg.scripts.test).toBeDefined()
  })

  it('says which permission each feature needs: contents: read for the accepted-risks file', () => {
    const row = readme.split('\n').find((l) => l.startsWith('| `contents: read` |')) ?? ''
    expect(row).toContain('accepted-risks')
  })

  it('has no rendered comment headings in its outline (headings come only from the README itself)', () => {
    const headings = readme.split('\n').filter((l) => /^#{1,6} /.test(l) && !l.startsWith('# AI Agent'))
    expect(headings.filter((h) => /Agent security gate|Coverage:|Findings at or above/.test(h))).toEqual([])
  })

  it('lists every input of action.yml, in order, with its default or (required)', () => {
    const rows = tableRows(readme, 'inputs')
    expect(rows.map((r) => code(r[0]))).toEqual(Object.keys(action.inputs))
    for (const row of rows) {
      const spec = action.inputs[code(row[0])]
      const cell = row[1]
      if (spec.required) expect(cell).toBe('(required)')
      else if ((spec.default ?? '') === '') expect(cell).toBe('empty')
      else expect(code(cell)).toBe(spec.default)
      expect((row[2] ?? '').length).toBeGreaterThan(10)
    }
  })

  it('lists every output of action.yml, in order', () => {
    const rows = tableRows(readme, 'outputs')
    expect(rows.map((r) => code(r[0]))).toEqual(Object.keys(action.outputs))
    for (const row of rows) expect((row[1] ?? '').length).toBeGreaterThan(10)
  })

  it('tells which tag to use, how to pin a commit, and the requirements a workflow author needs', () => {
    expect(readme).toContain('@v1')
    const pinning = /\n## Versions and pinning\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? ''
    expect(pinning).toMatch(/uses: your-org\/agent-security-gate@[0-9a-f]{40} # v1\.\d+\.\d+/)
    expect(pinning).toContain('immutable')
    expect(pinning).toContain('gh attestation verify')
    for (const needed of ['2.327.1', 'HTTPS_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS', 'GITHUB_API_URL', 'merge_group']) {
      expect(readme).toContain(needed)
    }
  })
})

describe('docs/architecture.md', () => {
  const text = read('docs/architecture.md')

  it('covers every folder of src/', () => {
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `\`src/${d.name}/\``)
    expect(folders.length).toBeGreaterThan(5)
    expect(folders.filter((f) => !text.includes(f))).toEqual([])
  })

  const where = /\n## Where to change what\n([\s\S]*)/.exec(text)?.[1] ?? ''

  it('says where to change what: a new input, output, report format, service call, field of a resource, standing', () => {
    for (const item of [
      '**A new input.**',
      '**A new output**',
      '**A new report format**',
      '**A new service call.**',
      '**A new field of a resource**',
      '**A new standing of a finding**'
    ])
      expect(where).toContain(item)
  })

  it('names, in its recipes, only files that exist, bare names included', () => {
    const files = [...sources('src'), ...sources('__tests__')].map((p) => p.split('/').at(-1) ?? '')
    const bare = [...where.matchAll(/`([\w.-]+\.ts)`/g)].map((m) => m[1])
    expect(bare.length).toBeGreaterThan(10)
    expect(bare.filter((name) => !files.includes(name))).toEqual([])
  })
})

describe('action.yml on the Marketplace', () => {
  it('has a description under 125 characters, which the Marketplace shows whole', () => {
    expect(action.description.length).toBeLessThan(125)
    expect(action.name.length).toBeLessThanOrEqual(60)
  })

  /** One short sentence or two, to read in the Marketplace's table of inputs: the detail belongs in the docs. */
  const SHORT = 160
  it.each(Object.entries(action.inputs))('input %s has a short description', (_name, spec) => {
    expect(spec.description.length).toBeLessThanOrEqual(SHORT)
    expect(spec.description.split(/(?<=\.) (?=[A-Z])/).length).toBeLessThanOrEqual(2)
  })

  it.each(Object.entries(action.outputs))('output %s has a short description, naming the real file name', (_name, spec) => {
    expect(spec.description.length).toBeLessThanOrEqual(SHORT)
    expect(spec.description).not.toMatch(/\breport\.(json|sarif|junit\.xml)\b/)
  })
})

describe('links of the docs', () => {
  const docs = [
    'README.md',
    'CONTRIBUTING.md',
    'SECURITY.md',
    'CHANGELOG.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`)
  ].filter((f) => existsSync(join(root, f)))

  it.each(docs)('%s links only to files that exist', (file) => {
    const text = read(file)
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^(https?:|mailto:|#)/.test(t))
    const missing = targets.map((t) => join(dirname(join(root, file)), t.replace(/#.*$/, ''))).filter((p) => !existsSync(p))
    expect(missing.map((p) => relative(root, p))).toEqual([])
  })

  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
  const slug = (heading: string): string =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')

  it.each(docs)('%s links only to headings that exist', (file) => {
    const text = read(file)
    const anchored = [...text.matchAll(/\]\(([^)\s#]*\.md)?#([^)\s]+)\)/g)].map((m) => ({ target: m.at(1) ?? '', anchor: m[2] }))
    const missing = anchored.filter(({ target, anchor }) => {
      const path = target === '' ? join(root, file) : join(dirname(join(root, file)), target)
      if (/^https?:/.test(target) || !existsSync(path)) return false
      const headings = [...readFileSync(path, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]))
      return !headings.includes(anchor)
    })
    expect(missing).toEqual([])
  })

  it.each(docs)('%s names only source, test and script files that exist', (file) => {
    const named = [...read(file).matchAll(/`((?:src|__tests__|scripts)\/[^`\s*<>]+)`/g)].map((m) => m[1].replace(/:.*$/, ''))
    expect(named.filter((p) => !existsSync(join(root, p)))).toEqual([])
  })

  it('the README links every maintainer document', () => {
    for (const f of docs.filter((d) => d !== 'README.md' && d !== 'CHANGELOG.md')) expect(readme).toContain(`](${f})`)
  })
})

describe('the Node versions the project states', () => {
  const pkg = JSON.parse(read('package.json')) as { engines: { node: string } }
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[] }> }
  const range = new semver.Range(pkg.engines.node)
  /** The lowest version of each alternative of the range (22.13.0 and 24.0.0 for "^22.13.0 || >=24"). */
  const floors = range.set.map((comparators) => semver.minVersion(comparators.map((c) => c.value).join(' '))?.version ?? '')

  it.each(floors)('every locked package accepts Node %s, the floor of an alternative of engines.node', (floor) => {
    const refusing = Object.entries(lock.packages)
      .map(([name, p]) => [name.replace(/^.*node_modules\//, ''), Array.isArray(p.engines) ? undefined : p.engines?.node] as const)
      .filter((entry): entry is readonly [string, string] => typeof entry[1] === 'string')
      .filter(([, wants]) => semver.validRange(wants) !== null && !semver.satisfies(floor, wants))
      .map(([name, wants]) => `${name} (${wants})`)
    expect(refusing).toEqual([])
  })

  it('CONTRIBUTING states engines.node, and CI and the release run a Node inside it, the node24 the action runs on', () => {
    expect(read('CONTRIBUTING.md')).toContain(`\`${pkg.engines.node}\``)
    for (const wf of ['.github/workflows/ci.yml', '.github/workflows/release.yml']) {
      const versions = [...read(wf).matchAll(/node-version:\s*['"]?(\d+)/g)].map((m) => m[1])
      expect(versions.length).toBeGreaterThan(0)
      for (const v of versions) expect(semver.satisfies(`${v}.0.0`, range)).toBe(true)
    }
    expect((parse(read('action.yml')) as { runs: { using: string } }).runs.using).toBe('node24')
    expect(semver.satisfies('24.0.0', range)).toBe(true)
  })
})

describe('what to require, as branch protection names it', () => {
  const examples = readdirSync(join(root, 'examples')).filter((f) => /\.ya?ml$/.test(f))

  it('the check to require is the job name branch protection lists (`gate`), not the name a pull request shows', () => {
    for (const file of ['README.md', ...examples.map((f) => `examples/${f}`)]) {
      const text = read(file)
      expect([file, /(require|add)[^.\n]*(\n#)?[^.\n]*["`]agent-security \/ gate["`]/i.test(text)]).toEqual([file, false])
    }
    expect(readme).toMatch(/Require the check `gate`/)
  })

  it('the examples name the commit status to require, never a placeholder', () => {
    for (const file of examples) {
      const text = read(`examples/${file}`)
      expect([file, text.match(/agent-security\/<[^>]*>/g)]).toEqual([file, null])
      // The status a deployment example sets is named by its target_name (a detached one's by its model_id): the name to require, written out.
      const name = /^\s+target_name: (\S+)$/m.exec(text)?.[1] ?? /^\s+model_id: ([\w.-]+)$/m.exec(text)?.[1]
      // On the default branch alone (a push, a schedule) the status is the sign that main recorded, not a check to require.
      const gates =
        /^\s+(pull_request|pull_request_target|deployment_status|repository_dispatch|merge_group):/m.test(text) ||
        text.includes('mode: collect')
      if (text.includes('statuses: write') && gates)
        expect([file, name !== undefined && text.includes(`"agent-security/${name}"`)]).toEqual([file, true])
    }
  })

  it('a required check that never reports blocks the merge; a skipped one passes (as GitHub documents)', () => {
    const reliability = read('docs/reliability.md')
    expect(reliability).not.toMatch(/missing[^.]*lets a change merge/)
    expect(reliability).toMatch(/pending forever and \*\*blocks\*\* the merge/)
    expect(reliability).toMatch(/\*\*skipped\*\*[^.]*reports success and lets the change merge/)
    expect(read('docs/pr-pipelines.md')).toMatch(/required status that never arrives blocks the merge/)
  })
})
