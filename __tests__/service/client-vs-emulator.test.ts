/**
 * Contract tests: the typed client against the real emulator over HTTP, for
 * every endpoint and every error row of section 7 the emulator can produce.
 * Statuses, codes and shapes are asserted through the client's typed errors.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createClient } from '../../src/service/client.js'
import { ENDPOINTS, PROBE_ERROR_CATEGORIES, REDACTED } from '../../src/service/contract/index.js'
import type { EndpointName, RunStatusResponse, Severity, FindingStatusFilter, RunStatusFilter } from '../../src/service/contract/index.js'
import { ServiceError } from '../../src/util/errors.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { startEmulator } from '../../src/emulator/server.js'
import type { Emulator } from '../../src/emulator/server.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const CATEGORY_MS = 30

let emu: Emulator
beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: CATEGORY_MS, validationQuickMs: 300 })
})
afterAll(async () => {
  await stopStarted(emu)
})

function api(key: string = emu.keys.full): ServiceApi {
  // One attempt: a contract test must see exactly what the emulator answered.
  return createClient({
    baseUrl: emu.url,
    apiKey: key,
    requestTimeoutMs: 10_000,
    retryPolicy: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0, minRetryAfterMs: 0, maxMalformedAttempts: 1 }
  })
}

async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError)
    return err as ServiceError
  }
  throw new Error('expected the call to be refused')
}

async function expectRefused(p: Promise<unknown>, status: number, code: string): Promise<ServiceError> {
  const err = await rejection(p)
  expect({ status: err.status, code: err.code }).toEqual({ status, code })
  expect(err.message.length).toBeGreaterThan(0)
  return err
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Polls until `check` returns a value (waiting for a state, bounded). */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, limitMs = 20_000): Promise<T> {
  const until = Date.now() + limitMs
  for (;;) {
    const v = await check()
    if (v !== undefined) return v
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await pause(20)
  }
}

function terminal(c: ServiceApi, runId: string): Promise<RunStatusResponse> {
  return eventually(`run ${runId} to end`, async () => {
    const r = await c.getRun(runId)
    return r.status === 'running' ? undefined : r
  })
}

async function registerOpenModel(name: string): Promise<string> {
  const r = await api().registerModel({
    name,
    config: { endpoint_url: `${emu.demoAgent.url}/chat/open`, response_field: 'output.text' },
    environment: 'dev',
    auth_type: 'none'
  })
  expect(r.connected).toBe(true)
  return r.model_id
}

// ---------------------------------------------------------------------------

describe('categories and models', () => {
  it('lists the security categories (at least 8) and other lenses', async () => {
    const sec = await api().listCategories()
    expect(sec.lens).toBe('security')
    expect(sec.categories.length).toBeGreaterThanOrEqual(8)
    for (const c of sec.categories) expect(c.key).toMatch(/^[a-z_]+$/)
    const safety = await api().listCategories({ lens: 'safety' })
    expect(safety.lens).toBe('safety')
    expect(safety.categories.map((c) => c.key)).not.toEqual(sec.categories.map((c) => c.key))
  })

  it('403 taxonomy_not_included for a trial workspace', async () => {
    await expectRefused(api(emu.keys.trial).listCategories(), 403, 'taxonomy_not_included')
  })

  it('lists the models of the caller workspace only', async () => {
    const mine = await api().listModels()
    const ids = mine.models.map((m) => m.model_id)
    expect(ids).toEqual(expect.arrayContaining([emu.demoModelId, emu.noConfigModelId]))
    const demo = mine.models.find((m) => m.model_id === emu.demoModelId)!
    expect(demo.has_agent_config).toBe(true)
    expect(demo.endpoint_host).toMatch(/^127\.0\.0\.1:\d+$/)
    expect(mine.models.find((m) => m.model_id === emu.noConfigModelId)!.has_agent_config).toBe(false)
    const theirs = await api(emu.keys.other).listModels()
    expect(theirs.models.map((m) => m.model_id)).not.toContain(emu.demoModelId)
    expect(theirs.models.map((m) => m.model_id)).toContain(emu.demoModels.other)
  })
})

describe('registering a target', () => {
  it('201 with a model id, and the model is listed', async () => {
    const id = await registerOpenModel('contract open agent')
    const listed = (await api().listModels()).models.find((m) => m.model_id === id)
    expect(listed).toMatchObject({ name: 'contract open agent', environment: 'dev', has_agent_config: true, latest_run_status: null })
  })

  it('422 probe failure (detail object) when the target does not answer like an agent', async () => {
    const err = await expectRefused(
      api().registerModel({ name: 'html page', config: { endpoint_url: `${emu.demoAgent.url}/html`, response_field: 'output.text' } }),
      422,
      'probe_failed'
    )
    expect(PROBE_ERROR_CATEGORIES).toContain(err.extra.error_category)
  })

  it('422 probe failure auth_failed with a wrong credential, and the credential is not echoed', async () => {
    const credential = 'wrong-credential-98765'
    const err = await expectRefused(
      api().registerModel({
        name: 'bad key',
        config: { endpoint_url: `${emu.demoAgent.url}/chat`, response_field: 'output.text' },
        auth_type: 'bearer',
        credential
      }),
      422,
      'probe_failed'
    )
    expect(err.extra.error_category).toBe('auth_failed')
    expect(JSON.stringify({ m: err.message, e: err.extra })).not.toContain(credential)
  })

  it('422 request validation (detail list)', async () => {
    const err = await expectRefused(
      api().registerModel({ name: '', config: { endpoint_url: 'https://x.example.com', response_field: 'r' } }),
      422,
      'validation_error'
    )
    expect(err.message).toMatch(/body\.name/)
    expect(Array.isArray(err.extra.issues)).toBe(true)
  })

  it('400 endpoint_rejected for a metadata address, before any connection', async () => {
    const before = emu.requestLog.filter((e) => e.endpoint === 'demo-agent').length
    await expectRefused(
      api().registerModel({ name: 'ssrf', config: { endpoint_url: 'http://169.254.169.254/latest/meta-data', response_field: 'r' } }),
      400,
      'endpoint_rejected'
    )
    await expectRefused(
      api().registerModel({ name: 'scheme', config: { endpoint_url: 'file:///etc/passwd', response_field: 'r' } }),
      400,
      'endpoint_rejected'
    )
    expect(emu.requestLog.filter((e) => e.endpoint === 'demo-agent').length).toBe(before)
  })
})

describe('a run to completed: status, verdict, coverage, findings, close, validate', () => {
  const planned = ['prompt_injection', 'system_prompt_leakage', 'jailbreak']
  let runId = ''

  beforeAll(async () => {
    emu.demoAgent.setAllVulnerable(false)
    emu.demoAgent.setVulnerable('prompt_injection', true)
    emu.demoAgent.setVulnerable('system_prompt_leakage', true)
    const t = await api().triggerRun({ model_id: emu.demoModelId, categories: planned })
    expect(t).toMatchObject({ model_id: emu.demoModelId, status: 'running' })
    runId = t.run_id
    const done = await terminal(api(), runId)
    expect(done.status).toBe('completed')
  })

  it('GET run: categories planned and completed; verdict only with min_severity', async () => {
    const r = await api().getRun(runId)
    expect(new Set(r.categories_planned)).toEqual(new Set(planned))
    expect(new Set(r.categories_completed)).toEqual(new Set(planned))
    expect(r.completed_at).not.toBeNull()
    expect(r.verdict ?? null).toBeNull()
    expect((await api().getRun(runId, { min_severity: 'low' })).verdict).toBe('fail')
  })

  it('coverage: one row per probed category; blocked categories have no worst severity', async () => {
    const cov = await api().getCoverage(runId)
    expect(cov.run_status).toBe('completed')
    expect(new Set(cov.categories.map((c) => c.category))).toEqual(new Set(planned))
    const jail = cov.categories.find((c) => c.category === 'jailbreak')!
    expect(jail.attacks_succeeded).toBe(0)
    expect(jail.worst_severity).toBeNull()
    const pi = cov.categories.find((c) => c.category === 'prompt_injection')!
    expect(pi.attacks_succeeded).toBeGreaterThan(0)
    expect(pi.worst_severity).not.toBeNull()
    expect(pi.owasp).toMatch(/^LLM\d\d/)
  })

  it('findings: count matches, filters apply, and bad filters are 400', async () => {
    const all = await api().listFindings(runId)
    expect(all.count).toBe(all.findings.length)
    expect(all.findings.length).toBeGreaterThan(0)
    expect(all.findings.every((f) => f.status === 'open' && f.attacks.length > 0)).toBe(true)
    const critical = await api().listFindings(runId, { min_severity: 'critical' })
    expect(critical.findings.every((f) => f.severity === 'critical')).toBe(true)
    expect((await api().listFindings(runId, { status: 'fixed' })).count).toBe(0)
    await expectRefused(api().listFindings(runId, { status: 'bogus' as FindingStatusFilter }), 400, 'invalid_status')
    await expectRefused(api().listFindings(runId, { min_severity: 'urgent' as Severity }), 400, 'invalid_min_severity')
    await expectRefused(api().getRun(runId, { min_severity: 'urgent' as Severity }), 400, 'invalid_min_severity')
  })

  it('list runs: most recent first, status filter, limit; bad status 400, bad limit 422', async () => {
    const list = await api().listRuns(emu.demoModelId, { limit: 1 })
    expect(list.returned).toBe(1)
    expect(list.runs[0].run_id).toBe(runId)
    expect(list.total).toBeGreaterThanOrEqual(1)
    expect((await api().listRuns(emu.demoModelId, { status: 'completed' })).runs.map((r) => r.run_id)).toContain(runId)
    await expectRefused(api().listRuns(emu.demoModelId, { status: 'weird' as RunStatusFilter }), 400, 'invalid_status')
    await expectRefused(api().listRuns(emu.demoModelId, { limit: 500 }), 422, 'validation_error')
  })

  it('validate: not_eligible while open; 429 at the replay cap; resolved -> FIXED_VERIFIED once fixed', async () => {
    const f = (await api().listFindings(runId)).findings.find((x) => x.category === 'prompt_injection')!
    const early = await api().validateFinding(f.finding_id)
    expect(early).toMatchObject({ verdict: 'not_eligible', replay_run_id: '' })

    await expectRefused(api().closeFinding(f.finding_id, { status: 'fixed', explanation: '   ' }), 422, 'validation_error')
    const closed = await api().closeFinding(f.finding_id, { status: 'fixed', explanation: 'input filter added' })
    expect(closed.status).toBe('fixed')
    // closing again is idempotent in effect
    expect((await api().closeFinding(f.finding_id, { status: 'fixed', explanation: 'input filter added' })).status).toBe('fixed')

    emu.control.setLimits({ dailyReplayCap: 0 })
    try {
      const capped = await expectRefused(api().validateFinding(f.finding_id), 429, 'replay_cap_exceeded')
      expect(capped.transient).toBe(true)
    } finally {
      emu.control.setLimits({ dailyReplayCap: 100 })
    }

    emu.demoAgent.setVulnerable('prompt_injection', false)
    const v = await api().validateFinding(f.finding_id)
    expect(['resolved', 'validating']).toContain(v.verdict)
    const final = await eventually('the validation to settle', async () => {
      const now = (await api().listFindings(runId)).findings.find((x) => x.finding_id === f.finding_id)!
      return now.status === 'fixed' ? undefined : now
    })
    expect(final.status).toBe('FIXED_VERIFIED')
  })

  it('validate: validating with a replay run id when the target is slow; 409 while it runs', async () => {
    const f = (await api().listFindings(runId)).findings.find((x) => x.category === 'system_prompt_leakage')!
    await api().closeFinding(f.finding_id, { status: 'fixed', explanation: 'prompt hardened' })
    emu.demoAgent.setReplyDelayMs(800)
    try {
      const v = await api().validateFinding(f.finding_id)
      expect(v.verdict).toBe('validating')
      expect(v.replay_run_id).not.toBe('')
      await expectRefused(api().validateFinding(f.finding_id), 409, 'validation_in_progress')
      const settled = await eventually('the slow validation to settle', async () => {
        const now = (await api().listFindings(runId)).findings.find((x) => x.finding_id === f.finding_id)!
        return now.status === 'fixed' ? undefined : now
      })
      // still vulnerable to system_prompt_leakage: still_broken sends it back to open
      expect(settled.status).toBe('open')
    } finally {
      emu.demoAgent.setReplyDelayMs(0)
    }
  })

  it('validate: 422 replay_unwireable for a target the service cannot replay (websocket transport)', async () => {
    emu.demoAgent.setVulnerable('prompt_injection', true)
    const credential = emu.control.registeredCredentials().find((x) => x.startsWith('demo-target-secret-full-'))!
    const reg = await api().registerModel({
      name: 'contract ws target',
      config: { endpoint_url: `${emu.demoAgent.url.replace('http', 'ws')}/ws`, response_field: 'output.text', transport: 'websocket' },
      auth_type: 'bearer',
      credential
    })
    const t = await api().triggerRun({ model_id: reg.model_id, categories: ['prompt_injection'] })
    expect((await terminal(api(), t.run_id)).status).toBe('completed')
    const f = (await api().listFindings(t.run_id)).findings[0]
    await api().closeFinding(f.finding_id, { status: 'fixed', explanation: 'guard added' })
    await expectRefused(api().validateFinding(f.finding_id), 422, 'replay_unwireable')
  })

  it('dismissing a finding records a profile dismissal', async () => {
    const f = (await api().listFindings(runId, { status: 'open' })).findings[0]
    const d = await api().closeFinding(f.finding_id, { status: 'dismissed', explanation: 'only test data', reason_code: 'data_is_public' })
    expect(d.status).toBe('dismissed')
    const profile = await api().getProfile(emu.demoModelId)
    expect(profile.dismissals.map((x) => x.finding_id)).toContain(f.finding_id)
    expect((await api().listFindings(runId, { status: 'dismissed' })).findings.map((x) => x.finding_id)).toContain(f.finding_id)
  })

  it('another workspace gets 404 for every id of this one', async () => {
    const other = api(emu.keys.other)
    const fid = (await api().listFindings(runId)).findings[0].finding_id
    await expectRefused(other.getRun(runId), 404, 'not_found')
    await expectRefused(other.getCoverage(runId), 404, 'not_found')
    await expectRefused(other.listFindings(runId), 404, 'not_found')
    await expectRefused(other.listRuns(emu.demoModelId), 404, 'not_found')
    await expectRefused(other.getProfile(emu.demoModelId), 404, 'not_found')
    await expectRefused(other.closeFinding(fid, { status: 'fixed', explanation: 'x' }), 404, 'not_found')
    await expectRefused(other.validateFinding(fid), 404, 'not_found')
    await expectRefused(other.triggerRun({ model_id: emu.demoModelId }), 404, 'not_found')
  })
})

describe('a run in progress, then cancelled', () => {
  it('409 run_in_progress for coverage and findings, 409 run_active, cancel 202, then 409 run_not_running', async () => {
    const modelId = await registerOpenModel('contract cancel target')
    emu.control.setCategoryDurationMs(2000)
    try {
      const t = await api().triggerRun({ model_id: modelId })
      await expectRefused(api().getCoverage(t.run_id), 409, 'run_in_progress')
      await expectRefused(api().listFindings(t.run_id), 409, 'run_in_progress')
      const active = await expectRefused(api().triggerRun({ model_id: modelId }), 409, 'run_active')
      expect(active.extra.run_id).toBe(t.run_id)
      expect((await api().listRuns(modelId, { status: 'running' })).runs.map((r) => r.run_id)).toEqual([t.run_id])
      await expectRefused(api(emu.keys.readonly).cancelRun(t.run_id), 403, 'insufficient_scope')

      const c = await api().cancelRun(t.run_id)
      expect(c).toMatchObject({ run_id: t.run_id, status: 'running', cancel_requested: true })
      const done = await terminal(api(), t.run_id)
      expect(done.status).toBe('cancelled')
      expect(done.categories_completed.length).toBeLessThan(done.categories_planned.length)
      expect(['pass', 'fail']).toContain((await api().getRun(t.run_id, { min_severity: 'high' })).verdict)

      await expectRefused(api().cancelRun(t.run_id), 409, 'run_not_running')
      const cov = await api().getCoverage(t.run_id)
      expect(cov.run_status).toBe('cancelled')
      expect(new Set(cov.categories.map((r) => r.category))).toEqual(new Set(done.categories_completed))
    } finally {
      emu.control.setCategoryDurationMs(CATEGORY_MS)
    }
  })
})

describe('trigger refusals', () => {
  it('400 invalid_categories with the invalid keys, 400 incomplete_config, 422 for an empty model id', async () => {
    const bad = await expectRefused(
      api().triggerRun({ model_id: emu.demoModelId, categories: ['nope', 'prompt_injection'] }),
      400,
      'invalid_categories'
    )
    expect(bad.extra.invalid).toEqual(['nope'])
    await expectRefused(api().triggerRun({ model_id: emu.noConfigModelId }), 400, 'incomplete_config')
    await expectRefused(api().triggerRun({ model_id: '' }), 422, 'validation_error')
  })

  it('403 insufficient_scope (readonly), trial_focus_not_included (trial), allowance_exhausted with resets_on', async () => {
    await expectRefused(api(emu.keys.readonly).triggerRun({ model_id: emu.demoModels.readonly }), 403, 'insufficient_scope')
    await expectRefused(
      api(emu.keys.trial).triggerRun({ model_id: emu.demoModels.trial, categories: ['prompt_injection'] }),
      403,
      'trial_focus_not_included'
    )
    const modelId = await registerOpenModel('contract allowance target')
    emu.control.exhaustAllowance('full', true)
    try {
      const err = await expectRefused(api().triggerRun({ model_id: modelId }), 403, 'allowance_exhausted')
      expect(String(err.extra.resets_on)).toMatch(/^\d{4}-\d{2}-01$/)
      expect(err.transient).toBe(false)
      expect(err.retryAfterMs).toBeUndefined()
    } finally {
      emu.control.exhaustAllowance('full', false)
    }
  })

  it('403 evaluation_ceiling for an evaluation workspace at its ceiling, without Retry-After', async () => {
    emu.control.setLimits({ evaluationCeiling: 0 })
    try {
      const err = await expectRefused(api(emu.keys.trial).triggerRun({ model_id: emu.demoModels.trial }), 403, 'evaluation_ceiling')
      expect(err.transient).toBe(false)
      expect(err.retryAfterMs).toBeUndefined()
    } finally {
      emu.control.setLimits({ evaluationCeiling: 3 })
    }
  })

  it('429 daily_budget_exhausted and rate_limited carry Retry-After', async () => {
    const a = await registerOpenModel('contract limit target a')
    const b = await registerOpenModel('contract limit target b')
    try {
      emu.control.setLimits({ dailyAssessmentBudget: 0 })
      const budget = await expectRefused(api().triggerRun({ model_id: a }), 429, 'daily_budget_exhausted')
      expect(budget.retryAfterMs).toBeGreaterThan(0)
      expect(budget.transient).toBe(true)
      expect(budget.ambiguous).toBe(false)

      emu.control.setLimits({ dailyAssessmentBudget: 500, triggersPerMinute: 30 })
      const t = await api().triggerRun({ model_id: a })
      emu.control.setLimits({ triggersPerMinute: 1 })
      const rate = await expectRefused(api().triggerRun({ model_id: b }), 429, 'rate_limited')
      expect(rate.retryAfterMs).toBeGreaterThan(0)
      expect(rate.retryAfterMs).toBeLessThanOrEqual(60_000)
      await api().cancelRun(t.run_id)
      await terminal(api(), t.run_id)
    } finally {
      emu.control.setLimits({ dailyAssessmentBudget: 500, triggersPerMinute: 30 })
    }
  })
})

describe('keys and plans', () => {
  it('401 unauthorized for an unknown key, on every endpoint kind, without echoing the key', async () => {
    const key = 'asas_not_a_real_key_1234'
    const c = api(key)
    for (const p of [c.listModels(), c.getRun('r'), c.triggerRun({ model_id: 'm' }), c.getProfile('m')]) {
      const err = await expectRefused(p, 401, 'unauthorized')
      expect(err.describe()).not.toContain(key)
    }
  })

  it('redacted plan: findings keep id and severity, no attacks, [redacted] text; close and validate 403 proof_withheld', async () => {
    emu.demoAgent.setVulnerable('prompt_injection', true)
    const c = api(emu.keys.redacted)
    const t = await c.triggerRun({ model_id: emu.demoModels.redacted, categories: ['prompt_injection'] })
    expect((await terminal(c, t.run_id)).status).toBe('completed')
    const list = await c.listFindings(t.run_id)
    expect(list.count).toBeGreaterThan(0)
    for (const f of list.findings) {
      expect(f).toMatchObject({ description: REDACTED, expected_behavior: REDACTED, attacks: [] })
      expect(f.finding_id).not.toBe('')
    }
    expect((await c.getRun(t.run_id, { min_severity: 'low' })).verdict).toBe('fail')
    const fid = list.findings[0].finding_id
    await expectRefused(c.closeFinding(fid, { status: 'fixed', explanation: 'x' }), 403, 'proof_withheld')
    await expectRefused(c.validateFinding(fid), 403, 'proof_withheld')
  })
})

describe('profile: read, change, confirm, optimistic versions', () => {
  it('reads a fenced profile; change and confirm bump the version; stale versions are 409', async () => {
    const c = api()
    const p = await c.getProfile(emu.demoModelId)
    expect(p.name.startsWith('[UNTRUSTED:')).toBe(true)
    expect(p.safety_notice.length).toBeGreaterThan(0)
    const v0 = p.version

    const changed = await c.changeProfile(emu.demoModelId, {
      changes: { purpose: 'Order support', multi_agent: false },
      version: v0,
      profile_id: p.profile_id
    })
    expect(changed).toEqual({ model_id: emu.demoModelId, profile_id: p.profile_id, version: v0 + 1 })
    const stale = await expectRefused(
      c.changeProfile(emu.demoModelId, { changes: { purpose: 'again' }, version: v0, profile_id: p.profile_id }),
      409,
      'stale_version'
    )
    expect(stale.transient).toBe(false)

    const confirmed = await c.confirmProfile(emu.demoModelId, {
      version: v0 + 1,
      profile_id: p.profile_id,
      answers: ['industry', 'has_guardrails'],
      items: { tools: ['lookup_order'] }
    })
    expect(confirmed.version).toBe(v0 + 2)
    await expectRefused(c.confirmProfile(emu.demoModelId, { version: v0 + 1, profile_id: p.profile_id }), 409, 'stale_version')
    await expectRefused(
      c.confirmProfile(emu.demoModelId, { version: v0 + 2, profile_id: p.profile_id, answers: ['public_data'] }),
      422,
      'validation_error'
    )
    const fenced = await expectRefused(
      c.changeProfile(emu.demoModelId, { changes: { purpose: p.name }, version: v0 + 2, profile_id: p.profile_id }),
      422,
      'validation_error'
    )
    expect(fenced.message).toMatch(/body\.changes\.purpose/)
    const after = await c.getProfile(emu.demoModelId)
    expect(after.version).toBe(v0 + 2)
  })

  it('a profile deleted and recreated refuses a change built from the old one', async () => {
    const c = api()
    const modelId = emu.demoModels.full
    const old = await c.getProfile(modelId)
    emu.control.deleteProfile(modelId)
    await expectRefused(c.getProfile(modelId), 404, 'not_found')
    const created = await c.changeProfile(modelId, { changes: { purpose: 'recreated' } })
    expect(created.version).toBe(1)
    await expectRefused(
      c.changeProfile(modelId, { changes: { purpose: 'x' }, version: old.version, profile_id: old.profile_id }),
      409,
      'stale_version'
    )
  })
})

describe('coverage of the contract', () => {
  it('every endpoint of section 4 was called through the client with a dev key', () => {
    const calls = emu.requestLog.filter((e) => e.endpoint !== 'admin' && e.endpoint !== 'demo-agent' && e.endpoint !== 'unknown')
    const seen = new Set(calls.map((e) => e.endpoint as EndpointName))
    expect([...seen].sort()).toEqual(Object.keys(ENDPOINTS).sort())
    // only the deliberately unknown key went without a dev key, and got 401
    const keyless = calls.filter((e) => e.key === null)
    expect(keyless.length).toBeGreaterThan(0)
    expect(keyless.every((e) => e.status === 401)).toBe(true)
  })
})
