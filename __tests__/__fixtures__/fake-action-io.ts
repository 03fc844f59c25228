/**
 * An in-memory ActionIO for running the main and post steps in-process:
 * inputs as INPUT_* in env, state as a map carried from one step to the
 * next (as the runner does with GITHUB_STATE and STATE_*), outputs, summary,
 * annotations and the failure recorded.
 */
import type { ActionIO } from '../../src/action/io.js'
import { recordingLog } from './recording-log.js'

export interface FakeActionIO extends ActionIO {
  log: ReturnType<typeof recordingLog>
  state: Map<string, string>
  outputs: Record<string, string>
  summary: string[]
  failed: string[]
  secrets: string[]
}

export function fakeActionIO(inputs: Record<string, string>, state: Map<string, string> = new Map()): FakeActionIO {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v
  const io: FakeActionIO = {
    env,
    log: recordingLog(),
    state,
    outputs: {},
    summary: [],
    failed: [],
    secrets: [],
    setSecret: (v) => void io.secrets.push(v),
    setOutput: (name, value) => void (io.outputs[name] = value),
    saveState: (name, value) => void state.set(name, value),
    getState: (name) => state.get(name) ?? '',
    annotate: () => {},
    appendSummary: async (md) => void io.summary.push(md),
    setFailed: (m) => void io.failed.push(m)
  }
  return io
}
