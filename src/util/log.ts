import { stripUnsafeChars } from './text.js'

/** Where progress lines go. The shell passes @actions/core; tests pass a recorder
 * (__tests__/__fixtures__/recording-log.ts). */
export interface Log {
  info(line: string): void
  warning(line: string): void
  debug(line: string): void
}

const drop = (): void => {
  // A silent log drops every line.
}

export const silentLog: Log = { info: drop, warning: drop, debug: drop }

/**
 * A Log whose every line stays one line. Lines quote values from the service
 * (run ids, timestamps, category keys); a line break in one would start a new
 * log line, and a line that starts with `::` is a workflow command to the
 * runner. Line breaks and other control, bidi or zero-width characters
 * become spaces.
 */
export function singleLineLog(inner: Log): Log {
  const flat = stripUnsafeChars
  return {
    info: (line) => {
      inner.info(flat(line))
    },
    warning: (line) => {
      inner.warning(flat(line))
    },
    debug: (line) => {
      inner.debug(flat(line))
    }
  }
}
