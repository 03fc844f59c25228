/**
 * The action's `run()`, for both the main and the post step (as
 * actions/checkout does): the main step marks the state, so the post step
 * knows it is the post step. Builds the real edges (@actions/core, the HTTP
 * client, the clock, signals) and hands them to main.ts or post.ts.
 *
 * `npx @github/local-action run . src/action/run.ts .env` runs it locally.
 */
import { systemClock, type Deadline } from '../util/clock.js'
import { describeBug } from '../util/errors.js'
import { createClient } from '../service/client.js'
import type { ActionInputs } from './inputs.js'
import { coreActionIO, type ActionIO } from './io.js'
import { runMain } from './main.js'
import { runPost } from './post.js'
import { isPostStep, markMainStarted } from './state.js'

/** Abort on the runner's SIGINT (and SIGTERM 7.5 s later). Returns the controller and a function that removes the listeners. */
function abortOnSignals(io: ActionIO): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) io.log.warning(`Received ${signal}: the job is being cancelled; stopping what this step started.`)
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

/** Run the step this process was started for. Never throws: a bug fails the step with its stack. */
export async function run(io: ActionIO = coreActionIO()): Promise<void> {
  const aborts = abortOnSignals(io)
  const makeApi = (inputs: ActionInputs, deadline: Deadline, opts?: { requestTimeoutMs?: number }) =>
    createClient({ baseUrl: inputs.baseUrl, apiKey: inputs.apiKey, clock: systemClock, deadline, log: io.log, requestTimeoutMs: opts?.requestTimeoutMs })
  try {
    if (isPostStep(io)) {
      await runPost({ io, clock: systemClock, makeApi })
    } else {
      markMainStarted(io)
      await runMain({ io, clock: systemClock, signal: aborts.signal, makeApi })
    }
  } catch (err) {
    io.setFailed(describeBug(err))
  } finally {
    aborts.dispose()
  }
}
