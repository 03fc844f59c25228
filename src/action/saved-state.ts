/**
 * State shared between the main step and the post step of the action (as in
 * actions/checkout's state-helper): the trigger's recorded intent, the run
 * the main step started and has not seen stop, whether a cancel of it was
 * already accepted, and the commit status the main step still owes (set
 * pending, its final state not yet set).
 *
 * The post step acts only on state its own main step saved in this job. The
 * runner hands the post step the job's environment, in which any earlier step
 * can have written STATE_<anything> through $GITHUB_ENV, and lays over it only
 * the keys the action's main step saved (actions/runner ActionRunner.RunAsync:
 * "Apply action's intra-action state at last"). So the main step, first
 * thing, saves every key the post step reads (STATE_KEYS, empty), then a seal:
 * a random nonce and an HMAC of it, keyed by the step's api_key (a secret no
 * earlier step is given) and bound to the job's run, attempt and job id. The
 * post step reads nothing unless the seal verifies: a valid seal means the
 * main step got past saving every key, so each key holds the main step's own
 * value, never a forged one; no seal (or a forged one) means the main step
 * died before it triggered or set anything, and there is nothing to do.
 * The main step reads back only what it saved itself (openState), never the
 * environment. The seal trusts that no earlier step knows the api_key: both
 * steps refuse a job environment that carries it under another name
 * (job-env.ts apiKeyElsewhere), and whatever a forger seals, the post step
 * sets only a failing status (OWED_STATES: a success is never owed).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { TriggerIntent } from '../gate/run-ownership.js'
import type { CommitState, CommitStatus } from '../github/commit-status.js'
import type { RepoRef } from '../github/transport.js'
import { z } from 'zod'
import { envInputReader } from './inputs/common.js'

export interface StateStore {
  saveState(name: string, value: string): void
  getState(name: string): string
}

const RUN_ID = 'run_id'
const RUN_SETTLED = 'run_settled'
const TRIGGER_INTENT = 'trigger_intent'
const CANCEL_REQUESTED = 'cancel_requested'
const OWED_STATUS = 'owed_status'
const SEAL = 'seal'

/** Every key the post step may read: the main step saves each of them (empty) before its seal. */
export const STATE_KEYS: readonly string[] = [RUN_ID, RUN_SETTLED, TRIGGER_INTENT, CANCEL_REQUESTED, OWED_STATUS]

/** What a seal is made with: the step's api_key, and the job it is bound to. */
export interface StepBinding {
  key: string
  job: string
}

/** The binding of a step: its api_key input and GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, GITHUB_JOB (which the runner sets). */
export function stepBinding(env: NodeJS.ProcessEnv): StepBinding {
  return {
    key: envInputReader(env)('api_key'),
    job: [env.GITHUB_RUN_ID, env.GITHUB_RUN_ATTEMPT, env.GITHUB_JOB].map((v) => v ?? '').join('/')
  }
}

/** `<nonce>.<HMAC-SHA256 of the nonce and the job, keyed by the api_key>`; null without a key (nothing can be sealed). */
export function sealOf(binding: StepBinding, nonce: string): string | null {
  if (binding.key === '' || nonce === '') return null
  const mac = createHmac('sha256', binding.key).update(`agent-security-gate state\n${binding.job}\n${nonce}`).digest('base64url')
  return `${nonce}.${mac}`
}

/**
 * The main step's first act: every key the post step may read saved empty,
 * then the seal. Returns the step's store, which reads back only what this
 * step saved (never a STATE_* of the job's environment).
 */
export function openState(store: StateStore, binding: StepBinding, nonce: string): StateStore {
  const saved = new Map<string, string>()
  const own: StateStore = {
    saveState: (name, value) => {
      store.saveState(name, value)
      saved.set(name, value)
    },
    getState: (name) => saved.get(name) ?? ''
  }
  for (const key of STATE_KEYS) own.saveState(key, '')
  own.saveState(SEAL, sealOf(binding, nonce) ?? '')
  return own
}

/**
 * The post step's view of the state: the main step's saved values when its
 * seal verifies, else null (the main step saved nothing in this job, or what
 * reads as state was written by someone else). Reading a key the main step
 * does not save first is a bug.
 */
export function savedState(store: StateStore, binding: StepBinding): StateStore | null {
  const seal = store.getState(SEAL)
  const expected = sealOf(binding, seal.slice(0, Math.max(0, seal.indexOf('.'))))
  if (expected === null || !sameText(expected, seal)) return null
  return {
    saveState: (name, value) => {
      store.saveState(name, value)
    },
    getState: (name) => {
      if (!STATE_KEYS.includes(name)) throw new Error(`state key '${name}' is not one the main step saves before its seal`)
      return store.getState(name)
    }
  }
}

/** `io`, its state read and saved through `store` (the main step's own, or the post step's sealed one). */
export function usingState<T extends StateStore>(io: T, store: StateStore): T {
  return {
    ...io,
    saveState: (name: string, value: string) => {
      store.saveState(name, value)
    },
    getState: (name: string) => store.getState(name)
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Saved before each POST /run: what the post step needs to find the run a trigger it never heard back from created. */
export function saveTriggerIntent(state: StateStore, intent: TriggerIntent): void {
  state.saveState(TRIGGER_INTENT, JSON.stringify(intent))
}

/** What the main step saves as its trigger intent (run-ownership.ts TriggerIntent). */
const TriggerIntentState = z.object({
  modelId: z.string(),
  categories: z.array(z.string()),
  baseline: z.array(z.string()).nullable(),
  sentAt: z.number()
})

/** `raw` read as JSON of `schema`, or null (empty, not JSON, another shape): state that does not read as what was saved is none. */
function readSaved<T>(raw: string, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The recorded intent of a trigger whose run id the main step never saved, or null. */
export function abandonedTrigger(state: StateStore): TriggerIntent | null {
  if (state.getState(RUN_ID) !== '') return null
  return readSaved(state.getState(TRIGGER_INTENT), TriggerIntentState)
}

export function saveRunStarted(state: StateStore, runId: string): void {
  state.saveState(RUN_ID, runId)
  state.saveState(RUN_SETTLED, 'false')
}

/** The run this step started (whether or not it settled), or null: what the step spent of the budget. */
export function startedRun(state: StateStore): string | null {
  const runId = state.getState(RUN_ID)
  return runId === '' ? null : runId
}

export function saveRunSettled(state: StateStore): void {
  state.saveState(RUN_SETTLED, 'true')
}

/** A cancel of `runId` was accepted (202): the run is stopping, and no second cancel is to be sent. */
export function saveCancelRequested(state: StateStore, runId: string): void {
  state.saveState(CANCEL_REQUESTED, runId)
}

export function cancelRequested(state: StateStore, runId: string): boolean {
  return state.getState(CANCEL_REQUESTED) === runId
}

/** The run the post step must see stopped, or null when there is none. */
export function runLeftRunning(state: StateStore): string | null {
  const runId = state.getState(RUN_ID)
  return runId !== '' && state.getState(RUN_SETTLED) !== 'true' ? runId : null
}

/**
 * A commit status the main step set pending and has not yet ended: the state
 * it means to end in (error until a result is decided). The post step sets
 * it when the main step could not (a cancelled job: its GitHub calls stop at
 * the signal; a lost write), so a status never stays pending. Only a state
 * that fails the commit is ever owed (OWED_STATES): a success the main step
 * could not set is owed as error, so state that reaches the post step, sealed
 * or forged, can never make a commit pass.
 */
export interface OwedStatus {
  repo: RepoRef
  status: CommitStatus & { state: OwedState }
}

/** What the status is to end in if the main step does not set it; null: nothing is owed (it was set). */
export function saveOwedStatus(state: StateStore, owed: OwedStatus | null): void {
  state.saveState(OWED_STATUS, owed === null ? '' : JSON.stringify(owed))
}

const text = z.string().min(1)

/** The states a status may be owed in: never pending (nobody decided it), never success (the post step never passes a commit). */
export const OWED_STATES = ['failure', 'error'] as const satisfies readonly CommitState[]
export type OwedState = (typeof OWED_STATES)[number]

/** A final state owed that fails the commit. */
const OwedStatusState = z.object({
  repo: z.object({ owner: text, repo: text }),
  status: z.object({
    sha: text,
    state: z.enum(OWED_STATES),
    context: text,
    description: text,
    targetUrl: z.string().nullable(),
    owner: z.string().nullable()
  })
})

/** The status the main step left owed, or null (none, or state that does not read as one: a success owed among them). */
export function owedStatus(state: StateStore): OwedStatus | null {
  return readSaved(state.getState(OWED_STATUS), OwedStatusState)
}

/** Something is saved as owed that does not read as a failure or error owed (a success, another shape): the post step refuses it. */
export function unreadableOwedStatus(state: StateStore): boolean {
  return state.getState(OWED_STATUS) !== '' && owedStatus(state) === null
}
