/**
 * Entry point of the bundle, for both the main and the post step (as
 * actions/checkout does): the main step marks the state, so the post step
 * knows it is the post step. Builds the real edges (@actions/core, HTTP
 * client, clock, signals) and hands them to main.ts or post.ts.
 */
import * as core from '@actions/core'
import { systemClock, type Deadline } from './clock.js'
import { createClient } from './client.js'
import type { ActionInputs } from './inputs.js'
import { singleLineLog } from './log.js'
import type { ActionIO } from './main.js'
import { isPostStep, markMainStarted } from './state.js'

function actionIO(): ActionIO {
  return {
    env: process.env,
    log: singleLineLog({ info: core.info, warning: (l) => core.warning(l), debug: core.debug }),
    setSecret: core.setSecret,
    setOutput: core.setOutput,
    saveState: core.saveState,
    getState: core.getState,
    annotate: (level, message, title) => {
      if (level === 'error') core.error(message, { title })
      else if (level === 'warning') core.warning(message, { title })
      else core.notice(message, { title })
    },
    appendSummary: async (markdown) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return
      await core.summary.addRaw(markdown, true).write()
    },
    setFailed: core.setFailed
  }
}

async function entry(): Promise<void> {
  const io = actionIO()
  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) io.log.warning(`Received ${signal}: the job is being cancelled; stopping the run this step started.`)
    controller.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  const makeApi = (inputs: ActionInputs, deadline: Deadline) =>
    createClient({ baseUrl: inputs.baseUrl, apiKey: inputs.apiKey, clock: systemClock, deadline, log: io.log })

  if (isPostStep(io)) {
    const { runPost } = await import('./post.js')
    await runPost({ io, clock: systemClock, makeApi })
  } else {
    markMainStarted(io)
    const { runMain } = await import('./main.js')
    await runMain({ io, clock: systemClock, signal: controller.signal, makeApi })
  }
}

entry()
  .catch((err: unknown) => {
    core.setFailed(`Unexpected error (a bug in this action, please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  })
  .finally(() => {
    // Exit promptly: a lingering socket must not hold the step open.
    process.exit(process.exitCode ?? 0)
  })
