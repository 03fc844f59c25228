/**
 * Two gates of one model at once, in-process main steps
 * against the emulator over real HTTP. Gate A asks for prompt_injection (the
 * demo agent is clean there: pass), gate B for jailbreak (the agent is
 * vulnerable there: fail). B's trigger gets an injected fault while A's run
 * starts. Neither may pass on the other's run, neither may cancel the
 * other's run, and every run either created has ended when both are done.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { createClient } from '../../src/service/client.js'
import { systemClock, type Deadline } from '../../src/util/clock.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import type { FaultKind } from '../../src/emulator/faults.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import type { ActionInputs } from '../../src/action/inputs/read-inputs.js'
import { fakeActionIO, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { waitFor } from '../__fixtures__/emulator-helpers.js'

const POLICY = { maxAttempts: 8, baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 5_000, minRetryAfterMs: 20, maxMalformedAttempts: 3 }

let emu: Emulator
beforeEach(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 150, attacksPerCategory: 1 })
  emu.demoAgent.setAllVulnerable(false)
  emu.demoAgent.setVulnerable('jailbreak', true)
})
afterEach(async () => {
  await emu.stop()
})

function io(categories: string): FakeActionIO {
  const out = fakeActionIO({
    model_id: emu.demoModelId,
    api_key: emu.keys.full,
    base_url: emu.url,
    categories,
    min_severity: 'high',
    timeout_minutes: '1'
  })
  out.env.RUNNER_TEMP = mkdtempSync(join(tmpdir(), 'same-model-'))
  return out
}

function client(inputs: ActionInputs, deadline: Deadline): ServiceApi {
  return createClient({
    baseUrl: inputs.baseUrl,
    apiKey: inputs.apiKey,
    clock: systemClock,
    deadline,
    requestTimeoutMs: 500,
    retryPolicy: POLICY
  })
}

/** The model's runs as the service lists them (with their plans). */
async function modelRuns() {
  const list = await createClient({ baseUrl: emu.url, apiKey: emu.keys.full }).listRuns(emu.demoModelId, { limit: 100 })
  return list.runs
}

const cancels = () => emu.requestLog.filter((e) => e.endpoint === 'cancelRun')

/**
 * Start B, whose first POST /run meets `fault`; once it has, start A and hold
 * B's failure until A's run exists, so B's recovery sees it.
 */
async function collide(fault: FaultKind) {
  emu.control.setFaults({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: [fault], maxFaults: 1, hangMs: 1_000 })
  const a = io('prompt_injection')
  const b = io('jailbreak')
  let startA!: () => void
  const bFaulted = new Promise<void>((resolve) => (startA = resolve))
  const bApi = (inputs: ActionInputs, deadline: Deadline): ServiceApi => {
    const real = client(inputs, deadline)
    let first = true
    return new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== 'triggerRun') return Reflect.get(target, prop, receiver)
        return async (...args: Parameters<ServiceApi['triggerRun']>) => {
          try {
            return await target.triggerRun(...args)
          } catch (err) {
            if (first) {
              first = false
              startA()
              await waitFor("A's run to start", async () =>
                (await modelRuns()).some((r) => r.categories_planned.includes('prompt_injection'))
              )
            }
            throw err
          }
        }
      }
    })
  }
  const mainB = runMain({ io: b, clock: systemClock, signal: new AbortController().signal, makeApi: bApi })
  await bFaulted
  const mainA = runMain({ io: a, clock: systemClock, signal: new AbortController().signal, makeApi: client })
  await Promise.all([mainA, mainB])
  return { a, b }
}

describe('two gates of one model, one trigger answer lost', () => {
  it("the issue's case: B's trigger gets a 502 (nothing created) while A's run starts; B fails closed, cancels nothing; A passes on its own run", async () => {
    const { a, b } = await collide('status502')
    expect(b.outputs.result).toBe('error')
    expect(b.failures.join('\n')).toMatch(
      /plans categories prompt_injection where this step asked for categories jailbreak: another workflow started it\. Not taking it, and not cancelling it/
    )
    expect(b.outputs.run_id).toBeUndefined()
    expect(a.outputs.result).toBe('pass')
    expect(a.failures).toEqual([])
    expect(cancels()).toEqual([])
    const runs = await modelRuns()
    expect(runs.map((r) => [r.run_id, r.categories_planned, r.status])).toEqual([[a.outputs.run_id, ['prompt_injection'], 'completed']])
  }, 60_000)

  it("B's trigger reached the service (reset after it answered) while A triggers: each gate gets its own run and its own result", async () => {
    const { a, b } = await collide('reset_after')
    expect(b.outputs.result).toBe('fail')
    expect(a.outputs.result).toBe('pass')
    expect(a.outputs.run_id).not.toBe(b.outputs.run_id)
    expect(cancels()).toEqual([])
    const runs = await modelRuns()
    const planOf = new Map(runs.map((r) => [r.run_id, r.categories_planned]))
    expect(planOf.get(a.outputs.run_id)).toEqual(['prompt_injection'])
    expect(planOf.get(b.outputs.run_id)).toEqual(['jailbreak'])
    expect(runs.every((r) => r.status === 'completed')).toBe(true)
  }, 60_000)
})
