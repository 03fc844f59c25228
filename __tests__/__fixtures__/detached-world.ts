/**
 * The world of the detached-waiting end-to-end tests: a pull request's or the
 * collector's step run in-process (runMain) against the emulator and the
 * GitHub stand-in, and the pending records a key holder (or an editor) writes.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { openState, stepBinding, usingState } from '../../src/action/saved-state.js'
import type { Emulator } from '../../src/emulator/server.js'
import { pendingMac } from '../../src/report/pending-seal.js'
import { pendingMarker, type PendingRecord } from '../../src/report/pending.js'
import { createClient } from '../../src/service/client.js'
import type { Clock } from '../../src/util/clock.js'
import { fakeActionIO, type FakeActionIO } from './fake-io.js'
import type { GitHubStandin } from './github-standin.js'
import { checkoutWith } from './workspace.js'

export const REPO = 'octo-org/agent-app'
export const TOKEN = 'ghs_detached_token_0123'
const repository = { full_name: REPO, default_branch: 'main' }

export const sha = (): string => randomBytes(20).toString('hex')

export interface StepEvent {
  name: string
  payload: unknown
  env: Record<string, string>
}

/** One step of the action (main only), as the runner would start it on `event`. */
export async function runStep(
  w: { emu: Emulator; gh: GitHubStandin },
  event: StepEvent,
  inputs: Record<string, string>,
  clock: Clock
): Promise<FakeActionIO> {
  const { emu, gh } = w
  const dir = mkdtempSync(join(tmpdir(), 'detached-'))
  const eventPath = join(dir, 'event.json')
  writeFileSync(eventPath, JSON.stringify(event.payload))
  const io = fakeActionIO(
    {
      api_key: emu.keys.full,
      base_url: emu.url,
      github_token: TOKEN,
      timeout_minutes: '45',
      model_id: emu.demoModelId,
      accepted_risks_file: 'off',
      ...inputs
    },
    {
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: event.name,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: REPO,
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: String(Math.floor(Math.random() * 1e6)),
        GITHUB_WORKSPACE: checkoutWith({}),
        RUNNER_TEMP: dir,
        ...event.env
      }
    }
  )
  // The state opened and sealed first thing, as main-entry.ts does: what the post step is handed (runPost reads nothing unsealed).
  await runMain({
    io: usingState(io, openState(io, stepBinding(io.env), 'nonce-of-the-step')),
    clock,
    signal: new AbortController().signal,
    random: () => 0.5,
    baselineStore: { save: async () => ({ saved: true, where: 'memory' }) },
    makeApi: (_inputs, deadline, opts) =>
      createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock, deadline, log: opts?.log, requestTimeoutMs: opts?.requestTimeoutMs })
  })
  return io
}

export function pullRequestEvent(number: number, head: string, base: string): StepEvent {
  return {
    name: 'pull_request',
    payload: {
      action: 'synchronize',
      number,
      pull_request: {
        number,
        head: { sha: head, ref: `f-${number}`, repo: { full_name: REPO } },
        base: { sha: base, ref: 'main', repo: { full_name: REPO } }
      },
      repository
    },
    env: { GITHUB_REF: `refs/pull/${number}/merge`, GITHUB_SHA: sha(), GITHUB_HEAD_REF: `f-${number}`, GITHUB_BASE_REF: 'main' }
  }
}

export const scheduleEvent = (main: string): StepEvent => ({
  name: 'schedule',
  payload: { schedule: '*/5 * * * *', repository },
  env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main }
})

/** Pull request `pull`'s comment holding a pending record, sealed with `apiKey` for `model` as a detached step seals it (a key holder). */
export function sealedComment(
  apiKey: string,
  model: string,
  pull: number,
  r: Omit<PendingRecord, 'mac'>,
  title = '### ⏳ assessing'
): string {
  const line = pendingMarker({ ...r, mac: pendingMac(apiKey, { ...r, model, pull }) })
  return `<!-- asas-gate:model=${model} -->\n${line}\n${title}`
}

/** Wait for the emulator to end the run (a state, not a sleep). */
export async function runEnded(emu: Emulator, runId: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    const run = emu.control.runs().find((r) => r.run_id === runId)
    if (run && run.status !== 'running') return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`run ${runId} did not end`)
}
