import { describe, expect, it } from '@jest/globals'
import type { Finding, Severity } from '../../src/service/contract/index.js'
import { buildReport } from '../../src/report/build-report.js'
import type { Report } from '../../src/report/report-model.js'
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

const decode = (t: string): string => t.replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)))

/** Ids of the findings shown in full (one <details> each), in order. */
function detailedIds(md: string): string[] {
  return [...md.matchAll(/^<summary>\S+ <b>\w+<\/b> · <code>[^<]*<\/code> · <code>([^<]*)<\/code>/gm)].map((m) => decode(m[1]))
}

/** Ids of the findings shown as one-line rows, in order. */
function rowIds(md: string): string[] {
  return [...md.matchAll(/^\| \S+ (?:critical|high|medium|low) \| `[^`]*` \| `([^`]+)`/gm)].map((m) => m[1])
}

/** Every finding named (in full or as a row), in order. */
function listedIds(md: string): string[] {
  return [...detailedIds(md), ...rowIds(md)]
}

function bigReport(): Report {
  const findings: Finding[] = []
  const spread: [Severity, number][] = [
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
  const order = report.findings.map((f) => f.findingId)

  it('the comment stays under 65,536 characters: rows as fit, then a count grid, and says exactly what was cut', () => {
    const out = renderComment(report)
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    const rows = rowIds(out)
    expect(rows.length).toBeGreaterThan(100)
    expect(rows).toEqual(order.slice(0, rows.length))
    expect(out).toContain(`${(5000 - rows.length).toLocaleString('en-US')} findings only counted in the grid`)
    expect(out).toMatch(/To fit the 65,536-character limit of a GitHub comment: /)
    expect(out).toMatch(/\*\*All 5,000 findings by category:\*\*\n\n\| Category \| 🔴 critical \| 🟠 high \| 🟡 medium \| 🔵 low \|/)
    expect(out).toContain('| `prompt_injection` | 40 | 960 | 2,000 | 2,000 |')
    expect(out).toMatch(/Full data: \[job summary\]\(https:\/\/github\.com\/acme\/shop\/actions\/runs\/42\) and the JSON report/)
    expect(checkMarkdown(out, { allowLinks: ['https://github.com/acme/shop/actions/runs/42'] })).toEqual([])
  })

  it('the summary stays under 1 MiB, names every finding at least by a row, and keeps the proof of the most severe', () => {
    const out = renderSummary(report)
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(SUMMARY_LIMIT)
    expect(listedIds(out)).toEqual(order)
    expect(detailedIds(out).slice(0, 40)).toEqual(order.slice(0, 40))
    expect(out).toMatch(/To fit the 1,048,576-byte limit of a job summary: .*as one-line rows without proof/)
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

describe('cutting detail before rows', () => {
  it('(1) shortens the proof first while every finding keeps its section', () => {
    const findings = Array.from({ length: 10 }, (_, i) => bigFinding('high', `h_${i}`, 'x'.repeat(100_000)))
    const out = renderComment(buildReport(makeInput({ findings })))
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(detailedIds(out)).toHaveLength(10)
    expect(out).toMatch(/\d+ findings? with shorter proof/)
    expect(out).not.toMatch(/one-line rows|grid/)
  })

  it('(1b) shows at most ten findings in full in the comment, every other one as a row', () => {
    const findings = Array.from({ length: 60 }, (_, i) => bigFinding('high', `h_${i}`, 'x'.repeat(100_000)))
    const out = renderComment(buildReport(makeInput({ findings })))
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(detailedIds(out)).toEqual(Array.from({ length: 10 }, (_, i) => `h_${i}`))
    expect(rowIds(out)).toEqual(Array.from({ length: 50 }, (_, i) => `h_${i + 10}`))
    expect(out).toContain('50 findings as one-line rows without proof')
  })

  it('(2) 12 critical and 340 high: the criticals in full, every high by a row, no grid', () => {
    const findings = [
      ...Array.from({ length: 12 }, (_, i) => bigFinding('critical', `c_${i}`, 'y'.repeat(3000))),
      ...Array.from({ length: 340 }, (_, i) => bigFinding('high', `h_${i}`, 'y'.repeat(3000)))
    ]
    const out = renderComment(buildReport(makeInput({ findings })))
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(detailedIds(out)).toEqual(Array.from({ length: 10 }, (_, i) => `c_${i}`))
    expect(rowIds(out)).toEqual([`c_10`, `c_11`, ...Array.from({ length: 340 }, (_, i) => `h_${i}`)])
    expect(out).not.toMatch(/grid/)
    const summary = renderSummary(buildReport(makeInput({ findings })))
    expect(detailedIds(summary)).toEqual(findings.map((f) => f.finding_id))
  })

  it('(2b) when even the rows do not fit: the rows that fit in order, then a grid counting all', () => {
    const findings = Array.from({ length: 2000 }, (_, i) => makeFinding('critical', { finding_id: `c_${i}` }))
    const out = renderComment(buildReport(makeInput({ findings })))
    const ids = rowIds(out)
    expect(out.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(ids.length).toBeGreaterThan(100)
    expect(ids.length).toBeLessThan(2000)
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => `c_${i}`))
    expect(out).toContain(`${(2000 - ids.length).toLocaleString('en-US')} findings only counted in the grid`)
    expect(out).toContain('| `prompt_injection` | 2,000 | – | – | – |')
  })

  it('(3) shows only counts when not even the rows fit, and always stays within the limit', () => {
    const findings = Array.from({ length: 50 }, (_, i) => bigFinding('high', `h_${i}`, 'y'.repeat(5000)))
    const report = buildReport(makeInput({ findings, notes: ['a note'] }))
    let previous = -1
    let sawCountsOnly = false
    for (let limit = 1000; limit <= 40_000; limit += 1500) {
      const out = renderComment(report, { limit })
      expect(out.length).toBeLessThanOrEqual(limit)
      expect(checkMarkdown(out, { allowLinks: ['https://github.com/acme/shop/actions/runs/42'] })).toEqual([])
      const n = listedIds(out).length + detailedIds(out).length
      expect(n).toBeGreaterThanOrEqual(previous)
      previous = n
      if (n === 0 && out.includes('only counts')) sawCountsOnly = true
      if (out.length > 0) expect(out.startsWith('<!-- asas-gate:model=m_demo -->')).toBe(true)
    }
    expect(sawCountsOnly).toBe(true)
    expect(previous).toBe(60)
  })

  it('the summary lists findings below the threshold when there is room; the comment only counts them', () => {
    const findings = [
      makeFinding('high', { finding_id: 'h_1' }),
      ...Array.from({ length: 20 }, (_, i) => makeFinding('low', { finding_id: `l_${i}` }))
    ]
    const report = buildReport(makeInput({ findings }))
    const summary = renderSummary(report)
    expect(summary).toContain('#### Below high: 20 findings (20 low)')
    expect(rowIds(summary)).toEqual(Array.from({ length: 20 }, (_, i) => `l_${i}`))
    const comment = renderComment(report)
    expect(comment).toContain('**Below high:** 20 findings (20 low), counted here and listed in the job summary.')
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
