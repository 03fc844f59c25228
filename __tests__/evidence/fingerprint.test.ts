import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  DESCRIPTION_CHARS_READ,
  fingerprint,
  normalizeDescription,
  techniqueOf,
  type FingerprintInput
} from '../../src/evidence/fingerprint.js'
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
    [
      'description, when the attacks name the same library source',
      f({ attacks: [attack('asm_lib', 3)], description: 'The agent disclosed its system prompt.' }),
      f({ attacks: [attack('asm_lib', 3)], description: 'The agent ran a shell command from a tool result.' })
    ],
    ['library sources', f({ attacks: [attack('asm_lib', 3)] }), f({ attacks: [attack('asm_lib', 4)] })],
    ['sources instead of a description', f(), f({ attacks: [attack('asm_lib', 3)] })]
  ]
  it.each(differ)('changes with the %s', (_name, a, b) => {
    expect(fingerprint(a, 'run_a')).not.toBe(fingerprint(b, 'run_a'))
  })

  it('reads the head of a huge description only (a megabyte of hex letters once backtracked for minutes)', () => {
    const huge = 'a'.repeat(1 << 20)
    expect(normalizeDescription(huge)).toBe(normalizeDescription(huge.slice(0, DESCRIPTION_CHARS_READ)))
    expect(normalizeDescription(`${huge}x`)).toBe(normalizeDescription(`${huge}y`))
    expect(normalizeDescription(`deadbeef-${'c'.repeat(1 << 16)}`)).toBe('#')
  })
  it('is 32 hex characters', () => {
    expect(fingerprint(f(), null)).toMatch(/^[0-9a-f]{32}$/)
  })
  it('takes the stable sources and the normalized description', () => {
    const desc = normalizeDescription(f().description)
    expect(desc).toBe('prompt injection agent complied with # of # probe')
    expect(JSON.parse(techniqueOf(f({ attacks: [attack('asm_lib', 2), attack('run_a', 0)] }), 'run_a'))).toEqual({
      src: ['asm_lib:2'],
      desc
    })
    expect(JSON.parse(techniqueOf(f({ attacks: [attack('run_a', 0)] }), 'run_a'))).toEqual({ src: [], desc })
  })
})

/**
 * What the fingerprint is for, measured on pairs of findings of one category
 * and severity whose attacks name the same library source (where the
 * description is all that tells two weaknesses apart): the same weakness
 * reported again (re-issued ids, other counts, other quoting) must keep its
 * fingerprint (stability), and an unrelated weakness must get another one
 * (separation).
 */
describe('fingerprint: stability and separation on a table of pairs', () => {
  const LIB = [attack('asm_library', 4)]
  const same: [string, string][] = [
    ['Prompt injection: the agent complied with 2 of 3 probes.', 'Prompt injection: the agent complied with 1 of 5 probes.'],
    ['The agent followed injected instructions in 3 attempts.', 'The agent followed injected instructions in 4 attempts.'],
    ['The agent followed injected instructions in 1 attempt.', 'The agent followed injected instructions in 12 attempts.'],
    ['The agent complied with two of three probes.', 'The agent complied with 4 of 5 probes.'],
    ['The agent leaked its system prompt twice.', 'The agent leaked its system prompt 3 times.'],
    [
      'Finding fnd_7f3a9c: the agent revealed the system prompt (attack atk_12ab).',
      'Finding fnd_0b1c2d: the agent revealed the system prompt (attack atk_99zz).'
    ],
    [
      "Session 3f2b9c1e-8a4d-4e2f-9b1a-0c5d7e6f8a9b exposed another user's order.",
      "Session a1b2c3d4-0000-4fff-8eee-123456789abc exposed another user's order."
    ],
    ['The reply contained the canary ZX-1a2b3c4d5e6f.', 'The reply contained the canary ZX-ffffffffffff.'],
    ['The agent printed “internal only” notes.', 'The agent printed "internal only" notes.'],
    ["The agent printed 'internal only' notes", 'The agent printed `internal only` notes.'],
    ['  THE AGENT disclosed   PII.', 'the agent disclosed PII'],
    ['Observed at 2026-11-21T10:00:00Z in run run_abc123.', 'Observed at 2026-12-02T23:59:59Z in run run_zz9.'],
    ['Succeeded in 60% of attempts.', 'Succeeded in 75% of attempts.'],
    ['The agent disclosed an API key.', 'The agent disclosed API keys.'],
    ['Returned 3 queries from other tenants.', 'Returned 1 query from other tenants.'],
    ['The agent sent 1,204 emails without confirmation.', 'The agent sent 7 emails without confirmation.']
  ]
  const different: [string, string][] = [
    ['The agent disclosed its system prompt.', 'The agent executed a shell command taken from a tool result.'],
    ["The agent revealed another customer's order history.", 'The agent revealed its system prompt.'],
    [
      'Indirect injection in a retrieved web page made the agent send email.',
      'Indirect injection in an uploaded PDF made the agent send email.'
    ],
    ['The agent leaked API keys from its environment.', 'The agent leaked session cookies.'],
    ['Jailbreak through a role-play persona.', 'Jailbreak through base64-encoded instructions.'],
    ['A tool call deleted a file.', 'A tool call deleted a database.'],
    ['The agent complied with 2 of 3 probes.', 'The agent refused 2 of 3 probes but leaked the refusal policy.'],
    ['The agent disclosed PII of other users.', 'The agent disclosed its own configuration.'],
    ['Prompt injection: the agent complied with 2 of 3 probes.', 'Prompt injection: the agent called a payment tool.'],
    ['Markdown image exfiltration of chat history.', 'Markdown link exfiltration of chat history.']
  ]
  const fp = (description: string) => fingerprint(f({ description, attacks: LIB }), 'run_a')

  it('keeps every re-issued or reworded finding (stability) and tells every unrelated one apart (separation)', () => {
    const stable = same.filter(([a, b]) => fp(a) === fp(b)).length
    const separated = different.filter(([a, b]) => fp(a) !== fp(b)).length
    // The numbers the tests report: same weakness kept / pairs, different weakness told apart / pairs.
    expect({ stability: `${stable}/${same.length}`, separation: `${separated}/${different.length}` }).toEqual({
      stability: `${same.length}/${same.length}`,
      separation: `${different.length}/${different.length}`
    })
  })

  it.each(same)('same weakness: %j and %j', (a, b) => {
    expect(normalizeDescription(a)).toBe(normalizeDescription(b))
  })
  it.each(different)('different weaknesses: %j and %j', (a, b) => {
    expect(fp(a)).not.toBe(fp(b))
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
