/**
 * Every view of the ten situations of the reviewer's view (reviewer-view.test.ts) agrees with the verdict: the
 * counts in the title, the outputs (new_count, known_count), the list
 * heading, the annotations, the commit status and the command line's list
 * all give the blockers of one derivation (src/report/blockers.ts), and the
 * comment names each blocker right under its title.
 */
import { describe, expect, it } from '@jest/globals'
import { buildReport } from '../../src/report/build-report.js'
import { renderComment } from '../../src/report/comment.js'
import { renderSummary } from '../../src/report/summary.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { blockers } from '../../src/report/blockers.js'
import { gateStatus, outcomeValues, reportOutcome, type AssessedOutcome, type StepOutcome } from '../../src/action/outcome.js'
import { humanSummary } from '../../src/cli/render.js'
import { statusDescription } from '../../src/github/commit-status.js'
import type { Report, ReportInput } from '../../src/report/report-model.js'
import { evidenceCaseInput } from '../__fixtures__/evidence-cases.js'
import { gateCaseInput, REPORT_CASES } from '../__fixtures__/report-cases.js'
import { movedPreviewInput, PIPELINE_CASES } from '../__fixtures__/pipeline-cases.js'

const lines = (md: string): string[] => md.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('<!--'))
const sumOf = (text: string, pattern: RegExp): number => [...text.matchAll(pattern)].reduce((n, m) => n + Number(m[1].replace(/,/g, '')), 0)

function assessedEnd(report: Report): AssessedOutcome {
  const files = { report_path: 'r.json', sarif_path: 'r.sarif', junit_path: 'r.xml', markdown_path: 'r.md', codequality_path: 'r.cq.json' }
  return {
    kind: 'assessed',
    result: report.result,
    runId: report.runId ?? '',
    status: 'completed',
    serviceVerdict: report.verdict,
    findingsCount: 0,
    categoriesPlanned: [],
    categoriesCompleted: [],
    files,
    assessmentsSpent: 1,
    commentUrl: null,
    ...reportOutcome(report)
  }
}

function stepOf(report: Report): StepOutcome {
  return {
    end: assessedEnd(report),
    prepared: { modelId: report.modelId, target: null, profileVersion: null },
    result: report.result,
    conclusion: { outcome: report.result === 'pass' ? 'pass' : 'fail', line: `Result: ${report.result}: ${report.reason}` }
  }
}

const ASSESSED: [string, () => ReportInput][] = [
  ['steady and flaky findings', () => evidenceCaseInput('evidence-steady-flaky')],
  ['a weakness not reproduced in this run', () => evidenceCaseInput('evidence-not-reproduced')],
  ["a pass beside a flaky weakness of main's", () => evidenceCaseInput('evidence-pass-main-flaky')],
  ['a moved preview host', movedPreviewInput],
  ['fail_on new with known and new findings', () => evidenceCaseInput('evidence-new-known')],
  ['fail_on new, the blocker not reproduced, a known one beside it', () => evidenceCaseInput('evidence-missed-known')],
  ['352 findings', () => gateCaseInput('huge')]
]

describe.each(ASSESSED)('%s: every view gives the same blockers as the verdict', (_name, input) => {
  const report = buildReport(input())
  const list = blockers(report)
  const n = list.length
  const comment = renderComment(report)
  const summary = renderSummary(report)

  it('the verdict: a fail has blockers, a pass none', () => {
    expect(report.result === 'fail').toBe(n > 0)
  })

  it('the title counts them, and nothing else', () => {
    const title = lines(comment)[0]
    if (n === 0) expect(title).toContain('nothing blocks at or above')
    else expect(sumOf(title, /(\d[\d,]*) (?:new|open) (?:critical|high|medium|low)\b/g)).toBe(n)
    expect(title).not.toMatch(/known|accepted|steady|flaky|not reproduced/)
  })

  it('the outputs count them (new_count: the new ones; known_count: those main holds)', () => {
    const values = outcomeValues(stepOf(report))
    if (report.baseline?.available) {
      expect(values.new_count).toBe(list.filter((b) => b.baselineState === 'new').length)
      const doesNotBlock = lines(comment).find((l) => l.startsWith('**Does not block:**')) ?? ''
      expect(values.known_count).toBe(list.filter((b) => b.baselineState === 'known').length + sumOf(doesNotBlock, /(\d+) known\b/g))
    }
  })

  it('the list heading counts them: this run’s, and those it did not reproduce', () => {
    for (const md of [comment, summary]) {
      const heading = lines(md).find((l) => /^#### [\d,]+ findings? at or above/.test(l))
      const missed = list.filter((b) => !b.reproduced).length
      if (heading === undefined) {
        expect(list.filter((b) => b.reproduced)).toHaveLength(0)
        continue
      }
      const counted = sumOf(
        heading.replace(/^#### [\d,]+ findings? at or above \w+: /, ''),
        /(\d[\d,]*) (?:new|open) (?:critical|high|medium|low)\b/g
      )
      const more = sumOf(heading, /(\d+) more blocks?\b/g)
      expect([counted, more]).toEqual([n - missed, missed])
    }
  })

  it('the annotations: an error for each blocker (up to the budget), blockers first, warnings for the rest', () => {
    const annotations = buildAnnotations(report)
    const errors = annotations.filter((a) => a.level === 'error')
    const named = errors.filter((a) => !a.title.includes('more findings'))
    expect(named.length).toBe(Math.min(n, annotations.length < 9 ? n : 8))
    expect(annotations.slice(0, named.length)).toEqual(named)
    named.forEach((a, i) => {
      expect(a.title).toContain(list[i].category)
    })
  })

  it('the commit status and the command line name them', () => {
    const end = assessedEnd(report)
    const status = gateStatus(end)
    const cli = humanSummary(stepOf(report))
    if (n === 0) {
      expect(status).toBeUndefined()
      expect(cli.join('\n')).not.toContain('Blocking findings')
      return
    }
    expect(statusDescription(status!)).toMatch(new RegExp(`^fail: ${n} blocking: ${list[0].severity} ${list[0].category}`))
    expect(cli[0]).toMatch(new RegExp(`^FAIL .*: ${n} findings? blocks?$`))
    expect(cli).toContain(`Blocking findings (${n}):`)
    const listed = cli.filter((l) => /^ {2}[A-Z]+ +\S/.test(l) && !l.startsWith('  /'))
    expect(listed.map((l) => /^ {2}[A-Z]+ +([^\s:(]+)/.exec(l)?.[1])).toEqual(list.slice(0, 20).map((b) => b.category))
  })

  it('the comment names each blocker right under its title (by category and count when there are more than five)', () => {
    if (n === 0) return
    const top = lines(comment)
    expect(top[1]).toBe(n > 1 ? `**Blocks (${n.toLocaleString('en-US')}):**` : '**Blocks:**')
    if (n <= 5)
      list.forEach((b, i) => {
        expect(top[i + 2]).toContain(`\`${b.category}\``)
      })
    else {
      const grouped = top.slice(2).filter((l) => l.startsWith('- '))
      const counted = grouped.slice(0, 4).reduce((k, l) => k + sumOf(l, /\*\*(\d[\d,]*) (?:critical|high|medium|low):\*\*/g), 0)
      expect(counted).toBe(n)
      for (const b of list.slice(0, 5)) expect(grouped.join('\n')).toContain(`\`${b.category}\``)
    }
  })
})

const pipeline = (name: string) => (PIPELINE_CASES.find((c) => c.name === name) ?? REPORT_CASES.find((c) => c.name === name))!

describe('a carried-over fail names what failed, in the title count, the list under it and its status', () => {
  it('carried-fail', () => {
    const rendered = pipeline('carried-fail').render()
    const top = lines(rendered.comment!)
    expect(top[0]).toMatch(/^### ❌ Agent security gate: fail · carried over/)
    expect(top[1]).toBe('**Blocks:**')
    expect(top[2]).toContain('`system_prompt_leakage`')
    expect(rendered.statusDescription).toMatch(/^fail: 1 open high/)
  })
})

describe.each([
  ['a merge-queue refusal', 'merge-queue-refused', /^Nothing to carry over from pull request #12\. Let /],
  ['a budget refusal', 'budget-monthly', /^The workspace's monthly assessment allowance is used up; it resets on 2026-12-01/],
  ['a service refusal', 'service-error', null]
] as const)('%s: no result, nothing named as blocking, the status leads with the cause', (_name, caseName, status) => {
  it(caseName, () => {
    const c = pipeline(caseName)
    const rendered = c.render()
    expect(c.result).toBe('error')
    for (const md of [rendered.comment ?? '', rendered.summary]) {
      expect(md).not.toContain('**Blocks')
      if (md !== '') expect(lines(md)[0]).toMatch(/^### ⛔ Not assessed: /)
    }
    if (status !== null) {
      const description = statusDescription(rendered.statusDescription!)
      expect(description).toMatch(status)
      expect(Array.from(description).length).toBeLessThanOrEqual(140)
    }
  })
})
