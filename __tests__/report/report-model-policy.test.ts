/** The report model's baseline and accepted-risks parts: headline, states, stale/expired/PR entries. */
import { describe, expect, it } from '@jest/globals'
import * as YAML from 'yaml'
import { buildReport } from '../../src/report/build-report.js'
import type { ReportPolicyInput } from '../../src/report/report-model.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding, PLANNED } from '../__fixtures__/builders.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { renderComment } from '../../src/report/comment.js'
import { observedFindings, poolEvidence } from '../../src/evidence/pool.js'

const TODAY = '2026-11-23'
const f = (category: string, severity: Finding['severity'], status = 'open'): Finding =>
  makeFinding(severity, { category, description: `${category} weakness`, status })
const accept = (category: string, expires = '2027-01-01') =>
  `  - category: ${category}\n    reason_code: other\n    explanation: x\n    owner: o\n    severity_at_most: any\n    expires: ${expires}\n`

function report(findings: Finding[], opts: { baseline?: Finding[] | null; accepted?: string[]; failOn?: 'any' | 'new' } = {}) {
  const baseline = opts.baseline
    ? buildBaseline({
        modelId: 'm',
        runId: 'run_0',
        createdAt: '',
        commit: null,
        categoriesCompleted: [...PLANNED],
        findings: opts.baseline
      })
    : null
  const entries = opts.accepted ? parseAcceptedFile(YAML, `accepted:\n${opts.accepted.join('')}`, 'a.yml', TODAY) : []
  const outcome = applyPolicy({
    findings,
    runId: 'run_1',
    categoriesCompleted: [...PLANNED],
    baseline,
    windows: {
      agent: null,
      base: opts.baseline
        ? poolEvidence([
            {
              runId: 'run_0',
              completedAt: '',
              categoriesCompleted: [...PLANNED],
              findings: observedFindings(opts.baseline, 'run_0'),
              provenance: 'default-branch'
            }
          ])
        : null
    },
    accepted: entries,
    failOn: opts.failOn ?? 'new',
    today: TODAY
  })
  const policy: ReportPolicyInput = {
    failOn: opts.failOn ?? 'new',
    baseline,
    baselineSource: baseline ? 'cache' : null,
    baselineWhy: baseline ? null : 'no baseline saved by the default branch yet',
    baselineSaved: null,
    accepted: { path: 'a.yml', source: opts.accepted ? 'base' : null, entries, prAdds: [], prRemoves: [], notes: [] },
    outcome
  }
  return buildReport(makeInput({ findings, policy }))
}

describe('report headline', () => {
  const cases: [string, ReturnType<typeof report>, string][] = [
    ['no baseline, no acceptances', report([f('jailbreak', 'high')], { baseline: null }), ''],
    ['all known', report([f('jailbreak', 'high')], { baseline: [f('jailbreak', 'high')] }), '0 new · 1 known'],
    [
      'new by severity, most severe first',
      report([f('jailbreak', 'high'), f('data_leakage', 'critical'), f('prompt_injection', 'high')], {
        baseline: [f('prompt_injection', 'high')]
      }),
      '1 new critical · 1 new high · 1 known'
    ],
    [
      'below the threshold and closed findings are not counted',
      report([f('jailbreak', 'medium'), f('data_leakage', 'high', 'dismissed')], { baseline: [] }),
      '0 new · 0 known'
    ],
    [
      "accepted, and a finding of main's window this run did not reproduce (it does not block: the headline counts what decides)",
      report([f('jailbreak', 'high')], { baseline: [f('data_leakage', 'high')], accepted: [accept('jailbreak')] }),
      '0 new · 0 known · 1 accepted'
    ],
    [
      'a finding the service closed since (validated): closed since',
      report([f('jailbreak', 'high')], { baseline: [f('jailbreak', 'high'), f('data_leakage', 'high', 'FIXED_VERIFIED')] }),
      '0 new · 1 known · 1 closed since'
    ],
    [
      'a plain fixed close is not a validation: not counted as closed since (known under fail_on new, so it does not decide)',
      report([f('jailbreak', 'high')], { baseline: [f('jailbreak', 'high'), f('data_leakage', 'high', 'fixed')] }),
      '0 new · 1 known'
    ],
    ['expired', report([], { accepted: [accept('jailbreak', '2026-01-01')] }), '1 expired acceptance']
  ]
  it.each(cases)('%s', (_name, r, headline) => {
    expect(r.headline).toBe(headline)
  })
})

describe('report baseline and acceptances', () => {
  it('marks each finding new or known, with its fingerprint, and lists stale entries', () => {
    const r = report([f('jailbreak', 'high'), f('prompt_injection', 'high')], {
      baseline: [f('prompt_injection', 'high')],
      accepted: [accept('data_leakage')]
    })
    expect(Object.fromEntries(r.findings.map((x) => [x.category, x.baselineState]))).toEqual({
      jailbreak: 'new',
      prompt_injection: 'known'
    })
    expect(r.findings.every((x) => /^[0-9a-f]{32}$/.test(x.fingerprint))).toBe(true)
    expect(r.acceptances?.stale.map((e) => e.category)).toEqual(['data_leakage'])
    expect(r.baseline).toMatchObject({ available: true, newCount: 1, knownCount: 1, runId: 'run_0' })
  })
  it('says why there is no baseline', () => {
    const r = report([f('jailbreak', 'high')], { baseline: null })
    expect(r.baseline).toMatchObject({ available: false, why: 'no baseline saved by the default branch yet', newCount: 0 })
    expect(r.findings[0].baselineState).toBeNull()
  })
  it.each([
    ['any', 'every open finding at or above the threshold counts'],
    ['new', 'fail_on new falls back to any: every open finding at or above the threshold counts']
  ] as const)('says in plain words what fail_on %s gates on without a baseline', (failOn, said) => {
    const line = renderComment(report([f('jailbreak', 'high')], { baseline: null, failOn }))
      .split('\n')
      .find((l) => l.startsWith('- **Baseline:**'))
    expect(line).toBe(`- **Baseline:** none (no baseline saved by the default branch yet); ${said}`)
  })
})
