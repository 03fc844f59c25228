/**
 * The rules of the fingerprint at their edges, one row per rule: which
 * attack sources name a technique (a non-empty assessment id, not the run
 * itself), the description's articles, ids of 8 hex and more, the crude
 * singular's bounds, and the SARIF key that carries it.
 */
import { describe, expect, it } from '@jest/globals'
import { FINGERPRINT_KEY, normalizeDescription, techniqueOf, type FingerprintInput } from '../../src/evidence/fingerprint.js'

const withSources = (...sources: Record<string, unknown>[]): FingerprintInput =>
  ({
    category: 'prompt_injection',
    lens: 'security',
    severity: 'high',
    description: 'complied',
    attacks: sources.map((source) => ({ source }))
  }) as unknown as FingerprintInput
const srcOf = (f: FingerprintInput, runId: string | null) => (JSON.parse(techniqueOf(f, runId)) as { src: string[] }).src

describe('techniqueOf: the sources that name a technique', () => {
  it.each<[string, Record<string, unknown>[], string[]]>([
    ['an empty assessment id names none', [{ assessment_id: '', attack_index: 1 }], []],
    ['no assessment id names none', [{ attack_index: 2 }], []],
    ['an assessment id that is no text names none', [{ assessment_id: 42, attack_index: 3 }], []],
    ['the run itself names none', [{ assessment_id: 'run_now', attack_index: 4 }], []],
    [
      'a library or earlier assessment does, sorted and once',
      [
        { assessment_id: 'asm_lib', attack_index: 7 },
        { assessment_id: '', attack_index: 1 },
        { assessment_id: 'asm_a', attack_index: 2 },
        { assessment_id: 'asm_lib', attack_index: 7 }
      ],
      ['asm_a:2', 'asm_lib:7']
    ]
  ])('%s', (_name, sources, want) => {
    expect(srcOf(withSources(...sources), 'run_now')).toEqual(want)
  })

  it('with no run id, every non-empty assessment id names one', () => {
    expect(srcOf(withSources({ assessment_id: 'run_now', attack_index: 4 }), null)).toEqual(['run_now:4'])
  })
})

describe('normalizeDescription at its edges', () => {
  it.each<[string, string, string]>([
    ['the article a is dropped', 'leaked a prompt', 'leaked prompt'],
    ['an and the too', 'an agent leaked the prompt', 'agent leaked prompt'],
    ['a part of 8 hex is an id', 'token deadbeef leaked', 'token # leaked'],
    ['a hex word under 8 is a word', 'cafe leaked', 'cafe leaked'],
    ['a part of 7 hex letters is a word', 'fadedbe leaked', 'fadedbe leaked'],
    ['-ies of 4 letters is only a plural s', 'ties', 'tie'],
    ['-ies of 5 reads y', 'spies', 'spy'],
    ['a word of 3 ending in s stays', 'has its', 'has its'],
    ['a word ending in ss stays', 'bypass', 'bypass'],
    ['a word starting with ss is a plural all the same', 'ssids', 'ssid']
  ])('%s', (_name, text, want) => {
    expect(normalizeDescription(text)).toBe(want)
  })
})

describe('FINGERPRINT_KEY', () => {
  it("is SARIF's partialFingerprints key of this version", () => {
    expect(FINGERPRINT_KEY).toBe('agentSecurityFinding/v2')
  })
})
