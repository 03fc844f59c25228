import { describe, expect, it } from '@jest/globals'
import type { Severity } from '../../src/service/contract/index.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { buildReport } from '../../src/report/build-report.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { makeFinding, redactedFinding } from '../__fixtures__/builders.js'

function reportWith(severities: Severity[], minSeverity: Severity = 'low') {
  return buildReport(
    makeInput({ minSeverity, findings: severities.map((s, i) => makeFinding(s, { finding_id: `f${i}`, category: `cat_${s}` })) })
  )
}

describe('buildAnnotations', () => {
  it('one error per finding at or above the threshold, most severe first', () => {
    const a = buildAnnotations(reportWith(['low', 'critical', 'medium', 'high'], 'medium'))
    expect(a.map((x) => [x.level, x.title])).toEqual([
      ['error', 'critical finding f1: cat_critical (blocks)'],
      ['error', 'high finding f3: cat_high (blocks)'],
      ['error', 'medium finding f2: cat_medium (blocks)']
    ])
    expect(a[0]?.message).toContain('Finding f1 (critical cat_critical, security, status open) blocks (open at or above medium).')
    expect(a[0]?.message).toContain('Description: The agent disclosed its system prompt (critical).')
    expect(a[0]?.message).toContain('1 attack; replay steps in the job summary and the JSON report.')
  })

  it('none when nothing is at or above the threshold', () => {
    expect(buildAnnotations(reportWith(['low', 'medium'], 'high'))).toEqual([])
  })

  it.each([
    [10, 10, 10],
    [11, 10, 10],
    [50, 10, 10],
    [3, 10, 3],
    [5, 3, 3],
    [5, 1, 1]
  ])('%i findings with max %i give %i annotations', (n, max, expected) => {
    const a = buildAnnotations(reportWith(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'high' : 'critical'))), max)
    expect(a).toHaveLength(expected)
    if (n > max) {
      const last = a.at(-1)
      const rest = n - (max - 1)
      expect(last?.title).toBe(`${rest} more findings at or above low`)
      expect(last?.message).toMatch(new RegExp(`^${rest} more findings at or above low \\(.*; ${rest} blocking\\) are not annotated`))
    }
  })

  it('over the cap, the summarised ones are the least severe', () => {
    const sev: Severity[] = [...Array(5).fill('low'), ...Array(8).fill('critical')]
    const a = buildAnnotations(reportWith(sev))
    expect(a).toHaveLength(9)
    expect(a.slice(0, 8).every((x) => x.title.startsWith('critical'))).toBe(true)
    expect(a[8]?.message).toContain('(5 low; 5 blocking)')
  })

  it("by default at most 9, so the step's result line is the tenth error GitHub shows", () => {
    const a = buildAnnotations(reportWith(Array.from({ length: 12 }, () => 'high')))
    expect(a).toHaveLength(9)
    expect(a.filter((x) => x.level === 'error')).toHaveLength(9)
  })

  it('redacted findings say the proof is withheld; non-open ones are warnings', () => {
    const report = buildReport(makeInput({ findings: [redactedFinding('high'), makeFinding('critical', { status: 'dismissed' })] }))
    const a = buildAnnotations(report)
    // What blocks first, however severe what does not block is.
    expect(a[1]?.level).toBe('warning')
    expect(a[1]?.title).toMatch(/^critical finding f_\d+: prompt_injection \(closed\)$/)
    expect(a[0]?.level).toBe('error')
    expect(a[0]?.message).toContain("Proof withheld: the workspace's plan withholds the proof of findings.")
    expect(a[0]?.message).not.toContain('[redacted]')
  })

  it('clamps long texts and keeps one line', () => {
    const report = buildReport(
      makeInput({ findings: [makeFinding('high', { description: `line\n${'x'.repeat(5000)}`, category: 'c\r\nd' })] })
    )
    const a = buildAnnotations(report).at(0)
    expect(a?.message.length).toBeLessThan(1200)
    expect(a?.title).toMatch(/^high finding f_\d+: c d \(blocks\)$/)
    expect(a?.message).not.toMatch(/[\r\n]/)
  })
})
