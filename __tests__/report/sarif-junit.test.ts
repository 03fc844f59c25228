/**
 * SARIF and JUnit of real runs: the gate against the emulator, twice, with a
 * baseline from the first run and one accepted risk. The SARIF is validated
 * against the SARIF 2.1.0 schema shipped by @microsoft/jest-sarif (draft-04,
 * with Ajv's draft-04 class) and checked by the SARIF Multitool with GitHub's
 * rules; the JUnit is parsed with xml2js, the parser of dorny/test-reporter,
 * and checked against the Jenkins xunit plugin's junit-10.xsd.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import Ajv from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { parseStringPromise } from 'xml2js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { assess, type GateOutcome } from '../../src/gate/assess-run.js'
import { assessmentReportInput } from '../../src/gate/report-input.js'
import { emulatorGateDeps } from '../__fixtures__/emulator-helpers.js'
import { buildReport } from '../../src/report/build-report.js'
import type { Report } from '../../src/report/report-model.js'
import { renderSarif } from '../../src/report/sarif.js'
import { renderJunit } from '../../src/report/junit.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import * as YAML from 'yaml'
import { FINGERPRINT_KEY } from '../../src/evidence/fingerprint.js'
import { workflowFile } from '../../src/action/report-location.js'
import { sarifMultitoolProblems } from '../__fixtures__/sarif-multitool.js'
import { junitXsdProblems } from '../__fixtures__/junit-xsd.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { makeFinding, makeRun, PLANNED } from '../__fixtures__/builders.js'

const require = createRequire(import.meta.url)
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<
  string,
  unknown
>
const ajv = new (Ajv as unknown as typeof Ajv.default)({ allErrors: true, strict: false, unicodeRegExp: false })
;(addFormats as unknown as typeof addFormats.default)(ajv)
const validate = ajv.compile(schema)

let emu: Emulator
const TODAY = new Date().toISOString().slice(0, 10)
const accepted = parseAcceptedFile(
  YAML,
  `accepted:\n  - category: system_prompt_leakage\n    reason_code: working_as_designed\n    explanation: The prompt holds no secret.\n    owner: "@acme/ai"\n    severity_at_most: any\n    expires: ${TODAY}\n`,
  'a.yml',
  TODAY
)

async function gate(baseline: ReturnType<typeof buildBaseline> | null): Promise<{ outcome: GateOutcome; report: Report }> {
  const outcome = await assess(emulatorGateDeps(emu), {
    modelId: emu.demoModelId,
    categories: [],
    minSeverity: 'high',
    timeoutMs: 60_000,
    policy: { baseline, accepted, failOn: 'new', today: TODAY }
  })
  const input = {
    ...assessmentReportInput(outcome, { modelId: emu.demoModelId, minSeverity: 'high', runUrl: null, secrets: [emu.keys.full] }),
    policy: {
      failOn: 'new' as const,
      baseline,
      baselineSource: baseline ? 'test' : null,
      baselineWhy: baseline ? null : 'none yet',
      baselineSaved: null,
      accepted: { path: 'a.yml', source: 'test', entries: accepted, prAdds: [], prRemoves: [], notes: [] },
      outcome: outcome.policy
    }
  }
  return { outcome, report: buildReport(input) }
}

let first: { outcome: GateOutcome; report: Report }
let second: { outcome: GateOutcome; report: Report }

beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 20, attacksPerCategory: 2 })
  emu.demoAgent.setAllVulnerable(false)
  for (const c of ['prompt_injection', 'system_prompt_leakage', 'excessive_agency']) emu.demoAgent.setVulnerable(c, true)
  first = await gate(null)
  const o = first.outcome
  const baseline = buildBaseline({
    modelId: emu.demoModelId,
    runId: o.triggered.runId,
    createdAt: '',
    commit: 'abc',
    categoriesCompleted: o.run!.categories_completed,
    findings: o.results.findings!
  })
  emu.demoAgent.setVulnerable('jailbreak', true)
  second = await gate(baseline)
})
afterAll(async () => {
  await emu.stop()
})

const sarifOf = (r: Report) => renderSarif(r, { location: '.github/workflows/agent.yml', threshold: 'low', toolVersion: '0.1.0' })
interface SarifResult {
  ruleId: string
  partialFingerprints: Record<string, string>
  suppressions?: { justification: string }[]
  properties: Record<string, string>
}
const results = (r: Report) => (sarifOf(r).runs as { results: SarifResult[] }[])[0].results

describe('SARIF', () => {
  it('validates against the SARIF 2.1.0 schema', () => {
    for (const r of [first.report, second.report]) {
      const ok = validate(sarifOf(r))
      expect(ok ? 'valid' : JSON.stringify(validate.errors?.slice(0, 3))).toBe('valid')
    }
  })

  it('passes the SARIF Multitool with the SARIF and GitHub rules', () => {
    expect(sarifMultitoolProblems([sarifOf(first.report), sarifOf(second.report)])).toEqual([[], []])
  })

  it('is checked by a validator that can fail', () => {
    const broken = sarifOf(first.report) as { runs: { results: Record<string, unknown>[] }[] }
    broken.runs[0].results[0].level = 'fatal'
    expect(validate(broken)).toBe(false)
  })

  it('has one rule per category with OWASP, ATLAS and security-severity', () => {
    const run = (
      sarifOf(second.report).runs as {
        tool: { driver: { rules: { id: string; help: { text: string }; properties: { tags: string[]; 'security-severity': string } }[] } }
      }[]
    )[0]
    const rules = run.tool.driver.rules
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length)
    const pi = rules.find((r) => r.id === 'agent-security/prompt_injection')!
    expect(pi.help.text).toMatch(/OWASP LLM Top 10 LLM01:2025 and MITRE ATLAS AML\.T0051/)
    expect(pi.properties.tags).toEqual(expect.arrayContaining(['security', 'owasp-llm/LLM01:2025', 'mitre-atlas/AML.T0051']))
    expect(pi.properties['security-severity']).toBe('8.0')
  })

  it('keeps identical fingerprints for the unchanged weaknesses across two runs, and a new one for the new weakness', () => {
    const fp = (r: Report) => new Map(results(r).map((x) => [x.partialFingerprints[FINGERPRINT_KEY], x.ruleId]))
    const a = fp(first.report)
    const b = fp(second.report)
    expect(a.size).toBe(3)
    for (const [k, rule] of a) expect(b.get(k)).toBe(rule)
    expect([...b.entries()].filter(([k]) => !a.has(k)).map(([, rule]) => rule)).toEqual(['agent-security/jailbreak'])
  })

  it('suppresses accepted findings with their justification', () => {
    const sup = results(second.report).filter((x) => x.suppressions)
    expect(sup.map((x) => x.ruleId)).toEqual(['agent-security/system_prompt_leakage'])
    expect(sup[0].suppressions![0].justification).toMatch(/working_as_designed: The prompt holds no secret\. \(owner @acme\/ai, expires/)
  })
})

describe('the default SARIF location', () => {
  it.each([
    [{ GITHUB_WORKFLOW_REF: 'octo-org/agent-app/.github/workflows/agent.yml@refs/pull/7/merge' }, '.github/workflows/agent.yml'],
    [{ GITHUB_WORKFLOW_REF: 'octo-org/agent-app/.github/workflows/a@b.yml@refs/heads/main' }, '.github/workflows/a@b.yml'],
    // No workflow ref (an older GitHub Enterprise Server, a local run): still a file, never the folder.
    [{ GITHUB_WORKFLOW: '.github/workflows/agent.yaml' }, '.github/workflows/agent.yaml'],
    [{ GITHUB_WORKFLOW: 'Agent security' }, '.github/workflows/agent-security.yml'],
    [{ GITHUB_WORKFLOW: '../../etc/passwd' }, '.github/workflows/etc-passwd.yml'],
    [{ GITHUB_WORKFLOW_REF: 'not a ref', GITHUB_WORKFLOW: '' }, '.github/workflows/workflow.yml'],
    [{}, '.github/workflows/workflow.yml']
  ])('is the workflow file of %j', (env, expected) => {
    expect(workflowFile(env)).toBe(expected)
    expect(workflowFile(env)).toMatch(/^\.github\/workflows\/[^/]+\.ya?ml$/)
  })
})

describe('the report model with a baseline', () => {
  it('splits new and known, counts them in the headline, and fails on the new one only', () => {
    const r = second.report
    // The accepted finding is a medium, under min_severity high: the headline counts at or above it only.
    expect(r.headline).toBe('1 new high · 2 known')
    expect(r.acceptances?.acceptedCount).toBe(1)
    expect(r.findings.find((f) => f.category === 'jailbreak')?.baselineState).toBe('new')
    expect(r.findings.find((f) => f.category === 'prompt_injection')?.baselineState).toBe('known')
    expect(second.outcome.decision.result).toBe('fail')
    expect(second.outcome.decision.reason).toBe('1 open finding at or above high (1 high)')
  })
})

describe('JUnit', () => {
  it('parses with xml2js: one test case per category, a failure per open blocking finding', async () => {
    const doc = (await parseStringPromise(renderJunit(second.report, { file: null }))) as {
      testsuites: {
        $: Record<string, string>
        testsuite: { testcase: { $: { name: string }; failure?: { $: { message: string } }[]; 'system-out'?: string[] }[] }[]
      }
    }
    const cases = doc.testsuites.testsuite[0].testcase
    const names = cases.map((c) => c.$.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual(second.report.coverageRows.map((r) => r.category))
    const failing = cases.filter((c) => c.failure)
    expect(failing.map((c) => c.$.name)).toEqual(['jailbreak'])
    expect(failing[0].failure![0].$.message).toMatch(/^high jailbreak finding \S+ \(new\)$/)
    expect(doc.testsuites.$.failures).toBe('1')
    expect(cases.find((c) => c.$.name === 'system_prompt_leakage')!['system-out']![0]).toMatch(/accepted \(working_as_designed/)
  })

  const incomplete = buildReport(
    makeInput({
      result: 'incomplete',
      run: makeRun({ categories_completed: [PLANNED[0]] }),
      findings: [makeFinding('high', { category: PLANNED[0] }), makeFinding('critical', { category: 'not_planned' })]
    })
  )

  it.each([
    ['the first run', () => first.report],
    ['the second run (baseline, accepted)', () => second.report],
    ['an incomplete run (skipped categories, an unplanned one)', () => incomplete]
  ])("conforms to the Jenkins xunit plugin's junit-10.xsd: %s", async (_name, report) => {
    const xml = renderJunit(report(), { file: null })
    const doc = (await parseStringPromise(xml)) as Record<string, never>
    expect(junitXsdProblems(doc)).toEqual([])
  })

  it('names the file the results are about: on the suite always, on each test case only for readers that take it there', async () => {
    interface Doc {
      testsuites: { testsuite: { $: Record<string, string>; testcase: { $: Record<string, string> }[] }[] }
    }
    const gitlab = (await parseStringPromise(renderJunit(second.report, { file: { path: 'ci/a&b.yml', onTestcases: true } }))) as Doc
    const suite = gitlab.testsuites.testsuite[0]
    expect(suite.$.file).toBe('ci/a&b.yml')
    expect(suite.testcase.length).toBeGreaterThan(0)
    for (const c of suite.testcase) expect(c.$.file).toBe('ci/a&b.yml')

    const xml = renderJunit(second.report, { file: { path: 'agent/profile.yml', onTestcases: false } })
    const elsewhere = (await parseStringPromise(xml)) as Doc & Record<string, never>
    expect(elsewhere.testsuites.testsuite[0].$.file).toBe('agent/profile.yml')
    for (const c of elsewhere.testsuites.testsuite[0].testcase) expect(c.$).not.toHaveProperty('file')
    // Where Jenkins' xunit may read it, the file stays valid against its schema.
    expect(junitXsdProblems(elsewhere)).toEqual([])

    const unknown = renderJunit(second.report, { file: null })
    expect(unknown).not.toContain(' file=')
  })

  it('keeps the skipped count on the test suite, where the schema allows it', async () => {
    const doc = (await parseStringPromise(renderJunit(incomplete, { file: null }))) as {
      testsuites: { $: Record<string, string>; testsuite: { $: Record<string, string> }[] }
    }
    expect(doc.testsuites.$).not.toHaveProperty('skipped')
    expect(doc.testsuites.testsuite[0].$).toMatchObject({ tests: '4', failures: '2', errors: '0', skipped: '2' })
  })

  it('is checked against a schema table that can fail', async () => {
    const bad =
      '<testsuites skipped="1"><testsuite name="s" tests="1" failures="0"><testcase><skipped/><bogus/></testcase></testsuite></testsuites>'
    expect(junitXsdProblems((await parseStringPromise(bad)) as Record<string, never>)).toEqual([
      '/testsuites: attribute skipped is not allowed on <testsuites>',
      '/testsuites/testsuite[0]: attribute errors is required on <testsuite>',
      '/testsuites/testsuite[0]/testcase[0]: attribute name is required on <testcase>',
      '/testsuites/testsuite[0]/testcase[0]: <bogus> is not allowed in <testcase>'
    ])
  })
})
