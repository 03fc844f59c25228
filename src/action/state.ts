/**
 * State shared between the main step and the post step of one bundle (as in
 * actions/checkout's state-helper): whether this is the post step, and the run
 * the main step started and has not seen stop.
 */
export interface StateStore {
  saveState(name: string, value: string): void
  getState(name: string): string
}

const IS_POST = 'isPost'
const RUN_ID = 'run_id'
const RUN_SETTLED = 'run_settled'

/** True in the post step: the main step marks the state before doing anything else. */
export function isPostStep(state: StateStore): boolean {
  return state.getState(IS_POST) === 'true'
}

export function markMainStarted(state: StateStore): void {
  state.saveState(IS_POST, 'true')
}

export function saveRunStarted(state: StateStore, runId: string): void {
  state.saveState(RUN_ID, runId)
  state.saveState(RUN_SETTLED, 'false')
}

export function saveRunSettled(state: StateStore): void {
  state.saveState(RUN_SETTLED, 'true')
}

/** The run the post step must cancel, or null when there is none. */
export function runLeftRunning(state: StateStore): string | null {
  const runId = state.getState(RUN_ID)
  return runId !== '' && state.getState(RUN_SETTLED) !== 'true' ? runId : null
}
