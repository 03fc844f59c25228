/**
 * `assess` and `validate`: the action's main step (runStep: the same stages
 * and decisions) over the command line's edges: the options as the step's
 * inputs, the terminal's view, SIGINT cancelling the run once as in the
 * action (abortOnSignals), then the outcome rendered: the verdict, the
 * blocking findings and the reports, or JSON; the exit code of its result.
 */
import { rmdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { ciHost } from '../action/ci-host.js'
import { resolve } from 'node:path'
import { envInputReader, readInputs } from '../action/inputs/read-inputs.js'
import { runStep, type MainDeps } from '../action/main.js'
import type { StepOutcome } from '../action/outcome.js'
import { abortOnSignals, serviceClients } from '../action/step-edges.js'
import { stepContext } from '../action/stages/stage-context.js'
import type { BaselineStore } from '../evidence/record-store.js'
import { systemClock, type Clock, type Deadline } from '../util/clock.js'
import { ConfigError, type InputNamer } from '../util/errors.js'
import { freshPrivateDir, unusableDir } from '../util/private-files.js'
import { makeScrubber } from '../util/redact.js'
import { runView, wantsLiveView } from './live-view.js'
import type { OverviewReader } from '../overview/read.js'
import { flagOf, inputEnv, type CliOption } from './options.js'
import { EXIT_USAGE, exitCode, humanSummary, outcomeJson } from './render.js'
import { terminalIO, terminalOut, type TerminalOut, type ViewStream } from './terminal-io.js'

/** The command line's edges, passed in so tests run it in-process. */
export interface CliEdges {
  env: NodeJS.ProcessEnv
  stdout: ViewStream
  stderr: ViewStream
  clock?: Clock
  makeApi?: MainDeps['makeApi']
  baselineStore?: BaselineStore
  /** The overview's service reader (tests); default the HTTP client (overview/command.ts). */
  makeReader?: (baseUrl: string, apiKey: string, deadline: Deadline) => OverviewReader
}

/** The edges as the program writes to them: stdout and stderr terminal-safe (terminal-io.ts). */
export type TerminalEdges = Omit<CliEdges, 'stdout' | 'stderr'> & { stdout: TerminalOut; stderr: TerminalOut }

export function terminalEdges(edges: CliEdges): TerminalEdges {
  return { ...edges, stdout: terminalOut(edges.stdout), stderr: terminalOut(edges.stderr) }
}

export interface StepCommand {
  /** The options the command takes, and the inputs it fixes (mode). */
  options: readonly CliOption[]
  fixed: Record<string, string>
  title: string
}

/** What every step command takes beside its inputs. */
export interface CommonFlags {
  format: 'text' | 'json'
  out?: string
  verbose?: boolean
  /** The live view on a terminal even in CI. */
  live?: boolean
}

/** How the command line names an input in a configuration error: its flag (and its variable). */
export function flagNamer(options: readonly CliOption[]): InputNamer {
  return (input) => {
    const option = options.find((o) => o.input === input)
    return option === undefined ? `input '${input}'` : `option '${flagOf(input)}'${option.env ? ` (or ${option.env})` : ''}`
  }
}

/**
 * Where the report files go, settled before any request: --out (a folder this
 * user may write to, created when missing), else a fresh private folder of
 * this run. `refusal`: the configuration line naming --out.
 */
async function reportDirOf(out: string | undefined): Promise<{ dir: string; fresh: boolean } | { refusal: string }> {
  if (out === undefined) return { dir: await freshPrivateDir(tmpdir(), 'asas-gate-'), fresh: true }
  const dir = resolve(out)
  const why = await unusableDir(dir)
  return why === null ? { dir, fresh: false } : { refusal: `error: option '--out': ${why}` }
}

/** Run one step command; resolves to its exit code. */
export async function runStepCommand(command: StepCommand, given: Record<string, unknown>, edges: TerminalEdges): Promise<number> {
  const flags = given as unknown as CommonFlags
  const env = inputEnv(command.options, given, edges.env, command.fixed)
  try {
    readInputs(envInputReader(env), null, ciHost(env))
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    edges.stderr.write(`error: ${flagNamer(command.options)(err.input)}: ${err.message}\n`)
    return EXIT_USAGE
  }
  const reports = await reportDirOf(flags.out)
  if ('refusal' in reports) {
    edges.stderr.write(`${reports.refusal}\n`)
    return EXIT_USAGE
  }
  try {
    return await runChecked(command, flags, env, edges, reports.dir)
  } finally {
    // A fresh folder nothing was written to is not left behind (rmdir removes only an empty one).
    if (reports.fresh) await rmdir(reports.dir).catch(() => undefined)
  }
}

/** The step once its options are read and its report folder settled. */
async function runChecked(
  command: StepCommand,
  flags: CommonFlags,
  env: NodeJS.ProcessEnv,
  edges: TerminalEdges,
  reportDir: string
): Promise<number> {
  const clock = edges.clock ?? systemClock
  const live = wantsLiveView(edges.stderr, edges.env, flags)
  const view = runView(edges.stderr, clock, { live, verbose: flags.verbose === true, title: command.title })
  const io = terminalIO(env, view, edges.stderr, reportDir)
  const aborts = abortOnSignals(io, EXIT_USAGE)
  let outcome: StepOutcome
  try {
    const makeApi = edges.makeApi ?? serviceClients(clock, io.log)
    const ctx = stepContext({
      io,
      clock,
      signal: aborts.signal,
      makeApi,
      baselineStore: edges.baselineStore,
      onProgress: view.onProgress,
      nameInput: flagNamer(command.options)
    })
    outcome = await runStep(ctx)
    const scrub = makeScrubber(ctx.secrets)
    view.stop()
    const human = `${humanSummary(outcome).map(scrub).join('\n')}\n`
    if (flags.format === 'json') {
      edges.stderr.write(human)
      edges.stdout.write(`${scrub(outcomeJson(outcome))}\n`)
    } else edges.stdout.write(human)
  } finally {
    view.stop()
    aborts.dispose()
  }
  return exitCode(outcome)
}
