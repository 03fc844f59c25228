/**
 * Runs the service emulator on 127.0.0.1 until SIGINT/SIGTERM.
 *
 *   npm run emulator -- --port 0                 (npm run passes --allow-loopback-targets)
 *   node build/scripts/emulator.js [--port N] [--allow-loopback-targets] [--faults SPEC] [--category-ms N] [--quiet]
 *
 * Once listening it prints one line holding the URL, the dev keys and the demo
 * model id. --faults takes e.g. 'seed=42,rate=0.2' (see src/emulator/faults.ts).
 */
import { parseFaultSpec } from '../src/emulator/faults.js'
import { startEmulator } from '../src/emulator/server.js'
import type { FaultConfig } from '../src/emulator/faults.js'

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: emulator [--port N] [--allow-loopback-targets] [--faults SPEC] [--category-ms N] [--quiet]\n`)
  process.exit(2)
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  let port = 0
  let allowLoopbackTargets = false
  let faults: FaultConfig | null = null
  let categoryDurationMs: number | undefined
  let quiet = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    const value = (): string => {
      const v = args.at(++i)
      if (v === undefined) usage(`${a} needs a value`)
      return v
    }
    if (a === '--port') {
      port = Number(value())
      if (!Number.isInteger(port) || port < 0 || port > 65535) usage('--port must be an integer 0..65535')
    } else if (a === '--allow-loopback-targets') allowLoopbackTargets = true
    else if (a === '--faults') {
      try {
        faults = parseFaultSpec(value())
      } catch (e) {
        usage((e as Error).message)
      }
    } else if (a === '--category-ms') {
      categoryDurationMs = Number(value())
      if (!Number.isFinite(categoryDurationMs) || categoryDurationMs < 0) usage('--category-ms must be a non-negative number')
    } else if (a === '--quiet') quiet = true
    else usage(`unknown option ${a}`)
  }
  const emu = await startEmulator({
    port,
    allowLoopbackTargets,
    faults,
    categoryDurationMs,
    log: quiet ? undefined : (line) => process.stdout.write(`${line}\n`)
  })
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    if (!quiet) process.stdout.write(`Received ${signal}, stopping.\n`)
    emu.stop().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.on('SIGINT', () => {
    stop('SIGINT')
  })
  process.on('SIGTERM', () => {
    stop('SIGTERM')
  })
  const keys = Object.values(emu.keys).join(', ')
  process.stdout.write(`ASAS emulator listening on ${emu.url}  keys: ${keys}  demo model: ${emu.demoModelId}\n`)
  if (allowLoopbackTargets)
    process.stdout.write('Loopback targets are allowed (--allow-loopback-targets): local agents can be registered.\n')
  if (faults) process.stdout.write(`Fault mode on: seed=${faults.seed} rate=${faults.rate}\n`)
  if (!quiet) process.stdout.write(`Demo agent at ${emu.demoAgent.url}; admin endpoints under ${emu.url}/__emulator/\n`)
}

main().catch((e: unknown) => {
  process.stderr.write(`emulator failed to start: ${(e as Error).message}\n`)
  process.exit(1)
})
