/**
 * One count, every line: the gate decides (decide() with the baseline and the
 * accepted risks), the report is built and rendered, and the headline, the
 * lines under it (the reason, what was found before a stop, the accepted
 * entries) and the list of findings must give the same numbers, in the comment
 * and in the job summary, for each case of a table (pass, fail, incomplete,
 * error; accepted, known and new findings; closed and unknown statuses).
 */
import { describe, expect, it } from '@jest/globals'
import * as YAML from 'yaml'
import { SEVERITIES, type Finding, type Severity } from '../../src/service/contract/index.js'
import { decide } from '../../src/decision/decide.js'
import { computeVerdict } from '../../src/decision/verdict.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import type { FailOn } from '../../src/decision/result-words.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import { buildReport } from '../../src/report/build-report.js'
import type { Report, ReportInput } from '../../src/report/report-model.js'
import { renderComment } from '../../src/report/comment.js'
import { renderSummary } from '../../src/report/summary.js'
import { buildAnnotations } from '../../src/report/annotations.js'
import { coverageRow, makeCoverage, makeFinding, makeRun, PLANNED } from '../__fixtures__/builders.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'

const TODAY = '2026-11-23'

interface Case {
  findings: Finding[]
  minSeverity?: Severity
  /** Findings of the baseline run (none: no baseline). */
  baseline?: Finding[]
  /** Categories accepted, each with its severity cap. */
  accepted?: [string, Severity][]
  failOn?: FailOn
  /** Categories the run completed (default: all planned). */
  completed?: string[]
  /** The step was stopped by timeout_minutes (the run was cancelled). */
  stopped?: boolean
  /** The coverage names a critical finding in a planned category that the findings do not hold (an error). */
  contradiction?: boolean
}

let seq = 0
const f = (severity: Severity, category: string, status = 'open'): Finding =>
  makeFinding(severity, { finding_id: `f_${(seq += 1)}`, category, status, description: `${category} weakness ${severity}` })

/** The gate and the report, as the action runs them. */
function gateReport(c: Case): Report {
  const minSeverity = c.minSeverity ?? 'high'
  const failOn = c.failOn ?? 'new'
  const completed = c.completed ?? [...PLANNED]
  const run = makeRun({
    status: c.stopped ? 'cancelled' : 'completed',
    categories_completed: completed,
    verdict: computeVerdict(c.findings, minSeverity)
  })
  const baseline = c.baseline
    ? buildBaseline({
        modelId: 'm_demo',
        runId: 'run_0',
        createdAt: '',
        commit: null,
        categoriesCompleted: [...PLANNED],
        findings: c.baseline
      })
    : null
  const yaml = (c.accepted ?? [])
    .map(
      ([category, cap]) =>
        `  - category: ${category}\n    severity_at_most: ${cap}\n    reason_code: other\n    explanation: x\n    owner: o\n    expires: 2027-01-01\n`
    )
    .join('')
  const entries = yaml === '' ? [] : parseAcceptedFile(YAML, `accepted:\n${yaml}`, 'a.yml', TODAY)
  const outcome = applyPolicy({
    findings: c.findings,
    runId: run.run_id ?? null,
    categoriesCompleted: completed,
    baseline,
    accepted: entries,
    failOn,
    today: TODAY
  })
  const d = decide({
    status: run.status,
    verdict: run.verdict,
    minSeverity,
    categoriesPlanned: run.categories_planned,
    categoriesCompleted: completed,
    ingestIncomplete: false,
    findings: c.findings,
    coverageReadable: true,
    coverage: c.contradiction
      ? makeCoverage(PLANNED.map((cat) => coverageRow(cat, { worst_severity: cat === 'jailbreak' ? 'critical' : null })))
      : undefined,
    timedOut: c.stopped,
    waived: outcome.waived,
    baselineUncovered: outcome.diff.uncovered
  })
  const input: ReportInput = makeInput({
    minSeverity,
    result: d.result,
    reason: d.reason,
    verdict: d.verdict,
    verdictComputed: d.verdictComputed,
    run,
    findings: c.findings,
    notes: d.notes,
    policy: {
      failOn,
      baseline,
      baselineSource: baseline ? 'cache' : null,
      baselineWhy: baseline ? null : 'no baseline yet',
      baselineSaved: null,
      accepted: { path: 'a.yml', source: entries.length > 0 ? 'base' : null, entries, prAdds: [], prRemoves: [], notes: [] },
      outcome
    }
  })
  return buildReport(input)
}

/** The numbers a line gives: "2 open high", "1 new critical", "3 known", "1 accepted", "1 closed". */
interface Tally {
  open: Record<Severity, number>
  new: Record<Severity, number>
  known: number
  accepted: number
  closed: number
}
const zero = (): Record<Severity, number> => ({ critical: 0, high: 0, medium: 0, low: 0 })
const emptyTally = (): Tally => ({ open: zero(), new: zero(), known: 0, accepted: 0, closed: 0 })

function tallyOf(text: string): Tally {
  const t = emptyTally()
  for (const m of text.matchAll(/(\d+) (open|new) (critical|high|medium|low)\b/g))
    t[m[2] as 'open' | 'new'][m[3] as Severity] += Number(m[1])
  for (const m of text.matchAll(/(\d+) (known|accepted|closed)\b/g)) t[m[2] as 'known' | 'accepted' | 'closed'] += Number(m[1])
  return t
}

interface Item {
  severity: Severity
  /** The icon before the severity. */
  icon: string
  /** The label after it ("accepted", "new", "known, does not block (fail_on new)"), '' when none. */
  label: string
}

/** What a rendered report says: its headline, the lines under it, its list heading and the findings listed under it. */
function read(md: string) {
  const lines = md.split('\n')
  const title = lines.find((l) => l.startsWith('### ')) ?? ''
  const headingAt = lines.findIndex((l) => /^#### [\d,]+ findings? at or above /.test(l))
  const heading = headingAt >= 0 ? lines[headingAt] : null
  const end = headingAt >= 0 ? lines.findIndex((l, i) => i > headingAt && l.startsWith('#### ')) : -1
  const items: Item[] = []
  for (const l of headingAt >= 0 ? lines.slice(headingAt + 1, end < 0 ? undefined : end) : []) {
    const m =
      /^<summary>(\S+) <b>(critical|high|medium|low)<\/b>(?: · <b>([^<]+)<\/b>)?/.exec(l) ??
      /^\| (\S+) (critical|high|medium|low)(?: · \*\*([^*]+)\*\*)? \|/.exec(l)
    if (m) items.push({ icon: m[1], severity: m[2] as Severity, label: m.at(3) ?? '' })
  }
  return {
    title,
    heading,
    items,
    why: lines.find((l) => l.startsWith('**Why:**')) ?? null,
    notBlocking: lines.find((l) => l.startsWith('**Does not block:**')) ?? '',
    found: lines.find((l) => l.startsWith('**Found before it stopped:**')) ?? null,
    acceptedLines: lines.filter((l) => l.startsWith('- **Accepted:**')).length
  }
}

const SEV_ICON: Record<string, Severity> = { '🔴': 'critical', '🟠': 'high', '🟡': 'medium', '🔵': 'low' }

const cases: [string, Case][] = [
  [
    'fail: open, closed and below, no policy',
    { findings: [f('critical', 'jailbreak'), f('high', 'data_leakage'), f('high', 'jailbreak', 'dismissed'), f('medium', 'jailbreak')] }
  ],
  ['fail: an unknown status counts as open', { findings: [f('high', 'jailbreak', 'reopened'), f('high', 'data_leakage')] }],
  [
    'fail: accepted apart from open (min_severity medium)',
    {
      minSeverity: 'medium',
      findings: [f('high', 'jailbreak'), f('high', 'prompt_injection'), f('medium', 'data_leakage')],
      accepted: [['data_leakage', 'medium']]
    }
  ],
  [
    'pass: only an accepted finding',
    { findings: [f('high', 'data_leakage'), f('low', 'jailbreak')], accepted: [['data_leakage', 'high']] }
  ],
  [
    'fail: new, known (fail_on new) and accepted',
    (() => {
      const known = [f('high', 'prompt_injection'), f('critical', 'jailbreak')]
      return {
        findings: [...known, f('high', 'data_leakage'), f('high', 'jailbreak'), f('critical', 'data_leakage', 'fixed')],
        baseline: known,
        accepted: [['data_leakage', 'high']] as [string, Severity][]
      }
    })()
  ],
  [
    'pass: known only, fail_on new',
    (() => {
      const known = [f('high', 'prompt_injection'), f('high', 'jailbreak')]
      return { findings: known, baseline: known }
    })()
  ],
  [
    'fail: new and known both block with fail_on any',
    (() => {
      const known = [f('high', 'prompt_injection')]
      return { findings: [...known, f('critical', 'jailbreak')], baseline: known, failOn: 'any' }
    })()
  ],
  [
    'incomplete: accepted findings, one category not completed',
    {
      findings: [f('high', 'data_leakage'), f('medium', 'jailbreak')],
      accepted: [['data_leakage', 'high']],
      completed: ['data_leakage', 'jailbreak']
    }
  ],
  [
    'error: the coverage contradicts the findings, only an accepted finding',
    { findings: [f('high', 'data_leakage')], accepted: [['data_leakage', 'high']], contradiction: true }
  ],
  [
    'error: stopped by the timeout with open and accepted findings (min_severity medium)',
    {
      minSeverity: 'medium',
      stopped: true,
      completed: ['prompt_injection'],
      findings: [f('high', 'prompt_injection'), f('high', 'jailbreak'), f('medium', 'data_leakage')],
      accepted: [['data_leakage', 'medium']]
    }
  ]
]

describe.each([
  ['comment', (r: Report) => renderComment(r)],
  ['summary', (r: Report) => renderSummary(r)]
])('the %s counts every finding the same way everywhere', (_kind, render) => {
  it.each(cases)('%s', (_name, c) => {
    const report = gateReport(c)
    const counts = report.counts!
    const doc = read(render(report))
    const by = counts.byStanding
    const sum = (x: Record<Severity, number>): number => SEVERITIES.reduce((n, s) => n + x[s], 0)

    // The list: one item per finding at or above the threshold, marked by what it is.
    const listed = report.findings.filter((x) => x.atOrAbove)
    expect(doc.items).toHaveLength(listed.length)
    const blockingItems = doc.items.filter((i) => SEV_ICON[i.icon] === i.severity)
    const acceptedItems = doc.items.filter((i) => i.icon === '☑️' && i.label === 'accepted')
    const knownItems = doc.items.filter((i) => i.icon === '⚪' && i.label.startsWith('known'))
    const closedItems = doc.items.filter((i) => i.icon === '✔️')
    expect(blockingItems.length + acceptedItems.length + knownItems.length + closedItems.length).toBe(doc.items.length)
    // Blocking ones first.
    expect(doc.items.slice(0, blockingItems.length)).toEqual(blockingItems)
    const blockingBySeverity = zero()
    for (const i of blockingItems) blockingBySeverity[i.severity] += 1
    expect(blockingBySeverity).toEqual(by.blocking)
    expect(acceptedItems).toHaveLength(sum(by.accepted))
    expect(knownItems).toHaveLength(sum(by.known))
    expect(closedItems).toHaveLength(sum(by.closed))

    // The list heading: the same numbers, and its total is the number of items.
    if (listed.length === 0) expect(doc.heading).toBeNull()
    else {
      expect(doc.heading).toMatch(new RegExp(`^#### ${listed.length} findings? at or above ${report.minSeverity}: `))
      const h = tallyOf(doc.heading!.replace(/^#### \d+ findings? at or above \w+: /, ''))
      const total = sum(h.open) + sum(h.new) + h.known + h.accepted + h.closed
      expect(total).toBe(listed.length)
      expect(h.accepted).toBe(acceptedItems.length)
      expect(h.closed).toBe(closedItems.length)
      if (report.baseline?.available && report.baseline.failOn === 'new') {
        // Against a baseline with fail_on new: "N new <severity>" for the blocking new ones, "N known" for the others it holds.
        // With fail_on any, new and known decide nothing: the open counts, as without a baseline.
        expect(h.new).toEqual(zeroExcept(blockingItems.filter((i) => i.label === 'new')))
        expect(h.known).toBe(knownItems.length + blockingItems.filter((i) => i.label === 'known').length)
      } else {
        expect(h.open).toEqual(blockingBySeverity)
      }
      // The headline of a pass or a fail gives what blocks, the line under it what does not: the heading's numbers.
      if (report.result === 'fail' || report.result === 'pass') {
        const title = tallyOf(doc.title)
        const rest = tallyOf(doc.notBlocking.replace(/closed on the service/, 'closed'))
        expect({ ...title, known: rest.known, accepted: rest.accepted, closed: rest.closed }).toEqual(h)
        expect([title.known, title.accepted, title.closed]).toEqual([0, 0, 0])
      }
    }

    // The entries of the accepted findings under the headline: one per accepted finding counted.
    expect(doc.acceptedLines).toBe(acceptedItems.length)

    // The gate's own reason counts the same blocking findings ("2 open findings at or above high (1 critical, 1 high)").
    const detail = /open findings? at or above \w+ \(([^)]*)\)/.exec(report.reason)
    if (detail) expect(tallyOf(detail[1].replace(/(\d+) (critical|high|medium|low)/g, '$1 open $2')).open).toEqual(blockingBySeverity)
    if (sum(by.blocking) === 0) expect(report.reason).not.toMatch(/\d+ open findings? at or above/)

    // What a stopped run found before it stopped: the same numbers as the list.
    if (report.result === 'error' && sum(by.blocking) > 0) {
      expect(doc.found).not.toBeNull()
      const found = tallyOf(doc.found!)
      expect(found.open).toEqual(blockingBySeverity)
      expect(found.accepted).toBe(acceptedItems.length)
    } else {
      expect(doc.found).toBeNull()
    }
  })
})

function zeroExcept(items: Item[]): Record<Severity, number> {
  const out = zero()
  for (const i of items) out[i.severity] += 1
  return out
}

describe('the counts of the cases', () => {
  it.each([
    ['fail: accepted apart from open (min_severity medium)', '### ❌ Agent security gate: fail · 2 open high · Demo banking agent'],
    ['pass: only an accepted finding', '### ✅ Agent security gate: pass · nothing blocks at or above high · Demo banking agent'],
    ['fail: new, known (fail_on new) and accepted', '### ❌ Agent security gate: fail · 1 new high · Demo banking agent'],
    [
      'fail: new and known both block with fail_on any',
      '### ❌ Agent security gate: fail · 1 open critical, 1 open high · Demo banking agent'
    ],
    ['fail: an unknown status counts as open', '### ❌ Agent security gate: fail · 2 open high · Demo banking agent']
  ])('%s: %s', (name, title) => {
    const c = cases.find(([n]) => n === name)![1]
    expect(read(renderComment(gateReport(c))).title).toBe(title)
  })

  it('say what a stopped run found, open and accepted apart, as the gate counted them', () => {
    const c = cases.find(([n]) => n.startsWith('error: stopped'))![1]
    const report = gateReport(c)
    expect(report.reason).toBe(
      'timeout_minutes ran out and the run was cancelled; 2 open findings at or above medium (2 high) in what it reached'
    )
    const doc = read(renderComment(report))
    expect(doc.found).toBe(
      '**Found before it stopped:** 2 open high · 1 accepted. Not a result: the run did not end, so other categories were not tested.'
    )
    expect(doc.heading).toBe('#### 3 findings at or above medium: 2 open high · 1 accepted')
  })

  it('say nothing was found before a stop when the run was not stopped', () => {
    const report = gateReport(cases.find(([n]) => n.startsWith('error: the coverage contradicts'))![1])
    expect(report.result).toBe('error')
    expect(read(renderComment(report)).found).toBeNull()
  })

  it('annotate accepted and known findings as warnings, blocking ones as errors (blocking ones first)', () => {
    const report = gateReport(cases.find(([n]) => n === 'fail: new, known (fail_on new) and accepted')![1])
    const levels = buildAnnotations(report).map((a) => a.level)
    const listed = report.groups.flatMap((g) => g.findings)
    const blocking = listed.filter((x) => x.standing === 'blocking').length
    expect(levels).toEqual(listed.map((_, i) => (i < blocking ? 'error' : 'warning')))
    expect(levels.filter((l) => l === 'error')).toHaveLength(1)
  })
})
