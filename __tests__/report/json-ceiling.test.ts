/**
 * report.json respects its stated ceiling: 100,000
 * findings come out under JSON_LIMIT_CHARS (64 Mi characters), valid JSON,
 * with the truncation marker saying how many findings were left out; a small
 * limit exercises each stage of the degradation.
 */
import { describe, expect, it } from '@jest/globals'
import type { Finding, Severity } from '../../src/service/contract/index.js'
import { buildReport } from '../../src/report/build-report.js'
import { JSON_LIMIT_CHARS, renderJson, type JsonTruncation } from '../../src/report/json.js'
import { makeAttack, makeFinding, makeStep } from '../__fixtures__/builders.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'

interface Data {
  findings: { finding_id: string; severity: Severity }[]
  counts: { total: number }
  truncation: JsonTruncation | null
}

function findings(n: number, text = 'x'.repeat(300)): Finding[] {
  const sev: Severity[] = ['critical', 'high', 'medium', 'low']
  return Array.from({ length: n }, (_, i) =>
    makeFinding(sev[i % 4], {
      finding_id: `f_${i}`,
      description: text,
      attacks: [makeAttack({ replay_script: [makeStep({ message: text, response: text })] })]
    })
  )
}

describe('report.json ceiling', () => {
  it('100,000 findings: under 64 Mi characters, valid JSON, saying how many findings were left out', () => {
    const report = buildReport(makeInput({ minSeverity: 'low', findings: findings(100_000) }))
    const json = renderJson(report)
    expect(json.length).toBeLessThanOrEqual(JSON_LIMIT_CHARS)
    const data = JSON.parse(json) as Data
    expect(data.counts.total).toBe(100_000)
    const t = data.truncation!
    expect(t.findings_total).toBe(100_000)
    expect(t.findings_omitted).toBe(100_000 - data.findings.length)
    expect(t.findings_omitted).toBeGreaterThan(0)
    expect(data.findings.length).toBeGreaterThan(10_000)
    expect(t.note).toMatch(
      /report\.json is limited to 67,108,864 characters: the first [\d,]+ of 100,000 findings \(most severe first\) are listed/
    )
    // Most severe first: every critical finding listed comes before any other.
    const firstNonCritical = data.findings.findIndex((f) => f.severity !== 'critical')
    expect(data.findings.slice(firstNonCritical).some((f) => f.severity === 'critical')).toBe(false)
  }, 120_000)

  it.each([
    [
      'fits as is',
      10_000_000,
      (t: JsonTruncation | null) => {
        expect(t).toBeNull()
      }
    ],
    [
      'texts cut',
      400_000,
      (t: JsonTruncation | null) => {
        expect(t?.fields_truncated).toBeGreaterThan(0)
        expect(t?.findings_omitted).toBeUndefined()
      }
    ],
    [
      'findings left out',
      60_000,
      (t: JsonTruncation | null) => {
        expect(t?.findings_omitted).toBeGreaterThan(0)
      }
    ]
  ])('a small limit: %s, always valid JSON within the limit', (_what, limit, check) => {
    const report = buildReport(makeInput({ minSeverity: 'low', findings: findings(200) }))
    const json = renderJson(report, { limitChars: limit })
    expect(json.length).toBeLessThanOrEqual(limit)
    const data = JSON.parse(json) as Data
    check(data.truncation)
    if (data.truncation?.findings_omitted) expect(data.findings.length + data.truncation.findings_omitted).toBe(200)
    else expect(data.findings).toHaveLength(200)
  })
})
