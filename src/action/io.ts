/**
 * The runner's side of a step (outputs, state, summary, annotations, failure),
 * as one interface the shell is written against, and its real implementation
 * on @actions/core. Tests pass a fake ActionIO and run the steps in-process.
 */
import * as core from '@actions/core'
import { singleLineLog, type Log } from '../util/log.js'
import type { OutputName } from './outcome.js'
import type { StateStore } from './saved-state.js'

export interface ActionIO extends StateStore {
  env: NodeJS.ProcessEnv
  /**
   * Where the report files go (default: RUNNER_TEMP/asas-gate, else the
   * system's temporary directory; the command line passes --out or a fresh
   * private folder of its own).
   */
  reportDir?: string
  log: Log
  setSecret(value: string): void
  /** One of the step's outputs (rendered from its outcome: outcome.ts). */
  setOutput(name: OutputName, value: string): void
  /** An annotation (shown on the run and the PR's checks). */
  annotate(level: 'error' | 'warning' | 'notice', message: string, title: string): void
  /** Append markdown to the job summary (GITHUB_STEP_SUMMARY). */
  appendSummary(markdown: string): Promise<void>
  setFailed(message: string): void
}

/** The ActionIO of a real runner, backed by @actions/core. */
export function coreActionIO(): ActionIO {
  return {
    env: process.env,
    log: singleLineLog({
      info: core.info,
      warning: (l) => {
        core.warning(l)
      },
      debug: core.debug
    }),
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
