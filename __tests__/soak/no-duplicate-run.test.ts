/**
 * No duplicate runs: POST /api/v1/run is not idempotent, so a
 * trigger whose answer is lost must never leave two runs. Deterministic:
 * exactly the first POST /run of a gate gets one fault (maxFaults 1, only the
 * triggerRun endpoint), against the emulator over real HTTP.
 *
 * - The handler ran (reset after it answered, half a 202 body, an answer held
 *   past the request timeout): the run exists; the gate must find it in the
 *   run list and continue with it (recovered), without a second POST.
 * - The handler did not run (5xx, reset before, an HTML 200 from a portal,
 *   429): no run exists; the gate must trigger again, and exactly one run
 *   exists afterwards.
 * Either way the result is the fault-free result.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { createClient } from '../../src/service/client.js'
import { systemClock, type Deadline } from '../../src/util/clock.js'
import type { FaultKind } from '../../src/emulator/faults.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { assess, type GateOutcome } from '../../src/gate/assess-run.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const REQUEST_TIMEOUT_MS = 500

async function emulator(): Promise<Emulator> {
  // Default vulnerabilities of the demo agent: one high and one medium finding, so the result is `fail`.
  return startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 20, attacksPerCategory: 1 })
}

async function gate(emu: Emulator, modelId = emu.demoModelId): Promise<GateOutcome> {
  return assess(
    {
      makeApi: (deadline: Deadline) =>
        createClient({
          baseUrl: emu.url,
          apiKey: emu.keys.full,
          deadline,
          requestTimeoutMs: REQUEST_TIMEOUT_MS,
          retryPolicy: {
            maxAttempts: 8,
            baseDelayMs: 20,
            maxDelayMs: 200,
            maxRetryAfterMs: 5_000,
            minRetryAfterMs: 20,
            maxMalformedAttempts: 3
          }
        }),
      clock: systemClock,
      signal: new AbortController().signal,
      log: recordingLog(),
      onRunStarted: () => {},
      onRunSettled: () => {}
    },
    { modelId, categories: [], minSeverity: 'high', timeoutMs: 60_000 }
  )
}

const triggers = (emu: Emulator) => emu.requestLog.filter((e) => e.endpoint === 'triggerRun')

let baseline: GateOutcome
beforeAll(async () => {
  const emu = await emulator()
  try {
    baseline = await gate(emu)
  } finally {
    await emu.stop()
  }
})

describe('a lost or failed trigger never leaves two runs', () => {
  it('the fault-free baseline fails on the default vulnerabilities', () => {
    expect(baseline.decision.result).toBe('fail')
    expect(baseline.triggered.recovered).toBe(false)
  })

  // [kind, whether the service's handler ran (a run was created) before the fault hit]
  const table: [FaultKind, boolean][] = [
    ['reset_after', true],
    ['truncated', true],
    ['hang', true],
    ['status500', false],
    ['status502', false],
    ['status503', false],
    ['status504', false],
    ['reset_before', false],
    ['non_json', false],
    ['burst429', false]
  ]

  it.concurrent.each(table)('first POST /run gets %s (handler ran: %s)', async (kind, handlerRan) => {
    const emu = await emulator()
    try {
      emu.control.setFaults({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: [kind], maxFaults: 1, hangMs: 2_000 })
      const outcome = await gate(emu)

      // The fault did hit the first trigger, and only it.
      expect(triggers(emu).map((e) => e.fault)).toEqual(handlerRan ? [kind] : [kind, null])
      // Exactly one run of the model, and the gate continued with it.
      const runs = emu.control.runs().filter((r) => r.model_id === emu.demoModelId)
      expect(runs.map((r) => r.run_id)).toEqual([outcome.triggered.runId])
      expect(outcome.triggered.recovered).toBe(handlerRan)
      // The same result as without faults.
      expect(outcome.decision.result).toBe(baseline.decision.result)
      expect(outcome.decision.openAtOrAbove).toBe(baseline.decision.openAtOrAbove)
      expect(outcome.run?.status).toBe('completed')
    } finally {
      await emu.stop()
    }
  })

  it.concurrent('a reset after the service accepted the trigger, on the trigger of each of 20 concurrent gates: one run each', async () => {
    // Separate models (one gate each), so each gate's run list holds only its own run (see the known bug below).
    const emu = await emulator()
    try {
      const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full })
      const models: string[] = []
      for (let i = 0; i < 20; i++) {
        const { model_id } = await api.registerModel({
          name: `No-duplicate model ${i}`,
          config: { endpoint_url: `${emu.demoAgent.url}/chat/open`, response_field: 'output.text' },
          auth_type: 'none'
        })
        models.push(model_id)
      }
      // The first 20 triggers get a reset after the handler ran: one per gate if none is retried.
      emu.control.setFaults({ seed: 7, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['reset_after'], maxFaults: 20 })
      const outcomes = await Promise.all(models.map((m) => gate(emu, m)))
      const seen = models.map((m, i) => ({
        model: m,
        runs: emu.control
          .runs()
          .filter((r) => r.model_id === m)
          .map((r) => r.run_id),
        recovered: outcomes[i].triggered.recovered,
        result: outcomes[i].decision.result
      }))
      expect(seen).toEqual(
        models.map((m, i) => ({ model: m, runs: [outcomes[i].triggered.runId], recovered: true, result: baseline.decision.result }))
      )
      expect(triggers(emu).map((e) => e.fault)).toEqual(Array.from({ length: 20 }, () => 'reset_after'))
    } finally {
      await emu.stop()
    }
  })

  /**
   * Back to back on one model: the previous gate's run started a moment
   * before. A lost answer must not be matched to it (trigger.ts takes the
   * model's existing runs as foreign before it triggers).
   */
  it.concurrent("back-to-back gates on one model: a 502 on the second trigger does not adopt the first gate's run", async () => {
    const emu = await emulator()
    try {
      const first = await gate(emu)
      emu.demoAgent.setAllVulnerable(false) // the second gate must pass: adopting the first run would fail it
      emu.control.setFaults({ seed: 1, rate: 0, endpoints: { triggerRun: 1 }, kinds: ['status502'], maxFaults: 1 })
      const second = await gate(emu)
      const runs = emu.control.runs().filter((r) => r.model_id === emu.demoModelId)
      expect(runs).toHaveLength(2)
      expect(second.triggered.runId).not.toBe(first.triggered.runId)
      expect(second.decision.result).toBe('pass')
    } finally {
      await emu.stop()
    }
  })
})
