/**
 * The runner's side of a step (ActionIO) on a terminal or another CI: the
 * log goes to the view, the report files to --out, the state stays in
 * memory. Outputs, the job summary and annotations have no place here: the
 * command line renders the step's outcome itself (render.ts), and a failure
 * the step reports before it ends is printed.
 */
import type { ActionIO } from '../action/io.js'
import type { RunView, ViewStream } from './live-view.js'

export function terminalIO(env: NodeJS.ProcessEnv, view: RunView, stderr: ViewStream, reportDir: string | undefined): ActionIO {
  const state = new Map<string, string>()
  return {
    env,
    reportDir,
    log: view.log,
    setSecret: () => undefined,
    setOutput: () => undefined,
    saveState: (name, value) => void state.set(name, value),
    getState: (name) => state.get(name) ?? '',
    annotate: () => undefined,
    appendSummary: () => Promise.resolve(),
    setFailed: (message) => {
      view.stop()
      stderr.write(`error: ${message}\n`)
    }
  }
}
