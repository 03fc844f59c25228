/**
 * `agent-security-gate`: the command line (commander). `assess` runs the
 * gate, `validate` the replay of the findings marked fixed, both the
 * action's main step over the terminal's edges (run-step.ts); `emulator`
 * serves the local emulator as `npm run emulator` does. A mistake on the
 * command line (an unknown option, a bad value) exits 3 with one line
 * naming the option.
 */
import { Command, CommanderError, Option } from 'commander'
import { ACTION_VERSION } from '../action/version.js'
import { ASSESS_OPTIONS, defaultOf, flagOf, VALIDATE_OPTIONS, type CliOption } from './options.js'
import { EXIT_USAGE } from './render.js'
import { overviewCommand } from '../overview/command.js'
import { runStepCommand, terminalEdges, type CliEdges, type StepCommand, type TerminalEdges } from './run-step.js'

const ASSESS_EXAMPLES = `
Examples:
  npm run emulator    # in another terminal: prints the URL, a dev key and the demo model
  export ASAS_BASE_URL=http://127.0.0.1:8080 ASAS_API_KEY=asas_dev_full_...
  agent-security-gate assess --model-id mdl_demo
  agent-security-gate assess --endpoint-url https://preview.example.com/chat --response-field output.text \\
      --profile-file agent-profile.yml --min-severity medium --out reports/
  agent-security-gate assess --model-id mdl_demo --fail-on new --baseline-run-id run_123 --format json > outcome.json

Exit codes: 0 pass (or skipped), 1 fail, 2 incomplete, 3 error (configuration, service, no verdict).`

const VALIDATE_EXAMPLES = `
Examples:
  agent-security-gate validate --model-id mdl_demo --max-runs 5

Exit codes: 0 every fix verified, 1 a finding still reproduces (or one was not validated), 3 error.`

function addInputOptions(cmd: Command, options: readonly CliOption[]): Command {
  for (const o of options) {
    const shown = o.env === undefined ? defaultOf(o.input) : `$${o.env}`
    cmd.addOption(new Option(`${flagOf(o.input)} <${o.value ?? 'value'}>`, `${o.help}${shown === undefined ? '' : ` (default: ${shown})`}`))
  }
  return cmd
    .addOption(new Option('--format <format>', 'text, or json: the outcome as JSON on stdout').choices(['text', 'json']).default('text'))
    .option('--out <dir>', 'write the report files there (report JSON, SARIF, JUnit, markdown); default: a fresh private folder per run')
    .option('--verbose', 'debug lines too')
    .option('--live', 'draw the live view on a terminal even in CI (CI set): by default CI gets one line per change')
}

function stepCommand(program: Command, name: string, spec: StepCommand, edges: TerminalEdges, result: { code: number }): void {
  const cmd = program.command(name)
  addInputOptions(cmd, spec.options)
  cmd.action(async (given: Record<string, unknown>) => {
    result.code = await runStepCommand(spec, given, edges)
  })
  cmd.addHelpText('after', name === 'assess' ? ASSESS_EXAMPLES : VALIDATE_EXAMPLES)
}

function emulatorCommand(program: Command, edges: TerminalEdges, result: { code: number }): void {
  program
    .command('emulator')
    .description('serve the local emulator of the service (as npm run emulator does) until Ctrl-C')
    .option('--port <n>', 'the port (0: any free one)', '0')
    .option('--no-allow-loopback-targets', 'refuse targets on this machine (allowed by default, as npm run emulator does)')
    .option('--faults <spec>', "seeded fault injection, e.g. 'seed=42,rate=0.2'")
    .option('--category-ms <n>', 'how long each category of a run takes')
    .option('--quiet', 'only the line that says where it listens')
    .action(async (o: { port: string; allowLoopbackTargets: boolean; faults?: string; categoryMs?: string; quiet?: boolean }) => {
      const port = Number(o.port)
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new CommanderError(EXIT_USAGE, 'cli.port', `error: option '--port': '${o.port}' is not a port (an integer 0 to 65535)`)
      const categoryDurationMs = o.categoryMs === undefined ? undefined : Number(o.categoryMs)
      if (categoryDurationMs !== undefined && !(Number.isFinite(categoryDurationMs) && categoryDurationMs >= 0))
        throw new CommanderError(
          EXIT_USAGE,
          'cli.categoryMs',
          `error: option '--category-ms': '${o.categoryMs}' is not a non-negative number of milliseconds`
        )
      const { parseFaultSpec } = await import('../emulator/faults.js')
      const { serveEmulator } = await import('../emulator/serve.js')
      const faults = (() => {
        try {
          return o.faults === undefined ? null : parseFaultSpec(o.faults)
        } catch (err) {
          throw new CommanderError(EXIT_USAGE, 'cli.faults', `error: option '--faults': ${(err as Error).message}`)
        }
      })()
      await serveEmulator({ port, allowLoopbackTargets: o.allowLoopbackTargets, faults, categoryDurationMs }, o.quiet === true, (line) => {
        edges.stdout.write(`${line}\n`)
      })
      result.code = -1
    })
}

/** The program over `edges`. `result.code` is set by the command that ran. */
export function cliProgram(edges: TerminalEdges, result: { code: number }): Command {
  const program = new Command('agent-security-gate')
    .description('Gate changes to an AI agent on a security assessment by the Agent Security Assessment Service.')
    .version(ACTION_VERSION)
    .showHelpAfterError('(add --help for the options and examples)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => {
        edges.stdout.write(s)
      },
      writeErr: (s) => {
        edges.stderr.write(s)
      }
    })
  stepCommand(program, 'assess', { options: ASSESS_OPTIONS, fixed: { mode: 'gate' }, title: 'Assessing' }, edges, result)
  program.commands.at(-1)?.description('run the gate: assess the agent, decide pass, fail, incomplete or error')
  stepCommand(program, 'validate', { options: VALIDATE_OPTIONS, fixed: { mode: 'validate' }, title: 'Validating fixes' }, edges, result)
  program.commands.at(-1)?.description('re-run the attacks of the findings marked fixed (the nightly replay)')
  overviewCommand(program, edges, result)
  emulatorCommand(program, edges, result)
  return program
}

/**
 * Run the command line on `argv` (without node and the script). Resolves to
 * the exit code, or -1 while a server it started keeps the process running.
 * Everything it prints, to stdout and stderr, is terminal-safe text (terminal-io.ts).
 */
export async function runCli(argv: readonly string[], raw: CliEdges): Promise<number> {
  const edges = terminalEdges(raw)
  const result = { code: EXIT_USAGE }
  const program = cliProgram(edges, result)
  if (argv.length === 0) {
    program.outputHelp({ error: true })
    return EXIT_USAGE
  }
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return result.code
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0
    if (err.code.startsWith('cli.')) edges.stderr.write(`${err.message}\n`)
    return EXIT_USAGE
  }
}
