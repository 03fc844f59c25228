// Runs before `npm run demo` and `npm test`: on a fresh clone, install the
// dependencies from the lockfile first (npm ci), so those two commands are all
// a newcomer types. With --node24 (npm test), also make sure a Node 24 is at
// hand for the tests that run the bundle as users' runners do: one already on
// the machine, else the npm registry's Node 24 package fetched once into a
// cache directory (scripts/node24.mjs says where it looks).
// Plain JavaScript with no dependencies: it runs before any exist.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { ensureNode24 } from './node24.mjs'

if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  console.log('First run on this clone: installing dependencies from the lockfile (npm ci)...')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

if (process.argv.includes('--node24')) {
  try {
    const found = ensureNode24()
    console.log(
      found
        ? `Node 24 for the bundle tests: ${found.path} (${found.version}, from ${found.source})`
        : 'NODE24=off: the bundle tests run on this Node only.'
    )
  } catch (err) {
    console.error(`ensure-deps: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  }
}
