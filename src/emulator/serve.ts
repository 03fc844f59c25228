/**
 * The emulator as a foreground program, until SIGINT or SIGTERM: started,
 * announced in one line holding the URL, the dev keys and the demo model id,
 * stopped on the first signal. Both ways of starting it share it:
 * `npm run emulator` (scripts/emulator.ts) and `agent-security-gate emulator`.
 */
import { startEmulator, type EmulatorOptions } from './server.js'

/** Start the emulator and keep it serving; `write` prints a line (`quiet`: only the announcement). Resolves once it listens. */
export async function serveEmulator(options: EmulatorOptions, quiet: boolean, write: (line: string) => void): Promise<void> {
  const emu = await startEmulator({ ...options, log: quiet ? undefined : write })
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    if (!quiet) write(`Received ${signal}, stopping.`)
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
  write(`ASAS emulator listening on ${emu.url}  keys: ${keys}  demo model: ${emu.demoModelId}`)
  if (options.allowLoopbackTargets) write('Loopback targets are allowed (--allow-loopback-targets): local agents can be registered.')
  if (options.faults) write(`Fault mode on: seed=${options.faults.seed} rate=${options.faults.rate}`)
  const agent = emu.demoAgentState()
  if (Object.keys(agent.comply_probability).length > 0)
    write(
      `Demo agent complies by chance: ${Object.entries(agent.comply_probability)
        .map(([c, p]) => `${c}=${p}`)
        .join(', ')} (seed ${agent.seed})`
    )
  if (!quiet) write(`Demo agent at ${emu.demoAgent.url}; admin endpoints under ${emu.url}/__emulator/`)
}
