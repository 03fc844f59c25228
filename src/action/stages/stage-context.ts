/**
 * What every stage of the main step is given: the runner's I/O behind the
 * scrubbing edge, the clock, the cancellation signal, and the factories of
 * the service client and the baseline store.
 */
import { actionsCacheStore, type BaselineStore } from '../../evidence/record-store.js'
import type { RunProgress } from '../../gate/wait-for-run.js'
import type { ServiceApi } from '../../service/service-api.js'
import type { Clock, Deadline } from '../../util/clock.js'
import type { InputNamer } from '../../util/errors.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { ActionIO } from '../io.js'
import type { Log } from '../../util/log.js'
import { scrubbedBaselineStore, scrubbingIO, stepSecrets, type ScrubbedIO } from '../scrubbed-io.js'

/** The edges of the main step (the runner's I/O, HTTP, clock, signals), passed in so tests run it in-process. */
/** What a service client is made of: the service's address and the key (every mode's inputs hold both). */
export type ServiceSettings = Pick<ActionInputs, 'baseUrl' | 'apiKey'>

export interface MainDeps {
  io: ActionIO
  clock: Clock
  signal: AbortSignal
  random?: () => number
  /**
   * requestTimeoutMs: per request, when a call needs longer than the client's default (the registration probe);
   * log: where the client logs its retries (the step's scrubbed log);
   * secrets: the step's secrets, scrubbed from the service's texts before they are clipped.
   */
  makeApi(
    inputs: ServiceSettings,
    deadline: Deadline,
    opts?: { requestTimeoutMs?: number; log?: Log; secrets?: readonly string[] }
  ): ServiceApi
  /** Where baselines are kept (default: the Actions cache). */
  baselineStore?: BaselineStore
  /** Told every status read of the run (the command line's live view). */
  onProgress?: (progress: RunProgress) => void
  /** How a configuration error names an input (default: input 'name'; the command line: its flag). */
  nameInput?: InputNamer
}

export interface StepContext {
  /** Every sink of the step, scrubbed of `secrets`. */
  io: ScrubbedIO
  /** The step's secrets, for the report models (scrubbed before markdown escaping can split a secret). */
  secrets: readonly string[]
  clock: Clock
  /** Aborts when the job is cancelled. */
  signal: AbortSignal
  random?: () => number
  /** A service client whose retries stop at `deadline`, which logs through the scrubbed log and scrubs `secrets` from the service's texts before clipping them. */
  makeApi(inputs: ServiceSettings, deadline: Deadline, opts?: { requestTimeoutMs?: number }): ServiceApi
  /** Saves through the scrubbing edge (scrubbedBaselineStore). */
  baselineStore: BaselineStore
  /** Told every status read of the run: a shell's live view (the action logs progress lines instead). */
  onProgress?: (progress: RunProgress) => void
  /** How a configuration error names an input. */
  nameInput?: InputNamer
}

/** The context of a main step: its secrets masked on the runner first, then every sink behind the scrubbing edge. */
export function stepContext(deps: MainDeps): StepContext {
  const secrets = stepSecrets(deps.io)
  const io = scrubbingIO(deps.io, secrets, { clock: deps.clock, signal: deps.signal, random: deps.random })
  return {
    io,
    secrets,
    clock: deps.clock,
    signal: deps.signal,
    random: deps.random,
    makeApi: (inputs, deadline, opts) => deps.makeApi(inputs, deadline, { ...opts, log: io.log, secrets }),
    baselineStore: scrubbedBaselineStore(deps.baselineStore ?? actionsCacheStore({ env: io.env, log: io.log }), secrets, io.log),
    onProgress: deps.onProgress,
    nameInput: deps.nameInput
  }
}
