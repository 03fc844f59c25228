/**
 * The action's two steps, each its own entry point: src/index.ts runs the
 * main step (runMainAction), src/post.ts the post step (runPostAction), so
 * neither asks which step it is (an earlier step of the job can set any
 * STATE_* it likes). Builds the real edges (@actions/core, the HTTP client,
 * the clock, signals) and hands them to main.ts or post.ts. Before anything
 * else, the main step refuses a job environment it cannot trust (job-env.ts)
 * and opens its state (state.ts openState).
 *
 * `npx @github/local-action run . src/action/entry-points.ts .env` runs it locally.
 */
import { randomBytes } from 'node:crypto'
import { systemClock, type Clock, type Deadline } from '../util/clock.js'
import { describeBug } from '../util/errors.js'
import { createClient } from '../service/client.js'
import type { ServiceSettings } from './stages/stage-context.js'
import { coreActionIO, type ActionIO } from './io.js'
import { runMain, type MainDeps } from './main.js'
import { failedOutcome } from './outcome.js'
import { concludeAction } from './stages/conclude.js'
import { runPost } from './post-step.js'
import { openState, stepBinding, usingState } from './saved-state.js'
import { refusedJobEnv } from './job-env.js'
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

/** The main step. Never throws: a bug fails the step with its stack. */
export async function runMainAction(raw: ActionIO = coreActionIO(), edges: Partial<RunEdges> = {}): Promise<void> {
  // First thing, before anything that can fail or wait: every key the post step reads, then the seal.
  const state = openState(raw, stepBinding(raw.env), edges.nonce ?? randomBytes(16).toString('base64url'))
  const io = usingState(raw, state)
  const aborts = abortOnSignals(io)
  const clock = edges.clock ?? systemClock
  const makeApi = edges.makeApi ?? serviceClients(clock, io.log)
  try {
    const refused = refusedJobEnv(io.env)
    if (refused !== null) concludeAction(io, failedOutcome(refused))
    else await runMain({ io, clock, signal: aborts.signal, makeApi })
  } catch (err) {
    io.setFailed(describeBug(err))
  } finally {
    aborts.dispose()
  }
}

/** The post step. Never throws: a bug fails the step with its stack. */
export async function runPostAction(io: ActionIO = coreActionIO(), edges: Partial<RunEdges> = {}): Promise<void> {
  const aborts = abortOnSignals(io)
  const clock = edges.clock ?? systemClock
  const makeApi = edges.makeApi ?? serviceClients(clock, io.log)
  try {
    const refused = refusedJobEnv(io.env)
    if (refused !== null) io.log.warning(`Post step: nothing sent: ${refused}`)
    else await runPost({ io, clock, makeApi })
  } catch (err) {
    io.setFailed(describeBug(err))
  } finally {
    aborts.dispose()
  }
}

/** What `npx @github/local-action run . src/action/entry-points.ts` runs: the main step. */
export const run = runMainAction
