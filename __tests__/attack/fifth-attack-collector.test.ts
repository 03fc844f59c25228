/**
 * Fifth attack (issue 33 item 6) on detached waiting, in-process like
 * __tests__/e2e/detached-e2e.test.ts (its helpers copied): the collector
 * promises "the policy is the default branch's: nothing the record says
 * changes the threshold, the categories or what is accepted"
 * (docs/pr-pipelines.md#what-the-collector-trusts). A full attached
 * assessment with the collector's inputs assesses every category it names.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import type { Clock } from '../../src/util/clock.js'
import { fakeActionIO, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'
import { checkoutWith } from '../__fixtures__/workspace.js'

const REPO = 'octo-org/agent-app'
const TOKEN = 'ghs_detached_token_0123'
const repository = { full_name: REPO, default_branch: 'main' }
/** The fake clocks start now: the emulator stamps runs with its own clock. */
let T0 = 0

let emu: Emulator
let gh: GitHubStandin
beforeEach(async () => {
  T0 = Date.now()
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 5, attacksPerCategory: 1 })
})
afterEach(async () => {
  await gh.stop()
  await stopStarted(emu)
})

const standin = (): Promise<GitHubStandin> => startGitHubStandin({ repository: REPO })

const sha = (): string => randomBytes(20).toString('hex')

interface StepRun {
  io: FakeActionIO
}

async function step(
  event: { name: string; payload: unknown; env: Record<string, string> },
  inputs: Record<string, string>,
  clock: Clock
): Promise<StepRun> {
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
  await runMain({
    io,
    clock,
    signal: new AbortController().signal,
    random: () => 0.5,
    baselineStore: { save: async () => ({ saved: true, where: 'memory' }) },
    makeApi: (_inputs, deadline, opts) =>
      createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock, deadline, log: opts?.log, requestTimeoutMs: opts?.requestTimeoutMs })
  })
  return { io }
}

function pullRequest(number: number, head: string, base: string) {
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

const schedule = (main: string) => ({
  name: 'schedule',
  payload: { schedule: '*/5 * * * *', repository },
  env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: main }
})

/** A repository with main and one open pull request #n at a fresh head. */
function world(n = 7): { base: string; head: string } {
  const base = sha()
  const head = sha()
  gh.addCommit(base, null, ['README.md'])
  gh.addCommit(head, base, ['agent/prompt.md'])
  gh.seedPull({ number: n, headSha: head, commits: [head] })
  return { base, head }
}

const statusesOf = (commit: string): [string, string][] =>
  gh.git.statuses.filter((s) => s.sha === commit).map((s) => [s.state, s.description ?? ''])
const lastState = (commit: string): string | undefined => statusesOf(commit).at(-1)?.[0]

/** Wait for the emulator to end the run (a state, not a sleep). */
async function runEnded(runId: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    const run = emu.control.runs().find((r) => r.run_id === runId)
    if (run && run.status !== 'running') return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`run ${runId} did not end`)
}

describe('fifth attack: detached waiting', () => {
  it("the collector judges with the default branch's categories, not the narrow ones the pull request's own step ran", async () => {
    gh = await standin()
    const { base, head } = world()
    const clock = fakeClock(T0)
    // The pull request's copy of the workflow narrows its detached step to one category the agent passes.
    const { io } = await step(pullRequest(7, head, base), { wait: 'detached', categories: 'excessive_agency' }, clock)
    expect(io.outputs).toMatchObject({ result: 'pending', assessments_spent: '1' })
    await runEnded(io.outputs.run_id)
    // The default branch's collector asks for prompt_injection too (the demo agent is vulnerable to it).
    await step(schedule(base), { mode: 'collect', categories: 'prompt_injection,excessive_agency' }, clock)
    expect(statusesOf(head).length).toBeGreaterThan(1)
    expect(lastState(head)).not.toBe('success')
  }, 60_000)

  it("a record naming a finished run of the right model with fewer categories than the collector's policy never passes", async () => {
    gh = await standin()
    const { base, head } = world()
    const clock = fakeClock(T0)
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
    const narrow = await api.triggerRun({ model_id: emu.demoModelId, categories: ['excessive_agency'] })
    await runEnded(narrow.run_id)
    const marker = `<!-- asas-gate:model=${emu.demoModelId} -->`
    gh.seedComment(7, `${marker}\n<!-- asas-gate:pending=1;run=${narrow.run_id};commit=${head};at=- -->\n### assessing`)
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(statusesOf(head).length).toBeGreaterThan(0)
    expect(lastState(head)).not.toBe('success')
  }, 60_000)
})
