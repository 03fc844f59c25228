/**
 * JUnit XML of a report, for test reporters. Pure. One test suite for the
 * model, one test case per category (planned or probed); a category fails
 * with one <failure> per open, blocking finding at or above min_severity;
 * accepted and (with fail_on new) known findings are listed in system-out.
 * A category the run did not complete is skipped.
 */
import type { Report, ReportFinding } from './report-model.js'

function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** Whether a finding blocks the gate as the report sees it. */
export function blocks(f: ReportFinding, report: Report): boolean {
  if (!f.atOrAbove || f.status !== 'open' || f.accepted) return false
  if (report.baseline?.available && report.baseline.failOn === 'new' && f.baselineState === 'known') return false
  return true
}

export function renderJunit(report: Report): string {
  const categories = report.coverageRows.map((r) => r.category)
  for (const f of report.findings) if (!categories.includes(f.category)) categories.push(f.category)
  const cases: string[] = []
  let failures = 0
  let skipped = 0
  for (const c of categories) {
    const row = report.coverageRows.find((r) => r.category === c)
    const of = report.findings.filter((f) => f.category === c)
    const blocking = of.filter((f) => blocks(f, report))
    const name = xml(c)
    const attrs = `classname="agent-security.${xml(report.modelId)}" name="${name}" time="0"`
    if (blocking.length > 0) {
      failures += 1
      const body = blocking
        .map(
          (f) =>
            `    <failure message="${xml(`${f.severity} ${f.category} finding ${f.findingId}${f.baselineState ? ` (${f.baselineState})` : ''}`)}" type="${xml(f.severity)}">${xml(f.description)}</failure>`
        )
        .join('\n')
      cases.push(`  <testcase ${attrs}>\n${body}\n  </testcase>`)
      continue
    }
    if (row && row.planned && row.state !== 'completed') {
      skipped += 1
      cases.push(`  <testcase ${attrs}>\n    <skipped message="${xml(`not completed: ${row.state}`)}"/>\n  </testcase>`)
      continue
    }
    const waived = of.filter(
      (f) => f.status === 'open' && !blocks(f, report) && (f.accepted !== null || (f.atOrAbove && f.baselineState === 'known'))
    )
    const out = waived.map(
      (f) =>
        `${f.findingId} ${f.severity}: ${f.accepted ? `accepted (${f.accepted.reasonCode}, owner ${f.accepted.owner}, expires ${f.accepted.expires})` : 'known since the baseline'}`
    )
    cases.push(
      out.length > 0
        ? `  <testcase ${attrs}>\n    <system-out>${xml(out.join('\n'))}</system-out>\n  </testcase>`
        : `  <testcase ${attrs}/>`
    )
  }
  const suite = `agent-security-gate ${report.modelId}`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suite)}" tests="${categories.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `<testsuite name="${xml(suite)}" tests="${categories.length}" failures="${failures}" errors="0" skipped="${skipped}"${report.startedAt ? ` timestamp="${xml(report.startedAt)}"` : ''}>`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    ''
  ].join('\n')
}
