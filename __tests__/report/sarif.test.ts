/**
 * The SARIF log as code scanning reads it: one alert per weakness (the
 * fingerprint as primaryLocationLineHash), messages that do not churn, a
 * suppressed result that does not say open, service text made inert, no
 * control character anywhere (the SARIF Multitool's SARIF and GitHub rules:
 * sarif-multitool.test.ts, in the slow half).
 */
import { describe, expect, it } from '@jest/globals'
import { pathToUri } from '../../src/report/sarif.js'
import { fingerprint, FINGERPRINT_KEY } from '../../src/evidence/fingerprint.js'
import { FORBIDDEN_OUTPUT_CHARS } from '../../src/report/markdown-safe.js'
import { makeAttack, makeFinding } from '../__fixtures__/builders.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { checkMarkdown } from '../__fixtures__/hostile-strings.js'
import { hostileInput, policyInput, sarif, type SarifLog } from '../__fixtures__/format-cases.js'

const results = (log: SarifLog) => log.runs[0].results

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/

/** Every string of a JSON value, keys included. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v]
  if (Array.isArray(v)) return v.flatMap(strings)
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)])
  return []
}

describe('SARIF results and code scanning alerts', () => {
  it.each([
    ['without a policy', makeInput()],
    ['with a baseline and an accepted finding', policyInput]
  ])("carry the finding's fingerprint as primaryLocationLineHash, one per weakness (%s)", (_name, input) => {
    const rs = results(sarif(input))
    expect(rs.length).toBe(input.findings!.length)
    for (const r of rs) {
      expect(r.partialFingerprints.primaryLocationLineHash).toMatch(/^[0-9a-f]{32}$/)
      expect(r.partialFingerprints[FINGERPRINT_KEY]).toBe(r.partialFingerprints.primaryLocationLineHash)
    }
    // Every result sits on line 1 of one file: only the hash tells the alerts apart.
    expect(new Set(rs.map((r) => r.partialFingerprints.primaryLocationLineHash)).size).toBe(rs.length)
    const expected = input.findings!.map((f) => fingerprint(f, input.run?.run_id ?? null)).sort()
    expect(rs.map((r) => r.partialFingerprints.primaryLocationLineHash).sort()).toEqual(expected)
  })

  it('give the same hash and message to the same weakness in the next run, whatever its ids', () => {
    const a = makeFinding('high', { finding_id: 'f_run1', description: 'Leaks the prompt in 2 of 3 probes.' })
    const b = { ...a, finding_id: 'f_run2', description: 'Leaks the prompt in 3 of 3 probes.', attacks: [makeAttack()] }
    const [ra] = results(sarif(makeInput({ findings: [a] })))
    const [rb] = results(sarif(makeInput({ findings: [b] })))
    expect(rb.partialFingerprints.primaryLocationLineHash).toBe(ra.partialFingerprints.primaryLocationLineHash)
    expect(ra.message.text).toBe('high prompt_injection finding (open): Leaks the prompt in 2 of 3 probes.')
    expect(ra.message.text).not.toContain('f_run1')
    expect(rb.message.text).not.toContain('f_run2')
  })

  it('say accepted, not open, on a suppressed result; new and known on the others', () => {
    const byRule = new Map(results(sarif(policyInput)).map((r) => [r.ruleId, r]))
    const acc = byRule.get('agent-security/data_leakage')!
    expect(acc.suppressions).toEqual([
      { kind: 'external', status: 'accepted', justification: expect.stringMatching(/^working_as_designed: Public data only\./) }
    ])
    expect(acc.message.text).toBe('high data_leakage finding (accepted, new): Reads back the public FAQ.')
    expect(acc.message.text).not.toMatch(/\bopen\b/)
    expect(byRule.get('agent-security/jailbreak')!.message.text).toBe('critical jailbreak finding (open, new): Role-play bypass.')
    expect(byRule.get('agent-security/prompt_injection')!.message.text).toBe(
      'high prompt_injection finding (open, known): Follows injected text.'
    )
    expect([...byRule.values()].filter((r) => r.suppressions)).toHaveLength(1)
  })

  it('render category keys and references from the service as inert markdown in the rule help', () => {
    const rules = sarif(hostileInput).runs[0].tool.driver.rules
    expect(rules).toHaveLength(1)
    expect(checkMarkdown(rules[0].help.markdown)).toEqual([])
    expect(rules[0].help.markdown).toContain('AI agent security category ``leak⟨U+0000⟩_[x](https://evil.example) @octocat **b** `tick`')
  })

  it('hold no control character in any string, and name bidi and invisible characters in the texts', () => {
    const log = sarif(hostileInput)
    const bad = strings(log).filter((s) => CONTROL.test(s))
    expect(bad).toEqual([])
    const r = results(log)[0]
    expect(r.message.text).not.toMatch(FORBIDDEN_OUTPUT_CHARS)
    expect(r.message.text).toContain('bidi⟨U+202E⟩gpj.exe zero⟨U+200B⟩width next line')
    expect(log.runs[0].tool.driver.rules[0].help.text).not.toMatch(FORBIDDEN_OUTPUT_CHARS)
  })

  it.each([
    ['.github/workflows/agent.yml', '.github/workflows/agent.yml'],
    ['.github/workflows/a@b.yml', '.github/workflows/a@b.yml'],
    ['agent profiles/support bot.yml', 'agent%20profiles/support%20bot.yml'],
    ['100%/x#y?.yml', '100%25/x%23y%3F.yml'],
    ['é/\uD800.yml', '%C3%A9/%EF%BF%BD.yml']
  ])('locate the results on %j as the relative URI %j', (path, uri) => {
    expect(pathToUri(path)).toBe(uri)
    const rs = results(sarif(makeInput({ findings: [makeFinding('high')] }), path))
    expect(rs[0].locations[0].physicalLocation.artifactLocation.uri).toBe(uri)
  })
})
