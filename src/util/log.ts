/** Where progress lines go. The shell passes @actions/core; tests pass a recorder. */
export interface Log {
  info(line: string): void
  warning(line: string): void
  debug(line: string): void
}

export const silentLog: Log = { info: () => {}, warning: () => {}, debug: () => {} }

/** A Log that records lines, for tests and for collecting notes. */
export function recordingLog(): Log & { lines: Array<{ level: 'info' | 'warning' | 'debug'; line: string }> } {
  const lines: Array<{ level: 'info' | 'warning' | 'debug'; line: string }> = []
  return {
    lines,
    info: (line) => lines.push({ level: 'info', line }),
    warning: (line) => lines.push({ level: 'warning', line }),
    debug: (line) => lines.push({ level: 'debug', line })
  }
}

/**
 * A Log whose every line stays one line. Lines quote values from the service
 * (run ids, timestamps, category keys); a line break in one would start a new
 * log line, and a line that starts with `::` is a workflow command to the
 * runner. Line breaks and other control characters become spaces.
 */
export function singleLineLog(inner: Log): Log {
  const flat = (line: string): string => line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
  return {
    info: (line) => inner.info(flat(line)),
    warning: (line) => inner.warning(flat(line)),
    debug: (line) => inner.debug(flat(line))
  }
}
