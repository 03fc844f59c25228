/**
 * The main step's entry (src/index.ts runs runMainAction; the post step has
 * its own, post-entry.ts, so neither asks which step it is: an earlier step of
 * the job can set any STATE_* it likes). Builds the real edges (@actions/core,
 * the HTTP client, the clock, signals) and hands them to main.ts. Before
 * anything else it opens its state (state.ts openState) and refuses a job
 * environment it cannot trust (job-env.ts).
 *
 * `npx @github/local-action run . src/action/main-entry.ts .env` runs it locally.
 */
import { randomBytes } from 'node:crypto'
import { systemClock } from '../util/clock.js'
import { describeBug } from '../util/errors.js'
import { coreActionIO, type ActionIO } from './io.js'
import { runMain } from './main.js'
import { failedOutcome } from './outcome.js'
import { concludeAction } from './stages/conclude.js'
import { openState, stepBinding, usingState } from './saved-state.js'
import { refusedJobEnv } from './job-env.js'
import { abortOnSignals, serviceClients, type RunEdges } from './step-edges.js'

/** The main step. Never throws: a bug fails the step with its stack. */
export async function runMainAction(raw: ActionIO = coreActionIO(), edges: Partial<RunEdges> = {}): Promise<void> {
  // First thing, before anything that can fail or wait: every key the post step reads, then the seal.
  const state = openState(raw, stepBinding(raw.env), edges.nonce ?? randomBytes(16).toString('base64url'))
  const io = usingState(raw, state)
  const aborts = abortOnSignals(io)
  const clock = edges.clock ?? systemClock
  const makeApi = edges.makeApi ?? serviceClients(clock, io.log)
  try {
    const refused = refusedJobEnv(io.env)
    if (refused !== null) concludeAction(io, failedOutcome(refused))
    else await runMain({ io, clock, signal: aborts.signal, makeApi })
  } catch (err) {
    io.setFailed(describeBug(err))
  } finally {
    aborts.dispose()
  }
}

/** What `npx @github/local-action run . src/action/main-entry.ts` runs: the main step. */
export const run = runMainAction
