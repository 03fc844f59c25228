/**
 * The demo agent's flaky weaknesses: a per-category probability of complying,
 * drawn from seeded streams. The unit cases pin the streams; the HTTP cases
 * run real assessments (the run engine calling the agent) and check that the
 * same seed finds the weakness in the same runs, and that bad settings are
 * refused without changing anything.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { DEFAULT_AGENT_SEED, DemoCompliance, checkAgentOptions, parseComplySpec } from '../../src/emulator/demo-compliance.js'
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/server.js'
import { DEFAULT_VULNERABLE } from '../../src/emulator/taxonomy.js'
import { api, runToEnd, type ApiResponse } from '../__fixtures__/emulator-helpers.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const draws = (c: DemoCompliance, key: string, n: number): boolean[] => Array.from({ length: n }, () => c.complies(key))

describe('DemoCompliance', () => {
  it('defaults to the all-or-nothing agent: DEFAULT_VULNERABLE always, every other category never', () => {
    const c = new DemoCompliance()
    expect(c.view()).toEqual({ vulnerable: [...DEFAULT_VULNERABLE].sort(), comply_probability: {}, seed: DEFAULT_AGENT_SEED })
    for (const key of DEFAULT_VULNERABLE) expect(draws(c, key, 50).every(Boolean)).toBe(true)
    expect(draws(c, 'jailbreak', 50).some(Boolean)).toBe(false)
  })

  it('complies with a flaky category at about its probability, the same replies for the same seed', () => {
    const a = new DemoCompliance()
    const b = new DemoCompliance()
    for (const c of [a, b]) c.setProbability('jailbreak', 0.3)
    const seqA = draws(a, 'jailbreak', 2000)
    expect(draws(b, 'jailbreak', 2000)).toEqual(seqA)
    const share = seqA.filter(Boolean).length / seqA.length
    expect(share).toBeGreaterThan(0.26)
    expect(share).toBeLessThan(0.34)
    const other = new DemoCompliance()
    other.setSeed(2)
    other.setProbability('jailbreak', 0.3)
    expect(draws(other, 'jailbreak', 2000)).not.toEqual(seqA)
  })

  it("draws each category from its own stream: another category's replies do not shift it", () => {
    const alone = new DemoCompliance()
    const mixed = new DemoCompliance()
    for (const c of [alone, mixed]) {
      c.setProbability('jailbreak', 0.5)
      c.setProbability('misinformation', 0.5)
    }
    const expected = draws(alone, 'jailbreak', 100)
    const got: boolean[] = []
    for (let i = 0; i < 100; i++) {
      draws(mixed, 'misinformation', i % 3)
      got.push(mixed.complies('jailbreak'))
    }
    expect(got).toEqual(expected)
  })

  it('restarts the streams on a new seed; 1 and 0 are vulnerable and fixed; vulnerable on/off clears a probability', () => {
    const c = new DemoCompliance()
    c.setProbability('jailbreak', 0.5)
    const first = draws(c, 'jailbreak', 40)
    c.setSeed(DEFAULT_AGENT_SEED)
    expect(draws(c, 'jailbreak', 40)).toEqual(first)
    c.setProbability('misinformation', 1)
    c.setProbability('prompt_injection', 0)
    expect(c.view()).toEqual({ vulnerable: ['misinformation', 'system_prompt_leakage'], comply_probability: { jailbreak: 0.5 }, seed: 1 })
    c.setVulnerable('jailbreak', false)
    expect(c.view().comply_probability).toEqual({})
    c.setProbability('jailbreak', 0.25)
    c.setAllVulnerable(false)
    expect(c.view()).toEqual({ vulnerable: [], comply_probability: {}, seed: 1 })
    expect(() => {
      c.setProbability('jailbreak', 1.5)
    }).toThrow(/\[0, 1\]/)
    expect(() => {
      c.setProbability('jailbreak', Number.NaN)
    }).toThrow(/\[0, 1\]/)
  })

  it('checks the emulator options and the CLI spec, naming what is wrong', () => {
    expect(checkAgentOptions({ agentComply: { jailbreak: 0.3 }, agentSeed: 9 })).toEqual({ comply: [['jailbreak', 0.3]], seed: 9 })
    expect(checkAgentOptions({})).toEqual({ comply: [], seed: undefined })
    expect(() => checkAgentOptions({ agentComply: { jailbrake: 0.3 } })).toThrow(/agentComply\.jailbrake: not a security category/)
    expect(() => checkAgentOptions({ agentComply: { jailbreak: 2 } })).toThrow(/agentComply\.jailbreak: .*1/)
    expect(() => checkAgentOptions({ agentSeed: -1 })).toThrow(/agentSeed/)
    expect(parseComplySpec('prompt_injection=0.3, jailbreak=1')).toEqual({ prompt_injection: 0.3, jailbreak: 1 })
    expect(() => parseComplySpec('prompt_injection')).toThrow(/category=probability/)
    expect(() => parseComplySpec('')).toThrow(/category=probability/)
  })
})

/** Whether each of `n` one-category runs of the demo model found the category. */
async function findsPerRun(emu: Emulator, category: string, n: number): Promise<boolean[]> {
  const found: boolean[] = []
  for (let i = 0; i < n; i++) {
    const runId = await runToEnd(emu, emu.demoModelId, 'full', [category])
    const f = await api(emu, 'GET', `/api/v1/run/${runId}/findings`)
    found.push((f.json.findings as { category: string }[]).some((x) => x.category === category))
  }
  return found
}

const FAST: EmulatorOptions = { categoryDurationMs: 0, attacksPerCategory: 1, limits: { triggersPerMinute: 1000 } }

describe('a flaky weakness over HTTP (the run engine calling the demo agent)', () => {
  let emu: Emulator
  beforeAll(async () => {
    emu = await startEmulator({ ...FAST, agentComply: { jailbreak: 0.5 }, agentSeed: 7 })
  })
  afterAll(async () => {
    await stopStarted(emu)
  })

  const admin = (method: string, body?: unknown): Promise<ApiResponse> => api(emu, method, '/__emulator/demo-agent', { key: 'none', body })

  it('finds it in some runs and not in others, exactly as the seeded stream says', async () => {
    const chatsBefore = emu.requestLog.filter((e) => e.endpoint === 'demo-agent').length
    const found = await findsPerRun(emu, 'jailbreak', 16)
    const expected = new DemoCompliance()
    expected.setSeed(7)
    expected.setProbability('jailbreak', 0.5)
    expect(found).toEqual(draws(expected, 'jailbreak', 16))
    expect(found).toContain(true)
    expect(found).toContain(false)
    // one real chat exchange per run
    expect(emu.requestLog.filter((e) => e.endpoint === 'demo-agent').length - chatsBefore).toBe(16)
  })

  it('takes a probability and a seed through the admin API; the same seed replays the same runs', async () => {
    const set = await admin('POST', { comply_probability: { misinformation: 0.4, prompt_injection: 0 }, seed: 11 })
    expect(set.status).toBe(200)
    expect(set.json).toMatchObject({
      vulnerable: ['system_prompt_leakage'],
      comply_probability: { jailbreak: 0.5, misinformation: 0.4 },
      seed: 11
    })
    const first = await findsPerRun(emu, 'misinformation', 10)
    expect((await admin('POST', { seed: 11 })).status).toBe(200)
    expect(await findsPerRun(emu, 'misinformation', 10)).toEqual(first)
    expect((await admin('GET')).json).toEqual({ ...set.json })
  })

  it.each([
    ['a probability above 1', { comply_probability: { jailbreak: 1.2 } }, /comply_probability/],
    ['a category not in the taxonomy', { comply_probability: { jailbrake: 0.2 } }, /jailbrake/],
    ['a probability that is not a number', { comply_probability: { jailbreak: '0.2' } }, /comply_probability/],
    ['a negative seed', { seed: -3 }, /seed/],
    ['a fractional seed', { seed: 1.5 }, /seed/],
    ['a good switch next to a bad one', { all_vulnerable: true, comply_probability: { jailbreak: -0.1 } }, /comply_probability/]
  ])('refuses %s with 422 naming the field, and changes nothing', async (_what, body, field) => {
    const before = JSON.stringify(emu.demoAgentState())
    const r = await admin('POST', body)
    expect(r.status).toBe(422)
    expect(r.text).toMatch(field)
    expect(JSON.stringify(emu.demoAgentState())).toBe(before)
  })
})

describe('the default emulator', () => {
  it('stays all-or-nothing: the default categories found in every run, nothing else', async () => {
    const emu = await startEmulator(FAST)
    try {
      expect(emu.demoAgentState()).toMatchObject({ comply_probability: {}, seed: DEFAULT_AGENT_SEED })
      for (let i = 0; i < 3; i++) {
        const runId = await runToEnd(emu, emu.demoModelId, 'full', ['prompt_injection', 'system_prompt_leakage', 'jailbreak'])
        const f = await api(emu, 'GET', `/api/v1/run/${runId}/findings`)
        expect((f.json.findings as { category: string }[]).map((x) => x.category).sort()).toEqual([
          'prompt_injection',
          'system_prompt_leakage'
        ])
      }
    } finally {
      await emu.stop()
    }
  })

  it('refuses to start with a bad agent option, naming it', async () => {
    await expect(startEmulator({ agentComply: { nope: 0.5 } })).rejects.toThrow(/agentComply\.nope/)
    await expect(startEmulator({ agentSeed: 2 ** 33 })).rejects.toThrow(/agentSeed/)
  })
})
