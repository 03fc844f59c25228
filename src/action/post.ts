/**
 * The post step: runs after the job's steps, even on cancellation. If the
 * main step started a run and could not see it stop (killed, or its cancel
 * failed), cancel it here, with the same key that started it.
 */
import { Deadline, type Clock } from '../util/clock.js'
import { describeFailure } from '../util/errors.js'
import { envInputReader, readInputs, type ActionInputs } from './inputs.js'
import type { ActionIO } from './io.js'
import type { ServiceApi } from '../service/service-api.js'
import { runLeftRunning } from './state.js'
import { stopRun } from '../gate/stop-run.js'

export interface PostDeps {
  io: ActionIO
  clock: Clock
  makeApi(inputs: ActionInputs, deadline: Deadline): ServiceApi
}

/** The post step has about as long as the main step had after SIGINT. */
export const POST_SETTLE_MS = 5_000

export async function runPost(deps: PostDeps): Promise<void> {
  const { io, clock } = deps
  const runId = runLeftRunning(io)
  if (runId === null) {
    io.log.debug('No run left running by the main step.')
    return
  }
  try {
    const rawKey = envInputReader(io.env)('api_key')
    if (rawKey !== '') io.setSecret(rawKey)
    const inputs = readInputs(envInputReader(io.env))
    const api = deps.makeApi(inputs, Deadline.after(clock, POST_SETTLE_MS * 2))
    const stopped = await stopRun({ api, clock, log: io.log }, runId, {
      settleMs: POST_SETTLE_MS,
      why: 'the main step ended before the run did'
    })
    // After a 409 (not running) stopRun has already said what the run's status reads.
    if (stopped.requested && !stopped.notRunning) io.log.info(`Post step: cancel of run ${runId} requested${stopped.settled ? '; it has stopped' : ''}.`)
  } catch (err) {
    io.log.warning(`Post step could not cancel run ${runId}: ${describeFailure(err)}`)
  }
}
