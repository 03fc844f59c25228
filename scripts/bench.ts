/**
 * `npm run bench`: the performance figures of the gate.
 *
 * 1. Simulation (scripts/bench-sim.ts): seeded simulated runs, our poll
 *    schedule and fixed 1 s / 5 s / 30 s polling replayed in virtual time.
 * 2. Real action against the emulator (scripts/bench-real.ts): the bundled
 *    dist/index.js on Node 24 against the service emulator and the GitHub API
 *    stand-in: detection latency and polls on runs of about 30 s, start-up
 *    against bare node, the time from the end to the exit, and the render
 *    time for 5,000 findings.
 *
 * Runs itself on Node 24 (as scripts/node-runtime.mjs finds it) when there is one
 * and this process is another version, as users run the action on node24.
 *
 * 3. A stochastic agent (scripts/bench-stochastic.ts): the real gate
 *    in-process against the emulator's demo agent with one flaky weakness:
 *    how often verdicts flip on re-runs, false "new" blocks, pull requests
 *    that introduce or remove the weakness, and what the evidence window
 *    costs per gate.
 *
 * 4. Detached waiting (scripts/bench-detached.ts): runner time per
 *    assessment attached and detached over runs of 1, 20 and 45 minutes of
 *    virtual time, the collector's ticks, the latency from a run's end to its
 *    verdict (between `<!-- bench-detached:start -->` and `<!-- bench-detached:end -->`).
 *
 * Prints markdown, and writes it into docs/performance.md between
 * `<!-- bench:start -->` and `<!-- bench:end -->` (the stochastic section
 * between `<!-- bench-stochastic:start -->` and `<!-- bench-stochastic:end -->`),
 * and the confirmation tables of the stochastic run (scripts/bench-confirmation.ts,
 * with the rule alone simulated for a kept weakness: scripts/bench-kept.ts)
 * into docs/baseline.md between `<!-- confirmation-measured:start -->` and
 * `<!-- confirmation-measured:end -->`, when those markers exist (the files
 * are never created here; --no-readme: print only). The bench is the one
 * writer of these sections.
 *
 * Usage: node build/scripts/bench.js [--runs N] [--seed S] [--no-readme]
 *          [--real-runs N] [--category-ms MS] [--startup-samples N]
 *          [--render-samples N] [--no-real]
 *          [--no-stochastic | --stochastic-only] [--stochastic-seed S]
 *          [--no-detached | --detached-only]
 *          [--stochastic-n N] [--stochastic-k 1,5,10] [--stochastic-p 0.1,0.3]
 *          [--stochastic-rpc-n N] (pull requests per runs_per_change cell, default the
 *          smaller of --stochastic-n and 40; 0: none)
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_SCHEDULE_OPTIONS } from '../src/gate/poll-schedule.js'
import { runSimulation, TARGETS, type SimulationResult } from './bench-sim.js'
import { DEFAULT_REAL_OPTIONS, measureReal, realMarkdown, type RealBenchOptions } from './bench-real.js'
import { DEFAULT_STOCHASTIC, DEFAULT_WINDOWS, measureStochastic, stochasticColumns } from './bench-stochastic.js'
import { stochasticMarkdown } from './bench-stochastic-markdown.js'
import { confirmationMarkdown, DEFAULT_RUNS_PER_CHANGE, measurePerChange } from './bench-confirmation.js'
import { keptSection } from './bench-kept.js'

// ---------------------------------------------------------------------------
// Real action against the emulator (hook)
// ---------------------------------------------------------------------------

/** What the real benchmark measures. */
export interface RealBenchResult {
  /** Markdown to append after the simulation tables. */
  markdown: string
}

/**
 * The real action against the emulator (scripts/bench-real.ts): the bundled
 * dist/index.js, runs of about 30 s, latency and request counts from the
 * emulator's request log, start-up and render figures. Runs the bundle on
 * this process's Node (see main(): Node 24 when installed).
 */
export async function realBench(
  options: Partial<Omit<RealBenchOptions, 'nodePath' | 'nodeVersion' | 'log'>> = {}
): Promise<RealBenchResult | null> {
  const { PROJECT_ROOT } = await import('../__tests__/__fixtures__/action-runner.js')
  const dist = resolve(PROJECT_ROOT, 'dist', 'index.js')
  if (!existsSync(dist)) throw new Error(`${dist} is missing: run \`npm run bundle\` first`)
  const figures = await measureReal({
    ...DEFAULT_REAL_OPTIONS,
    ...options,
    nodePath: process.execPath,
    nodeVersion: process.version,
    log: (line) => process.stderr.write(`${line}\n`)
  })
  return { markdown: realMarkdown(figures) }
}

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)} %`
}

export function simulationMarkdown(sim: SimulationResult): string {
  const o = DEFAULT_SCHEDULE_OPTIONS
  const lines: string[] = []
  lines.push(
    `Method: ${sim.runs} seeded simulated runs in virtual time (\`scripts/bench-sim.ts\`), durations log-uniform ` +
      `from 20 s to 60 min, 2 to 13 categories (half of them the full 13), the status turning terminal 0-1 s after ` +
      `the last category. Progress is even (categories +-10 %), uneven (lognormal category durations, spread 0.6), ` +
      `stalled (a pause of 20-50 % of the run in a middle category), not reported (categories_completed empty until ` +
      `the end) or absent (nothing planned); the first three are "runs with progress". Each policy is replayed as the ` +
      `gate runs it: one request in flight, a ${sim.roundTripMs} ms round trip, the next poll a delay after the response. ` +
      `Detection latency: from the run's end to the response that shows the terminal status. Requests vs 1 s ` +
      `polling: total requests over the same runs. Our schedule (\`src/poll-schedule.ts\`): min ${o.minDelayMs / 1000} s, ` +
      `max ${o.maxDelayMs / 1000} s, max without progress ${o.noProgressMaxDelayMs / 1000} s.`
  )
  for (const g of sim.groups) {
    lines.push('')
    lines.push(`**${g.group}** (${g.stats[0]?.runs ?? 0} runs)`)
    lines.push('')
    lines.push('| policy | median latency | p95 latency | max latency | requests per run | requests vs 1 s polling |')
    lines.push('|---|---:|---:|---:|---:|---:|')
    for (const s of g.stats) {
      lines.push(
        `| ${s.policy} | ${seconds(s.medianLatencyMs)} | ${seconds(s.p95LatencyMs)} | ${seconds(s.maxLatencyMs)} | ` +
          `${s.meanRequests.toFixed(1)} | ${percent(s.requestsVsOneSecond)} |`
      )
    }
  }
  lines.push('')
  lines.push('**Our schedule by run duration** (runs with progress)')
  lines.push('')
  lines.push('| duration | runs | median latency | p95 latency | requests vs 1 s polling |')
  lines.push('|---|---:|---:|---:|---:|')
  for (const b of sim.byDuration) {
    lines.push(`| ${b.band} | ${b.runs} | ${seconds(b.medianLatencyMs)} | ${seconds(b.p95LatencyMs)} | ${percent(b.requestsVsOneSecond)} |`)
  }
  const ours = sim.groups.at(0)?.stats.at(0)
  if (ours) {
    const ok =
      ours.medianLatencyMs <= TARGETS.medianLatencyMs &&
      ours.p95LatencyMs <= TARGETS.p95LatencyMs &&
      ours.requestsVsOneSecond <= TARGETS.requestsVsOneSecond
    lines.push('')
    lines.push(
      `Targets on runs with progress (median <= ${seconds(TARGETS.medianLatencyMs)}, p95 <= ${seconds(TARGETS.p95LatencyMs)}, ` +
        `requests <= ${percent(TARGETS.requestsVsOneSecond)} of 1 s polling): **${ok ? 'met' : 'NOT met'}**.`
    )
  }
  return lines.join('\n')
}

// ---------------------------------------------------------------------------
// README
// ---------------------------------------------------------------------------

export const README_START = '<!-- bench:start -->'
export const README_END = '<!-- bench:end -->'
export const STOCHASTIC_MARKERS = { start: '<!-- bench-stochastic:start -->', end: '<!-- bench-stochastic:end -->' }
export const CONFIRMATION_MARKERS = { start: '<!-- confirmation-measured:start -->', end: '<!-- confirmation-measured:end -->' }
export const DETACHED_MARKERS = { start: '<!-- bench-detached:start -->', end: '<!-- bench-detached:end -->' }

/** Text with the part between the markers replaced; null when the markers are missing. */
export function replaceBetweenMarkers(text: string, body: string, markers = { start: README_START, end: README_END }): string | null {
  const start = text.indexOf(markers.start)
  const end = text.indexOf(markers.end, start + markers.start.length)
  if (start < 0 || end < 0) return null
  return `${text.slice(0, start + markers.start.length)}\n${body}\n${text.slice(end)}`
}

/** Writes `body` between the markers of `readmePath`; returns whether it did. */
export function writeReadme(readmePath: string, body: string, markers = { start: README_START, end: README_END }): boolean {
  if (!existsSync(readmePath)) return false
  const next = replaceBetweenMarkers(readFileSync(readmePath, 'utf8'), body, markers)
  if (next === null) return false
  writeFileSync(readmePath, next)
  return true
}

// ---------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

function intArg(args: string[], name: string, fallback: number): number {
  const raw = argValue(args, name)
  const n = raw === undefined ? fallback : Number(raw)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} takes a non-negative integer`)
  return n
}

/**
 * Re-runs this script on Node 24 when it is installed and this process runs
 * another version (npm runs scripts on the machine's Node). Returns the exit
 * code, or null when no re-run is needed.
 */
async function onNode24(args: string[]): Promise<number | null> {
  if (process.version.startsWith('v24.') || process.env.BENCH_NO_REEXEC) return null
  const { node24 } = await import('../__tests__/__fixtures__/node-runtimes.js')
  const n24 = node24()
  if (!n24) {
    process.stderr.write(`No Node 24 found (npm test fetches one; see scripts/node-runtime.mjs): measuring on ${process.version}\n`)
    return null
  }
  process.stderr.write(`re-running on ${n24.version} (${n24.path})\n`)
  const r = spawnSync(n24.path, [fileURLToPath(import.meta.url), ...args], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_NO_REEXEC: '1' }
  })
  return r.status ?? 1
}

/** The simulation and the real action: the section between the bench markers. */
async function timingSection(args: string[]): Promise<string> {
  const runs = Number(argValue(args, '--runs') ?? 2_000)
  const seed = Number(argValue(args, '--seed') ?? 1)
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) throw new Error('--runs and --seed take integers')

  const started = performance.now()
  const sim = runSimulation({ runs, firstSeed: seed })
  const simMs = performance.now() - started
  const parts = ['### Poll schedule, simulated', '', simulationMarkdown(sim)]
  process.stderr.write(`simulation: ${runs} runs in ${(simMs / 1000).toFixed(1)} s\n`)

  if (!args.includes('--no-real')) {
    const real = await realBench({
      runs: intArg(args, '--real-runs', DEFAULT_REAL_OPTIONS.runs),
      categoryDurationMs: intArg(args, '--category-ms', DEFAULT_REAL_OPTIONS.categoryDurationMs),
      startupSamples: intArg(args, '--startup-samples', DEFAULT_REAL_OPTIONS.startupSamples),
      renderSamples: intArg(args, '--render-samples', DEFAULT_REAL_OPTIONS.renderSamples)
    })
    if (real) parts.push('', real.markdown)
  }
  return parts.join('\n')
}

function listArg(args: string[], name: string, fallback: readonly number[], ok: (n: number) => boolean): number[] {
  const raw = argValue(args, name)
  if (raw === undefined) return [...fallback]
  const values = raw.split(',').map(Number)
  if (values.length === 0 || !values.every(ok)) throw new Error(`${name} takes a comma-separated list`)
  return values
}

/**
 * The stochastic agent: the section between the bench-stochastic markers, and
 * the confirmation tables for docs/baseline.md (null, and runs_per_change not
 * measured, when --stochastic-k leaves out the default window).
 */
async function stochasticSections(args: string[]): Promise<{ window: string; confirmation: string | null }> {
  const { startStochasticWorld } = await import('../__tests__/__fixtures__/stochastic-world.js')
  const d = DEFAULT_STOCHASTIC
  const opts = {
    seed: intArg(args, '--stochastic-seed', d.seed),
    n: intArg(args, '--stochastic-n', d.n),
    history: d.history,
    probabilities: listArg(args, '--stochastic-p', d.probabilities, (p) => p > 0 && p < 1),
    columns: stochasticColumns(listArg(args, '--stochastic-k', DEFAULT_WINDOWS, (k) => Number.isInteger(k) && k >= 1)),
    category: d.category,
    start: startStochasticWorld,
    log: (line: string) => process.stderr.write(`${line}\n`)
  }
  const confirming = opts.columns.some((c) => c.confirmation === true)
  const perChange = { values: [...DEFAULT_RUNS_PER_CHANGE], n: intArg(args, '--stochastic-rpc-n', Math.min(opts.n, d.rpcN)) }
  const started = performance.now()
  const cells = await measureStochastic(opts)
  const perChangeCells = confirming && perChange.n > 0 ? await measurePerChange(opts, perChange) : []
  const seconds = (performance.now() - started) / 1000
  process.stderr.write(`stochastic: ${cells.length} cells and ${perChangeCells.length} runs_per_change cells in ${seconds.toFixed(1)} s\n`)
  const command = ['npm run bench -- --stochastic-only', ...args.filter((a) => a !== '--stochastic-only' && a !== '--no-readme')].join(' ')
  return {
    window: stochasticMarkdown(cells, opts, command),
    confirmation: confirming
      ? [confirmationMarkdown(cells, perChangeCells, opts, { command, seconds, perChange }), keptSection(opts.seed)].join('\n\n')
      : null
  }
}

async function main(args: string[]): Promise<void> {
  const code = await onNode24(args)
  if (code !== null) {
    process.exitCode = code
    return
  }
  const sections: { doc: string; markers: { start: string; end: string }; markdown: string }[] = []
  const only = args.includes('--stochastic-only') || args.includes('--detached-only')
  if (!only)
    sections.push({ doc: 'performance.md', markers: { start: README_START, end: README_END }, markdown: await timingSection(args) })
  if (!args.includes('--no-stochastic') && !args.includes('--detached-only')) {
    const s = await stochasticSections(args)
    sections.push({ doc: 'performance.md', markers: STOCHASTIC_MARKERS, markdown: ['### Stochastic agent', '', s.window].join('\n') })
    if (s.confirmation !== null)
      sections.push({
        doc: 'baseline.md',
        markers: CONFIRMATION_MARKERS,
        markdown: ['', '### Confirmation, measured', '', s.confirmation, ''].join('\n')
      })
    else process.stderr.write('docs/baseline.md: no column of the default window (--stochastic-k), its measured section not written\n')
  }
  if (!args.includes('--no-detached') && !args.includes('--stochastic-only')) {
    const { measureDetached } = await import('./bench-detached.js')
    sections.push({
      doc: 'performance.md',
      markers: DETACHED_MARKERS,
      markdown: ['### Detached waiting', '', await measureDetached()].join('\n')
    })
  }
  process.stdout.write(`${sections.map((s) => s.markdown).join('\n\n')}\n`)

  if (!args.includes('--no-readme')) {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
    for (const { doc, markers, markdown } of sections) {
      const written = writeReadme(resolve(root, 'docs', doc), markdown, markers)
      process.stderr.write(
        written
          ? `docs/${doc} updated between ${markers.start} and ${markers.end}\n`
          : `docs/${doc}: no ${markers.start} marker, not written\n`
      )
    }
  }
}

const scriptArg = process.argv.at(1)
const invokedDirectly = scriptArg !== undefined && resolve(scriptArg) === fileURLToPath(import.meta.url)
if (invokedDirectly) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exitCode = 1
  })
}
