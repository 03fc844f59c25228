/**
 * action.yml's `inputs:` and `outputs:` sections and README's inputs,
 * outputs and results tables, written from the inputs table
 * (src/action/inputs/table.ts) and the outputs and results tables
 * (src/action/output-table.ts), so an input, an output or a result is
 * declared once.
 * Run from the repository's root after changing an entry:
 *
 *   npm run -s build:tools && node build/scripts/input-docs.js
 *
 * `--check` writes nothing and exits 1 when either file is not up to date
 * (__tests__/action/input-table.test.ts holds the same).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { fillRange, type AnyInputSpec } from '../src/action/inputs/spec.js'
import { INPUT_TABLE } from '../src/action/inputs/table.js'
import { OUTCOMES, OUTPUT_TABLE } from '../src/action/output-table.js'

const TABLE = INPUT_TABLE as readonly AnyInputSpec[]

/** A YAML scalar: single-quoted, or double-quoted (JSON's escapes are YAML's) when it holds a single quote. */
function yamlString(value: string): string {
  return value.includes("'") ? JSON.stringify(value) : `'${value}'`
}

/** The `inputs:` section of action.yml, up to the blank line before `outputs:`. */
export function actionYmlInputs(table: readonly AnyInputSpec[] = TABLE): string {
  const lines = ['inputs:']
  for (const spec of table) {
    lines.push(`  ${spec.name}:`, `    description: ${yamlString(fillRange(spec, spec.description, false))}`)
    lines.push(`    required: ${spec.required === true ? 'true' : 'false'}`)
    if (spec.required !== true) lines.push(`    default: ${yamlString(spec.runnerDefault ?? spec.default)}`)
  }
  return `${lines.join('\n')}\n`
}

/** README's default cell: (required), empty, or the default as code. */
function defaultCell(spec: AnyInputSpec): string {
  if (spec.required === true) return '(required)'
  const value = spec.runnerDefault ?? spec.default
  return value === '' ? 'empty' : `\`${value}\``
}

export const README_START = '<!-- inputs:start: written from src/action/inputs/table.ts by scripts/input-docs.ts; a test checks it -->'
export const README_END = '<!-- inputs:end -->'

/** README's inputs table, its markers included. */
export function readmeInputsTable(table: readonly AnyInputSpec[] = TABLE): string {
  const rows = table.map(
    (spec) => `| \`${spec.name}\` | ${defaultCell(spec)} | ${fillRange(spec, spec.summary, true).replace(/\|/g, '\\|')} |`
  )
  return [README_START, '| input | default | meaning |', '|---|---|---|', ...rows, README_END].join('\n')
}

/** A markdown table cell: pipes escaped. */
const cell = (text: string): string => text.replace(/\|/g, '\\|')

/** action.yml's `outputs:` section, up to the blank line before `runs:`. */
export function actionYmlOutputs(): string {
  const lines = ['outputs:']
  for (const o of OUTPUT_TABLE) lines.push(`  ${o.name}:`, `    description: ${yamlString(o.description)}`)
  return `${lines.join('\n')}\n`
}

/** README's tables, each between its markers. */
const README_TABLES = {
  inputs: readmeInputsTable,
  outputs: (): string =>
    [
      '<!-- outputs:start: written from src/action/output-table.ts by scripts/input-docs.ts; a test checks it -->',
      '| output | meaning |',
      '|---|---|',
      ...OUTPUT_TABLE.map((o) => `| \`${o.name}\` | ${cell(o.summary)} |`),
      '<!-- outputs:end -->'
    ].join('\n'),
  results: (): string =>
    [
      '<!-- results:start: written from src/action/output-table.ts by scripts/input-docs.ts; a test checks it -->',
      '| result | when | the step | exit code |',
      '|---|---|---|---|',
      ...Object.entries(OUTCOMES).map(([r, o]) => `| \`${r}\` | ${cell(o.when)} | ${cell(o.step)} | ${o.exitCode} |`),
      '<!-- results:end -->'
    ].join('\n')
} as const

/** A section of `text` from `start` to just before `end`, replaced. */
function replaceBetween(text: string, start: string, end: string, what: string, by: string): string {
  const a = text.indexOf(start)
  const b = text.indexOf(end, a + 1)
  if (a < 0 || b < a) throw new Error(`${what}: no ${JSON.stringify(start.trim())} followed by ${JSON.stringify(end.trim())}`)
  return `${text.slice(0, a + 1)}${by}${text.slice(b + 1)}`
}

/** action.yml with its inputs and outputs sections replaced. */
export function withActionInputs(actionYml: string, table: readonly AnyInputSpec[] = TABLE): string {
  const inputs = replaceBetween(actionYml, '\ninputs:\n', '\n\noutputs:\n', 'action.yml', actionYmlInputs(table))
  return replaceBetween(inputs, '\noutputs:\n', '\n\nruns:\n', 'action.yml', actionYmlOutputs())
}

/** README with its generated tables replaced. */
export function withReadmeInputs(readme: string, table: readonly AnyInputSpec[] = TABLE): string {
  let out = readme
  for (const [name, render] of Object.entries(README_TABLES)) {
    const start = out.indexOf(`<!-- ${name}:start`)
    const endMark = `<!-- ${name}:end -->`
    const end = out.indexOf(endMark)
    if (start < 0 || end < start) throw new Error(`README.md has no ${name}:start and ${name}:end markers`)
    out = `${out.slice(0, start)}${name === 'inputs' ? readmeInputsTable(table) : render(table)}${out.slice(end + endMark.length)}`
  }
  return out
}

/** Write (or, with check, compare) both files under `root`; the names of those not up to date. */
export function inputDocs(root: string, check: boolean): string[] {
  const stale: string[] = []
  for (const [file, rewrite] of [
    ['action.yml', withActionInputs],
    ['README.md', withReadmeInputs]
  ] as const) {
    const path = join(root, file)
    const before = readFileSync(path, 'utf8')
    const after = rewrite(before)
    if (after === before) continue
    stale.push(file)
    if (!check) writeFileSync(path, after)
  }
  return stale
}

const entry = process.argv.at(1)
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  const check = process.argv.includes('--check')
  const stale = inputDocs(process.cwd(), check)
  for (const file of stale) console.log(check ? `${file} is not up to date with the inputs table` : `${file} written`)
  if (check && stale.length > 0) process.exitCode = 1
}
