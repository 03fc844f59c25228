/**
 * `agent-security-gate overview`: the workspace overview on the command line.
 * Reads with the service client (its retries wait out a 429), builds the page,
 * writes it to stdout as text or JSON, and optionally as one HTML file.
 * Progress lines go to stderr, none under CI. Exit 0 clear, 1 an agent would
 * fail the gate, 2 incomplete (stale, never assessed or not read), 3 error.
 */
import { writeFile } from 'node:fs/promises'
import { Command, CommanderError, Option } from 'commander'
import { SEVERITIES, type Severity } from '../service/contract/index.js'
import { createClient } from '../service/client.js'
import { Deadline, systemClock } from '../util/clock.js'
import { silentLog } from '../util/log.js'
import { oneLine } from '../util/text.js'
import { inCi } from '../cli/live-view.js'
import type { TerminalEdges } from '../cli/run-step.js'
import { buildOverview } from './engine.js'
import { overviewHtml } from './html.js'
import { overviewMarkdown } from './markdown.js'
import type { OverviewPage } from './page-model.js'
import { OVERVIEW_CONCURRENCY, readOverview } from './read.js'
import { overviewJson, overviewText } from './text.js'

/** The terminal's edges; makeReader (tests) replaces the HTTP client on ASAS_BASE_URL and ASAS_API_KEY. */
export type OverviewEdges = TerminalEdges

interface OverviewFlags {
  minSeverity: string
  maxAgeDays: string
  format: 'text' | 'json' | 'markdown'
  html?: string
  concurrency: string
  timeoutMinutes: string
}

const EXAMPLES = `
Examples:
  agent-security-gate overview                          # the workspace of ASAS_API_KEY, as text
  agent-security-gate overview --format json > overview.json
  agent-security-gate overview --html overview.html --max-age-days 14

Exit codes: 0 clear, 1 an agent would fail the gate, 2 incomplete (stale, never assessed or not read), 3 error.`

function whole(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max)
    throw new CommanderError(3, `cli.${name}`, `error: option '--${name}': '${raw}' is not a whole number from ${min} to ${max}`)
  return n
}

export function exitOf(page: OverviewPage): number {
  return { clear: 0, attention: 1, incomplete: 2 }[page.verdict.status]
}

async function run(o: OverviewFlags, edges: OverviewEdges): Promise<number> {
  const clock = edges.clock ?? systemClock
  const baseUrl = edges.env.ASAS_BASE_URL ?? ''
  const apiKey = edges.env.ASAS_API_KEY ?? ''
  if (baseUrl === '' || apiKey === '') {
    edges.stderr.write('error: set ASAS_BASE_URL and ASAS_API_KEY (the service and a key that can read the workspace)\n')
    return 3
  }
  const maxAgeDays = whole('max-age-days', o.maxAgeDays, 1, 365)
  const concurrency = whole('concurrency', o.concurrency, 1, 16)
  const deadline = Deadline.after(clock, whole('timeout-minutes', o.timeoutMinutes, 1, 360) * 60_000)
  const api = edges.makeReader?.(baseUrl, apiKey, deadline) ?? createClient({ baseUrl, apiKey, clock, deadline, log: silentLog })
  const quiet = inCi(edges.env) || o.format !== 'text'
  const progress = quiet
    ? undefined
    : (line: string): void => {
        edges.stderr.write(`${line}\n`)
      }
  let page: OverviewPage
  try {
    const input = await readOverview({ api, now: clock.now(), maxAgeDays, minSeverity: o.minSeverity as Severity, concurrency, progress })
    page = buildOverview(input)
  } catch (err) {
    edges.stderr.write(
      `error: the workspace's models could not be read: ${oneLine(err instanceof Error ? err.message : String(err), 400)}\n`
    )
    return 3
  }
  const body = o.format === 'json' ? overviewJson(page) : o.format === 'markdown' ? overviewMarkdown(page) : overviewText(page)
  edges.stdout.write(body)
  if (o.html !== undefined) {
    await writeFile(o.html, overviewHtml(page), { mode: 0o644 })
    if (!quiet) edges.stderr.write(`HTML written to ${o.html}\n`)
  }
  return exitOf(page)
}

/** Adds `overview` to the program. */
export function overviewCommand(program: Command, edges: OverviewEdges, result: { code: number }): void {
  program
    .command('overview')
    .description('the workspace at a glance: every agent, its standing, open weaknesses and their trend (reads only)')
    .addOption(
      new Option('--min-severity <severity>', 'the standing: would the gate pass it at this threshold').choices(SEVERITIES).default('high')
    )
    .option('--max-age-days <n>', 'runs completed within this many days count', '30')
    .addOption(new Option('--format <format>', 'stdout: text, json or markdown').choices(['text', 'json', 'markdown']).default('text'))
    .option('--html <file>', 'also write one self-contained HTML file')
    .option('--concurrency <n>', 'models read at once', String(OVERVIEW_CONCURRENCY))
    .option('--timeout-minutes <n>', 'stop waiting (retries included) after this long', '30')
    .addHelpText('after', EXAMPLES)
    .action(async (o: OverviewFlags) => {
      result.code = await run(o, edges)
    })
}
