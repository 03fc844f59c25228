import { describe, expect, it } from '@jest/globals'
import type { Finding, Severity } from '../../src/service/contract/index.js'
import { buildReport, type Report } from '../../src/report/report-model.js'
import { COMMENT_LIMIT, renderComment } from '../../src/report/comment.js'
import { JSON_LIMIT_CHARS, renderJson } from '../../src/report/json.js'
import { renderSummary, SUMMARY_LIMIT } from '../../src/report/summary.js'
import { checkMarkdown } from '../__fixtures__/hostile-strings.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { makeAttack, makeFinding, makeStep } from '../__fixtures__/builders.js'

const MB = `${'reply '.repeat(100)}\n`.repeat(1750).slice(0, 1 << 20)

function bigFinding(severity: Severity, id: string, text = MB): Finding {
  const step = makeStep({ message: text, response: text, body: text, response_body: text })
  return makeFinding(severity, {
    finding_id: id,
    description: text,
    expected_behavior: text,
    attacks: [makeAttack({ replay_script: [step, step, step] }), makeAttack({ replay_script: [step] })]
  })
}

/** Finding ids listed in a markdown rendering, in order. */
function listedIds(md: string): string[] {
  return [...md.matchAll(/^\*\*[\d,]+\. .*· id `([^`]+)`/gm)].map((m) => m[1] as string)
}

function bigReport(): Report {
  const findings: Finding[] = []
  const spread: Array<[Severity, number]> = [
    ['critical', 40],
    ['high', 960],
    ['medium', 2000],
    ['low', 2000]
  ]
  for (const [sev, n] of spread) for (let i = 0; i < n; i++) findings.push(bigFinding(sev, `${sev}_${i}`))
  return buildReport(makeInput({ minSeverity: 'low', findings, reason: '5000 open findings at or above low' }))
}

describe('5,000 findings with megabyte replies', () => {
  const report = bigReport()

  it('the comment stays under 65,536 characters and says what was cut and where the rest is', () => {
    const out = renderComment(report)
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(out).toMatch(/Shortened to fit the 65,536-character limit of a GitHub comment/)
    expect(out).toMatch(/960 high, 2,000 medium, 2,000 low findings at or above low collapsed to counts/)
    expect(out).toMatch(/The full data is in the job summary of this workflow run and the JSON report/)
    // The most severe group is listed whole; nothing less severe is.
    const ids = listedIds(out)
    expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => `critical_${i}`))
    // Counts still say everything.
    expect(out).toContain('5,000 in total (40 critical, 960 high, 2,000 medium, 2,000 low)')
    expect(checkMarkdown(out, { allowLinks: ['https://github.com/acme/shop/actions/runs/42'] })).toEqual([])
  })

  it('the summary stays under 1 MiB and lists more than the comment', () => {
    const out = renderSummary(report)
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(SUMMARY_LIMIT)
    expect(out).toMatch(/Shortened to fit the 1,048,576-byte limit of a job summary/)
    expect(out).toMatch(/The full data is in the JSON report/)
    expect(listedIds(out).length).toBeGreaterThan(listedIds(renderComment(report)).length)
    expect(checkMarkdown(out, { allowLinks: ['https://github.com/acme/shop/actions/runs/42'] })).toEqual([])
  })

  it('report.json keeps every finding, cutting each text to fit its ceiling, and says so', () => {
    const json = renderJson(report)
    expect(json.length).toBeLessThanOrEqual(JSON_LIMIT_CHARS)
    const data = JSON.parse(json) as { findings: unknown[]; truncation: { max_field_chars: number; fields_truncated: number } | null }
    expect(data.findings).toHaveLength(5000)
    expect(data.truncation?.fields_truncated).toBeGreaterThan(0)
    expect(data.truncation?.max_field_chars).toBeLessThan(MB.length)
  })
})

describe('degrading in order', () => {
  it('(1) trims replay fields first while every finding still fits', () => {
    const findings = Array.from({ length: 10 }, (_, i) => bigFinding('high', `h_${i}`, 'x'.repeat(100_000)))
    const out = renderComment(buildReport(makeInput({ findings })))
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(listedIds(out)).toHaveLength(10)
    expect(out).toMatch(/replay fields trimmed to [\d,]+ characters/)
    expect(out).not.toMatch(/collapsed to counts/)
    expect((out.match(/^<details>$/gm) ?? []).length).toBeGreaterThanOrEqual(10)
  })

  it('(1b) leaves replay steps out before dropping any finding', () => {
    const findings = Array.from({ length: 60 }, (_, i) => bigFinding('high', `h_${i}`, 'x'.repeat(100_000)))
    const out = renderComment(buildReport(makeInput({ findings })))
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(listedIds(out)).toHaveLength(60)
    expect(out).toMatch(/replay steps left out/)
    expect(out).not.toMatch(/<details>/)
  })

  it('(2) collapses the least severe groups to counts and gives the kept ones their detail back', () => {
    const findings = [
      bigFinding('critical', 'c_1', 'short reply'),
      bigFinding('critical', 'c_2', 'short reply'),
      ...Array.from({ length: 3000 }, (_, i) => makeFinding('low', { finding_id: `l_${i}` }))
    ]
    const out = renderComment(buildReport(makeInput({ minSeverity: 'low', findings })))
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(listedIds(out)).toEqual(['c_1', 'c_2'])
    expect(out).toMatch(/3,000 low findings at or above low collapsed to counts/)
    expect(out).not.toMatch(/replay fields trimmed|replay steps left out/)
    expect((out.match(/^<details>$/gm) ?? []).length).toBe(4)
    expect(out).toContain('##### 🔵 low: 3,000')
  })

  it('(2b) lists what fits of a single group that is too large', () => {
    const findings = Array.from({ length: 2000 }, (_, i) => makeFinding('critical', { finding_id: `c_${i}` }))
    const out = renderComment(buildReport(makeInput({ findings })))
    const ids = listedIds(out)
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(ids.length).toBeGreaterThan(10)
    expect(ids.length).toBeLessThan(2000)
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => `c_${i}`))
    expect(out).toContain(`${(2000 - ids.length).toLocaleString('en-US')} critical findings at or above high collapsed to counts`)
  })

  it('(3) shows only counts when not even one finding fits, and always stays within the limit', () => {
    const findings = Array.from({ length: 50 }, (_, i) => bigFinding('high', `h_${i}`, 'y'.repeat(5000)))
    const report = buildReport(makeInput({ findings, notes: ['a note'] }))
    let previous = -1
    let sawCountsOnly = false
    for (let limit = 1000; limit <= 40_000; limit += 1500) {
      const out = renderComment(report, { limit })
      expect(out.length).toBeLessThanOrEqual(limit)
      expect(checkMarkdown(out, { allowLinks: ['https://github.com/acme/shop/actions/runs/42'] })).toEqual([])
      const n = listedIds(out).length
      expect(n).toBeGreaterThanOrEqual(previous)
      previous = n
      if (n === 0 && /only counts/.test(out)) sawCountsOnly = true
      if (out.length > 0) expect(out.startsWith('<!-- asas-gate:model=m_demo -->')).toBe(true)
    }
    expect(sawCountsOnly).toBe(true)
    expect(previous).toBe(50)
  })

  it('the summary lists findings below the threshold when there is room; the comment only counts them', () => {
    const findings = [makeFinding('high', { finding_id: 'h_1' }), ...Array.from({ length: 20 }, (_, i) => makeFinding('low', { finding_id: `l_${i}` }))]
    const report = buildReport(makeInput({ findings }))
    const summary = renderSummary(report)
    expect(summary).toContain('#### Findings below high: 20 (20 low)')
    for (let i = 0; i < 20; i++) expect(summary).toContain(`id \`l_${i}\``)
    const comment = renderComment(report)
    expect(comment).toContain('**Below high:** 20 findings (20 low), counted here and not listed.')
    expect(comment).not.toContain('`l_0`')
  })

  it('summary sizes are counted in UTF-8 bytes', () => {
    const wide = '漢字🔥'.repeat(20_000)
    const findings = Array.from({ length: 40 }, (_, i) => bigFinding('high', `h_${i}`, wide))
    const report = buildReport(makeInput({ findings }))
    for (const limitBytes of [50_000, 200_000]) {
      const out = renderSummary(report, { limitBytes })
      expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(limitBytes)
      expect(out.length).toBeLessThan(limitBytes)
    }
  })
})
