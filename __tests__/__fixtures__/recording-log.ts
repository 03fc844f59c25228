import type { Log } from '../../src/util/log.js'

export interface RecordedLine {
  level: 'info' | 'warning' | 'debug'
  line: string
}

/** A Log that records its lines, in order, for assertions. */
export function recordingLog(): Log & { lines: RecordedLine[] } {
  const lines: RecordedLine[] = []
  return {
    lines,
    info: (line) => lines.push({ level: 'info', line }),
    warning: (line) => lines.push({ level: 'warning', line }),
    debug: (line) => lines.push({ level: 'debug', line })
  }
}
