// Runs before `npm run demo` and `npm test`: on a fresh clone, install the
// dependencies from the lockfile first (npm ci), so those two commands are all
// a newcomer types. With --node24 and --node22 (npm test), also make sure a
// Node 24 (what users' runners run the action on) and a Node 22 (the floor of
// engines.node, where the published command line must install and run) are at
// hand for the tests that run the bundle: one already on the machine, else the
// npm registry's Node package fetched once into a cache directory
// (scripts/node-runtime.mjs says where it looks).
// Plain JavaScript with no dependencies: it runs before any exist.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { ensureNode } from './node-runtime.mjs'

if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  console.log('First run on this clone: installing dependencies from the lockfile (npm ci)...')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const r = spawnSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

for (const major of [24, 22]) {
  if (!process.argv.includes(`--node${major}`)) continue
  try {
    const found = ensureNode(major)
    console.log(
      found
        ? `Node ${major} for the bundle tests: ${found.path} (${found.version}, from ${found.source})`
        : `NODE${major}=off: the bundle tests run without a Node ${major}.`
    )
  } catch (err) {
    console.error(`ensure-deps: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  }
}
