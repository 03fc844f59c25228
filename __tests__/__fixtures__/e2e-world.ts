/**
 * A world for one end-to-end case: its own emulator and GitHub stand-in. A
 * case that owns its world sees no other case's runs, models, comments,
 * request log or switches, so the cases of a file can run concurrently
 * (`it.concurrent`): a gate run spends most of its time waiting on its poll
 * schedule, not on the CPU.
 */
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server.js'
import { startGitHubStandin, type GitHubStandin } from './github-standin.js'
import { stopStarted } from './teardown.js'

export interface World {
  /** The demo agent starts with its default vulnerabilities (one high and one medium finding). */
  emu: Emulator
  gh: GitHubStandin
}

/** Runs `body` in a fresh world (loopback targets allowed), stopped afterwards whatever happens. */
export async function inWorld(body: (w: World) => Promise<void>, emulator: EmulatorOptions = {}): Promise<void> {
  let emu: Emulator | undefined
  let gh: GitHubStandin | undefined
  try {
    emu = await startEmulator({ allowLoopbackTargets: true, ...emulator })
    gh = await startGitHubStandin()
    await body({ emu, gh })
  } finally {
    await stopStarted(emu, gh)
  }
}
