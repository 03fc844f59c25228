/**
 * The Node runtimes to run the bundle on: Node 24 (what `runs.using: node24`
 * gives users), Node 22 (engines.node's floor, for the published command line)
 * and the machine's own Node. Each is found by scripts/node-runtime.mjs:
 * NODE<M>, this Node, a node of that major on PATH, or the registry package
 * that `npm test` fetched into a cache directory (ensure-deps.mjs).
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { PROJECT_ROOT } from './action-runner.js'
import { nonEmpty } from '../../src/util/text.js'

export interface Runtime {
  name: string
  path: string
  version: string
}

function versionOf(path: string): string | null {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
}

/** Node `major` as scripts/node-runtime.mjs finds it (nothing is installed here); null when there is none. */
export function nodeOfMajor(major: 22 | 24): Runtime | null {
  const out = execFileSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'node-runtime.mjs'), String(major)], {
    encoding: 'utf8'
  }).trim()
  const found = JSON.parse(out) as { path: string; version: string } | null
  return found ? { name: `node${String(major)}`, path: found.path, version: found.version } : null
}

/** Node 24, what `runs.using: node24` gives users; null when there is none. */
export function node24(): Runtime | null {
  return nodeOfMajor(24)
}

/** The machine's Node: the one npm runs on (npm_node_execpath), else this process's. */
export function machineNode(): Runtime {
  const path = nonEmpty(process.env.npm_node_execpath) ?? process.execPath
  return { name: 'machine', path, version: versionOf(path) ?? process.version }
}

/** Node 24 first, then the machine's Node when it is another version. */
export function runtimes(): Runtime[] {
  const list: Runtime[] = []
  const n24 = node24()
  if (n24) list.push(n24)
  const m = machineNode()
  if (!list.some((r) => r.version === m.version)) list.push(m)
  return list
}
