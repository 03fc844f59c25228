/**
 * The markdown report of validate mode (job summary, sticky comment, tracking
 * issue): a headline, counts, and one table row per finding with its category,
 * severity, outcome, replay status per attack and why.
 *
 * Every value that came from the service (ids, categories, statuses, details
 * quoting service messages) is untrusted and goes through markdown-safe.ts:
 * code spans for ids, `enumCell` for values that should be enums, `proseText`
 * for the detail line. The table is bounded so a huge list stays within
 * GitHub's comment size.
 */
import { FINDING_STATUSES, REPLAY_STATUSES, SEVERITIES } from '../service/contract/index.js'
import { codeSpan, enumCell, formatCount, proseText } from './markdown-safe.js'
import type { ValidatedFinding, ValidateModeResult, ValidationOutcome } from '../validate/validate-mode.js'

/** Rows shown at most; the rest are counted below the table. */
export const MAX_ROWS = 150
/** Attacks listed per row at most. */
export const MAX_ATTACKS_PER_ROW = 8

const OUTCOME_LABEL: Record<ValidationOutcome, string> = {
  still_broken: '❌ still broken',
  not_attempted: '⚠️ not attempted',
  resolved: '✅ resolved',
  not_eligible: '➖ not eligible'
}

/** Rows in this order: what needs attention first. */
const OUTCOME_ORDER: readonly ValidationOutcome[] = ['still_broken', 'not_attempted', 'resolved', 'not_eligible']

function attacksCell(f: ValidatedFinding): string {
  if (f.attacks.length === 0) return '–'
  const shown = f.attacks.slice(0, MAX_ATTACKS_PER_ROW).map(
    (a) => `${codeSpan(a.attack_id, { max: 40, table: true })}: ${enumCell(a.last_replay_status, REPLAY_STATUSES)}`
  )
  const more = f.attacks.length - shown.length
  if (more > 0) shown.push(`…and ${formatCount(more)} more`)
  return shown.join('<br>')
}

function row(f: ValidatedFinding): string {
  const status = f.finding_status === null ? '' : ` (${enumCell(f.finding_status, FINDING_STATUSES)})`
  return [
    codeSpan(f.finding_id, { max: 60, table: true }),
    codeSpan(f.category, { max: 60, table: true }),
    enumCell(f.severity, SEVERITIES),
    `${OUTCOME_LABEL[f.outcome] ?? enumCell(f.outcome, [])}${status}`,
    attacksCell(f),
    proseText(f.detail, 400)
  ].join(' | ')
}

function headline(result: ValidateModeResult): string {
  if (result.findings.length === 0) return '✅ Nothing to validate'
  if (result.stillBroken > 0) return '❌ Fail: a fix does not hold'
  if (result.failed) return '⚠️ Fail: not every fixed finding could be validated'
  if (result.notAttempted > 0) return '⚠️ Pass, incomplete: some findings could not be validated'
  return '✅ Pass: every fix that could be checked holds'
}

/** The validation report as GitHub-flavoured markdown. */
export function renderValidationMarkdown(result: ValidateModeResult, ctx: { modelId: string }): string {
  const out: string[] = []
  out.push(`### Validation of fixed findings: model ${codeSpan(ctx.modelId, { max: 100 })}`)
  out.push('')
  out.push(`**${headline(result)}**`)
  out.push('')
  out.push(proseText(result.reason, 600))
  out.push('')
  out.push(
    `Resolved: **${formatCount(result.resolved)}** · Still broken: **${formatCount(result.stillBroken)}** · ` +
      `Not eligible: **${formatCount(result.notEligible)}** · Not attempted: **${formatCount(result.notAttempted)}** · ` +
      `Runs scanned: ${formatCount(result.runsScanned)}`
  )
  if (result.findings.length === 0) return `${out.join('\n')}\n`

  const sorted = OUTCOME_ORDER.flatMap((o) => result.findings.filter((f) => f.outcome === o))
  // Findings with an outcome outside the known set (should not happen) still show.
  for (const f of result.findings) if (!OUTCOME_ORDER.includes(f.outcome)) sorted.push(f)
  out.push('')
  out.push('| Finding | Category | Severity | Outcome | Replay status per attack | Detail |')
  out.push('|---|---|---|---|---|---|')
  for (const f of sorted.slice(0, MAX_ROWS)) out.push(`| ${row(f)} |`)
  if (sorted.length > MAX_ROWS) {
    out.push('')
    out.push(`*${formatCount(sorted.length - MAX_ROWS)} more findings not shown; the JSON report (report_path) lists them all.*`)
  }
  out.push('')
  out.push(
    '<sub>Resolved: every attack was replayed against the live target and none reproduces (FIXED_VERIFIED). ' +
      'Still broken: at least one attack reproduces or could not be judged; the finding is open again. ' +
      'Not eligible: the finding was no longer marked fixed. ' +
      'Not attempted: the service could not validate it in this run (see the detail).</sub>'
  )
  return `${out.join('\n')}\n`
}
