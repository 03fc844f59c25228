// Runs before `npm run demo` and `npm test`: on a fresh clone, install the
// dependencies from the lockfile first (npm ci), so those two commands are all
// a newcomer types. Plain JavaScript with no dependencies: it runs before any exist.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  console.log('First run on this clone: installing dependencies from the lockfile (npm ci)...')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
