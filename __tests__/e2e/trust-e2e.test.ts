/**
 * Signals and the runner's files: a step interrupted while its trigger is
 * pending, or while it reads the results, cancels the run it created exactly
 * once and never passes; the commit status it set pending is ended (error)
 * by the post step when the main step could not. Through the bundled dist/index.js spawned as the
 * runner does it (main step, then the post step with the saved state),
 * against the emulator over real HTTP. Run on the first runtime of
 * node-runtimes.ts (Node 24 when installed). Each case has its own emulator,
 * and the cases run concurrently.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { removeActionWorkDirs, runAction, type ActionRun, type RunOptions } from '../__fixtures__/action-runner.js'
import { runtimes } from '../__fixtures__/node-runtimes.js'
import { inWorld as inBareWorld, type World } from '../__fixtures__/e2e-world.js'
import { waitFor } from '../__fixtures__/emulator-helpers.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'

afterAll(removeActionWorkDirs)

/** A world whose runs are slow (5 s a category, one attack): they are still running when the step is interrupted. */
function inWorld(body: (w: World) => Promise<void>): Promise<void> {
  return inBareWorld(body, { categoryDurationMs: 5_000, attacksPerCategory: 1 })
}

const rt = runtimes()[0]
const inputs = (w: World, extra: Record<string, string> = {}) => ({
  model_id: w.emu.demoModelId,
  api_key: w.emu.keys.full,
  base_url: w.emu.url,
  ...extra
})

function run(w: World, opts: Partial<RunOptions>): Promise<ActionRun> {
  return runAction({ nodePath: rt.path, killAfterMs: 60_000, inputs: inputs(w), eventName: 'push', ...opts })
}

const SHA = 'c'.repeat(40)

/** As run, with the commit status set on SHA (commit_status: always) in a GitHub stand-in; the stand-in is stopped after. */
async function runWithStatus(w: World, opts: Partial<RunOptions>): Promise<{ r: ActionRun; states: string[]; descriptions: string[] }> {
  const gh: GitHubStandin = await startGitHubStandin({ repository: 'octo-org/agent-app' })
  try {
    gh.addCommit(SHA, null, [])
    const r = await run(w, {
      inputs: inputs(w, { commit_status: 'always', accepted_risks_file: 'off' }),
      githubToken: 'ghs_trust_e2e',
      env: { GITHUB_API_URL: gh.url, GITHUB_SHA: SHA, GITHUB_REF: 'refs/heads/main' },
      ...opts
    })
    const mine = gh.git.statuses.filter((s) => s.sha === SHA)
    return { r, states: mine.map((s) => s.state), descriptions: mine.map((s) => s.description ?? '') }
  } finally {
    await gh.stop()
  }
}

const modelRuns = (w: World) => w.emu.control.runs().filter((r) => r.model_id === w.emu.demoModelId)
const cancelsOf = (w: World, runId: string) => w.emu.requestLog.filter((e) => e.endpoint === 'cancelRun' && e.path.includes(runId)).length

/** The answer to POST /run is held (the run is created) for a minute. */
function holdTriggerAnswer(w: World): void {
  w.emu.control.setFaults({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['hang'], hangMs: 60_000, maxFaults: 1 })
}

describe(`signals through the bundle (${rt.name})`, () => {
  it.concurrent(
    'SIGINT while the answer to POST /run is pending: the main step finds the run it created, cancels it once, and fails',
    () =>
      inWorld(async (w) => {
        holdTriggerAnswer(w)
        const before = new Set(modelRuns(w).map((r) => r.run_id))
        const { r, states, descriptions } = await runWithStatus(w, {
          onSpawn: (child) => {
            void waitFor('the run to be created', () => modelRuns(w).some((x) => !before.has(x.run_id))).then(() => child.kill('SIGINT'))
          }
        })
        // The main step's GitHub calls stop at the signal; the post step sets the state it decided.
        expect(states).toEqual(['pending', 'error'])
        expect(descriptions[1]).toMatch(/cancelled/)
        expect(r.post.stdout).toMatch(/Post step: commit status agent-security\/\S+ on ccccccc: error \(the main step could not set it\)/)
        const created = modelRuns(w).filter((x) => !before.has(x.run_id))
        expect(created).toHaveLength(1)
        const runId = created[0].run_id
        expect(r.main.signal).toBeNull()
        expect(r.main.code).not.toBe(0)
        expect(r.main.outputs.result).toBe('error')
        expect(r.main.stdout).toMatch(new RegExp(`interrupted trigger created run ${runId}`))
        expect(r.main.state.cancel_requested).toBe(runId)
        await waitFor('the run to be cancelled', () => modelRuns(w).find((x) => x.run_id === runId)?.status === 'cancelled')
        // One cancel, from the main step; the post step sent none.
        expect(cancelsOf(w, runId)).toBe(1)
        expect(r.post.code).toBe(0)
      }),
    90_000
  )

  it.concurrent(
    'the main step killed while POST /run is pending: the post step finds the run by the recorded intent and cancels it',
    () =>
      inWorld(async (w) => {
        holdTriggerAnswer(w)
        const before = new Set(modelRuns(w).map((r) => r.run_id))
        const { r, states, descriptions } = await runWithStatus(w, {
          onSpawn: (child) => {
            void waitFor('the run to be created', () => modelRuns(w).some((x) => !before.has(x.run_id))).then(() => child.kill('SIGKILL'))
          }
        })
        expect(r.main.signal).toBe('SIGKILL')
        // The main step set pending and died: the post step ends the status in error, never leaving it pending.
        expect(states).toEqual(['pending', 'error'])
        expect(descriptions[1]).toMatch(/^The step stopped \(the job was cancelled\?\) before its result was set: nothing passed/)
        // Saved empty first thing (state.ts openState), never set: the main step died before it learnt the run id.
        expect(r.main.state.run_id).toBe('')
        expect(JSON.parse(r.main.state.trigger_intent)).toMatchObject({ modelId: w.emu.demoModelId, categories: [] })
        const runId = modelRuns(w).find((x) => !before.has(x.run_id))!.run_id
        expect(r.post.stdout).toMatch(new RegExp(`interrupted trigger created run ${runId}`))
        await waitFor('the run to be cancelled', () => modelRuns(w).find((x) => x.run_id === runId)?.status === 'cancelled')
        expect(cancelsOf(w, runId)).toBe(1)
      }),
    90_000
  )

  it.concurrent(
    'SIGINT during the result reads: the step stops reading, writes what it has, and never passes',
    () =>
      inWorld(async (w) => {
        w.emu.control.setCategoryDurationMs(20)
        // The agent is clean: read whole, this run would pass. Coverage answers are held.
        w.emu.demoAgent.setAllVulnerable(false)
        w.emu.control.setFaults({ seed: 1, rate: 0, endpoints: { getCoverage: 1 }, kinds: ['hang'], hangMs: 60_000 })
        const r = await run(w, {
          onSpawn: (child) => {
            void waitFor('the coverage read', () => w.emu.requestLog.some((e) => e.endpoint === 'getCoverage')).then(() =>
              child.kill('SIGINT')
            )
          }
        })
        expect(r.main.signal).toBeNull()
        expect(r.main.code).not.toBe(0)
        expect(r.main.outputs.result).toBe('error')
        expect(r.main.outputs.run_id).toBeTruthy()
        expect(r.main.outputs.report_path).toBeTruthy()
        expect(r.main.stdout).toMatch(/the step was cancelled while the results were read/)
        expect(r.main.stdout).toMatch(/Coverage was not read: the step was cancelled/)
      }),
    90_000
  )
})
