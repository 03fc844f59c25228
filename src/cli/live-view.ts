/**
 * What the command line shows while the step runs. On a terminal (outside
 * CI, or with --live): a live view redrawn in place (log-update) of the
 * run's categories done of planned, elapsed and estimated time, with the
 * step's log lines printed above it. Otherwise (a CI log, or CI set): the
 * step's log lines only, one per state change, with no control characters
 * (the gate logs its progress itself when no live view takes it). Every
 * line, the live view's text too, is terminal-safe (terminal-io.ts).
 */
import { createLogUpdate } from 'log-update'
import type { RunProgress } from '../gate/wait-for-run.js'
import type { Clock } from '../util/clock.js'
import { singleLineLog } from '../util/log.js'
import { formatDuration } from '../util/text.js'
import { terminalText, type RunView, type TerminalOut } from './terminal-io.js'

export type { RunView }

/**
 * Whether the environment says a CI system runs the command (CI set, and not
 * `false` or `0`, as CI systems and most command lines read it): there the
 * terminal stays quiet, one line per change, unless --live.
 */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase()
  return ci !== '' && ci !== 'false' && ci !== '0'
}

/**
 * Whether the live view is drawn: on a terminal only, when --live asks for it,
 * or else outside CI and when stdout is not the JSON.
 */
export function wantsLiveView(stream: TerminalOut, env: NodeJS.ProcessEnv, flags: { live?: boolean; format: 'text' | 'json' }): boolean {
  return stream.terminal !== null && (flags.live === true || (!inCi(env) && flags.format !== 'json'))
}

/** `verbose`: debug lines too. */
export function runView(stream: TerminalOut, clock: Clock, opts: { live: boolean; verbose: boolean; title: string }): RunView {
  return opts.live && stream.terminal !== null ? liveView(stream, stream.terminal, clock, opts) : lineView(stream, opts.verbose)
}

function lineView(stream: TerminalOut, verbose: boolean): RunView {
  const line = (prefix: string) => (text: string) => {
    stream.write(`${prefix}${text}\n`)
  }
  return {
    log: singleLineLog({ info: line(''), warning: line('warning: '), debug: verbose ? line('debug: ') : () => undefined }),
    stop: () => undefined
  }
}

/** The live view's text: the step, then the run's bar and times. Pure, for tests. */
export function liveText(title: string, progress: RunProgress | null, nowMs: number, startedMs: number, frame: number): string {
  const spinner = '|/-\\'[frame % 4]
  if (progress === null) return `${spinner} ${title}: preparing (${formatDuration(nowMs - startedMs)})`
  const { planned, completed } = progress
  const width = 24
  const filled = planned > 0 ? Math.round((completed / planned) * width) : 0
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`
  const left =
    progress.estimatedEndMs === null
      ? 'estimating the time left'
      : `about ${formatDuration(Math.max(0, progress.estimatedEndMs - nowMs))} left`
  const done = planned > 0 ? `${completed}/${planned} categories done` : 'progress not reported yet'
  return [
    `${spinner} ${title}: run ${progress.runId} ${progress.status}`,
    `  ${bar} ${done}`,
    `  ${formatDuration(nowMs - startedMs)} elapsed, ${left}`,
    '  findings by severity: when the run ends (the service reports them then); Ctrl-C cancels the run'
  ].join('\n')
}

function liveView(stream: TerminalOut, terminal: NodeJS.WriteStream, clock: Clock, opts: { verbose: boolean; title: string }): RunView {
  // log-update draws on the terminal itself (its cursor moves); its text goes through the rule first.
  const update = createLogUpdate(terminal, { showCursor: true })
  const startedMs = clock.now()
  let progress: RunProgress | null = null
  let frame = 0
  const draw = (): void => {
    update(terminalText(liveText(opts.title, progress, clock.now(), startedMs, frame++)))
  }
  const timer = setInterval(draw, 250)
  timer.unref()
  const above = (prefix: string) => (text: string) => {
    update.clear()
    stream.write(`${prefix}${text}\n`)
    draw()
  }
  draw()
  return {
    log: singleLineLog({ info: above(''), warning: above('warning: '), debug: opts.verbose ? above('debug: ') : () => undefined }),
    onProgress: (p) => {
      progress = p
      draw()
    },
    stop: () => {
      clearInterval(timer)
      update.clear()
      update.done()
    }
  }
}
