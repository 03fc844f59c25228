/**
 * The Code Quality report as GitLab's merge-request widget reads it: every
 * issue holds the fields GitLab's documentation requires (description,
 * check_name, fingerprint, location.path, location.lines.begin) and a severity
 * of its scale; one issue per weakness with the finding's own fingerprint,
 * stable across runs; only what counts against the gate or is known; service
 * text inert.
 */
import { describe, expect, it } from '@jest/globals'
import { z } from 'zod'
import { buildReport } from '../../src/report/build-report.js'
import { CODE_QUALITY_SEVERITY, codeQualityIssues, DESCRIPTION_MAX, renderCodeQuality } from '../../src/report/codequality.js'
import { REPORT_FORMATS } from '../../src/report/formats.js'
import type { ReportInput } from '../../src/report/report-model.js'
import { fingerprint } from '../../src/evidence/fingerprint.js'
import { FORBIDDEN_OUTPUT_CHARS } from '../../src/report/markdown-safe.js'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding, makeRun } from '../__fixtures__/builders.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { HOSTILE_STRINGS } from '../__fixtures__/hostile-strings.js'
import { withPolicy } from '../__fixtures__/format-cases.js'

/** GitLab's documented Code Quality issue (docs.gitlab.com/ci/testing/code_quality, "Code Quality report format"). */
const GitLabIssue = z
  .object({
    description: z.string().min(1),
    check_name: z.string().min(1),
    fingerprint: z.string().min(1),
    severity: z.enum(['info', 'minor', 'major', 'critical', 'blocker']),
    location: z.object({ path: z.string().min(1), lines: z.object({ begin: z.number().int().min(1) }).strict() }).strict()
  })
  .strict()
const GitLabReport = z.array(GitLabIssue)

const LOCATION = 'agents/support-bot.yml'
const render = (input: ReportInput): unknown => JSON.parse(renderCodeQuality(buildReport(input), { location: LOCATION }))
const issues = (input: ReportInput) => codeQualityIssues(buildReport(input), { location: LOCATION })
const known = makeFinding('high', { finding_id: 'f_known', category: 'prompt_injection', description: 'Follows injected text.' })
const policyInput = withPolicy(
  [
    known,
    makeFinding('critical', { finding_id: 'f_new', category: 'jailbreak', description: 'Role-play bypass.' }),
    makeFinding('high', { finding_id: 'f_acc', category: 'data_leakage', description: 'Reads back the public FAQ.' }),
    makeFinding('low', { finding_id: 'f_low', category: 'jailbreak', description: 'Below the threshold.' }),
    makeFinding('critical', { finding_id: 'f_fixed', category: 'jailbreak', status: 'fixed', description: 'Fixed one.' })
  ],
  [{ ...known, finding_id: 'f_known_before' }]
)

describe('the Code Quality report', () => {
  it('is registered as a report format with its own output', () => {
    const format = REPORT_FORMATS.find((f) => f.output === 'codequality_path')
    expect(format?.extension).toBe('codequality.json')
    const text = format!.render(buildReport(makeInput()), {
      sarifLocation: LOCATION,
      junitFile: null,
      sarifMinSeverity: 'low',
      toolVersion: '1.0.0'
    })
    expect(GitLabReport.parse(JSON.parse(text))).toHaveLength(2)
  })

  it.each([
    ['a failing run', makeInput()],
    ['a baseline and an accepted finding', policyInput],
    ['no findings', makeInput({ findings: [] })],
    ['unreadable findings', makeInput({ findings: null })]
  ])('holds every documented field of every issue (%s)', (_name, input) => {
    expect(() => GitLabReport.parse(render(input))).not.toThrow()
  })

  it('rejects what GitLab would not read (the schema check can fail)', () => {
    const [one] = issues(makeInput())
    expect(GitLabIssue.safeParse({ ...one, severity: 'high' }).success).toBe(false)
    expect(GitLabIssue.safeParse({ ...one, location: { path: LOCATION } }).success).toBe(false)
  })

  it('lists the blocking and the known findings, not the accepted, closed or below-threshold ones', () => {
    const got = issues(policyInput)
    expect(got.map((i) => [i.check_name, i.severity, i.description])).toEqual([
      ['agent-security/jailbreak', 'blocker', 'critical jailbreak finding (new): Role-play bypass.'],
      ['agent-security/prompt_injection', 'critical', 'high prompt_injection finding (known): Follows injected text.']
    ])
    expect(got.every((i) => i.location.path === LOCATION && i.location.lines.begin === 1)).toBe(true)
  })

  it("carries the finding's own fingerprint: the same weakness keeps it in the next run, whatever its ids", () => {
    const a = makeFinding('high', { finding_id: 'f_run1', description: 'Leaks the prompt in 2 of 3 probes.' })
    const b = { ...a, finding_id: 'f_run2', description: 'Leaks the prompt in 3 of 3 probes.' }
    const [ia] = issues(makeInput({ findings: [a] }))
    const [ib] = issues(makeInput({ findings: [b] }))
    expect(ia.fingerprint).toBe(fingerprint(a, makeRun().run_id ?? null))
    expect(ib.fingerprint).toBe(ia.fingerprint)
    expect(ia.description).not.toContain('f_run1')
  })

  it('gives one issue per fingerprint (GitLab shows one), and distinct weaknesses distinct ones', () => {
    const a = makeFinding('critical', { finding_id: 'f_1', description: 'Leaks the prompt.' })
    const twin = { ...a, finding_id: 'f_2' }
    const other = makeFinding('critical', { finding_id: 'f_3', description: 'Calls the refund tool unasked.' })
    const got = issues(makeInput({ findings: [a, twin, other] }))
    expect(got).toHaveLength(2)
    expect(new Set(got.map((i) => i.fingerprint)).size).toBe(2)
  })

  it.each(Object.entries(CODE_QUALITY_SEVERITY))('maps severity %s to %s', (severity, expected) => {
    const input = makeInput({ minSeverity: 'low', findings: [makeFinding(severity as Finding['severity'])] })
    expect(issues(input)[0].severity).toBe(expected)
  })

  it.each(HOSTILE_STRINGS.map((h) => [h.name, h.text] as const))('makes %s inert: one line, no control, clamped', (_name, text) => {
    const input = makeInput({ findings: [makeFinding('critical', { category: text || 'x', description: text })] })
    const parsed = GitLabReport.parse(render(input))
    for (const issue of parsed) {
      for (const s of [issue.description, issue.check_name]) {
        expect(s).not.toMatch(/[\u0000-\u001F\u007F-\u009F]/)
        expect(s).not.toMatch(FORBIDDEN_OUTPUT_CHARS)
      }
      expect(issue.description.length).toBeLessThanOrEqual(DESCRIPTION_MAX + 20)
    }
  })
})
