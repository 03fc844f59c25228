/**
 * The command line's edge to the terminal, and the runner's side of a step
 * (ActionIO) on a terminal or another CI.
 *
 * Every byte of text the command line prints goes through one rule, the
 * log's (stripUnsafeChars: no escape sequence, no C0 or C1 control, no bidi
 * or zero-width character), line by line with the line breaks kept: the
 * program gets its stdout and stderr only as TerminalOut (runCli wraps them
 * first thing), so no path can print around it. Only the live view draws on
 * the terminal behind it (`terminal`), its own cursor moves around text that
 * went through the same rule.
 *
 * The ActionIO: the log goes to the view, the report files to --out (else a
 * fresh private folder), the state stays in memory. Outputs, the job summary
 * and annotations have no place here: the command line renders the step's
 * outcome itself (render.ts), and a failure the step reports before it ends
 * is printed.
 */
import type { ActionIO } from '../action/io.js'
import { stripUnsafeChars } from '../util/text.js'
import type { RunProgress } from '../gate/wait-for-run.js'
import type { Log } from '../util/log.js'

/** What the command line shows of a run: its log, and the live view's progress. */
export interface RunView {
  log: Log
  /** For the live view only (undefined otherwise: the gate then logs its progress lines). */
  onProgress?: (progress: RunProgress) => void
  /** Clears the live view for good, before the result is printed. */
  stop(): void
}

/** Where the command line writes: the process's stdout or stderr, or a test's sink. */
export interface ViewStream {
  write(text: string): unknown
  isTTY?: boolean
}

/** A stream every write to which is terminal-safe text. */
export interface TerminalOut {
  write(text: string): void
  /** The terminal behind it, for the live view's drawing only; null when it is not a terminal. */
  readonly terminal: NodeJS.WriteStream | null
}

/** `text` with each line through the one rule (stripUnsafeChars), its line breaks kept. */
export function terminalText(text: string): string {
  return text.split('\n').map(stripUnsafeChars).join('\n')
}

/** A terminal (the process's stdout or stderr on a TTY), for the live view. */
function isTerminal(stream: ViewStream): stream is NodeJS.WriteStream {
  return stream.isTTY === true
}

/** `stream` as the command line writes to it: every write terminal-safe. */
export function terminalOut(stream: ViewStream): TerminalOut {
  return {
    write: (text) => {
      stream.write(terminalText(text))
    },
    terminal: isTerminal(stream) ? stream : null
  }
}

export function terminalIO(env: NodeJS.ProcessEnv, view: RunView, stderr: TerminalOut, reportDir: string | undefined): ActionIO {
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
