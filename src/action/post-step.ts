/**
 * The post step: runs after the job's steps, even on cancellation. It stops
 * what the main step may have left running, with the same key that started
 * it, sending at most one cancel per run across both steps:
 * - the main step started a run and did not see it stop: cancel it, unless
 *   the main step's cancel was already accepted (then the run is stopping:
 *   its status is read once and said, no second cancel is sent);
 * - the main step was interrupted before it learnt the run id of a trigger
 *   it had sent: find the run by the recorded intent and cancel it only if it
 *   is provably ours (run-ownership.ts).
 * It reads only state its own main step saved in this job (state.ts
 * savedState): without the main step's seal it does nothing at all.
 */
import { ciHost } from './ci-host.js'
import { Deadline, type Clock } from '../util/clock.js'
import { describeFailure, ServiceError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import { readEventPayload } from '../github/publish.js'
import { readPipelineEvent } from '../pipeline/event.js'
import { envInputReader, isMaskableSecret, readInputs, type ActionInputs } from './inputs/read-inputs.js'
import type { ActionIO } from './io.js'
import type { ServiceApi } from '../service/service-api.js'
import {
  abandonedTrigger,
  cancelRequested,
  owedStatus,
  runLeftRunning,
  savedState,
  saveOwedStatus,
  stepBinding,
  unreadableOwedStatus,
  usingState
} from './saved-state.js'
import { scrubbingIO, stepSecrets } from './scrubbed-io.js'
import { stopAbandonedTrigger, stopRun } from '../gate/stop-run.js'
import { isTerminal } from '../service/contract/index.js'

export interface PostDeps {
  io: ActionIO
  clock: Clock
  makeApi(inputs: ActionInputs, deadline: Deadline): ServiceApi
}

/** The post step has about as long as the main step had after SIGINT. */
export const POST_SETTLE_MS = 5_000

export async function runPost(deps: PostDeps): Promise<void> {
  const state = savedState(deps.io, stepBinding(deps.io.env))
  if (state === null) {
    deps.io.log.info(
      'Post step: the main step saved no state in this job (it stopped before its first line, or the state reads as written by another step): nothing to stop, nothing to set.'
    )
    return
  }
  const io = usingState(deps.io, state)
  await stopWhatWasLeft({ ...deps, io })
  await settleOwedStatus({ ...deps, io })
}

/** The run the main step left running, or the run of a trigger it never heard back from: stopped. */
async function stopWhatWasLeft(deps: PostDeps): Promise<void> {
  const { io, clock } = deps
  const runId = runLeftRunning(io)
  const intent = runId === null ? abandonedTrigger(io) : null
  if (runId === null && intent === null) {
    io.log.debug('No run left running by the main step.')
    return
  }
  try {
    const rawKey = envInputReader(io.env)('api_key')
    if (isMaskableSecret(rawKey)) io.setSecret(rawKey)
    // The event too: on a deployment event the target may come from it, and the inputs are read as the main step read them.
    const event = readPipelineEvent(io.env.GITHUB_EVENT_NAME ?? '', await readEventPayload(io.env.GITHUB_EVENT_PATH), io.env)
    const inputs = readInputs(envInputReader(io.env), event, ciHost(io.env))
    const settleBy = Deadline.after(clock, POST_SETTLE_MS)
    const api = deps.makeApi(inputs, Deadline.after(clock, POST_SETTLE_MS * 2))
    if (runId === null) {
      // No run id: the step was checked above to have left a trigger intent.
      if (intent !== null)
        await stopAbandonedTrigger({ api, clock, log: io.log }, intent, {
          settleBy,
          why: 'the main step ended before its trigger was answered'
        })
      return
    }
    if (cancelRequested(io, runId)) {
      await reportStopping(api, io, runId)
      return
    }
    const stopped = await stopRun({ api, clock, log: io.log }, runId, {
      settleMs: POST_SETTLE_MS,
      why: 'the main step ended without seeing the run end'
    })
    // After a 409 (not running) stopRun has already said what the run's status reads.
    if (stopped.requested && !stopped.notRunning)
      io.log.info(`Post step: cancel of run ${runId} requested${stopped.settled ? '; it has stopped' : ''}.`)
  } catch (err) {
    io.log.warning(
      `Post step could not stop ${runId === null ? 'the run of the interrupted trigger' : `run ${runId}`}: ${describeFailure(err)}`
    )
  }
}

/** The commit status the main step owes (state.ts OwedStatus), set with the step's github_token. */
async function settleOwedStatus(deps: PostDeps): Promise<void> {
  const owed = owedStatus(deps.io)
  if (owed === null) {
    if (unreadableOwedStatus(deps.io))
      deps.io.log.warning(
        'Post step: the state owes a commit status that is not a failure or an error (a success is never owed, so it cannot have been saved by the main step): nothing set.'
      )
    return
  }
  const token = envInputReader(deps.io.env)('github_token')
  const { sha, context, state } = owed.status
  if (token === '') {
    deps.io.log.warning(`Post step: the commit status ${context} on ${sha.slice(0, 7)} is left pending: github_token is empty.`)
    return
  }
  const io = scrubbingIO(deps.io, stepSecrets(deps.io), { clock: deps.clock, signal: new AbortController().signal })
  if (await io.setCommitStatus({ githubToken: token, repo: owed.repo, status: owed.status })) {
    io.log.info(`Post step: commit status ${context} on ${sha.slice(0, 7)}: ${state} (the main step could not set it).`)
    saveOwedStatus(deps.io, null)
  }
}

/** The main step's cancel was accepted: one read says whether the run has stopped; no second cancel. */
async function reportStopping(api: ServiceApi, io: ActionIO, runId: string): Promise<void> {
  try {
    const run = await api.getRun(runId)
    const status = oneLine(run.status, 40)
    io.log.info(
      isTerminal(run.status)
        ? `Post step: run ${runId} has stopped (status ${status}) after the main step's cancel.`
        : `Post step: the main step's cancel of run ${runId} was accepted and the run is stopping (status ${status}); not sending a second cancel.`
    )
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    io.log.info(
      `Post step: the main step's cancel of run ${runId} was accepted; its status could not be read (${err.describe()}); not sending a second cancel.`
    )
  }
}
