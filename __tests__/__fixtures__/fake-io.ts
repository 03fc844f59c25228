/**
 * A fake ActionIO: the runner's side of a step recorded in memory (outputs,
 * state, summary, annotations, secrets, log, failure), so tests run the
 * shell (run(), runMain, runPost) in-process.
 */
import type { ActionIO } from '../../src/action/io.js'
import { recordingLog, type RecordedLine } from './recording-log.js'
import { openState, stepBinding } from '../../src/action/saved-state.js'

export interface FakeActionIO extends ActionIO {
  outputs: Record<string, string>
  /** The step state, shared with a later step when passed on (main -> post). */
  state: Map<string, string>
  summary: string[]
  annotations: { level: 'error' | 'warning' | 'notice'; message: string; title: string }[]
  secrets: string[]
  /** Every setFailed message, in order (empty when the step passed). */
  failures: string[]
  log: ActionIO['log'] & { lines: RecordedLine[] }
}

/** `inputs` become INPUT_* variables, as the runner sets them. */
export function fakeActionIO(
  inputs: Record<string, string>,
  opts: { env?: NodeJS.ProcessEnv; state?: Map<string, string> } = {}
): FakeActionIO {
  const env: NodeJS.ProcessEnv = { ...opts.env }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  const state = opts.state ?? new Map<string, string>()
  const io: FakeActionIO = {
    env,
    log: recordingLog(),
    outputs: {},
    state,
    summary: [],
    annotations: [],
    secrets: [],
    failures: [],
    setSecret: (value) => void io.secrets.push(value),
    setOutput: (name, value) => {
      io.outputs[name] = value
    },
    saveState: (name, value) => void state.set(name, value),
    getState: (name) => state.get(name) ?? '',
    annotate: (level, message, title) => void io.annotations.push({ level, message, title }),
    appendSummary: async (markdown) => void io.summary.push(markdown),
    setFailed: (message) => void io.failures.push(message)
  }
  return io
}

/** Every line the step logged at `level`. */
export function logged(io: FakeActionIO, level?: RecordedLine['level']): string[] {
  return io.log.lines.filter((l) => level === undefined || l.level === level).map((l) => l.line)
}

/**
 * The state of a main step as it opens it first thing (state.ts openState:
 * every key the post step reads, empty, then the seal made with the api_key of
 * `inputs` and the job of `env`), then `entries` saved: what its post step is handed.
 */
export function mainState(
  inputs: Record<string, string>,
  entries: Record<string, string> = {},
  env: NodeJS.ProcessEnv = {}
): Map<string, string> {
  const io = fakeActionIO(inputs, { env })
  const own = openState(io, stepBinding(io.env), 'nonce-of-the-test')
  for (const [name, value] of Object.entries(entries)) own.saveState(name, value)
  return io.state
}
