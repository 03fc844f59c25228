/**
 * Runs the bundled action (dist/index.js) the way the GitHub runner does:
 * each input as INPUT_<NAME> with action.yml's defaults filled in, the files
 * named by GITHUB_OUTPUT, GITHUB_STATE, GITHUB_STEP_SUMMARY and
 * GITHUB_EVENT_PATH, then the post step with the saved state as STATE_*.
 * Used by `npm run demo` and by the end-to-end tests.
 *
 * Each step's environment is layered in the runner's order (actions/runner:
 * ActionRunner.RunAsync, Handler.AddInputsToEnvironment,
 * NodeScriptActionHandler.RunAsync): the job's environment (what earlier
 * steps wrote to $GITHUB_ENV: `jobEnv`), then the action's own saved state
 * as STATE_*, then every input action.yml declares as INPUT_* (defaults
 * filled in), then the github and runner contexts' variables (GITHUB_*,
 * RUNNER_*), which no earlier step can change.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

/** The project's root, from build/scripts/ or scripts/. */
export const PROJECT_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'action.yml'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('action.yml not found above ' + fileURLToPath(import.meta.url))
    dir = up
  }
  return dir
})()

export interface RunOptions {
  /** Input values by name; unset ones get action.yml's default. */
  inputs: Record<string, string>
  /** The node binary (default: this process's). */
  nodePath?: string
  eventName?: string
  eventPayload?: unknown
  /** Extra environment the runner sets (e.g. GITHUB_API_URL), laid over everything else. */
  env?: Record<string, string>
  /**
   * The job's environment as earlier steps of the job left it (`echo X=v >> $GITHUB_ENV`):
   * laid under the state, the inputs and the runner's variables, as the runner does.
   */
  jobEnv?: Record<string, string>
  /** Value substituted for `${{ github.token }}`. */
  githubToken?: string
  /** Called with the child once spawned (e.g. to send SIGINT). */
  onSpawn?: (child: ChildProcess, output: { stdout: () => string }) => void
  /** Kill the step after this long (a safety net for tests; the action has its own timeouts). */
  killAfterMs?: number
  /** Also copy the steps' stdout to this process's stdout (for the demo). */
  echo?: boolean
  /**
   * The workspace (GITHUB_WORKSPACE), also the steps' working directory as on a
   * runner; files in it are written before the steps run. Default: a new
   * temporary directory as workspace, the project root as working directory.
   */
  workspace?: { files?: Record<string, string> }
}

export interface StepResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  state: Record<string, string>
  summary: string
}

export interface ActionRun {
  main: StepResult
  post: StepResult
  workDir: string
}

interface ActionYml {
  inputs: Partial<Record<string, { default?: string }>>
  runs: { using: string; main: string; post?: string }
}

export function readActionYml(): ActionYml {
  return parse(readFileSync(join(PROJECT_ROOT, 'action.yml'), 'utf8')) as ActionYml
}

/** Parse a GITHUB_OUTPUT / GITHUB_STATE file (`name<<DELIM\nvalue\nDELIM` or `name=value`). */
export function parseCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const [, name, delim] = heredoc
      const value: string[] = []
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i])
      out[name] = value.join('\n')
    } else if (line.includes('=')) {
      const at = line.indexOf('=')
      out[line.slice(0, at)] = line.slice(at + 1)
    }
  }
  return out
}

function inputEnv(yml: ActionYml, inputs: Partial<Record<string, string>>, githubToken: string): Record<string, string> {
  const env: Record<string, string> = {}
  const names = new Set([...Object.keys(yml.inputs), ...Object.keys(inputs)])
  for (const name of names) {
    let value = inputs[name] ?? yml.inputs[name]?.default ?? ''
    value = value.replace(/\$\{\{\s*github\.token\s*\}\}/g, githubToken)
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  }
  return env
}

function runStep(
  nodePath: string,
  script: string,
  env: Record<string, string>,
  files: { output: string; state: string; summary: string },
  opts: RunOptions
): Promise<StepResult> {
  for (const f of [files.output, files.state, files.summary]) writeFileSync(f, '')
  return new Promise((resolvePromise, reject) => {
    const child = spawn(nodePath, [script], {
      env,
      cwd: opts.workspace ? env.GITHUB_WORKSPACE : PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (opts.echo) process.stdout.write(d)
    })
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const killer = opts.killAfterMs ? setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs) : null
    opts.onSpawn?.(child, { stdout: () => stdout })
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (killer) clearTimeout(killer)
      resolvePromise({
        code,
        signal,
        stdout,
        stderr,
        outputs: parseCommandFile(readFileSync(files.output, 'utf8')),
        state: parseCommandFile(readFileSync(files.state, 'utf8')),
        summary: readFileSync(files.summary, 'utf8')
      })
    })
  })
}

/** The work folders of the runs not yet removed. */
const workDirs: string[] = []

/** Removes the work folder of every run so far: a test file that runs the action calls it in `afterAll`. */
export function removeActionWorkDirs(): void {
  for (const dir of workDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

interface StepFiles {
  output: string
  state: string
  summary: string
}

/** A work folder with the event file, RUNNER_TEMP and the workspace files; its environment layers (see the file's head). */
function prepareRun(opts: RunOptions): {
  workDir: string
  files: StepFiles
  stepEnv: (state: Record<string, string>) => Record<string, string>
} {
  const yml = readActionYml()
  const workDir = mkdtempSync(join(tmpdir(), 'asas-action-'))
  workDirs.push(workDir)
  const files = {
    output: join(workDir, 'output.txt'),
    state: join(workDir, 'state.txt'),
    summary: join(workDir, 'summary.md')
  }
  const eventPath = join(workDir, 'event.json')
  writeFileSync(eventPath, JSON.stringify(opts.eventPayload ?? {}))
  const runnerTemp = join(workDir, 'runner-temp')
  const jobEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? workDir,
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    ...(opts.jobEnv ?? {})
  }
  const runnerEnv: Record<string, string> = {
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_EVENT_NAME: opts.eventName ?? 'workflow_dispatch',
    GITHUB_REPOSITORY: 'octo-org/agent-app',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '1',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'gate',
    GITHUB_WORKSPACE: workDir,
    RUNNER_TEMP: runnerTemp
  }
  const inputs = inputEnv(yml, opts.inputs, opts.githubToken ?? '')
  mkdirSync(runnerTemp, { recursive: true })
  for (const [rel, text] of Object.entries(opts.workspace?.files ?? {})) {
    mkdirSync(dirname(join(workDir, rel)), { recursive: true })
    writeFileSync(join(workDir, rel), text)
  }
  const stepEnv = (state: Record<string, string>): Record<string, string> => {
    const stateEnv: Record<string, string> = {}
    for (const [k, v] of Object.entries(state)) stateEnv[`STATE_${k}`] = v
    return { ...jobEnv, ...stateEnv, ...inputs, ...runnerEnv, ...(opts.env ?? {}) }
  }
  return { workDir, files, stepEnv }
}

function postFiles(workDir: string, files: StepFiles): StepFiles {
  return {
    ...files,
    output: join(workDir, 'post-output.txt'),
    summary: join(workDir, 'post-summary.md'),
    state: join(workDir, 'post-state.txt')
  }
}

/** Run the main step, then the post step, as the runner would (its work folder stays until removeActionWorkDirs). */
export async function runAction(opts: RunOptions): Promise<ActionRun> {
  const yml = readActionYml()
  const { workDir, files, stepEnv } = prepareRun(opts)
  const nodePath = opts.nodePath ?? process.execPath
  const main = await runStep(nodePath, resolve(PROJECT_ROOT, yml.runs.main), stepEnv({}), files, opts)
  const post = await runStep(
    nodePath,
    resolve(PROJECT_ROOT, yml.runs.post ?? yml.runs.main),
    stepEnv(main.state),
    postFiles(workDir, files),
    { ...opts, onSpawn: undefined }
  )
  return { main, post, workDir }
}

/**
 * The post step alone, as the runner runs it when the main step died before
 * it saved any state (the runner registers the post step as the main step
 * starts): its STATE_* are whatever the job's environment holds.
 */
export async function runPostOnly(opts: RunOptions): Promise<StepResult> {
  const yml = readActionYml()
  const { workDir, files, stepEnv } = prepareRun(opts)
  return runStep(
    opts.nodePath ?? process.execPath,
    resolve(PROJECT_ROOT, yml.runs.post ?? yml.runs.main),
    stepEnv({}),
    postFiles(workDir, files),
    opts
  )
}
