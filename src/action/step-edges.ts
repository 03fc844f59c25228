/**
 * The edges both steps build for themselves (src/action/main-entry.ts, the main
 * step; src/action/post-entry.ts, the post step; the command line's
 * run-step.ts): aborting on the runner's signals and the real service client.
 * Imports nothing of either step's stages, so the post step's bundle stays the
 * post step's.
 */
import { type Clock, type Deadline } from '../util/clock.js'
import { createClient } from '../service/client.js'
import type { ServiceSettings } from './stages/stage-context.js'
import type { ActionIO } from './io.js'
import type { MainDeps } from './stages/stage-context.js'
import { failedOutcome } from './outcome.js'
import { concludeAction } from './stages/conclude.js'
import type { Log } from '../util/log.js'

/** The edges run() builds itself unless given (tests pass a fake clock and a fake ServiceApi). */
export interface RunEdges {
  clock: Clock
  makeApi: MainDeps['makeApi']
  /** The nonce of the main step's seal (default: 16 random bytes). */
  nonce: string
}

/**
 * After SIGINT the runner sends SIGTERM 7.5 s later and SIGKILL 2.5 s after
 * that. The step stops its run within ABORT_SETTLE_MS (5 s); if anything still
 * holds it this long after the first signal, it fails and exits at once, so a
 * cancelled job ends non-zero before the SIGKILL and never with a pass.
 */
export const ABORT_EXIT_MS = 8_500

/**
 * Abort on SIGINT (the runner's cancellation, Ctrl-C in a terminal) and
 * SIGTERM: the first signal aborts, so the step stops its run once; a step
 * still held ABORT_EXIT_MS later ends with `exitCode`. Returns the signal and
 * a function that removes the listeners.
 */
export function abortOnSignals(io: ActionIO, exitCode = 1): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) {
      io.log.warning(`Received ${signal}: the job is being cancelled; stopping what this step started.`)
      setTimeout(() => {
        const line = `The step was cancelled and could not finish within ${ABORT_EXIT_MS / 1000} s of ${signal}; exiting before the runner kills it.`
        concludeAction(io, failedOutcome(line))
        process.exit(exitCode)
      }, ABORT_EXIT_MS).unref()
    }
    controller.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  }
}

/** The real service client of the step's inputs (base_url, api_key), logging to `log` unless told otherwise. */
export function serviceClients(clock: Clock, log: Log): MainDeps['makeApi'] {
  return (inputs: ServiceSettings, deadline: Deadline, opts?: { requestTimeoutMs?: number; log?: Log; secrets?: readonly string[] }) =>
    createClient({
      baseUrl: inputs.baseUrl,
      apiKey: inputs.apiKey,
      secrets: opts?.secrets,
      clock,
      deadline,
      log: opts?.log ?? log,
      requestTimeoutMs: opts?.requestTimeoutMs
    })
}
