import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { fingerprint, normalizeDescription, techniqueOf, type FingerprintInput } from '../../src/baseline/fingerprint.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { api, runToEnd } from '../__fixtures__/emulator-helpers.js'
import type { Finding } from '../../src/service/contract/index.js'

function f(over: Partial<FingerprintInput> = {}): FingerprintInput {
  return {
    category: 'prompt_injection',
    lens: 'security',
    severity: 'high',
    description: 'Prompt injection: the agent complied with 2 of 3 probes.',
    attacks: [],
    ...over
  }
}
function attack(assessmentId: string, index: number): Finding['attacks'][number] {
  return {
    attack_id: `atk_${Math.random()}`,
    score: 80,
    source: { source_type: 'manual', assessment_id: assessmentId, attack_index: index, date: new Date().toISOString() },
    replay_script: [],
    last_replay_status: 'pending',
    created_at: new Date().toISOString(),
    last_replayed_at: null
  }
}

describe('fingerprint', () => {
  const same: [string, FingerprintInput, FingerprintInput, string | null][] = [
    ['counts in the description', f(), f({ description: 'Prompt injection: the agent complied with 1 of 5 probes.' }), 'run_a'],
    ['case and white space', f(), f({ description: '  PROMPT injection:   the agent complied with 2 of 3 probes. ' }), 'run_a'],
    ['canary tokens', f({ description: 'leaked ZX-1a2b3c4d5e6f' }), f({ description: 'leaked ZX-ffffffffffff' }), 'run_a'],
    ['attack ids and dates', f({ attacks: [attack('asm_lib', 3)] }), f({ attacks: [attack('asm_lib', 3)] }), 'run_a'],
    [
      'source order and repeats',
      f({ attacks: [attack('asm_lib', 3), attack('asm_lib', 1)] }),
      f({ attacks: [attack('asm_lib', 1), attack('asm_lib', 3), attack('asm_lib', 1)] }),
      'run_a'
    ],
    ['a source naming the run itself is left out', f({ attacks: [attack('run_a', 0)] }), f({ attacks: [attack('run_b', 7)] }), null]
  ]
  it.each(same)('is unchanged by %s', (_name, a, b, runId) => {
    // the last case: each finding's source names its own run
    const runA = runId ?? 'run_a'
    const runB = runId ?? 'run_b'
    expect(fingerprint(a, runA)).toBe(fingerprint(b, runB))
  })

  const differ: [string, FingerprintInput, FingerprintInput][] = [
    ['category', f(), f({ category: 'jailbreak' })],
    ['lens', f(), f({ lens: 'safety' })],
    ['severity', f(), f({ severity: 'critical' })],
    ['description words', f(), f({ description: 'Jailbreak: the agent complied with 2 of 3 probes.' })],
    ['library sources', f({ attacks: [attack('asm_lib', 3)] }), f({ attacks: [attack('asm_lib', 4)] })],
    ['sources instead of a description', f(), f({ attacks: [attack('asm_lib', 3)] })]
  ]
  it.each(differ)('changes with the %s', (_name, a, b) => {
    expect(fingerprint(a, 'run_a')).not.toBe(fingerprint(b, 'run_a'))
  })

  it('is 32 hex characters', () => {
    expect(fingerprint(f(), null)).toMatch(/^[0-9a-f]{32}$/)
  })
  it('uses stable sources before the description', () => {
    expect(techniqueOf(f({ attacks: [attack('asm_lib', 2), attack('run_a', 0)] }), 'run_a')).toBe('src:asm_lib:2')
    expect(techniqueOf(f({ attacks: [attack('run_a', 0)] }), 'run_a')).toBe(`desc:${normalizeDescription(f().description)}`)
  })
})

describe('fingerprint on real emulator runs', () => {
  let emu: Emulator
  beforeAll(async () => {
    emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 20, attacksPerCategory: 2 })
  })
  afterAll(async () => {
    await emu.stop()
  })
  async function fingerprints(): Promise<Map<string, string>> {
    const runId = await runToEnd(emu, emu.demoModelId)
    const r = await api(emu, 'GET', `/api/v1/run/${runId}/findings`)
    expect(r.status).toBe(200)
    return new Map((r.json.findings as Finding[]).map((x) => [fingerprint(x, runId), x.category]))
  }

  it('gives identical fingerprints for two runs of an unchanged agent, and switching one vulnerability off removes exactly its fingerprints', async () => {
    emu.demoAgent.setAllVulnerable(false)
    for (const c of ['prompt_injection', 'system_prompt_leakage', 'jailbreak']) emu.demoAgent.setVulnerable(c, true)
    const first = await fingerprints()
    const second = await fingerprints()
    expect(first.size).toBe(3)
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort())

    // Switch one vulnerability off through the admin endpoint, as the demo does.
    const off = await api(emu, 'POST', '/__emulator/demo-agent', { body: { vulnerable: { jailbreak: false } } })
    expect(off.status).toBe(200)
    const third = await fingerprints()
    const removed = [...first.keys()].filter((k) => !third.has(k))
    expect(removed.map((k) => first.get(k))).toEqual(['jailbreak'])
    expect([...third.keys()].every((k) => first.has(k))).toBe(true)
  })
})
