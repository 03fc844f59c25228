/**
 * Runs the service emulator on 127.0.0.1 until SIGINT/SIGTERM.
 *
 *   npm run emulator -- --port 0                 (npm run passes --allow-loopback-targets)
 *   node build/scripts/emulator.js [--port N] [--allow-loopback-targets] [--faults SPEC] [--category-ms N]
 *                                  [--attacks-per-category N] [--agent-comply SPEC] [--agent-seed N] [--quiet]
 *
 * Once listening it prints one line holding the URL, the dev keys and the demo
 * model id (src/emulator/serve.ts, shared with `agent-security-gate emulator`). --faults takes e.g. 'seed=42,rate=0.2' (see src/emulator/faults.ts);
 * --agent-comply e.g. 'prompt_injection=0.3,jailbreak=1', the demo agent's
 * probability of complying per category (see src/emulator/demo-compliance.ts).
 */
import { checkAgentOptions, parseComplySpec } from '../src/emulator/demo-compliance.js'
import { parseFaultSpec } from '../src/emulator/faults.js'
import { serveEmulator } from '../src/emulator/serve.js'
import type { EmulatorOptions } from '../src/emulator/server.js'

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: emulator [--port N] [--allow-loopback-targets] [--faults SPEC] [--category-ms N] [--attacks-per-category N] [--agent-comply SPEC] [--agent-seed N] [--quiet]\n`
  )
  process.exit(2)
}

/** The command line as emulator options (usage() on anything it cannot take). */
function parseArgs(args: string[]): EmulatorOptions & { quiet: boolean } {
  const opts: EmulatorOptions & { quiet: boolean } = { port: 0, allowLoopbackTargets: false, faults: null, quiet: false }
  const number = (a: string, v: string, ok: (n: number) => boolean, what: string): number => {
    const n = Number(v)
    if (v.trim() === '' || !ok(n)) usage(`${a} must be ${what}`)
    return n
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    const value = (): string => {
      const v = args.at(++i)
      if (v === undefined) usage(`${a} needs a value`)
      return v
    }
    if (a === '--port') opts.port = number(a, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'an integer 0..65535')
    else if (a === '--allow-loopback-targets') opts.allowLoopbackTargets = true
    else if (a === '--faults') opts.faults = orUsage(() => parseFaultSpec(value()))
    else if (a === '--category-ms')
      opts.categoryDurationMs = number(a, value(), (n) => Number.isFinite(n) && n >= 0, 'a non-negative number')
    else if (a === '--attacks-per-category')
      opts.attacksPerCategory = number(a, value(), (n) => Number.isInteger(n) && n >= 1 && n <= 100, 'an integer 1..100')
    else if (a === '--agent-comply') opts.agentComply = orUsage(() => parseComplySpec(value()))
    else if (a === '--agent-seed')
      opts.agentSeed = number(a, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff, 'an integer 0..4294967295')
    else if (a === '--quiet') opts.quiet = true
    else usage(`unknown option ${a}`)
  }
  // the categories and probabilities of --agent-comply, checked as startEmulator checks them
  orUsage(() => checkAgentOptions(opts))
  return opts
}

function orUsage<T>(fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    usage((e as Error).message)
  }
}

async function main(): Promise<void> {
  const { quiet, ...options } = parseArgs(process.argv.slice(2))
  await serveEmulator(options, quiet, (line) => process.stdout.write(`${line}\n`))
}

main().catch((e: unknown) => {
  process.stderr.write(`emulator failed to start: ${(e as Error).message}\n`)
  process.exit(1)
})
