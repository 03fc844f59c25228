#!/usr/bin/env node
/** Entry point of the command line's bundle (`npx agent-security-gate`, dist/cli/index.js). */
import { describeBug } from '../util/errors.js'
import { runCli } from './program.js'
import { terminalOut } from './terminal-io.js'

/**
 * Exits once stdout and stderr have taken every byte written: a pipe can hold
 * back what does not fit in its buffer (a large JSON outcome), which an
 * immediate process.exit would cut.
 */
function exitFlushed(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
}

runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    // -1: a server (the emulator) keeps running until its signal.
    if (code >= 0) exitFlushed(code)
  },
  (err: unknown) => {
    terminalOut(process.stderr).write(`${describeBug(err)}\n`)
    exitFlushed(3)
  }
)
