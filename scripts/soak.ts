/**
 * The soak as a command (the same harness as __tests__/soak/soak.test.ts):
 *
 *   npm run -s build:tools && node build/scripts/soak.js --runs 300 --rate 0.2 --seed 1
 *
 * Options: --runs N (default 100), --rate P (default 0.2), --seed N (default 1),
 * --concurrency N (lanes, default 12), --burst-length N (default 3),
 * --cooldown-ms N (least time between two triggers of a model, default 0),
 * --models-per-lane N (default 3), --json (print the whole report as JSON).
 * Prints the figures table (Markdown) and any violated check; exits 1 when a
 * check failed, 2 on a usage error.
 */
import { DEFAULT_SOAK_OPTIONS, formatFigures, runSoak, type SoakOptions } from '../__tests__/__fixtures__/soak-harness.js'

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: soak [--runs N] [--pairs N] [--rate P] [--seed N] [--concurrency N] [--burst-length N] [--cooldown-ms N] [--models-per-lane N] [--json]\n`
  )
  process.exit(2)
}

function parseArgs(args: string[]): { opts: Partial<SoakOptions>; json: boolean } {
  const opts: Partial<SoakOptions> = {}
  let json = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    const value = (): string => {
      const v = args.at(++i)
      if (v === undefined) usage(`${a} needs a value`)
      return v
    }
    const int = (min: number): number => {
      const raw = value()
      const n = Number(raw)
      if (raw.trim() === '' || !Number.isInteger(n) || n < min) usage(`${a} must be an integer >= ${min}, got '${raw}'`)
      return n
    }
    if (a === '--runs') opts.runs = int(1)
    else if (a === '--pairs') opts.pairs = int(0)
    else if (a === '--rate') {
      const raw = value()
      const p = Number(raw)
      if (raw.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) usage(`--rate must be a number between 0 and 1, got '${raw}'`)
      opts.rate = p
    } else if (a === '--seed') opts.seed = int(0)
    else if (a === '--concurrency') opts.concurrency = int(1)
    else if (a === '--burst-length') opts.burstLength = int(1)
    else if (a === '--cooldown-ms') opts.modelCooldownMs = int(0)
    else if (a === '--models-per-lane') opts.modelsPerLane = int(1)
    else if (a === '--json') json = true
    else if (a === '--help' || a === '-h') usage('Runs seeded gate runs through the emulator fault mode and prints the figures.')
    else usage(`unknown option ${a}`)
  }
  return { opts, json }
}

async function main(): Promise<void> {
  const { opts, json } = parseArgs(process.argv.slice(2))
  const all = { ...DEFAULT_SOAK_OPTIONS, ...opts }
  process.stderr.write(
    `soak: ${all.runs} gate runs, fault rate ${all.rate}, seed ${all.seed}, ${all.concurrency} lanes, burst length ${all.burstLength}\n`
  )
  const report = await runSoak({ ...opts, progress: (line) => process.stderr.write(`${line}\n`) })
  if (json) process.stdout.write(`${JSON.stringify({ ...report, options: { ...report.options, progress: undefined } }, null, 2)}\n`)
  else process.stdout.write(`${formatFigures(report)}\n`)
  if (report.problems.length > 0) {
    process.stderr.write(`\n${report.problems.length} check(s) failed:\n${report.problems.map((p) => `- ${p}`).join('\n')}\n`)
    process.exitCode = 1
  } else {
    process.stderr.write('soak: every check passed\n')
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`soak: ${(e as Error).stack ?? String(e)}\n`)
  process.exit(1)
})
