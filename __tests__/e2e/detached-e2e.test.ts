/**
 * Detached waiting end to end, in-process (runMain) against the emulator and
 * the GitHub stand-in: a pull request's step with wait: detached triggers,
 * sets the commit status pending and ends; the collector (mode: collect, a
 * schedule on the default branch) finishes the run with the attached step's
 * stages. One test per fail-closed rule of docs/pr-pipelines.md#detached-waiting:
 * a forged pending record (another author; an owned comment naming another
 * model's run), a run that never ends, a collector that crashes midway and
 * runs again, two collectors at once, a schedule that never runs.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { openState, stepBinding, usingState } from '../../src/action/saved-state.js'
import { runPost } from '../../src/action/post-step.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { DEFAULT_VULNERABLE } from '../../src/emulator/taxonomy.js'
import { createClient } from '../../src/service/client.js'
import type { Clock } from '../../src/util/clock.js'
import { fakeActionIO, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'
import { checkoutWith } from '../__fixtures__/workspace.js'
import { sealedComment } from '../__fixtures__/detached-world.js'

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

/** While set, GitHub refuses comment writes (a collector that dies after the status, before the comment). */
let refuseComments = false
const standin = (): Promise<GitHubStandin> =>
  startGitHubStandin({
    repository: REPO,
    failWith: (req) =>
      refuseComments && req.method !== 'GET' && req.path.includes('/comments') ? { status: 422, body: { message: 'refused' } } : undefined
  })

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
const commentsOf = (n: number): string[] => (gh.state.comments.get(n) ?? []).map((c) => c.body)

/** Wait for the emulator to end the run (a state, not a sleep). */
async function runEnded(runId: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    const run = emu.control.runs().find((r) => r.run_id === runId)
    if (run && run.status !== 'running') return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`run ${runId} did not end`)
}

async function detachedStep(n: number, head: string, base: string, clock: Clock): Promise<string> {
  const { io } = await step(pullRequest(n, head, base), { wait: 'detached' }, clock)
  expect(io.failures).toEqual([])
  expect(io.outputs).toMatchObject({ result: 'pending', assessments_spent: '1' })
  return io.outputs.run_id
}

/** Pull requests #7 and #8, the model busy with #8's detached run (slow categories, nothing vulnerable). */
async function busyWithPull8(): Promise<{ base: string; head: string; other: string; busy: string; clock: ReturnType<typeof fakeClock> }> {
  gh = await standin()
  const { base, head } = world(7)
  const other = sha()
  gh.addCommit(other, base, ['agent/other.md'])
  gh.seedPull({ number: 8, headSha: other, commits: [other] })
  emu.demoAgent.setAllVulnerable(false)
  emu.control.setCategoryDurationMs(400)
  const clock = fakeClock(T0)
  const busy = await detachedStep(8, other, base, clock)
  return { base, head, other, busy, clock }
}

describe('wait: detached', () => {
  it('the step triggers, sets pending with the run and its deadline, writes the pending record and ends; the collector sets the verdict', async () => {
    gh = await standin()
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    for (const c of DEFAULT_VULNERABLE) emu.demoAgent.setVulnerable(c, true)
    // A run of some seconds: the first collector comes while it goes on.
    emu.control.setCategoryDurationMs(500)
    const clock = fakeClock(T0)
    const runId = await detachedStep(7, head, base, clock)
    const started = Date.parse(emu.control.runs().find((r) => r.run_id === runId)?.started_at ?? '')
    const by = new Date(started + 45 * 60_000).toISOString().slice(11, 16)
    expect(statusesOf(head).at(-1)).toEqual([
      'pending',
      expect.stringMatching(new RegExp(`^Assessing: run ${runId}, result by ${by} UTC at the latest`))
    ])
    expect(commentsOf(7)[0].split('\n')[1]).toMatch(new RegExp(`^<!-- asas-gate:pending=2;run=${runId};commit=${head};at=`))
    // The collector while the run goes on: nothing changes.
    const early = await step(schedule(base), { mode: 'collect' }, clock)
    expect(early.io.outputs).toMatchObject({ result: 'pending', collected: '0' })
    expect(lastState(head)).toBe('pending')
    await runEnded(runId)
    const late = await step(schedule(base), { mode: 'collect' }, clock)
    // It posted a failure: its outputs and its step say so (never result=pass, exit 0).
    expect(late.io.outputs).toMatchObject({ result: 'fail', collected: '1' })
    expect(late.io.failures).toEqual([expect.stringMatching(/^Collector: 1 decided \(1 fail\).*worst status set: fail\.$/)])
    expect(lastState(head)).toBe('failure')
    // The status names what blocks, as the attached step's does.
    expect(statusesOf(head).at(-1)?.[1]).toMatch(/^fail: 1 blocking: high prompt_injection/)
    const body = commentsOf(7)[0]
    // One run at the service counts once: not "2 of the last 2 runs", not "this run and 1 other run".
    expect(body).not.toMatch(/of the last 2 runs|1 other run the service lists/)
    expect(commentsOf(7)).toHaveLength(1)
    expect(body.split('\n')[1]).not.toContain('pending=')
    expect(body.split('\n')[2]).toMatch(new RegExp(`^<!-- asas-gate:record=2;result=fail;assessed=${head};head=${head};`))
    // The downloadable reports of the collected run, beside the collector's own (the example uploads the folder).
    const folder = dirname(late.io.outputs.report_path)
    const files = readdirSync(folder)
    for (const ext of ['json', 'sarif', 'junit.xml']) expect(files).toContain(`report-${emu.demoModelId}-${runId}.${ext}`)
    expect(JSON.parse(readFileSync(join(folder, `report-${emu.demoModelId}-${runId}.sarif`), 'utf8'))).toMatchObject({ version: '2.1.0' })
    // A third collector finds nothing pending: it changes nothing.
    const count = gh.git.statuses.length
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(gh.git.statuses.length).toBe(count)
  }, 60_000)

  it('a forged record: another author is ignored; an owned one naming a run of another model is refused, never passed, and that run is not touched', async () => {
    gh = await standin()
    const { base, head } = world()
    const clock = fakeClock(T0)
    // A passing run of another model, which the forger names.
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
    const { model_id: otherModel } = await api.registerModel({
      name: 'another-agent',
      config: { endpoint_url: `${emu.demoAgent.url}/chat/open`, response_field: 'output.text' },
      environment: 'dev',
      auth_type: 'none'
    })
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    const foreign = await api.triggerRun({ model_id: otherModel })
    // Sealed with the key (a key holder's record): the run's model is what refuses it.
    const forged = sealedComment(emu.keys.full, emu.demoModelId, 7, {
      runId: foreign.run_id,
      commit: head,
      at: null,
      categories: [],
      deadline: null
    }).replace('### ⏳ assessing', '### forged')
    gh.seedComment(7, forged, { login: 'mallory', type: 'User' })
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(statusesOf(head)).toEqual([])
    gh.seedComment(7, forged)
    const refused = await step(schedule(base), { mode: 'collect' }, clock)
    expect(lastState(head)).toBe('error')
    expect(statusesOf(head).at(-1)?.[1]).toMatch(/not a run of/)
    // It says what it did: it set an error, so it neither reads pass nor passes.
    expect(refused.io.outputs).toMatchObject({ result: 'error', collected: '1' })
    expect(refused.io.failures).toHaveLength(1)
    expect(emu.control.runs().find((r) => r.run_id === foreign.run_id)?.status).not.toBe('cancelled')
    // The forged record is dropped (the comment says why), so the next collector changes nothing.
    const owned = commentsOf(7).find((b) => b.includes('asas-gate:model=') && !b.includes('### forged'))
    expect(owned).toMatch(/not a run of/)
    const count = gh.git.statuses.length
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(gh.git.statuses.length).toBe(count)
  }, 60_000)

  it('a run that never ends is cancelled at its deadline, and its status ends in error', async () => {
    gh = await standin()
    const { base, head } = world()
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    let now = T0
    const clock: Clock = { ...fakeClock(T0), now: () => now }
    const runId = await detachedStep(7, head, base, clock)
    now = T0 + 44 * 60_000
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(lastState(head)).toBe('pending')
    now = T0 + 46 * 60_000
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(emu.control.runs().find((r) => r.run_id === runId)?.status).toBe('cancelled')
    expect(lastState(head)).toBe('error')
    expect(commentsOf(7)[0]).not.toContain('pending=')
  }, 60_000)

  it('a collector that crashes midway leaves the record pending; the next one finishes it with the same result', async () => {
    gh = await standin()
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    const clock = fakeClock(T0)
    const runId = await detachedStep(7, head, base, clock)
    await runEnded(runId)
    // The comment write fails (as a runner that dies after the status): the status is set, the record stays pending.
    refuseComments = true
    const crashed = await step(schedule(base), { mode: 'collect' }, clock)
    refuseComments = false
    expect(crashed.io.outputs.result).toBe('error')
    expect(commentsOf(7)[0]).toContain('pending=')
    const again = await step(schedule(base), { mode: 'collect' }, clock)
    expect(again.io.outputs.result).toBe('pass')
    expect(lastState(head)).toBe('success')
    expect(commentsOf(7)[0]).not.toContain('pending=')
    expect(
      new Set(
        statusesOf(head)
          .slice(-2)
          .map(([s]) => s)
      )
    ).toEqual(new Set(['success']))
  }, 60_000)

  it('two collectors at once write one result: one comment, a final status, no second run', async () => {
    gh = await standin()
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    const clock = fakeClock(T0)
    const runId = await detachedStep(7, head, base, clock)
    await runEnded(runId)
    const runs = emu.control.runs().length
    await Promise.all([step(schedule(base), { mode: 'collect' }, clock), step(schedule(base), { mode: 'collect' }, clock)])
    expect(emu.control.runs().length).toBe(runs)
    expect(commentsOf(7)).toHaveLength(1)
    expect(commentsOf(7)[0]).toMatch(/asas-gate:record=2;result=pass/)
    const finals = statusesOf(head).filter(([s]) => s !== 'pending')
    expect(finals.length).toBeGreaterThanOrEqual(1)
    expect(new Set(finals.map(([s]) => s))).toEqual(new Set(['success']))
  }, 60_000)

  it('a schedule that never runs leaves the status pending: the merge stays blocked', async () => {
    gh = await standin()
    const { base, head } = world()
    const clock = fakeClock(T0)
    const runId = await detachedStep(7, head, base, clock)
    await runEnded(runId)
    expect(lastState(head)).toBe('pending')
  }, 60_000)

  it("a newer push supersedes the pending run: the older run is cancelled, the collector decides the newer head's", async () => {
    gh = await standin()
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    // Virtual time that lets real time pass while it sleeps: the emulator takes a moment to stop a cancelled run.
    const virtual = fakeClock(T0)
    const clock: Clock = {
      now: () => virtual.now(),
      sleep: async (ms, signal) => {
        await new Promise((r) => setTimeout(r, 20))
        await virtual.sleep(ms, signal)
      }
    }
    const first = await detachedStep(7, head, base, clock)
    const next = sha()
    gh.addCommit(next, head, ['agent/tools.py'])
    gh.seedPull({ number: 7, headSha: next, commits: [head, next] })
    emu.control.setCategoryDurationMs(5)
    const second = await detachedStep(7, next, head, clock)
    expect(emu.control.runs().find((r) => r.run_id === first)?.status).toBe('cancelled')
    await runEnded(second)
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(lastState(next)).toBe('success')
    // The older commit keeps its pending status: it is not the head, nothing merges on it.
    expect(lastState(head)).toBe('pending')
    expect(commentsOf(7)).toHaveLength(1)
  })

  it("a model busy with another pull request's run is not waited for: queued, then triggered and decided by the collector", async () => {
    const { base, head, other, busy, clock } = await busyWithPull8()
    const { io } = await step(pullRequest(7, head, base), { wait: 'detached' }, clock)
    expect(io.failures).toEqual([])
    expect(io.outputs).toMatchObject({ result: 'pending', assessments_spent: '0' })
    expect(commentsOf(7)[0].split('\n')[1]).toMatch(new RegExp(`^<!-- asas-gate:pending=2;run=-;commit=${head};`))
    expect(statusesOf(head).at(-1)?.[1]).toMatch(/^Queued: the model is busy/)
    await runEnded(busy)
    await step(schedule(base), { mode: 'collect' }, clock)
    const queued = /run=([A-Za-z0-9_-]+);/.exec(commentsOf(7)[0].split('\n')[1])?.[1] ?? ''
    expect(queued).toMatch(/^run_/)
    expect(lastState(other)).toBe('success')
    await runEnded(queued)
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(lastState(head)).toBe('success')
    expect(commentsOf(7)[0]).toMatch(/asas-gate:record=2;result=pass/)
  }, 60_000)

  it("a queued record keeps its sealed deadline: the collector's longer timeout_minutes neither lengthens the wait nor the run's record", async () => {
    const { base, head, busy, clock } = await busyWithPull8()
    // The pull request's step asks for 10 minutes; the collector's own input says 45 (step()'s default).
    await step(pullRequest(7, head, base), { wait: 'detached', timeout_minutes: '10' }, clock)
    const sealed = /;deadline=([0-9T:-]+Z);/.exec(commentsOf(7)[0].split('\n')[1])?.[1] ?? ''
    expect(Date.parse(sealed.replace(/Z$/, ':00Z'))).toBe(Math.floor((T0 + 10 * 60_000) / 60_000) * 60_000)
    await runEnded(busy)
    clock.advance(3 * 60_000)
    await step(schedule(base), { mode: 'collect' }, clock)
    const line = commentsOf(7)[0].split('\n')[1]
    expect(line).toMatch(/;run=run_/)
    // The triggered run's record carries the queued record's deadline, not its start plus the collector's 45 minutes.
    expect(/;deadline=([0-9T:-]+Z);/.exec(line)?.[1]).toBe(sealed)
  }, 60_000)

  it("a queued record past its sealed deadline ends in error when the collector's own timeout_minutes would still wait: nothing is triggered", async () => {
    const { base, head, busy, clock } = await busyWithPull8()
    await step(pullRequest(7, head, base), { wait: 'detached', timeout_minutes: '10' }, clock)
    await runEnded(busy)
    const runsBefore = emu.control.runs().length
    clock.advance(11 * 60_000)
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(lastState(head)).toBe('error')
    expect(statusesOf(head).at(-1)?.[1]).toMatch(/past the record's deadline \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)/)
    expect(emu.control.runs()).toHaveLength(runsBefore)
  }, 60_000)

  it('the post step neither cancels the handed-over run nor sets the status it left pending', async () => {
    gh = await standin()
    const { base, head } = world()
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    const clock = fakeClock(T0)
    const { io } = await step(pullRequest(7, head, base), { wait: 'detached' }, clock)
    const statuses = gh.git.statuses.length
    await runPost({
      io,
      clock,
      makeApi: (_inputs, deadline) => createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock, deadline })
    })
    expect(emu.control.runs().find((r) => r.run_id === io.outputs.run_id)).toMatchObject({ status: 'running', cancel_requested: false })
    expect(gh.git.statuses.length).toBe(statuses)
    expect(lastState(head)).toBe('pending')
  })

  it('refuses wait detached outside GitHub Actions (a terminal, GitLab): nothing is triggered', async () => {
    gh = await standin()
    const { base, head } = world()
    const event = pullRequest(7, head, base)
    const { io } = await step({ ...event, env: { ...event.env, GITHUB_ACTIONS: '' } }, { wait: 'detached' }, fakeClock(T0))
    expect(io.failures[0]).toMatch(/input 'wait'.*works in GitHub Actions only/)
    expect(emu.control.runs().filter((r) => r.model_id === emu.demoModelId)).toEqual([])
  })

  it('a push to the default branch has no pull request to hold the record: it waits attached', async () => {
    gh = await standin()
    const { base } = world()
    emu.demoAgent.setAllVulnerable(false)
    const push = {
      name: 'push',
      payload: { ref: 'refs/heads/main', after: base, repository },
      env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: base }
    }
    const { io } = await step(push, { wait: 'detached' }, fakeClock(T0))
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    expect(io.outputs.sarif_path).toMatch(/\.sarif$/)
  })

  it('refuses mode collect on a pull request event (it runs no pull-request code)', async () => {
    gh = await standin()
    const { base, head } = world()
    const { io } = await step(pullRequest(7, head, base), { mode: 'collect' }, fakeClock(T0))
    expect(io.failures[0]).toMatch(/input 'mode'.*'collect' runs on the default branch only/)
    expect(gh.git.statuses).toEqual([])
  })
})

describe('a run narrower than the policy (fifth attack)', () => {
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
    const record = { runId: narrow.run_id, commit: head, at: null, categories: ['excessive_agency'], deadline: null }
    gh.seedComment(7, sealedComment(emu.keys.full, emu.demoModelId, 7, record))
    await step(schedule(base), { mode: 'collect' }, clock)
    expect(statusesOf(head).length).toBeGreaterThan(0)
    expect(lastState(head)).not.toBe('success')
  }, 60_000)
})
