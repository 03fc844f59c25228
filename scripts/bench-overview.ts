/**
 * The workspace overview at scale: a fleet of N agents × M completed runs in
 * the emulator (default 200 × 100), read through the service client as
 * `agent-security-gate overview` reads it (bounded concurrency), timed.
 * Prints the time, the requests and the page's sizes.
 *
 * Usage: node build/scripts/bench-overview.js [--agents N] [--runs M] [--concurrency C]
 */
import { startEmulator } from '../src/emulator/server.js'
import { createClient } from '../src/service/client.js'
import { buildOverview } from '../src/overview/engine.js'
import { overviewHtml } from '../src/overview/html.js'
import { overviewMarkdown } from '../src/overview/markdown.js'
import { readOverview } from '../src/overview/read.js'
import { overviewJson } from '../src/overview/text.js'

function option(name: string, fallback: string): number {
  const i = process.argv.indexOf(name)
  return Number(i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback)
}

async function main(): Promise<void> {
  const agents = option('--agents', '200')
  const runs = option('--runs', '100')
  const concurrency = option('--concurrency', '4')
  const emu = await startEmulator({ fleet: { agents, runs, seed: 7, everyHours: 6 } })
  try {
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.readonly })
    const before = emu.requestLog.length
    const t0 = performance.now()
    const input = await readOverview({ api, now: Date.now(), maxAgeDays: 30, minSeverity: 'high', concurrency })
    const t1 = performance.now()
    const page = buildOverview(input)
    const md = overviewMarkdown(page)
    const html = overviewHtml(page)
    const json = overviewJson(page)
    const t2 = performance.now()
    const requests = emu.requestLog.length - before
    console.log(
      JSON.stringify(
        {
          agents,
          runsPerAgent: runs,
          concurrency,
          runsRead: input.agents.reduce((n, a) => n + a.runs.length, 0),
          requests,
          readSeconds: +((t1 - t0) / 1000).toFixed(2),
          requestsPerSecond: Math.round(requests / ((t1 - t0) / 1000)),
          buildAndRenderMs: Math.round(t2 - t1),
          markdownChars: md.length,
          htmlBytes: Buffer.byteLength(html),
          jsonBytes: Buffer.byteLength(json),
          verdict: page.verdict.headline
        },
        null,
        2
      )
    )
  } finally {
    await emu.stop()
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
