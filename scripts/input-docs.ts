/**
 * action.yml's `inputs:` section and README's inputs table, written from the
 * inputs table (src/action/inputs/table.ts), so an input is declared once.
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

/** action.yml with its inputs section replaced. */
export function withActionInputs(actionYml: string, table: readonly AnyInputSpec[] = TABLE): string {
  const start = actionYml.indexOf('\ninputs:\n')
  const end = actionYml.indexOf('\n\noutputs:\n')
  if (start < 0 || end < start) throw new Error('action.yml has no inputs: section followed by outputs:')
  return `${actionYml.slice(0, start + 1)}${actionYmlInputs(table)}${actionYml.slice(end + 1)}`
}

/** README with its inputs table replaced. */
export function withReadmeInputs(readme: string, table: readonly AnyInputSpec[] = TABLE): string {
  const start = readme.indexOf('<!-- inputs:start')
  const end = readme.indexOf(README_END)
  if (start < 0 || end < start) throw new Error('README.md has no inputs:start and inputs:end markers')
  return `${readme.slice(0, start)}${readmeInputsTable(table)}${readme.slice(end + README_END.length)}`
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
