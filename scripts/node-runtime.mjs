// The Node runtimes the tests run the built code on: Node 24, the runtime users'
// runners give the action (runs.using: node24), and Node 22, the floor of
// engines.node that the published command line promises (npx on a user's
// machine or CI job). For a major M (22 or 24), found in this order:
//   1. NODE<M>=/path/to/node (an explicit binary; NODE<M>=off: none, the tests
//      then run on the machine's Node only);
//   2. the Node running this script, when it is M;
//   3. a `node` on PATH that is M;
//   4. the npm registry's Node package (node-<platform>-<arch>@NODE_VERSIONS[M])
//      installed once into a cache directory, only when asked to install
//      (`--install`): NODE<M>_CACHE, else $XDG_CACHE_HOME or ~/.cache, under
//      agent-security-gate/node<M>. npm ci never installs it, and no install
//      pays for it when that Node is already on the machine.
//
//   node scripts/node-runtime.mjs <22|24> [--install]   prints {"path","version","source"} or null
// Plain JavaScript with no dependencies: it runs before any are installed.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The registry package version fetched, per major, when no such Node is on the machine. 22.13.0: engines.node's floor. */
export const NODE_VERSIONS = { 22: '22.13.0', 24: '24.9.0' }

function knownMajor(major) {
  const m = Number(major)
  if (!Object.hasOwn(NODE_VERSIONS, m)) throw new Error(`no Node ${major} is known here: one of ${Object.keys(NODE_VERSIONS).join(', ')}`)
  return m
}

function versionOf(path) {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim()
  } catch {
    return null
  }
}

const isMajor = (major, v) => typeof v === 'string' && v.startsWith(`v${major}.`)

function isFile(p) {
  try {
    return statSync(p).isFile()
  } catch {
    return false
  }
}

export function cacheDir(major, env = process.env) {
  const m = knownMajor(major)
  const own = env[`NODE${m}_CACHE`]
  if (own) return resolve(own)
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(base, 'agent-security-gate', `node${m}`)
}

function registryPackage() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform]
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch]
  return os && arch ? `node-${os}-${arch}` : null
}

function cachedBinary(major, env) {
  const pkg = registryPackage()
  if (!pkg) return null
  const dir = join(cacheDir(major, env), NODE_VERSIONS[major], 'node_modules', pkg)
  return process.platform === 'win32' ? join(dir, 'bin', 'node.exe') : join(dir, 'bin', 'node')
}

/** Node `major` already on the machine (or in the cache), without installing anything; null if none. */
export function findNode(major, env = process.env) {
  const m = knownMajor(major)
  const name = `NODE${m}`
  const explicit = env[name]
  if (explicit === 'off') return null
  if (explicit) {
    const version = versionOf(explicit)
    if (!isMajor(m, version)) throw new Error(`${name}=${explicit} is not a Node ${m} binary (it says ${version ?? 'nothing'})`)
    return { path: explicit, version, source: name }
  }
  if (isMajor(m, process.version)) return { path: process.execPath, version: process.version, source: 'this process' }
  const names = process.platform === 'win32' ? ['node.exe'] : ['node']
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const n of names) {
      const p = join(dir, n)
      if (!isFile(p)) continue
      const version = versionOf(p)
      if (isMajor(m, version)) return { path: p, version, source: 'PATH' }
    }
  }
  const cached = cachedBinary(m, env)
  if (cached && existsSync(cached)) {
    const version = versionOf(cached)
    if (isMajor(m, version)) return { path: cached, version, source: 'cache' }
  }
  return null
}

/** findNode, else install the registry's Node package of that major into the cache (once) and return it. */
export function ensureNode(major, env = process.env, log = (line) => console.log(line)) {
  const m = knownMajor(major)
  const name = `NODE${m}`
  if (env[name] === 'off') return null
  const found = findNode(m, env)
  if (found) return found
  const pkg = registryPackage()
  if (!pkg)
    throw new Error(
      `no Node ${m} package on the npm registry for ${process.platform}-${process.arch}: put a Node ${m} on PATH or set ${name}`
    )
  const version = NODE_VERSIONS[m]
  const dir = join(cacheDir(m, env), version)
  mkdirSync(dir, { recursive: true })
  log(
    `No Node ${m} on this machine: installing ${pkg}@${version} from the npm registry into ${dir} (once; ${name}=/path/to/node or a node ${m} on PATH skips this)...`
  )
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const r = spawnSync(npm, ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${version}`], {
    stdio: 'inherit'
  })
  if (r.status !== 0)
    throw new Error(
      `npm install ${pkg}@${version} failed (exit ${r.status}): set ${name}=/path/to/node, or ${name}=off to test on this Node only`
    )
  const installed = findNode(m, env)
  if (!installed || installed.source !== 'cache')
    throw new Error(`${pkg}@${version} was installed into ${dir} but gives no Node ${m} binary`)
  return installed
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const major = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? ''
  try {
    const found = process.argv.includes('--install') ? ensureNode(major, process.env, (line) => console.error(line)) : findNode(major)
    console.log(JSON.stringify(found))
  } catch (err) {
    console.error(`node${major}: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  }
}
