/**
 * The report inputs the file formats' tests share (report/sarif.test.ts, the
 * SARIF Multitool's check in report/sarif-multitool.test.ts,
 * report/codequality.test.ts): a run with a baseline and an accepted risk,
 * one of hostile service text, and the SARIF log of an input.
 */
import * as YAML from 'yaml'
import { buildReport } from '../../src/report/build-report.js'
import type { ReportInput, ReportPolicyInput } from '../../src/report/report-model.js'
import { renderSarif } from '../../src/report/sarif.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import type { Finding } from '../../src/service/contract/index.js'
import { coverageRow, makeCoverage, makeFinding, makeRun, PLANNED } from './builders.js'
import { makeInput } from './report-fixtures.js'

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
export interface SarifLog {
  runs: { results: SarifResult[]; tool: { driver: { rules: SarifRule[] } } }[]
}

export const sarif = (input: ReportInput, location = '.github/workflows/agent.yml'): SarifLog =>
  renderSarif(buildReport(input), { location, threshold: 'low', toolVersion: '1.0.0' }) as unknown as SarifLog

/** A run (run_2) with a baseline (one known finding), the accepted risk of data_leakage up to high, fail_on new. */
export function withPolicy(findings: Finding[], baselineFindings: Finding[]): ReportInput {
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
export const policyInput = withPolicy(policyFindings, [{ ...known, finding_id: 'f_known_before' }])

const HOSTILE_KEY = 'leak\u0000_[x](https://evil.example) @octocat **b** `tick` <img src=x onerror=alert(1)>\u202E'
export const hostileInput = makeInput({
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
