// npm run mutate: StrykerJS (stryker.config.mjs) on a Node it supports (20 or
// later): this Node when it is, else the Node 24 the bundle tests use
// (scripts/node-runtime.mjs, installed once into its cache). Arguments are passed on
// to `stryker run`, e.g. `npm run mutate -- --mutate src/decision/verdict.ts`.
// Plain JavaScript with no dependencies beside Stryker's own.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { ensureNode } from './node-runtime.mjs'

const major = Number(process.versions.node.split('.')[0])
let node = process.execPath
if (major < 20) {
  const found = ensureNode(24, process.env, (line) => console.error(line))
  if (!found) {
    console.error(`mutate: StrykerJS needs Node 20 or later (this is ${process.version}) and NODE24=off forbids fetching one`)
    process.exit(1)
  }
  node = found.path
}
const cli = fileURLToPath(new URL('../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url))
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() }
const r = spawnSync(node, [cli, 'run', ...process.argv.slice(2)], { stdio: 'inherit', env })
process.exit(r.status ?? 1)
