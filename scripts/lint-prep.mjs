// Helpers of scripts/lint-workflows.sh, reading YAML with the `yaml` dev
// dependency instead of matching lines of text:
//
//   node scripts/lint-prep.mjs action FILE OUTDIR
//     Reads runs.using from the parsed action metadata and checks it is a
//     runtime the runner supports (node24 needs runner 2.327.1 or later).
//     action-validator 0.6.0's schema stops at node20, so the copy written to
//     OUTDIR/action.yml for its schema check has runs.using node20 when it is
//     node24, and only that value changed; the copy is the file as it is
//     otherwise. Prints one line saying what was done.
//   node scripts/lint-prep.mjs snippets OUTDIR FILE.md...
//     Writes each ```yaml block that is a workflow (it has `jobs:`) to OUTDIR,
//     one file per block, named after the Markdown file and the block's line.
//     A block that is a list of steps (a step to add to a job) is written
//     inside a one-job workflow, after a step `gate` running this action when
//     the block reads steps.gate, so it is checked as it will run.
//   node scripts/lint-prep.mjs workflow FILE OUT
//     Writes to OUT a copy of the workflow for action-validator 0.6.0's
//     schema, which predates the `attestations` permission: that key is
//     checked here (read, write or none) and left out of the copy; the rest
//     is the file as it is. Prints what was left out, if anything.
//   node scripts/lint-prep.mjs shell OUTDIR WORKFLOW.yml...
//     Writes each `run:` block of the workflows (steps with a bash or default
//     shell) to OUTDIR as a bash script for shellcheck, with every ${{ ... }}
//     replaced by a plain word, as actionlint does.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parseDocument, parse, stringify } from 'yaml'

const RUNTIMES = new Set(['node20', 'node24', 'composite', 'docker'])

function fail(message) {
  console.error(`lint-prep: ${message}`)
  process.exit(1)
}

function action(file, outDir) {
  const doc = parseDocument(readFileSync(file, 'utf8'))
  if (doc.errors.length > 0) fail(`${file}: ${doc.errors[0].message}`)
  const using = doc.getIn(['runs', 'using'])
  if (typeof using !== 'string' || !RUNTIMES.has(using)) {
    fail(`${file}: runs.using is ${JSON.stringify(using)}; the runner supports ${[...RUNTIMES].join(', ')}`)
  }
  mkdirSync(outDir, { recursive: true })
  const out = join(outDir, basename(file))
  if (using === 'node24') {
    doc.setIn(['runs', 'using'], 'node20')
    writeFileSync(out, doc.toString())
    console.log(
      `${file}: runs.using node24 (runner 2.327.1 or later); the rest of the file is checked against action-validator's schema, which stops at node20`
    )
  } else {
    writeFileSync(out, readFileSync(file))
    console.log(`${file}: runs.using ${using}`)
  }
}

/** Permissions GitHub has that action-validator 0.6.0's schema does not know. */
const NEWER_PERMISSIONS = ['attestations']

function workflow(file, out) {
  const doc = parseDocument(readFileSync(file, 'utf8'))
  if (doc.errors.length > 0) fail(`${file}: ${doc.errors[0].message}`)
  const left = []
  const strip = (path) => {
    const perms = doc.getIn(path)
    if (!perms || typeof perms !== 'object' || !('has' in perms)) return
    for (const key of NEWER_PERMISSIONS) {
      if (!perms.has(key)) continue
      const level = perms.get(key)
      if (!['read', 'write', 'none'].includes(level))
        fail(`${file}: ${[...path, key].join('.')} is ${JSON.stringify(level)}: read, write or none`)
      perms.delete(key)
      left.push([...path, key].join('.'))
    }
  }
  strip(['permissions'])
  const jobs = doc.get('jobs')
  if (jobs && typeof jobs === 'object' && 'items' in jobs) for (const pair of jobs.items) strip(['jobs', String(pair.key), 'permissions'])
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, doc.toString())
  if (left.length > 0) console.log(`schema checked without ${left.join(', ')}`)
}

function snippets(outDir, files) {
  mkdirSync(outDir, { recursive: true })
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)) {
      const body = /^jobs:/m.test(m[1]) ? m[1] : stepsAsWorkflow(m[1])
      if (body === null) continue
      const line = text.slice(0, m.index).split('\n').length
      const name = `${file.replace(/[/\\]/g, '_').replace(/\.md$/, '')}-line${line}.yml`
      writeFileSync(join(outDir, name), body)
      console.log(`${name} <- ${file}:${line}`)
    }
  }
}

/** A block that is a list of steps, as a workflow of one job; null for any other block (a profile, a config). */
function stepsAsWorkflow(body) {
  let steps
  try {
    steps = parse(body)
  } catch (err) {
    // A block meant as steps that does not even parse must fail the lint, not be skipped.
    if (/^\s*- (uses|run|name|id|if):/m.test(body)) return `# does not parse: ${String(err).split('\n')[0]}\n${body}`
    return null
  }
  const isStep = (s) => s !== null && typeof s === 'object' && !Array.isArray(s) && ('uses' in s || 'run' in s)
  if (!Array.isArray(steps) || steps.length === 0 || !steps.every(isStep)) return null
  const gate = {
    id: 'gate',
    uses: 'your-org/agent-security-gate@v1',
    with: { model_id: 'm', api_key: 'k', base_url: 'https://asas.example.com' }
  }
  const needsGate = /steps\.gate\./.test(body) && !steps.some((s) => s.id === 'gate')
  return stringify({
    on: 'workflow_dispatch',
    jobs: { snippet: { 'runs-on': 'ubuntu-latest', steps: [...(needsGate ? [gate] : []), ...steps] } }
  })
}

function shell(outDir, files) {
  mkdirSync(outDir, { recursive: true })
  let count = 0
  for (const file of files) {
    const wf = parse(readFileSync(file, 'utf8'))
    const defaultShell = wf?.defaults?.run?.shell
    for (const [jobId, job] of Object.entries(wf?.jobs ?? {})) {
      const jobShell = job?.defaults?.run?.shell ?? defaultShell
      ;(job?.steps ?? []).forEach((step, i) => {
        if (typeof step?.run !== 'string') return
        const sh = step.shell ?? jobShell ?? 'bash'
        if (!/^(bash|sh)\b/.test(sh)) return
        const script = step.run.replace(/\$\{\{[\s\S]*?\}\}/g, 'GHA_EXPRESSION')
        const name = `${basename(file).replace(/\.ya?ml$/, '')}-${jobId}-step${i + 1}.sh`
        writeFileSync(
          join(outDir, name),
          `#!/usr/bin/env ${sh.startsWith('sh') ? 'sh' : 'bash'}\n# ${file}, job ${jobId}, step ${i + 1}\nset -e\n${script}`
        )
        count++
      })
    }
  }
  console.log(`${count} run: blocks`)
}

const [command, ...args] = process.argv.slice(2)
if (command === 'action' && args.length === 2) action(args[0], args[1])
else if (command === 'workflow' && args.length === 2) workflow(args[0], args[1])
else if (command === 'snippets' && args.length >= 1) snippets(args[0], args.slice(1))
else if (command === 'shell' && args.length >= 1) shell(args[0], args.slice(1))
else fail('usage: lint-prep.mjs action FILE OUTDIR | workflow FILE OUT | snippets OUTDIR FILE.md... | shell OUTDIR WORKFLOW.yml...')
