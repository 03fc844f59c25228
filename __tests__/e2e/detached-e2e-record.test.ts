/**
 * Detached waiting, in-process against the emulator and the GitHub
 * stand-in: an edited pending record is refused (its MAC), a head that moves
 * while the collector works keeps its own record, the run a collector
 * triggers for a queued record survives its post step.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { runPost } from '../../src/action/post-step.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { startGitHubStandin, type GitHubStandin, type StandinRequest } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'
import { pullRequestEvent, REPO, runEnded, runStep, scheduleEvent, sealedComment, sha } from '../__fixtures__/detached-world.js'

let emu: Emulator
let gh: GitHubStandin
/** Called on every request the stand-in serves (a push that lands while the collector works). */
let onRequest: ((req: StandinRequest) => void) | null = null
beforeEach(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 5, attacksPerCategory: 1 })
  onRequest = null
  gh = await startGitHubStandin({
    repository: REPO,
    failWith: (req) => {
      onRequest?.(req)
      return undefined
    }
  })
})
afterEach(async () => {
  await gh.stop()
  await stopStarted(emu)
})

const T0 = Date.now()
const states = (commit: string): string[] => gh.git.statuses.filter((s) => s.sha === commit).map((s) => s.state)
const comment = (n: number): string => gh.state.comments.get(n)?.[0]?.body ?? ''
const w = () => ({ emu, gh })

function world(): { base: string; head: string; other: string } {
  const [base, head, other] = [sha(), sha(), sha()]
  gh.addCommit(base, null, ['README.md'])
  gh.addCommit(head, base, ['agent/prompt.md'])
  gh.addCommit(other, base, ['agent/other.md'])
  gh.seedPull({ number: 7, headSha: head, commits: [head] })
  return { base, head, other }
}

describe('an edited pending record', () => {
  it.each(['an older passing run of the model', "another pull request's passing run"])(
    'naming %s is refused: the status ends in error, never success, and the own run goes on',
    async (which) => {
      const { base, head, other } = world()
      emu.demoAgent.setAllVulnerable(false)
      const clock = fakeClock(T0)
      // The passing run the editor names: an earlier full run of the model, or pull request #8's.
      let passing: string
      if (which.startsWith('an older')) {
        const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
        passing = (await api.triggerRun({ model_id: emu.demoModelId })).run_id
      } else {
        gh.seedPull({ number: 8, headSha: other, commits: [other] })
        passing = (await runStep(w(), pullRequestEvent(8, other, base), { wait: 'detached' }, clock)).outputs.run_id
      }
      await runEnded(emu, passing)
      emu.control.setCategoryDurationMs(10 * 60 * 60_000)
      const own = (await runStep(w(), pullRequestEvent(7, head, base), { wait: 'detached' }, clock)).outputs.run_id
      // A person with write access edits the bot's comment: its author stays the bot.
      const c = gh.state.comments.get(7)?.[0]
      if (c === undefined) throw new Error('no comment')
      c.body = c.body.replace(`run=${own};`, `run=${passing};`)
      const collector = await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
      expect(states(head)).not.toContain('success')
      expect(states(head).at(-1)).toBe('error')
      expect(gh.git.statuses.find((s) => s.sha === head && s.state === 'error')?.description).toMatch(/MAC does not hold/)
      // Pull request #8's own record, untouched, is collected too (its head passes).
      const own8 = which.startsWith('another')
      expect(collector.outputs).toMatchObject({ result: 'error', collected: own8 ? '2' : '1' })
      if (own8) expect(states(other).at(-1)).toBe('success')
      expect(emu.control.runs().find((r) => r.run_id === own)?.status).toBe('running')
    },
    60_000
  )

  it("a key holder's record naming a run that began before its trigger time is refused", async () => {
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    const clock = fakeClock(T0)
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
    const older = (await api.triggerRun({ model_id: emu.demoModelId })).run_id
    await runEnded(emu, older)
    const later = new Date(Date.now() + 5 * 60_000).toISOString().slice(0, 16) + 'Z'
    gh.seedComment(
      7,
      sealedComment(emu.keys.full, emu.demoModelId, 7, { runId: older, commit: head, at: later, categories: [], deadline: null })
    )
    await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    expect(states(head)).toEqual(['error'])
    expect(gh.git.statuses.at(-1)?.description).toMatch(/began .* before the record/)
  }, 60_000)
})

/** An ISO minute, floored, as a record holds it. */
const minute = (ms: number): string => new Date(ms).toISOString().slice(0, 16) + 'Z'

describe("the record's sealed scope binds the run as the step that wrote it asked", () => {
  it('a record asking for the full taxonomy is not met by a run of one category, though the policy names only that one', async () => {
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    const at = minute(Date.now() - 60_000)
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
    const run = (await api.triggerRun({ model_id: emu.demoModelId, categories: ['prompt_injection'] })).run_id
    await runEnded(emu, run)
    gh.seedComment(7, sealedComment(emu.keys.full, emu.demoModelId, 7, { runId: run, commit: head, at, categories: [], deadline: null }))
    await runStep(w(), scheduleEvent(base), { mode: 'collect', categories: 'prompt_injection' }, fakeClock(T0))
    expect(states(head)).toEqual(['error'])
    expect(gh.git.statuses.at(-1)?.description).toMatch(/does not cover the categories/)
  }, 60_000)

  it("a run past the record's own deadline is cancelled and never passes, though the collector's timeout_minutes has room", async () => {
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    const at = minute(Date.now() - 60_000)
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
    const run = (await api.triggerRun({ model_id: emu.demoModelId })).run_id
    const deadline = minute(Date.now())
    gh.seedComment(7, sealedComment(emu.keys.full, emu.demoModelId, 7, { runId: run, commit: head, at, categories: [], deadline }))
    // The collector's clock is two minutes on: within its own 30-minute bound, past the record's.
    const later = Date.now() + 2 * 60_000
    await runStep(w(), scheduleEvent(base), { mode: 'collect', timeout_minutes: '30' }, { ...fakeClock(later), now: () => later })
    expect(states(head)).not.toContain('success')
    expect(states(head).at(-1)).toMatch(/^(error|failure)$/)
    expect(emu.control.runs().find((r) => r.run_id === run)?.status).toBe('cancelled')
  }, 60_000)
})

describe('exactly once, nothing lost', () => {
  it("a head that moves while the collector works keeps its own record: the collector's result goes on the old head only, the new head stays collectable", async () => {
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    const clock = fakeClock(T0)
    const first = (await runStep(w(), pullRequestEvent(7, head, base), { wait: 'detached' }, clock)).outputs.run_id
    await runEnded(emu, first)
    const next = sha()
    gh.addCommit(next, head, ['agent/tools.py'])
    // The push lands (its detached step writes a queued record) just as the collector sets the old head's status.
    const pushed = sealedComment(emu.keys.full, emu.demoModelId, 7, { runId: null, commit: next, at: null, categories: [], deadline: null })
    onRequest = (req) => {
      if (req.method === 'POST' && req.path.endsWith(`/statuses/${head}`) && onRequest !== null) {
        onRequest = null
        gh.seedPull({ number: 7, headSha: next, commits: [head, next] })
        const c = gh.state.comments.get(7)?.[0]
        if (c !== undefined) c.body = pushed
      }
    }
    await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    expect(states(head).at(-1)).toBe('success')
    expect(comment(7)).toBe(pushed)
    // The next collector triggers the new head's run; the one after decides it.
    await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    const second = /run=([A-Za-z0-9_-]+);/.exec(comment(7).split('\n')[1])?.[1] ?? ''
    expect(second).toMatch(/^run_/)
    await runEnded(emu, second)
    await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    expect(states(next).at(-1)).toBe('success')
    expect(comment(7)).toMatch(/asas-gate:record=2;result=pass/)
  }, 60_000)

  it("the run a collector triggers for a queued record is not cancelled by the collector's post step", async () => {
    const { base, head } = world()
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    const clock = fakeClock(T0)
    gh.seedComment(
      7,
      sealedComment(emu.keys.full, emu.demoModelId, 7, { runId: null, commit: head, at: null, categories: [], deadline: null })
    )
    const io = await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    const triggered = /run=([A-Za-z0-9_-]+);/.exec(comment(7).split('\n')[1])?.[1] ?? ''
    expect(triggered).toMatch(/^run_/)
    expect(io.outputs).toMatchObject({ result: 'pending', collected: '0' })
    await runPost({ io, clock, makeApi: (_i, deadline) => createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock, deadline }) })
    expect(emu.control.runs().find((r) => r.run_id === triggered)).toMatchObject({ status: 'running', cancel_requested: false })
    expect(states(head).at(-1)).toBe('pending')
  }, 60_000)
})

describe("the collector's runner time", () => {
  it('grows with the records it collects, not with those queued: 40 queued records, one triggered, in seconds', async () => {
    const { base } = world()
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    const clock = fakeClock(T0)
    for (let n = 100; n < 140; n++) {
      const head = sha()
      gh.addCommit(head, base, ['agent/prompt.md'])
      gh.seedPull({ number: n, headSha: head, commits: [head] })
      gh.seedComment(
        n,
        sealedComment(emu.keys.full, emu.demoModelId, n, { runId: null, commit: head, at: null, categories: [], deadline: null })
      )
    }
    const started = performance.now()
    const io = await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    const ms = performance.now() - started
    expect(io.outputs).toMatchObject({ result: 'pending', collected: '0' })
    expect(emu.control.runs().filter((r) => r.model_id === emu.demoModelId)).toHaveLength(1)
    // The collector waited on no busy model (a trigger waits up to 20 s for one): far under the example's 10 minutes.
    expect(ms).toBeLessThan(20_000)
    if (process.env.MEASURE_COLLECT === '1') console.log(`collector, 40 queued records: ${Math.round(ms)} ms`)
  }, 60_000)
})

describe('one record per pull request: the sticky comment', () => {
  it("a second owned comment holding a sealed record of the head (a replayed one) is not judged: the sticky comment's failing run stays the verdict", async () => {
    const { base, head } = world()
    const at = minute(Date.now() - 60_000)
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
    emu.demoAgent.setAllVulnerable(true)
    const failing = (await api.triggerRun({ model_id: emu.demoModelId })).run_id
    await runEnded(emu, failing)
    emu.demoAgent.setAllVulnerable(false)
    const passing = (await api.triggerRun({ model_id: emu.demoModelId })).run_id
    await runEnded(emu, passing)
    const record = (runId: string): string =>
      sealedComment(emu.keys.full, emu.demoModelId, 7, { runId, commit: head, at, categories: [], deadline: null })
    // The sticky comment (the first of ours with the marker) holds the head's own record; a later comment by the
    // same bot (another workflow's GITHUB_TOKEN, or a race of two first pushes) holds a sealed record of a passing run.
    gh.seedComment(7, record(failing))
    gh.seedComment(7, record(passing))
    const collector = await runStep(w(), scheduleEvent(base), { mode: 'collect' }, fakeClock(T0))
    expect(states(head)).toEqual(['failure'])
    expect(collector.outputs).toMatchObject({ result: 'fail', collected: '1' })
    expect(comment(7)).toMatch(/asas-gate:record=2;result=fail/)
  }, 60_000)
})

describe("a record copied into another pull request's comment", () => {
  it("does not make that pull request's next push cancel the run of the pull request it was copied from", async () => {
    const { base, head, other } = world()
    gh.seedPull({ number: 8, headSha: other, commits: [other] })
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    const clock = fakeClock(T0)
    const run8 = (await runStep(w(), pullRequestEvent(8, other, base), { wait: 'detached' }, clock)).outputs.run_id
    expect(run8).toMatch(/^run_/)
    // A person who can edit comments (not read the api_key) puts #8's sealed record in #7's sticky comment.
    gh.seedComment(7, gh.state.comments.get(8)?.[0]?.body ?? '')
    await runStep(w(), pullRequestEvent(7, head, base), { wait: 'detached' }, clock)
    expect(emu.control.runs().find((r) => r.run_id === run8)?.status).toBe('running')
  }, 60_000)
})

describe("a queued record's sealed scope", () => {
  it('binds the run the collector triggers for it: a record of the full taxonomy is triggered as the full taxonomy, though the policy names one category', async () => {
    const { base, head } = world()
    emu.control.setCategoryDurationMs(10 * 60 * 60_000)
    const queued = { runId: null, commit: head, at: minute(Date.now()), categories: [], deadline: null }
    gh.seedComment(7, sealedComment(emu.keys.full, emu.demoModelId, 7, queued))
    await runStep(w(), scheduleEvent(base), { mode: 'collect', categories: 'prompt_injection' }, fakeClock(T0))
    const runId = emu.control.runs().find((r) => r.model_id === emu.demoModelId)?.run_id ?? ''
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock: fakeClock(T0) })
    expect((await api.getRun(runId)).categories_planned.length).toBeGreaterThan(1)
    expect(comment(7).split('\n')[1]).toMatch(new RegExp(`^<!-- asas-gate:pending=2;run=${runId};commit=${head};at=[^;]+;cats=\\*;`))
  }, 60_000)
})

describe('a final status GitHub refuses', () => {
  it('leaves the record pending (the comment is not rewritten), so the next collector sets the status; the head never stays pending', async () => {
    const { base, head } = world()
    emu.demoAgent.setAllVulnerable(false)
    const clock = fakeClock(T0)
    const run = (await runStep(w(), pullRequestEvent(7, head, base), { wait: 'detached' }, clock)).outputs.run_id
    await runEnded(emu, run)
    const before = states(head).length
    gh.failNext('POST', new RegExp(`/statuses/${head}$`), 422)
    const first = await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    // Its post step owes the head nothing (no error over the record's result to come): the record stays for the next collector.
    expect(first.state.get('owed_status') ?? '').toBe('')
    expect(states(head).slice(before)).toEqual([])
    expect(comment(7).split('\n')[1]).toMatch(new RegExp(`^<!-- asas-gate:pending=2;run=${run};commit=${head};`))
    await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    expect(states(head).slice(before)).toEqual(['success'])
    expect(comment(7)).toMatch(/asas-gate:record=2;result=pass/)
  }, 60_000)
})

describe('a restored older record of the head (its MAC still valid) is not judged again', () => {
  it('after a re-run of the head found a weakness, restoring the passing record never sets success; a person’s pending status does not help', async () => {
    const { base, head } = world()
    const clock = fakeClock(T0)
    emu.demoAgent.setAllVulnerable(false)
    const r1 = (await runStep(w(), pullRequestEvent(7, head, base), { wait: 'detached' }, clock)).outputs.run_id
    const old = comment(7)
    await runEnded(emu, r1)
    await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    expect(states(head).at(-1)).toBe('success')
    // A re-run of the same head, the agent now vulnerable: the collector sets failure.
    emu.demoAgent.setAllVulnerable(true)
    const r2 = (await runStep(w(), pullRequestEvent(7, head, base), { wait: 'detached' }, clock)).outputs.run_id
    await runEnded(emu, r2)
    await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    expect(states(head).at(-1)).toBe('failure')
    // A person with write access restores the old comment, and sets a pending status naming r1 with their own token.
    const c = gh.state.comments.get(7)?.[0]
    if (c === undefined) throw new Error('no comment')
    c.body = old
    const ours = gh.git.statuses.filter((s) => s.sha === head && s.state === 'pending').at(-1)
    if (ours === undefined) throw new Error('no pending status')
    gh.git.statuses.push({
      ...ours,
      id: ours.id + 1000,
      description: `Assessing: run ${r1}, result by 23:59 UTC at the latest (the collector sets it)`,
      creator: { login: 'mallory', type: 'User' }
    })
    const before = gh.git.statuses.length
    const collector = await runStep(w(), scheduleEvent(base), { mode: 'collect' }, clock)
    // Left as it is: no status set over r2's failure.
    expect(gh.git.statuses.length).toBe(before)
    expect(gh.git.statuses.filter((s) => s.sha === head && s.creator.login !== 'mallory').at(-1)?.state).toBe('failure')
    expect(collector.outputs.collected).toBe('0')
    expect(collector.log.lines.map((l) => l.line).join('\n')).toMatch(/a stale record, left/)
  }, 60_000)
})
