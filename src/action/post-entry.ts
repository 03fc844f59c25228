/**
 * The post step's entry (src/post.ts runs runPostAction; the main step's is
 * main-entry.ts): builds the real edges (@actions/core, the HTTP client, the
 * clock, signals) and runs post-step.ts, after refusing a job environment it
 * cannot trust (job-env.ts). It imports the post step and the edges it shares
 * with the main step (step-edges.ts), never the main step's stages.
 */
import { systemClock } from '../util/clock.js'
import { describeBug } from '../util/errors.js'
import { coreActionIO, type ActionIO } from './io.js'
import { runPost } from './post-step.js'
import { refusedJobEnv } from './job-env.js'
import { abortOnSignals, serviceClients, type RunEdges } from './step-edges.js'

/** The post step. Never throws: a bug fails the step with its stack. */
export async function runPostAction(io: ActionIO = coreActionIO(), edges: Partial<RunEdges> = {}): Promise<void> {
  const aborts = abortOnSignals(io)
  const clock = edges.clock ?? systemClock
  const makeApi = edges.makeApi ?? serviceClients(clock, io.log)
  try {
    const refused = refusedJobEnv(io.env)
    if (refused !== null) io.log.warning(`Post step: nothing sent: ${refused}`)
    else await runPost({ io, clock, makeApi })
  } catch (err) {
    io.setFailed(describeBug(err))
  } finally {
    aborts.dispose()
  }
}
