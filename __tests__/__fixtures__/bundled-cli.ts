/**
 * The bundled command line (dist/cli/index.js, after `npm run bundle`) run as
 * a user or a CI job runs it: over pipes (a CI log), or on a pseudo-terminal
 * (util-linux `script`, which gives the command a pty of its own; no
 * node-pty needed), with exactly the environment given (no variable of the
 * test's own process leaks in, CI included).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROJECT_ROOT } from './action-runner.js'

export const BUNDLED_CLI = join(PROJECT_ROOT, 'dist', 'cli', 'index.js')

export interface BundledRun {
  code: number | null
  /** Over pipes: stdout; on a pty: everything the terminal received (stdout and stderr, as the pty wrote them). */
  stdout: string
  /** Over pipes: stderr; on a pty: what `script` itself said (nothing, normally). */
  stderr: string
}

export interface BundledOptions {
  /** The whole environment (PATH is added); HOME defaults to the working folder. */
  env?: NodeJS.ProcessEnv
  /** The working folder (default: a fresh one, removed afterwards). */
  cwd?: string
  /** On a pseudo-terminal of `rows` x `cols` (default 50 x 160). */
  pty?: boolean
}

/** A word for sh: single-quoted. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

/** Runs `node dist/cli/index.js ...args`; resolves when it exits (killed after 60 s). */
export function runBundledCli(args: readonly string[], opts: BundledOptions = {}): Promise<BundledRun> {
  const cwd = opts.cwd ?? mkdtempSync(join(tmpdir(), 'bundled-cli-'))
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: cwd, ...opts.env }
  const command = [process.execPath, BUNDLED_CLI, ...args].map(shellWord).join(' ')
  // On a pty: a terminal of a known size (a fresh pty has 0 rows, where a live view draws nothing), then the command.
  const [file, argv]: [string, string[]] = opts.pty
    ? ['script', ['-qfec', `stty rows 50 cols 160 2>/dev/null; exec ${command}`, '/dev/null']]
    : [process.execPath, [BUNDLED_CLI, ...args]]
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => err.push(d))
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(kill)
      if (opts.cwd === undefined) rmSync(cwd, { recursive: true, force: true })
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })
    })
  })
}

/**
 * What a terminal must never receive from the command line: ESC (any escape
 * sequence), C0 controls but the line feed (BEL, backspace, CR, tab...), DEL,
 * C1 controls, bidi marks, embeddings, overrides and isolates, zero-width
 * characters, line and paragraph separators.
 */
export const TERMINAL_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

/** Each character of `text` the terminal must not receive, named with a little context. */
export function terminalUnsafe(text: string): string[] {
  return [...text.matchAll(TERMINAL_UNSAFE)].map(
    (m) =>
      `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 30))}`
  )
}

/** A pty's output as the program wrote it: the terminal's own CR LF (onlcr) back to LF. A CR of the program's stays. */
export function fromPty(text: string): string {
  return text.replace(/\r\n/g, '\n')
}
