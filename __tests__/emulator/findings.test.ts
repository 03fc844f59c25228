import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { CodedErrorBody, Finding, FindingList, ProfileResponse, ValidateFindingResponse } from '../../src/service/contract/index.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { api, demoCredential, runToEnd, waitFor, waitIdle } from '../__fixtures__/emulator-helpers.js'

let emu: Emulator

beforeAll(async () => {
  emu = await startEmulator({ categoryDurationMs: 20, attacksPerCategory: 2, validationQuickMs: 150, allowLoopbackTargets: true })
})
afterAll(async () => {
  await emu.stop()
})
beforeEach(async () => {
  emu.demoAgent.setAvailable(true)
  emu.demoAgent.setReplyDelayMs(0)
  emu.demoAgent.setAllVulnerable(false)
  emu.demoAgent.setVulnerable('prompt_injection', true)
  emu.demoAgent.setVulnerable('system_prompt_leakage', true)
  emu.control.setLimits({ validationConcurrency: 2, dailyReplayCap: 100 })
  await waitIdle(emu)
})

function expectCoded(r: { status: number; json: unknown }, status: number, code: string): void {
  expect(r.status).toBe(status)
  expect(CodedErrorBody.parse(r.json).detail.code).toBe(code)
}

/** A completed run's prompt_injection finding (high). */
async function freshFinding(key: 'full' | 'redacted' = 'full'): Promise<{ runId: string; finding: Finding }> {
  const runId = await runToEnd(emu, key === 'full' ? emu.demoModelId : emu.demoModels.redacted, key, ['prompt_injection', 'jailbreak'])
  const list = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { key })).json)
  return { runId, finding: list.findings.find((f) => f.category === 'prompt_injection')! }
}

async function closeFixed(id: string): Promise<void> {
  const r = await api(emu, 'PATCH', `/api/v1/findings/${id}/close`, { body: { status: 'fixed', explanation: 'patched the system prompt' } })
  expect(r.status).toBe(200)
  expect(Finding.parse(r.json).status).toBe('fixed')
}

describe('GET /run/{id}/findings', () => {
  it('returns findings with attacks, replay steps recording the request (Authorization included) and filters', async () => {
    const runId = await runToEnd(emu, emu.demoModelId)
    const all = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json)
    expect(all.count).toBe(2)
    const pi = all.findings.find((f) => f.category === 'prompt_injection')!
    expect(pi).toMatchObject({ lens: 'security', severity: 'high', status: 'open' })
    expect(pi.attacks.length).toBe(2)
    const step = pi.attacks[0].replay_script[0]
    expect(step).toMatchObject({ step: 'chat', method: 'POST', response_status: 200 })
    expect(step.headers?.authorization).toBe(`Bearer ${demoCredential(emu)}`)
    expect(pi.attacks[0].last_replay_status).toBe('pending')
    expect(pi.attacks[0].last_replayed_at).toBeNull()
    // attacker-shaped text reaches the findings (reports must escape it)
    const text = JSON.stringify(all)
    for (const needle of ['@channel', '![status](', '<img', '```']) expect(text).toContain(needle)

    const high = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { query: { min_severity: 'high' } })).json)
    expect(high.findings.map((f) => f.category)).toEqual(['prompt_injection'])
    expect(FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { query: { status: 'dismissed' } })).json).count).toBe(
      0
    )
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { query: { min_severity: 'severe' } }), 400, 'invalid_min_severity')
    expectCoded(await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { query: { status: 'FIXED_VERIFIED' } }), 400, 'invalid_status')
  })

  it('withholds proof for a redacted plan: same count and verdict, no attacks, [redacted] text; close/validate 403', async () => {
    const { runId, finding } = await freshFinding('redacted')
    expect(finding).toMatchObject({ description: '[redacted]', expected_behavior: '[redacted]', attacks: [], severity: 'high' })
    const s = (await api(emu, 'GET', `/api/v1/run/${runId}`, { key: 'redacted', query: { min_severity: 'high' } })).json
    expect(s.verdict).toBe('fail')
    expectCoded(
      await api(emu, 'PATCH', `/api/v1/findings/${finding.finding_id}/close`, {
        key: 'redacted',
        body: { status: 'fixed', explanation: 'x' }
      }),
      403,
      'proof_withheld'
    )
    expectCoded(await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`, { key: 'redacted' }), 403, 'proof_withheld')
  })
})

describe('PATCH /findings/{id}/close', () => {
  it('closes as fixed, and the verdict of the run follows (fail iff an open finding at/above)', async () => {
    const { runId, finding } = await freshFinding()
    expect((await api(emu, 'GET', `/api/v1/run/${runId}`, { query: { min_severity: 'high' } })).json.verdict).toBe('fail')
    await closeFixed(finding.finding_id)
    expect((await api(emu, 'GET', `/api/v1/run/${runId}`, { query: { min_severity: 'high' } })).json.verdict).toBe('pass')
    const fixed = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { query: { status: 'fixed' } })).json)
    expect(fixed.findings.map((f) => f.finding_id)).toEqual([finding.finding_id])
  })

  it('dismisses with a reason code and adds a profile dismissal', async () => {
    const { finding } = await freshFinding()
    const r = await api(emu, 'PATCH', `/api/v1/findings/${finding.finding_id}/close`, {
      body: { status: 'dismissed', explanation: 'test tenant only', reason_code: 'false_positive' }
    })
    expect(r.status).toBe(200)
    expect(Finding.parse(r.json).status).toBe('dismissed')
    const p = ProfileResponse.parse((await api(emu, 'GET', `/api/v1/model/${emu.demoModelId}/profile`)).json)
    const d = p.dismissals.find((x) => x.finding_id === finding.finding_id)!
    expect(d).toMatchObject({ category: 'prompt_injection', reason_code: 'false_positive' })
    expect(d.reason_text).toMatch(/^\[UNTRUSTED:[0-9a-f]+\]test tenant only\[\/UNTRUSTED:[0-9a-f]+\]$/)
  })

  it.each([
    [{ status: 'resolved', explanation: 'x' }, 'status'],
    [{ status: 'fixed', explanation: '   ' }, 'explanation'],
    [{ status: 'fixed', explanation: 'x'.repeat(4001) }, 'explanation'],
    [{ status: 'fixed' }, 'explanation'],
    [{ status: 'dismissed', explanation: 'why' }, 'reason_code'],
    [{ status: 'dismissed', explanation: 'why', reason_code: 'because' }, 'reason_code'],
    [{ status: 'fixed', explanation: 'x', category: 'jailbreak' }, 'category']
  ])('422 for %j and the finding is unchanged', async (body, field) => {
    const { finding } = await freshFinding()
    const before = emu.control.snapshot()
    const r = await api(emu, 'PATCH', `/api/v1/findings/${finding.finding_id}/close`, { body })
    expect(r.status).toBe(422)
    expect(Array.isArray(r.json.detail)).toBe(true)
    expect(r.json.detail.map((d: { loc: string[] }) => d.loc[1])).toContain(field)
    expect(emu.control.snapshot()).toBe(before)
  })

  it('404 for an unknown finding or another workspace', async () => {
    const { finding } = await freshFinding()
    expectCoded(
      await api(emu, 'PATCH', '/api/v1/findings/fnd_nope/close', { body: { status: 'fixed', explanation: 'x' } }),
      404,
      'not_found'
    )
    expectCoded(
      await api(emu, 'PATCH', `/api/v1/findings/${finding.finding_id}/close`, {
        key: 'other',
        body: { status: 'fixed', explanation: 'x' }
      }),
      404,
      'not_found'
    )
    expectCoded(await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`, { key: 'other' }), 404, 'not_found')
  })
})

describe('POST /findings/{id}/validate', () => {
  it('not_eligible for a finding not marked fixed (no replay spent)', async () => {
    const { finding } = await freshFinding()
    const r = ValidateFindingResponse.parse((await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`)).json)
    expect(r).toMatchObject({ verdict: 'not_eligible', replay_run_id: '' })
    expect(r.finding.status).toBe('open')
    expect(r.finding.attacks.every((a) => a.last_replay_status === 'pending')).toBe(true)
  })

  it('fixed -> resolved -> FIXED_VERIFIED when the attacks no longer reproduce', async () => {
    const { finding } = await freshFinding()
    await closeFixed(finding.finding_id)
    emu.demoAgent.setVulnerable('prompt_injection', false)
    const r = ValidateFindingResponse.parse((await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`)).json)
    expect(r.verdict).toBe('resolved')
    expect(r.replay_run_id).not.toBe('')
    expect(r.finding.status).toBe('FIXED_VERIFIED')
    expect(r.finding.attacks.every((a) => a.last_replay_status === 'not_reproduced' && a.last_replayed_at !== null)).toBe(true)
  })

  it('fixed -> still_broken -> open when an attack still reproduces', async () => {
    const { finding } = await freshFinding()
    await closeFixed(finding.finding_id)
    const r = ValidateFindingResponse.parse((await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`)).json)
    expect(r.verdict).toBe('still_broken')
    expect(r.finding.status).toBe('open')
    expect(r.finding.attacks.every((a) => a.last_replay_status === 'reproduced')).toBe(true)
  })

  it('inconclusive replays (target down) are still_broken', async () => {
    const { finding } = await freshFinding()
    await closeFixed(finding.finding_id)
    emu.demoAgent.setAvailable(false)
    const r = ValidateFindingResponse.parse((await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`)).json)
    expect(r.verdict).toBe('still_broken')
    expect(r.finding.attacks.every((a) => a.last_replay_status === 'inconclusive')).toBe(true)
  })

  it('validating with replay_run_id when the replay is slow; 409 meanwhile; result read later through the list', async () => {
    const { runId, finding } = await freshFinding()
    await closeFixed(finding.finding_id)
    emu.demoAgent.setVulnerable('prompt_injection', false)
    emu.demoAgent.setReplyDelayMs(400)
    const r = ValidateFindingResponse.parse((await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`)).json)
    expect(r.verdict).toBe('validating')
    expect(r.replay_run_id).toMatch(/^rpl_/)
    expect(r.finding.status).toBe('fixed')
    const again = await api(emu, 'POST', `/api/v1/findings/${finding.finding_id}/validate`)
    expectCoded(again, 409, 'validation_in_progress')
    const done = await waitFor('the replay to finish', async () => {
      const list = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json)
      const f = list.findings.find((x) => x.finding_id === finding.finding_id)!
      return f.status !== 'fixed' ? f : null
    })
    expect(done.status).toBe('FIXED_VERIFIED')
  })

  it('429 replay_cap_exceeded with Retry-After for the concurrency and the daily cap', async () => {
    emu.control.setLimits({ validationConcurrency: 1 })
    const a = await freshFinding()
    const b = await freshFinding()
    await closeFixed(a.finding.finding_id)
    await closeFixed(b.finding.finding_id)
    emu.demoAgent.setReplyDelayMs(400)
    expect((await api(emu, 'POST', `/api/v1/findings/${a.finding.finding_id}/validate`)).json.verdict).toBe('validating')
    const before = emu.control.snapshot()
    const r = await api(emu, 'POST', `/api/v1/findings/${b.finding.finding_id}/validate`)
    expectCoded(r, 429, 'replay_cap_exceeded')
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(emu.control.snapshot()).toBe(before)
    await waitFor(
      'the first replay',
      async () => (await api(emu, 'POST', `/api/v1/findings/${a.finding.finding_id}/validate`)).status === 200
    )
    emu.demoAgent.setReplyDelayMs(0)
    emu.control.setLimits({ validationConcurrency: 5, dailyReplayCap: 0 })
    const d = await api(emu, 'POST', `/api/v1/findings/${b.finding.finding_id}/validate`)
    expectCoded(d, 429, 'replay_cap_exceeded')
    expect(Number(d.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it('422 replay_unwireable for a websocket target (runs over websocket still work)', async () => {
    const reg = await api(emu, 'POST', '/api/v1/model', {
      body: {
        name: 'ws agent',
        config: { endpoint_url: `${emu.demoAgent.url.replace('http', 'ws')}/ws`, response_field: 'output.text', transport: 'websocket' },
        auth_type: 'bearer',
        credential: demoCredential(emu)
      }
    })
    expect(reg.status).toBe(201)
    const runId = await runToEnd(emu, reg.json.model_id, 'full', ['prompt_injection'])
    expect((await api(emu, 'GET', `/api/v1/run/${runId}`)).json.status).toBe('completed')
    const f = FindingList.parse((await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json).findings[0]
    await closeFixed(f.finding_id)
    expectCoded(await api(emu, 'POST', `/api/v1/findings/${f.finding_id}/validate`), 422, 'replay_unwireable')
  })
})
