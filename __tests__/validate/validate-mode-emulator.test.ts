/**
 * validate mode end to end: the real HTTP client against the real emulator on
 * 127.0.0.1, real time. Each test starts its own emulator (fresh store), runs
 * an assessment of the demo model to completion, closes its findings as fixed,
 * then runs validate mode.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { Deadline, systemClock } from '../../src/util/clock.js'
import { createClient } from '../../src/service/client.js'
import type { Finding, FindingStatus } from '../../src/service/contract/index.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { WORKSPACE_PLANS } from '../../src/emulator/workspaces.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { runValidateMode, type ValidateModeResult } from '../../src/validate/validate-mode.js'
import { NOT_ATTEMPTED_DETAIL } from '../../src/validate/outcomes.js'

const CATEGORIES = ['prompt_injection', 'system_prompt_leakage']

let emu: Emulator | null = null
afterEach(async () => {
  await emu?.stop()
  emu = null
})

async function start(opts: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  emu = await startEmulator({ categoryDurationMs: 40, attacksPerCategory: 2, validationQuickMs: 1000, ...opts })
  return emu
}

/** Poll until `check` gives a value (a state, not a fixed sleep), or fail after `ms`. */
async function waitFor<T>(what: string, check: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v !== null) return v
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await systemClock.sleep(25)
  }
}

/** Run a focused assessment of the model to its end and return its findings. */
async function assess(api: ServiceApi, modelId: string): Promise<{ runId: string; findings: Finding[] }> {
  const t = await api.triggerRun({ model_id: modelId, categories: CATEGORIES })
  await waitFor('the run to end', async () => {
    const r = await api.getRun(t.run_id)
    return r.status === 'running' ? null : r
  })
  const list = await api.listFindings(t.run_id)
  return { runId: t.run_id, findings: list.findings }
}

async function closeAllFixed(api: ServiceApi, findings: Finding[]): Promise<void> {
  for (const f of findings) {
    const after = await api.closeFinding(f.finding_id, {
      status: 'fixed',
      explanation: 'Hardened the system prompt and added an output filter.'
    })
    expect(after.status).toBe('fixed')
  }
}

async function statusesOf(api: ServiceApi, runId: string): Promise<FindingStatus[]> {
  const list = await api.listFindings(runId)
  return list.findings.map((f) => f.status)
}

async function validate(api: ServiceApi, modelId: string, opts: { timeoutMs?: number; maxRuns?: number } = {}) {
  const log = recordingLog()
  const deadline = Deadline.after(systemClock, opts.timeoutMs ?? 40_000)
  const result: ValidateModeResult = await runValidateMode(
    { api, clock: systemClock, deadline, log },
    { modelId, maxRuns: opts.maxRuns ?? 20, failOnIncomplete: true }
  )
  return { result, log }
}

function validateCalls(e: Emulator): (number | 'reset')[] {
  return e.requestLog.filter((r) => r.endpoint === 'validateFinding').map((r) => r.status)
}

describe('validate mode against the emulator', () => {
  it('fixed -> validate -> resolved (FIXED_VERIFIED) once the demo agent is fixed', async () => {
    const e = await start()
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.full })
    e.demoAgent.setAllVulnerable(true)
    const { runId, findings } = await assess(api, e.demoModelId)
    expect(findings.length).toBe(CATEGORIES.length)
    await closeAllFixed(api, findings)
    e.demoAgent.setAllVulnerable(false)

    const { result, log } = await validate(api, e.demoModelId)

    expect(result.findings.map((f) => f.outcome)).toEqual(findings.map(() => 'resolved'))
    expect(result).toMatchObject({ resolved: findings.length, stillBroken: 0, notAttempted: 0, failed: false, runsScanned: 1 })
    for (const f of result.findings) {
      expect(f.finding_status).toBe('FIXED_VERIFIED')
      expect(f.run_id).toBe(runId)
      expect(f.attacks.length).toBeGreaterThan(0)
      expect(f.attacks.every((a) => a.last_replay_status === 'not_reproduced')).toBe(true)
    }
    expect(await statusesOf(api, runId)).toEqual(findings.map(() => 'FIXED_VERIFIED'))
    expect(log.lines.some((l) => l.line.startsWith('Validating 1/2: finding '))).toBe(true)

    // A second pass finds nothing left marked fixed.
    const again = await validate(api, e.demoModelId)
    expect(again.result.findings).toEqual([])
    expect(again.result.failed).toBe(false)
  })

  it('fixed -> validate -> still_broken, and the finding is open again, while the agent is still vulnerable', async () => {
    const e = await start()
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.full })
    e.demoAgent.setAllVulnerable(true)
    const { runId, findings } = await assess(api, e.demoModelId)
    await closeAllFixed(api, findings)

    const { result } = await validate(api, e.demoModelId)

    expect(result.stillBroken).toBe(findings.length)
    expect(result.failed).toBe(true)
    for (const f of result.findings) {
      expect(f.outcome).toBe('still_broken')
      expect(f.finding_status).toBe('open')
      expect(f.attacks.some((a) => a.last_replay_status === 'reproduced')).toBe(true)
    }
    expect(await statusesOf(api, runId)).toEqual(findings.map(() => 'open'))
  })

  it('a slow replay (verdict validating) is followed through the findings list to its end', async () => {
    const e = await start({ validationQuickMs: 50 })
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.full })
    e.demoAgent.setAllVulnerable(false)
    e.demoAgent.setVulnerable('prompt_injection', true)
    const { runId, findings } = await assess(api, e.demoModelId)
    expect(findings).toHaveLength(1)
    await closeAllFixed(api, findings)
    e.demoAgent.setAllVulnerable(false)
    e.demoAgent.setReplyDelayMs(400)

    const { result, log } = await validate(api, e.demoModelId)

    expect(result.findings[0]).toMatchObject({ outcome: 'resolved', finding_status: 'FIXED_VERIFIED', run_id: runId })
    expect(log.lines.some((l) => l.line.includes('verdict validating'))).toBe(true)
  })

  it('409: a validation already running is followed, not started again', async () => {
    const e = await start({ validationQuickMs: 50 })
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.full })
    e.demoAgent.setAllVulnerable(false)
    e.demoAgent.setVulnerable('prompt_injection', true)
    const { findings } = await assess(api, e.demoModelId)
    await closeAllFixed(api, findings)
    e.demoAgent.setAllVulnerable(false)
    e.demoAgent.setReplyDelayMs(600)
    // Someone else's validation, still running when validate mode starts.
    const other = await api.validateFinding(findings[0].finding_id)
    expect(other.verdict).toBe('validating')

    const { result, log } = await validate(api, e.demoModelId)

    expect(result.findings[0]).toMatchObject({ outcome: 'resolved', finding_status: 'FIXED_VERIFIED' })
    expect(validateCalls(e)).toEqual([200, 409])
    expect(log.lines.some((l) => l.line.includes('already running (409)'))).toBe(true)
  })

  it('429 validation concurrency: waits per Retry-After, then validates', async () => {
    const e = await start({ validationQuickMs: 50, limits: { validationConcurrency: 1 } })
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.full })
    e.demoAgent.setAllVulnerable(false)
    e.demoAgent.setVulnerable('prompt_injection', true)
    const older = await assess(api, e.demoModelId)
    const newer = await assess(api, e.demoModelId)
    await closeAllFixed(api, [...older.findings, ...newer.findings])
    e.demoAgent.setAllVulnerable(false)
    // Occupy the only replay slot with a validation of the older run's finding
    // (outside max_runs: 1), slow for its first attack only.
    e.demoAgent.setReplyDelayMs(2500)
    expect((await api.validateFinding(older.findings[0].finding_id)).verdict).toBe('validating')
    e.demoAgent.setReplyDelayMs(0)

    const { result, log } = await validate(api, e.demoModelId, { maxRuns: 1 })

    expect(result.findings).toHaveLength(1)
    expect(result.findings[0]).toMatchObject({ outcome: 'resolved', run_id: newer.runId })
    expect(validateCalls(e)).toContain(429)
    expect(validateCalls(e).at(-1)).toBe(200)
    expect(log.lines.some((l) => l.line.includes('Replay limit reached (429 replay_cap_exceeded'))).toBe(true)
  })

  it('429 whose Retry-After does not fit in timeout_minutes: every finding is not attempted', async () => {
    const e = await start({ limits: { validationConcurrency: 0 } })
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.full })
    e.demoAgent.setAllVulnerable(true)
    const { findings } = await assess(api, e.demoModelId)
    await closeAllFixed(api, findings)

    // The emulator asks for 2 s; 1.5 s are left.
    const { result } = await validate(api, e.demoModelId, { timeoutMs: 1_500 })

    expect(result.notAttempted).toBe(findings.length)
    expect(result.findings.every((f) => f.detail.startsWith(NOT_ATTEMPTED_DETAIL.capReached))).toBe(true)
    expect(result.failed).toBe(true)
    expect(validateCalls(e)).toEqual([429])
  })

  it('403 proof withheld (redacted key): explained once, nothing else tried', async () => {
    const e = await start()
    const plan = WORKSPACE_PLANS.redacted
    const modelId = e.demoModels.redacted
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.redacted })
    e.demoAgent.setAllVulnerable(true)
    // The findings were closed as fixed while the plan still included proof;
    // the plan withholds it now (a plan change; the dev plan is restored).
    plan.proofWithheld = false
    let findings: Finding[]
    try {
      findings = (await assess(api, modelId)).findings
      await closeAllFixed(api, findings)
    } finally {
      plan.proofWithheld = true
    }
    expect(findings.length).toBe(CATEGORIES.length)

    const { result } = await validate(api, modelId)

    expect(result.notAttempted).toBe(findings.length)
    for (const f of result.findings) {
      expect(f.outcome).toBe('not_attempted')
      expect(f.detail).toBe(NOT_ATTEMPTED_DETAIL.proofWithheld)
      expect(f.attacks).toEqual([]) // withheld: the list shows no attacks
    }
    expect(validateCalls(e)).toEqual([403])
    expect(result.failed).toBe(true)
  })

  it('a model without runs: nothing to validate, and that passes', async () => {
    const e = await start()
    const api = createClient({ baseUrl: e.url, apiKey: e.keys.full })
    const { result } = await validate(api, e.noConfigModelId)
    expect(result.findings).toEqual([])
    expect(result.failed).toBe(false)
    expect(result.reason).toMatch(/has no runs yet: nothing to validate/)
  })
})
