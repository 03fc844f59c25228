#!/usr/bin/env node
/** Entry point of the command line's bundle (`npx agent-security-gate`, dist/cli/index.js). */
import { describeBug } from '../util/errors.js'
import { runCli } from './program.js'

runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    // -1: a server (the emulator) keeps running until its signal.
    if (code >= 0) process.exit(code)
  },
  (err: unknown) => {
    process.stderr.write(`${describeBug(err)}\n`)
    process.exit(3)
  }
)
