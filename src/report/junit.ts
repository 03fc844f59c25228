/**
 * JUnit XML of a report, for test reporters. Pure. One test suite for the
 * model, one test case per category (planned or probed); a category fails
 * with one <failure> per open, blocking finding at or above min_severity;
 * accepted and (with fail_on new) known findings are listed in system-out.
 * A category the run did not complete is skipped.
 *
 * Attributes follow the JUnit schema the Jenkins xunit plugin validates every
 * file against before reading it (junit-10.xsd), which the other readers
 * accept too: `skipped` is on <testsuite> only, since <testsuites> does not
 * allow it and a file that fails the schema is dropped whole.
 *
 * The repository file the results are about (the profile, the CI file), when
 * one is known, is `file` on <testsuite> (the schema allows it there) and, for
 * readers that take it on <testcase> (GitLab's "copy failed tests", GitHub's
 * test reporters), on each <testcase> too: outside GitHub Actions and GitLab
 * CI, where Jenkins' xunit may read the file, the test cases carry none.
 */
import { seenText } from './describe.js'
import type { Report, ReportFinding } from './report-model.js'
import { findingStanding, missedStanding, STANDINGS, type StandingContext } from './standings.js'

function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** Whether a finding is a <failure> of its category (its standing's JUnit outcome, standings.ts). */
export function blocks(f: ReportFinding): boolean {
  return STANDINGS[f.standing].junit === 'failure'
}

/** The file the test cases are about, and whether <testcase> carries it. */
export interface JunitFile {
  path: string
  onTestcases: boolean
}

export function renderJunit(report: Report, opts: { file: JunitFile | null }): string {
  const categories = report.coverageRows.map((r) => r.category)
  const missed = report.baseline?.notReproduced.filter((n) => STANDINGS[missedStanding(n)].junit === 'failure') ?? []
  const ctx: StandingContext = { minSeverity: report.minSeverity, failOn: report.baseline?.available ? report.baseline.failOn : null }
  for (const f of [...report.findings, ...missed]) if (!categories.includes(f.category)) categories.push(f.category)
  const cases: string[] = []
  let failures = 0
  let skipped = 0
  for (const c of categories) {
    const row = report.coverageRows.find((r) => r.category === c)
    const of = report.findings.filter((f) => f.category === c)
    const blocking = of.filter(blocks)
    const missedHere = missed.filter((n) => n.category === c)
    const name = xml(c)
    const fileAttr = opts.file?.onTestcases ? ` file="${xml(opts.file.path)}"` : ''
    const attrs = `classname="agent-security.${xml(report.modelId)}" name="${name}"${fileAttr} time="0"`
    if (blocking.length > 0 || missedHere.length > 0) {
      failures += 1
      const body = [
        ...blocking.map(
          (f) =>
            `    <failure message="${xml(`${f.severity} ${f.category} finding ${f.findingId}${f.baselineState ? ` (${f.baselineState})` : ''}${f.seen.windowed ? `, ${seenText(f)}` : ''}`)}" type="${xml(f.severity)}">${xml(f.description)}</failure>`
        ),
        ...missedHere.map(
          (n) =>
            `    <failure message="${xml(`${n.severity} ${n.category} weakness ${n.fingerprint} ${STANDINGS.held.label}: ${STANDINGS.held.why(ctx)}, ${seenText(n)}, still open`)}" type="${xml(n.severity)}">${xml(n.description)}</failure>`
        )
      ].join('\n')
      cases.push(`  <testcase ${attrs}>\n${body}\n  </testcase>`)
      continue
    }
    if (row && row.planned && row.state !== 'completed') {
      skipped += 1
      cases.push(`  <testcase ${attrs}>\n    <skipped message="${xml(`not completed: ${row.state}`)}"/>\n  </testcase>`)
      continue
    }
    const waived = of.filter((f) => STANDINGS[findingStanding(f)].junit === 'system-out')
    const out = waived.map((f) => {
      const st = STANDINGS[findingStanding(f)]
      const why = f.accepted ? `${f.accepted.reasonCode}, owner ${f.accepted.owner}, expires ${f.accepted.expires}` : st.why(ctx)
      return `${f.findingId} ${f.severity}: ${st.label} (${why})`
    })
    cases.push(
      out.length > 0
        ? `  <testcase ${attrs}>\n    <system-out>${xml(out.join('\n'))}</system-out>\n  </testcase>`
        : `  <testcase ${attrs}/>`
    )
  }
  const suite = `agent-security-gate ${report.modelId}`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suite)}" tests="${categories.length}" failures="${failures}" errors="0">`,
    `<testsuite name="${xml(suite)}" tests="${categories.length}" failures="${failures}" errors="0" skipped="${skipped}"${opts.file ? ` file="${xml(opts.file.path)}"` : ''}${report.startedAt ? ` timestamp="${xml(report.startedAt)}"` : ''}>`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    ''
  ].join('\n')
}
