/**
 * `npm run demo -- overview`: the workspace overview of the emulator's demo
 * fleet (fleet.ts: agents with histories, one stale, one never assessed),
 * read with the read-only key through `agent-security-gate overview`. Prints
 * the markdown (as the job summary and the tracking issue show it) and writes
 * the HTML file.
 *
 * Options: --agents N (default 8), --runs N (runs per agent, default 20),
 *          --html FILE (default overview.html), --format text|json|markdown (default markdown).
 */
import { resolve } from 'node:path'
import { runCli } from '../src/cli/program.js'
import { startEmulator } from '../src/emulator/server.js'

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback
}

export async function overviewDemo(): Promise<number> {
  const agents = Number(option('--agents', '8'))
  const runs = Number(option('--runs', '20'))
  const html = resolve(option('--html', 'overview.html'))
  const emu = await startEmulator({ fleet: { agents, runs, seed: 7 } })
  try {
    const code = await runCli(['overview', '--format', option('--format', 'markdown'), '--html', html, '--max-age-days', '30'], {
      env: { ...process.env, ASAS_BASE_URL: emu.url, ASAS_API_KEY: emu.keys.readonly },
      stdout: process.stdout,
      stderr: process.stderr
    })
    console.error(`\nThe HTML page: ${html} (exit code ${code}: 0 clear, 1 an agent would fail, 2 incomplete)`)
    return code
  } finally {
    await emu.stop()
  }
}
