/**
 * The command line's rendering of the step's outcome (src/action/outcome.ts):
 * its exit code, the lines a person reads (the verdict first, then the
 * blocking findings, then where the reports are), and the JSON a script
 * reads. All pure.
 */
import { blockingText, outcomeValues, type OutcomeResult, type StepOutcome } from '../action/outcome.js'
import { OUTCOMES } from '../action/output-table.js'
import { oneLine, terminalSafeJson } from '../util/text.js'

/** The exit code of each result: a script can trust it. */
export const EXIT_CODES = Object.fromEntries(Object.entries(OUTCOMES).map(([result, o]) => [result, o.exitCode])) as Readonly<
  Record<OutcomeResult, number>
>

/** A mistake on the command line itself (an unknown option, a bad value): as a configuration error. */
export const EXIT_USAGE = EXIT_CODES.error

export function exitCode(outcome: StepOutcome): number {
  return EXIT_CODES[outcome.result]
}

/** The most blocking findings listed; the reports hold them all. */
const MAX_LISTED = 20

/** What a person reads at the end: the verdict, the blocking findings, the reports. */
export function humanSummary(outcome: StepOutcome): string[] {
  const { end } = outcome
  const id = outcome.prepared?.modelId
  // The agent by its name, the id beside it once; the line without its own "Result: fail:" echo.
  const name = end.kind === 'assessed' && end.agentName !== id ? `${end.agentName} (${id ?? end.agentName})` : id
  const blocking = end.kind === 'assessed' && outcome.result === 'fail' ? end.blocking.length : 0
  const line =
    blocking > 0
      ? `${blocking} ${blocking === 1 ? 'finding blocks' : 'findings block'}`
      : outcome.conclusion.line.replace(new RegExp(`^Result: ${outcome.result}: `), '')
  const lines = [`${outcome.result.toUpperCase()}${name ? ` ${name}` : ''}: ${line}`]
  if (end.kind === 'carried_over') lines.push('  (carried over from an earlier assessment of the same agent: nothing was assessed)')
  if (end.kind === 'assessed') {
    // The blockers by name right under the verdict; the counts of every finding after them.
    if (end.blocking.length > 0) {
      lines.push(`Blocking findings (${end.blocking.length}):`)
      for (const f of end.blocking.slice(0, MAX_LISTED)) {
        const named = blockingText(f).slice(f.severity.length + 1)
        lines.push(`  ${f.severity.toUpperCase().padEnd(8)} ${oneLine(named, 200)}: ${oneLine(f.description, 160)}`)
      }
      if (end.blocking.length > MAX_LISTED) lines.push(`  ... and ${end.blocking.length - MAX_LISTED} more in the report`)
    }
    if (end.bySeverity !== null) {
      const counts = Object.entries(end.bySeverity).map(([severity, n]) => `${n} ${severity}`)
      lines.push(`Findings by severity (every status): ${counts.join(', ')}`)
    }
  }
  const files = reportFiles(outcome)
  if (files.length > 0) lines.push('Reports:', ...files.map((f) => `  ${f}`))
  return lines
}

/** Every report file the step wrote. */
export function reportFiles(outcome: StepOutcome): string[] {
  const { end } = outcome
  if (end.kind === 'assessed') return Object.values(end.files)
  if (end.kind === 'not_assessed') return []
  return [end.reportPath]
}

/**
 * The outcome for a script: the result and its exit code, the line, and every
 * output's value under its name. Terminal-safe: the characters a terminal
 * would act on are escaped (`\u202e`), the data unchanged.
 */
export function outcomeJson(outcome: StepOutcome): string {
  const { end } = outcome
  const { result, ...values } = outcomeValues(outcome)
  return terminalSafeJson(
    JSON.stringify(
      {
        result,
        exit_code: exitCode(outcome),
        kind: end.kind,
        line: outcome.conclusion.line,
        ...values,
        ...(end.kind === 'assessed' ? { findings_by_severity: end.bySeverity, blocking_findings: end.blocking } : {})
      },
      null,
      2
    )
  )
}
