/**
 * State shared between the main step and the post step of one bundle (as in
 * actions/checkout's state-helper): whether this is the post step, the
 * trigger's recorded intent, the run the main step started and has not seen
 * stop, whether a cancel of it was already accepted, and the commit status
 * the main step still owes (set pending, its final state not yet set).
 */
import type { TriggerIntent } from '../gate/run-ownership.js'
import { COMMIT_STATES, type CommitStatus } from '../github/commit-status.js'
import type { RepoRef } from '../github/transport.js'

export interface StateStore {
  saveState(name: string, value: string): void
  getState(name: string): string
}

const IS_POST = 'isPost'
const RUN_ID = 'run_id'
const RUN_SETTLED = 'run_settled'
const TRIGGER_INTENT = 'trigger_intent'
const CANCEL_REQUESTED = 'cancel_requested'
const OWED_STATUS = 'owed_status'

/** True in the post step: the main step marks the state before doing anything else. */
export function isPostStep(state: StateStore): boolean {
  return state.getState(IS_POST) === 'true'
}

export function markMainStarted(state: StateStore): void {
  state.saveState(IS_POST, 'true')
}

/** Saved before each POST /run: what the post step needs to find the run a trigger it never heard back from created. */
export function saveTriggerIntent(state: StateStore, intent: TriggerIntent): void {
  state.saveState(TRIGGER_INTENT, JSON.stringify(intent))
}

/** The recorded intent of a trigger whose run id the main step never saved, or null. */
export function abandonedTrigger(state: StateStore): TriggerIntent | null {
  if (state.getState(RUN_ID) !== '') return null
  const raw = state.getState(TRIGGER_INTENT)
  if (raw === '') return null
  try {
    const v: unknown = JSON.parse(raw)
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null
    const { modelId, categories, baseline, sentAt } = v as Record<string, unknown>
    if (typeof modelId !== 'string' || typeof sentAt !== 'number' || !Array.isArray(categories)) return null
    if (!categories.every((c) => typeof c === 'string')) return null
    if (baseline !== null && !(Array.isArray(baseline) && baseline.every((b) => typeof b === 'string'))) return null
    return { modelId, categories, baseline, sentAt }
  } catch {
    return null
  }
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
 * the signal; a lost write), so a status never stays pending.
 */
export interface OwedStatus {
  repo: RepoRef
  status: CommitStatus
}

/** What the status is to end in if the main step does not set it; null: nothing is owed (it was set). */
export function saveOwedStatus(state: StateStore, owed: OwedStatus | null): void {
  state.saveState(OWED_STATUS, owed === null ? '' : JSON.stringify(owed))
}

/** The status the main step left owed, or null (none, or state that does not read as one). */
export function owedStatus(state: StateStore): OwedStatus | null {
  const raw = state.getState(OWED_STATUS)
  if (raw === '') return null
  try {
    const v: unknown = JSON.parse(raw)
    if (typeof v !== 'object' || v === null) return null
    const { repo, status } = v as Record<string, unknown>
    if (typeof repo !== 'object' || repo === null || typeof status !== 'object' || status === null) return null
    const { owner, repo: name } = repo as Record<string, unknown>
    const st = status as Record<string, unknown>
    const texts = [owner, name, st.sha, st.context, st.description]
    if (!texts.every((t) => typeof t === 'string' && t !== '')) return null
    if (!(COMMIT_STATES as readonly unknown[]).includes(st.state) || st.state === 'pending') return null
    if (st.targetUrl !== null && typeof st.targetUrl !== 'string') return null
    if (st.owner !== null && typeof st.owner !== 'string') return null
    return { repo: { owner: owner as string, repo: name as string }, status: status as CommitStatus }
  } catch {
    return null
  }
}
