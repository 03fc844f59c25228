/**
 * Every view of the ten situations of the reviewer's view (reviewer-view.test.ts) agrees with the verdict: the
 * counts in the title, the outputs (new_count, known_count), the list
 * heading, the annotations, the commit status and the command line's list
 * all give the blockers of one derivation (src/report/blockers.ts), and the
 * comment names each blocker right under its title.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { buildReport } from '../../src/report/build-report.js'
import { renderComment } from '../../src/report/comment.js'
import { renderSummary } from '../../src/report/summary.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { blockers } from '../../src/report/blockers.js'
import { gateStatus, outcomeValues, reportOutcome, type AssessedOutcome, type StepOutcome } from '../../src/action/outcome.js'
import { humanSummary, outcomeJson } from '../../src/cli/render.js'
import { renderJson } from '../../src/report/json.js'
import { finalStatusState, OUTCOMES, statusLine } from '../../src/action/output-table.js'
import { statusDescription } from '../../src/github/commit-status.js'
import type { Report, ReportInput } from '../../src/report/report-model.js'
import { EVIDENCE_CASES, evidenceCaseInput } from '../__fixtures__/evidence-cases.js'
import { gateCaseInput, REPORT_CASES } from '../__fixtures__/report-cases.js'
import { collectorFinalInput, movedPreviewInput, PIPELINE_CASES } from '../__fixtures__/pipeline-cases.js'

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

/**
 * The seventeen situations a reviewer meets, each a fixture case rendered by
 * `npm run preview` (docs/situations.md shows their tops): every view says
 * the same verdict and the same counts. An assessed case is checked through
 * its report (the outputs, the CLI's JSON and lines, the titles, the
 * annotations, the commit status); one that assessed nothing through what the
 * step renders (the title, the status).
 */
const SITUATIONS: readonly [situation: string, caseName: string, input: (() => ReportInput) | null][] = [
  ['pass', 'pass', () => gateCaseInput('pass')],
  ['new critical fail', 'evidence-new-critical', () => evidenceCaseInput('evidence-new-critical')],
  ['held weakness under fail_on new', 'evidence-missed-known', () => evidenceCaseInput('evidence-missed-known')],
  ['a category not probed', 'incomplete', () => gateCaseInput('incomplete')],
  ['service error', 'service-error', null],
  ['timeout', 'timeout-late', () => gateCaseInput('timeout-late')],
  ['flaky', 'evidence-flaky', () => evidenceCaseInput('evidence-flaky')],
  ['accepted risk', 'accepted', () => gateCaseInput('accepted')],
  ['merge queue', 'merge-queue-refused', null],
  ['429', 'budget-daily', null],
  ['403', 'budget-monthly-past', null],
  ['352 findings', 'huge', () => gateCaseInput('huge')],
  ['detached pending', 'detached-pending', null],
  ["collector's final", 'collector-final', collectorFinalInput],
  ['confirmed fix', 'evidence-confirmed-fix', () => evidenceCaseInput('evidence-confirmed-fix')],
  ['confirmation bound', 'evidence-confirmation-bound', () => evidenceCaseInput('evidence-confirmation-bound')],
  ['default branch after eviction', 'evidence-records-gone', () => evidenceCaseInput('evidence-records-gone')]
]

const allCase = (name: string) => [...REPORT_CASES, ...PIPELINE_CASES, ...EVIDENCE_CASES].find((c) => c.name === name)

describe('the seventeen situations each exist as a fixture case', () => {
  it.each(SITUATIONS.map(([s, name]) => [s, name]))('%s: %s', (_s, name) => {
    expect(allCase(name)).toBeDefined()
  })
})

describe.each(SITUATIONS.filter(([, , input]) => input !== null))(
  '%s (%s): the outputs, the CLI, the titles, the annotations and the status agree',
  (_s, name, input) => {
    const report = buildReport(input!())
    const step = stepOf(report)
    const rendered = allCase(name)!.render()
    const values = outcomeValues(step)
    const cliJson = JSON.parse(outcomeJson(step)) as Record<string, unknown>
    const json = JSON.parse(renderJson(report)) as { result: string; baseline: { new_count: number; known_count: number } | null }
    const failing = report.result !== 'pass'

    it('one verdict: the case, the result output, the CLI JSON and its first line, the JSON report', () => {
      expect(allCase(name)!.result).toBe(report.result)
      expect([values.result, cliJson.result, json.result]).toEqual([report.result, report.result, report.result])
      expect(humanSummary(step)[0]).toMatch(new RegExp(`^${report.result.toUpperCase()}\\b`))
    })

    it('one title: the comment and the job summary open with the same title, naming the verdict', () => {
      const titles = [rendered.comment!, rendered.summary].map((md) => lines(md).find((l) => l.startsWith('### ')))
      expect(titles[0]).toBe(titles[1])
      expect(titles[0]).toContain(report.result === 'error' ? 'Not assessed: ' : `Agent security gate: ${report.result} · `)
    })

    it('one count: new_count and known_count are the same in the outputs, the CLI JSON and the JSON report', () => {
      expect(cliJson.new_count ?? null).toBe(values.new_count ?? null)
      expect(cliJson.known_count ?? null).toBe(values.known_count ?? null)
      if (json.baseline !== null && report.baseline?.available === true)
        expect([values.new_count, values.known_count]).toEqual([json.baseline.new_count, json.baseline.known_count])
    })

    it('the annotations: an error per blocker only on a fail, none on a pass', () => {
      const errors = buildAnnotations(report).filter((a) => a.level === 'error')
      if (report.result === 'pass') expect(errors).toEqual([])
      if (report.result === 'fail') expect(errors.length).toBeGreaterThan(0)
    })

    it('the commit status: its state is the verdict’s, its description leads with it, fits 140 characters and ends with the fix', () => {
      const cause = gateStatus(assessedEnd(report)) ?? `${report.result}: ${report.reason}`
      const description = statusLine(report.result, cause, failing)
      expect(finalStatusState(report.result, failing)).toBe(failing ? OUTCOMES[report.result].statusState : 'success')
      expect(description.startsWith(`${report.result}:`)).toBe(true)
      expect(Array.from(description).length).toBeLessThanOrEqual(140)
      if (failing) expect(description.endsWith(OUTCOMES[report.result].fix)).toBe(true)
    })
  }
)

describe.each(SITUATIONS.filter(([, , input]) => input === null))(
  '%s (%s): assessed nothing; the titles say so, nothing blocks, the status fits',
  (_s, name) => {
    const c = allCase(name)!
    const rendered = c.render()
    it('the title and the status', () => {
      const pending = name === 'detached-pending'
      for (const md of [rendered.comment ?? '', rendered.summary]) {
        expect(md).not.toContain('**Blocks')
        if (md !== '') expect(lines(md).find((l) => l.startsWith('### '))).toMatch(pending ? /^### ⏳ / : /^### ⛔ Not assessed: /)
      }
      expect(c.result).toBe(pending ? 'pending' : 'error')
      expect(Array.from(statusDescription(rendered.statusDescription!)).length).toBeLessThanOrEqual(140)
    })
  }
)

describe('every final status fits 140 characters with the longest realistic names, its fix kept whole', () => {
  const longModel = `m_${'acme-support-agent-eu-west-production-'.repeat(6)}`.slice(0, 200)
  const longCategory = 'indirect_prompt_injection_via_retrieved_documents_and_tool_results'
  const causes = (result: string): string[] => [
    `${result}: 3 blocking: critical ${longCategory} (new), high ${longCategory}_variant (new), high ${longCategory} (known) on ${longModel}`,
    `${result}: coverage incomplete: 9 of 10 categories reached, missing ${longCategory}; model ${longModel}`,
    `${result}: timeout_minutes ran out and the run was cancelled; 6 of 6 categories reached; model ${longModel}`
  ]
  it('a real fail of three long-named blockers on a model id at the 200-character limit', () => {
    const input = gateCaseInput('huge')
    const findings = (input.findings ?? []).slice(0, 3).map((f, i) => ({ ...f, category: `${longCategory}_${i}` }))
    const report = buildReport({ ...input, modelId: longModel, model: null, findings })
    const cause = gateStatus(assessedEnd(report))!
    const description = statusLine('fail', cause, true)
    expect(description).toMatch(/^fail: 3 blocking: critical indirect_prompt_injection/)
    expect(Array.from(description).length).toBeLessThanOrEqual(140)
    expect(description.endsWith(OUTCOMES.fail.fix)).toBe(true)
  })

  it.each((['pass', 'fail', 'incomplete', 'error'] as const).flatMap((r) => causes(r).map((c) => [r, c] as const)))(
    '%s: %s',
    (result, cause) => {
      const failing = result !== 'pass'
      const description = statusLine(result, cause, failing)
      expect(Array.from(description).length).toBeLessThanOrEqual(140)
      if (failing) expect(description.endsWith(OUTCOMES[result].fix)).toBe(true)
      expect(description.startsWith(`${result}:`)).toBe(true)
    }
  )
})

describe('the wording of four situations says what happened, once', () => {
  const rendered = (name: string) => allCase(name)!.render()
  const title = (md: string) => lines(md).find((l) => l.startsWith('### ')) ?? ''

  it("the default branch after eviction: its records were gone, never 'no run recorded by the default branch yet' beside it", () => {
    for (const md of Object.values(rendered('evidence-records-gone'))) {
      if (typeof md !== 'string') continue
      expect(md).not.toMatch(/no run recorded by the default branch/)
      expect(md).toContain("main's records were gone")
    }
  })

  it('a timeout: the time ran out, never "coverage incomplete" of categories all reached, nor a ✅ beside what it reached', () => {
    const { comment, summary } = rendered('timeout-late')
    for (const md of [comment!, summary]) {
      expect(title(md)).toBe(
        '### ⛔ Not assessed: timeout\\_minutes ran out before the run ended \\(all 6 categories reached\\): raise timeout\\_minutes · Acme Support agent'
      )
      expect(md).not.toMatch(/coverage incomplete: 6 of 6|✅ 6 categories/)
    }
    // The comment rolls the clean categories into one line (the summary lists each).
    expect(comment).toContain('⏹️ 6 categories: 0 of 72 attacks got through before the time ran out (timeout_minutes): not a result.')
    const report = buildReport(gateCaseInput('timeout-late'))
    expect(report.reason).toBe('timeout_minutes ran out and the run was cancelled; 6 of 6 categories reached')
  })

  it('a confirmation bound hit: the title names the bound, not coverage', () => {
    const { comment, summary } = rendered('evidence-confirmation-bound')
    for (const md of [comment!, summary]) {
      expect(title(md)).toContain(
        "incomplete · prompt\\_injection not shown fixed: 3 of 9 clean runs \\(the step's bound of 3 confirmation runs\\)"
      )
      expect(title(md)).not.toMatch(/categories completed/)
    }
  })

  it('a 403 whose reset date is past: says the date the service gave was past, and gives one date', () => {
    const { comment, summary, statusDescription: status } = rendered('budget-monthly-past')
    for (const md of [comment!, summary, status!]) {
      expect(md).toContain('the reset date the service gave is already past')
      expect(md).not.toContain('as the answer named no date')
    }
  })
})

describe('docs/situations.md shows each situation as its fixture renders it', () => {
  const rows = readFileSync(new URL('../../docs/situations.md', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => /^\| [^-|]/.test(l) && !l.startsWith('| situation |'))
    .map((l) => l.split(' | ').map((cell) => cell.replace(/^\| |\|$/g, '').trim()))
  /** The `### ` title as github.com shows it: the markup gone, links their text, entities and escapes read. */
  const shownTitle = (md: string): string =>
    (lines(md).find((l) => l.startsWith('### ')) ?? '')
      .slice(4)
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\*\*|`|<\/?[a-z]+>/g, '')
      .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
      .replace(/&amp;/g, '&')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .trim()

  it('one row per situation, in the same order, naming the same case', () => {
    expect(rows.map(([situation, name]) => [situation, name.replace(/`/g, '')])).toEqual(SITUATIONS.map(([s, name]) => [s, name]))
  })

  it.each(rows.map(([situation, name, top]) => [situation, name.replace(/`/g, ''), top]))(
    '%s: the row opens with the title the case renders',
    (_s, name, top) => {
      const rendered = allCase(name)!.render()
      expect(top.split(' <br> ')[0]).toBe(shownTitle(rendered.comment ?? rendered.summary))
    }
  )
})
