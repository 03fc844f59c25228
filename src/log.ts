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
