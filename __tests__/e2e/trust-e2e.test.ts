/**
 * Signals and the runner's files (issue 11, cases 3 and 4, and the single
 * cancel of case 8), through the bundled dist/index.js spawned as the runner
 * does it (main step, then the post step with the saved state), against the
 * emulator over real HTTP. Run on the first runtime of node-runtimes.ts
 * (Node 24 when installed).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { runAction, type ActionRun, type RunOptions } from '../__fixtures__/action-runner.js'
import { runtimes } from '../__fixtures__/node-runtimes.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { waitFor } from '../__fixtures__/emulator-helpers.js'
import { stopStarted } from '../__fixtures__/teardown.js'

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 5_000, attacksPerCategory: 1 })
})
afterAll(async () => {
  await stopStarted(emu)
})
beforeEach(() => {
  emu.control.setFaults(null)
  emu.control.setCategoryDurationMs(5_000)
})

const rt = runtimes()[0]
const inputs = (extra: Record<string, string> = {}) => ({ model_id: emu.demoModelId, api_key: emu.keys.full, base_url: emu.url, ...extra })

function run(opts: Partial<RunOptions>): Promise<ActionRun> {
  return runAction({ nodePath: rt.path, killAfterMs: 60_000, inputs: inputs(), eventName: 'push', ...opts })
}

const modelRuns = () => emu.control.runs().filter((r) => r.model_id === emu.demoModelId)
const cancelsOf = (runId: string) => emu.requestLog.filter((e) => e.endpoint === 'cancelRun' && e.path.includes(runId)).length

/** The answer to POST /run is held (the run is created) for a minute. */
function holdTriggerAnswer(): void {
  emu.control.setFaults({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['hang'], hangMs: 60_000, maxFaults: 1 })
}

describe(`signals through the bundle (${rt.name})`, () => {
  it('SIGINT while the answer to POST /run is pending: the main step finds the run it created, cancels it once, and fails', async () => {
    holdTriggerAnswer()
    const before = new Set(modelRuns().map((r) => r.run_id))
    const r = await run({
      onSpawn: (child) => {
        void waitFor('the run to be created', () => modelRuns().some((x) => !before.has(x.run_id))).then(() => child.kill('SIGINT'))
      }
    })
    const created = modelRuns().filter((x) => !before.has(x.run_id))
    expect(created).toHaveLength(1)
    const runId = created[0].run_id
    expect(r.main.signal).toBeNull()
    expect(r.main.code).not.toBe(0)
    expect(r.main.outputs.result).toBe('error')
    expect(r.main.stdout).toMatch(new RegExp(`interrupted trigger created run ${runId}`))
    expect(r.main.state.cancel_requested).toBe(runId)
    await waitFor('the run to be cancelled', () => modelRuns().find((x) => x.run_id === runId)?.status === 'cancelled')
    // One cancel, from the main step; the post step sent none.
    expect(cancelsOf(runId)).toBe(1)
    expect(r.post.code).toBe(0)
  }, 90_000)

  it('the main step killed while POST /run is pending: the post step finds the run by the recorded intent and cancels it', async () => {
    holdTriggerAnswer()
    const before = new Set(modelRuns().map((r) => r.run_id))
    const r = await run({
      onSpawn: (child) => {
        void waitFor('the run to be created', () => modelRuns().some((x) => !before.has(x.run_id))).then(() => child.kill('SIGKILL'))
      }
    })
    expect(r.main.signal).toBe('SIGKILL')
    expect(r.main.state.run_id).toBeUndefined()
    expect(JSON.parse(r.main.state.trigger_intent)).toMatchObject({ modelId: emu.demoModelId, categories: [] })
    const runId = modelRuns().find((x) => !before.has(x.run_id))!.run_id
    expect(r.post.stdout).toMatch(new RegExp(`interrupted trigger created run ${runId}`))
    await waitFor('the run to be cancelled', () => modelRuns().find((x) => x.run_id === runId)?.status === 'cancelled')
    expect(cancelsOf(runId)).toBe(1)
  }, 90_000)

  it('SIGINT during the result reads: the step stops reading, writes what it has, and never passes', async () => {
    emu.control.setCategoryDurationMs(20)
    // The agent is clean: read whole, this run would pass. Coverage answers are held.
    emu.demoAgent.setAllVulnerable(false)
    emu.control.setFaults({ seed: 1, rate: 0, endpoints: { getCoverage: 1 }, kinds: ['hang'], hangMs: 60_000 })
    const r = await run({
      onSpawn: (child) => {
        void waitFor('the coverage read', () => emu.requestLog.some((e) => e.endpoint === 'getCoverage')).then(() => child.kill('SIGINT'))
      }
    })
    expect(r.main.signal).toBeNull()
    expect(r.main.code).not.toBe(0)
    expect(r.main.outputs.result).toBe('error')
    expect(r.main.outputs.run_id).toBeTruthy()
    expect(r.main.outputs.report_path).toBeTruthy()
    expect(r.main.stdout).toMatch(/the step was cancelled while the results were read/)
    expect(r.main.stdout).toMatch(/Coverage was not read: the step was cancelled/)
  }, 90_000)
})
