// Node 24, the runtime users' runners give the action (runs.using: node24),
// for the tests and the demo that run the bundle. Found, in this order:
//   1. NODE24=/path/to/node (an explicit binary; NODE24=off: none, the tests
//      then run the bundle on the machine's Node only);
//   2. the Node running this script, when it is 24;
//   3. a `node` on PATH that is 24;
//   4. the npm registry's Node 24 package (node-<platform>-<arch>@NODE24_VERSION)
//      installed once into a cache directory, only when asked to install
//      (`--install`): NODE24_CACHE, else $XDG_CACHE_HOME or ~/.cache, under
//      agent-security-gate/node24. npm ci never installs it, and no install
//      pays for it when a Node 24 is already on the machine.
//
//   node scripts/node24.mjs [--install]   prints {"path","version","source"} or null
// Plain JavaScript with no dependencies: it runs before any are installed.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The registry package version fetched when no Node 24 is on the machine. */
export const NODE24_VERSION = '24.9.0'

function versionOf(path) {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim()
  } catch {
    return null
  }
}

const is24 = (v) => typeof v === 'string' && v.startsWith('v24.')

function isFile(p) {
  try {
    return statSync(p).isFile()
  } catch {
    return false
  }
}

export function cacheDir(env = process.env) {
  if (env.NODE24_CACHE) return resolve(env.NODE24_CACHE)
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(base, 'agent-security-gate', 'node24')
}

function registryPackage() {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform]
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch]
  return os && arch ? `node-${os}-${arch}` : null
}

function cachedBinary(env) {
  const pkg = registryPackage()
  if (!pkg) return null
  const dir = join(cacheDir(env), NODE24_VERSION, 'node_modules', pkg)
  return process.platform === 'win32' ? join(dir, 'bin', 'node.exe') : join(dir, 'bin', 'node')
}

/** Node 24 already on the machine (or in the cache), without installing anything; null if none. */
export function findNode24(env = process.env) {
  const explicit = env.NODE24
  if (explicit === 'off') return null
  if (explicit) {
    const version = versionOf(explicit)
    if (!is24(version)) throw new Error(`NODE24=${explicit} is not a Node 24 binary (it says ${version ?? 'nothing'})`)
    return { path: explicit, version, source: 'NODE24' }
  }
  if (is24(process.version)) return { path: process.execPath, version: process.version, source: 'this process' }
  const names = process.platform === 'win32' ? ['node.exe'] : ['node']
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const p = join(dir, name)
      if (!isFile(p)) continue
      const version = versionOf(p)
      if (is24(version)) return { path: p, version, source: 'PATH' }
    }
  }
  const cached = cachedBinary(env)
  if (cached && existsSync(cached)) {
    const version = versionOf(cached)
    if (is24(version)) return { path: cached, version, source: 'cache' }
  }
  return null
}

/** findNode24, else install the registry's Node 24 package into the cache (once) and return it. */
export function ensureNode24(env = process.env, log = (line) => console.log(line)) {
  if (env.NODE24 === 'off') return null
  const found = findNode24(env)
  if (found) return found
  const pkg = registryPackage()
  if (!pkg)
    throw new Error(`no Node 24 package on the npm registry for ${process.platform}-${process.arch}: put a Node 24 on PATH or set NODE24`)
  const dir = join(cacheDir(env), NODE24_VERSION)
  mkdirSync(dir, { recursive: true })
  log(
    `No Node 24 on this machine: installing ${pkg}@${NODE24_VERSION} from the npm registry into ${dir} (once; NODE24=/path/to/node or a node 24 on PATH skips this)...`
  )
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const r = spawnSync(
    npm,
    ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${NODE24_VERSION}`],
    { stdio: 'inherit' }
  )
  if (r.status !== 0)
    throw new Error(
      `npm install ${pkg}@${NODE24_VERSION} failed (exit ${r.status}): set NODE24=/path/to/node, or NODE24=off to test on this Node only`
    )
  const installed = findNode24(env)
  if (!installed || installed.source !== 'cache')
    throw new Error(`${pkg}@${NODE24_VERSION} was installed into ${dir} but gives no Node 24 binary`)
  return installed
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const found = process.argv.includes('--install') ? ensureNode24(process.env, (line) => console.error(line)) : findNode24()
    console.log(JSON.stringify(found))
  } catch (err) {
    console.error(`node24: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  }
}
