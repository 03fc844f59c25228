/**
 * The SARIF log as code scanning reads it: one alert per weakness (the
 * fingerprint as primaryLocationLineHash), messages that do not churn, a
 * suppressed result that does not say open, service text made inert, no
 * control character anywhere, and the SARIF Multitool's SARIF and GitHub rules.
 */
import { describe, expect, it } from '@jest/globals'
import * as YAML from 'yaml'
import { buildReport } from '../../src/report/build-report.js'
import type { ReportInput, ReportPolicyInput } from '../../src/report/report-model.js'
import { pathToUri, renderSarif } from '../../src/report/sarif.js'
import { fingerprint, FINGERPRINT_KEY } from '../../src/evidence/fingerprint.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import { FORBIDDEN_OUTPUT_CHARS } from '../../src/report/markdown-safe.js'
import type { Finding } from '../../src/service/contract/index.js'
import { coverageRow, makeAttack, makeCoverage, makeFinding, makeRun, PLANNED } from '../__fixtures__/builders.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { checkMarkdown } from '../__fixtures__/hostile-strings.js'
import { sarifMultitoolProblems } from '../__fixtures__/sarif-multitool.js'

const TODAY = '2026-11-23'

interface SarifResult {
  ruleId: string
  message: { text: string }
  partialFingerprints: Record<string, string>
  suppressions?: { status: string; justification: string }[]
  locations: { physicalLocation: { artifactLocation: { uri: string } } }[]
}
interface SarifRule {
  id: string
  help: { text: string; markdown: string }
}
interface SarifLog {
  runs: { results: SarifResult[]; tool: { driver: { rules: SarifRule[] } } }[]
}

const sarif = (input: ReportInput, location = '.github/workflows/agent.yml'): SarifLog =>
  renderSarif(buildReport(input), { location, threshold: 'low', toolVersion: '1.0.0' }) as unknown as SarifLog
const results = (log: SarifLog) => log.runs[0].results

/** A run with a baseline (one known finding) and one accepted high. */
function withPolicy(findings: Finding[], baselineFindings: Finding[]): ReportInput {
  const run = makeRun({ run_id: 'run_2' })
  const baseline = buildBaseline({
    modelId: 'm_demo',
    runId: 'run_1',
    createdAt: '',
    commit: null,
    categoriesCompleted: [...PLANNED],
    findings: baselineFindings
  })
  const accepted = parseAcceptedFile(
    YAML,
    'accepted:\n  - category: data_leakage\n    severity_at_most: high\n    reason_code: working_as_designed\n    explanation: Public data only.\n    owner: "@acme/ai"\n    expires: 2027-01-01\n',
    'a.yml',
    TODAY
  )
  const outcome = applyPolicy({
    findings,
    runId: 'run_2',
    categoriesCompleted: [...PLANNED],
    baseline,
    accepted,
    failOn: 'new',
    today: TODAY
  })
  const policy: ReportPolicyInput = {
    failOn: 'new',
    baseline,
    baselineSource: 'cache',
    baselineWhy: null,
    baselineSaved: null,
    accepted: { path: 'a.yml', source: 'base', entries: accepted, prAdds: [], prRemoves: [], notes: [] },
    outcome
  }
  return makeInput({ run, findings, policy })
}

const known = makeFinding('high', { finding_id: 'f_known', category: 'prompt_injection', description: 'Follows injected text.' })
const policyFindings = [
  known,
  makeFinding('critical', { finding_id: 'f_new', category: 'jailbreak', description: 'Role-play bypass.' }),
  makeFinding('high', { finding_id: 'f_acc', category: 'data_leakage', description: 'Reads back the public FAQ.' })
]
const policyInput = withPolicy(policyFindings, [{ ...known, finding_id: 'f_known_before' }])

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/
const HOSTILE_KEY = 'leak\u0000_[x](https://evil.example) @octocat **b** `tick` <img src=x onerror=alert(1)>\u202E'
const hostileInput = makeInput({
  modelId: 'm_demo\u0007',
  run: makeRun({ categories_planned: [HOSTILE_KEY], categories_completed: [HOSTILE_KEY] }),
  coverage: makeCoverage([
    coverageRow(HOSTILE_KEY, { owasp: '[LLM01](https://evil.example) #123', atlas: '@octocat\u001b[31m', worst_severity: 'critical' })
  ]),
  findings: [
    makeFinding('critical', {
      category: HOSTILE_KEY,
      status: 'open\u0000\u0007',
      description: 'bell\u0007 nul\u0000 esc\u001b[2J del\u007f c1\u0085 bidi\u202Egpj.exe zero\u200Bwidth\r\nnext line'
    })
  ]
})

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

describe('the SARIF Multitool (SARIF and GitHub rules)', () => {
  it('finds nothing to say of the logs, and flags a broken one', () => {
    const broken = sarif(policyInput) as unknown as { runs: { results: Record<string, unknown>[] }[] }
    delete broken.runs[0].results[0].locations
    const problems = sarifMultitoolProblems([
      sarif(makeInput()),
      sarif(policyInput),
      sarif(hostileInput),
      sarif(makeInput({ findings: [] })),
      sarif(policyInput, 'agent profiles/support bot.yml'),
      broken
    ])
    expect(problems.slice(0, -1)).toEqual([[], [], [], [], []])
    expect(problems.at(-1)!.join('\n')).toMatch(
      /GH1015 \(error\): runs\[0\]\.results\[0\]: This 'result' object does not provide a 'locations' array/
    )
  })
})
