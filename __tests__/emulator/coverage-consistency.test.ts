/**
 * The emulator's real runs never contradict themselves: read through the
 * typed client, their coverage agrees with the run status and the findings,
 * so decide() given the coverage (which fails closed on a contradiction)
 * reaches the same result as without it, and notes nothing about coverage.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { createClient } from '../../src/service/client.js'
import { SEVERITIES } from '../../src/service/contract/index.js'
import { decide } from '../../src/decision/decide.js'
import type { Emulator } from '../../src/emulator/server.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { api, trigger, waitFor, waitIdle, waitTerminal } from '../__fixtures__/emulator-helpers.js'

let emu: Emulator
let client: ServiceApi

beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 30, attacksPerCategory: 2 })
  client = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, requestTimeoutMs: 10_000 })
})
afterAll(async () => {
  await emu.stop()
})
beforeEach(async () => {
  emu.demoAgent.setAvailable(true)
  emu.demoAgent.setAllVulnerable(false)
  emu.control.setCategoryDurationMs(30)
  await waitIdle(emu)
})

/** Reads the ended run like the gate does and decides it at every threshold, with and without the coverage. */
async function expectConsistent(runId: string, expectedStatus: string): Promise<void> {
  const [coverage, findingList] = await Promise.all([client.getCoverage(runId), client.listFindings(runId)])
  for (const minSeverity of SEVERITIES) {
    const run = await client.getRun(runId, { min_severity: minSeverity })
    expect(run.status).toBe(expectedStatus)
    const input = {
      status: run.status,
      verdict: run.verdict,
      minSeverity,
      categoriesPlanned: run.categories_planned,
      categoriesCompleted: run.categories_completed,
      ingestIncomplete: false,
      findings: findingList.findings,
      coverageReadable: true
    }
    const without = decide(input)
    const withCoverage = decide({ ...input, coverage })
    expect([minSeverity, withCoverage.result, withCoverage.reason]).toEqual([minSeverity, without.result, without.reason])
    expect(withCoverage.notes).toEqual(without.notes)
  }
}

describe('coverage against the run and the findings, on real emulator runs', () => {
  it.each([
    [
      'every category vulnerable',
      () => {
        emu.demoAgent.setAllVulnerable(true)
      }
    ],
    [
      'the default vulnerabilities',
      () => {
        emu.demoAgent.setVulnerable('prompt_injection', true)
        emu.demoAgent.setVulnerable('system_prompt_leakage', true)
      }
    ],
    ['a clean agent', () => {}]
  ])('a completed run with %s', async (_name, setUp) => {
    setUp()
    const runId = await trigger(emu, emu.demoModelId)
    await waitTerminal(emu, runId)
    await expectConsistent(runId, 'completed')
  })

  it('a run cancelled after its first category', async () => {
    emu.demoAgent.setAllVulnerable(true)
    emu.control.setCategoryDurationMs(150)
    const runId = await trigger(emu, emu.demoModelId)
    await waitFor('a category', async () => (await api(emu, 'GET', `/api/v1/run/${runId}`)).json.categories_completed.length >= 1)
    await client.cancelRun(runId)
    await waitTerminal(emu, runId)
    await expectConsistent(runId, 'cancelled')
  })

  it('a run that ends in error when the target goes away', async () => {
    emu.demoAgent.setAllVulnerable(true)
    emu.control.setCategoryDurationMs(120)
    const runId = await trigger(emu, emu.demoModelId)
    await waitFor('a category', async () => (await api(emu, 'GET', `/api/v1/run/${runId}`)).json.categories_completed.length >= 1)
    emu.demoAgent.setAvailable(false)
    await waitTerminal(emu, runId)
    await expectConsistent(runId, 'error')
  })
})
