/**
 * The markdown report of validate mode (job summary, sticky comment, tracking
 * issue): a headline, the metadata line, counts, and one table row (5 columns)
 * per finding with its outcome, severity, category, "2/3 reproduced" and why.
 *
 * Every value that came from the service (ids, categories, statuses, details
 * quoting service messages) is untrusted and goes through markdown-safe.ts:
 * code spans for ids, `enumCell` for values that should be enums, `proseText`
 * for the detail line. The table is bounded so a huge list stays within
 * GitHub's comment size.
 */
import { FINDING_STATUSES, REPLAY_STATUSES, SEVERITIES } from '../service/contract/index.js'
import { metaLine } from './markdown-headline.js'
import { SEVERITY_ICON } from './markdown-profile.js'
import { clampText, codeSpan, enumCell, formatCount, proseText, sanitizeText } from './markdown-safe.js'
import type { ValidatedFinding, ValidateModeResult, ValidationOutcome } from '../validate/validate-types.js'

/** Rows shown at most; the rest are counted below the table. */
export const MAX_ROWS = 150

const OUTCOME_LABEL: Record<ValidationOutcome, string> = {
  still_broken: '❌ still broken',
  not_attempted: '⚠️ not attempted',
  resolved: '✅ resolved',
  not_eligible: '➖ not eligible'
}

/** Rows in this order: what needs attention first. */
const OUTCOME_ORDER: readonly ValidationOutcome[] = ['still_broken', 'not_attempted', 'resolved', 'not_eligible']

/** "2/3 reproduced", plus the other replay statuses counted. */
function replaysCell(f: ValidatedFinding): string {
  if (f.attacks.length === 0) return '–'
  const counts = new Map<string, number>()
  for (const a of f.attacks) counts.set(a.last_replay_status, (counts.get(a.last_replay_status) ?? 0) + 1)
  const reproduced = counts.get('reproduced') ?? 0
  const parts = [`${formatCount(reproduced)}/${formatCount(f.attacks.length)} reproduced`]
  for (const [status, n] of counts) {
    if (status === 'reproduced' || status === 'not_reproduced') continue
    parts.push(
      `${formatCount(n)} ${(REPLAY_STATUSES as readonly string[]).includes(status) ? status.replace('_', ' ') : codeSpan(status, { max: 30, table: true })}`
    )
  }
  return parts.join(', ')
}

function row(f: ValidatedFinding): string {
  const status = f.finding_status === null ? '' : ` (${enumCell(f.finding_status, FINDING_STATUSES)})`
  const sev = (SEVERITIES as readonly string[]).includes(f.severity) ? `${SEVERITY_ICON[f.severity]} ` : ''
  return [
    `${OUTCOME_LABEL[f.outcome]}${status}`,
    `${sev}${codeSpan(f.finding_id, { max: 60, table: true })}`,
    codeSpan(f.category, { max: 60, table: true }),
    replaysCell(f),
    proseText(f.detail, 300)
  ].join(' | ')
}

/** The words after the result in the title. */
function cause(result: ValidateModeResult): string {
  const checked = result.resolved + result.stillBroken + result.notAttempted
  if (result.findings.length === 0) return 'nothing marked fixed to validate'
  if (result.stillBroken > 0)
    return `${formatCount(result.stillBroken)} of ${formatCount(checked)} ${checked === 1 ? 'fix does' : 'fixes do'} not hold`
  if (result.notAttempted > 0) return `${formatCount(result.notAttempted)} of ${formatCount(checked)} could not be validated`
  return `${formatCount(result.resolved)} of ${formatCount(checked)} ${checked === 1 ? 'fix holds' : 'fixes hold'}`
}

/** The one title, the same in the comment, the summary and the tracking issue. */
export function validationTitle(result: ValidateModeResult, modelId: string): string {
  return sanitizeText(
    clampText(`Agent security validation: ${result.failed ? 'fail' : 'pass'} · ${cause(result)} · ${clampText(modelId, 100).text}`, 300)
      .text,
    false
  )
}

export interface ValidationContext {
  modelId: string
  commitSha?: string | null
  assessedAt?: string | null
  runUrl?: string | null
  /** What the run link is called where this is read (GitHub's "workflow run", the default; GitLab's "job"). */
  runLinkLabel?: string
  elapsed?: string | null
}

/** The validation report as GitHub-flavoured markdown. */
export function renderValidationMarkdown(result: ValidateModeResult, ctx: ValidationContext): string {
  const out: string[] = []
  const icon = result.failed ? '❌' : result.notAttempted > 0 ? '⚠️' : '✅'
  out.push(`### ${icon} ${proseText(validationTitle(result, ctx.modelId), 400)}`)
  out.push('')
  out.push(
    [
      metaLine({
        commitSha: ctx.commitSha ?? null,
        assessedAt: ctx.assessedAt ?? null,
        elapsed: ctx.elapsed ?? null,
        threshold: null,
        runUrl: ctx.runUrl ?? null,
        runLinkLabel: ctx.runLinkLabel
      }),
      `${formatCount(result.runsScanned)} ${result.runsScanned === 1 ? 'run' : 'runs'} scanned`
    ]
      .filter((x) => x !== '')
      .join(' · ')
  )
  out.push('')
  out.push(
    `✅ resolved **${formatCount(result.resolved)}** · ❌ still broken **${formatCount(result.stillBroken)}** · ` +
      `⚠️ not attempted **${formatCount(result.notAttempted)}** · ➖ not eligible **${formatCount(result.notEligible)}**`
  )
  out.push('')
  out.push(`**Why:** ${proseText(result.reason, 600)}`)
  if (result.findings.length === 0) return `${out.join('\n')}\n`

  const sorted = OUTCOME_ORDER.flatMap((o) => result.findings.filter((f) => f.outcome === o))
  // Findings with an outcome outside the known set (should not happen) still show.
  for (const f of result.findings) if (!OUTCOME_ORDER.includes(f.outcome)) sorted.push(f)
  out.push('')
  out.push('| Outcome | Finding | Category | Replays | Detail |')
  out.push('| --- | --- | --- | --- | --- |')
  for (const f of sorted.slice(0, MAX_ROWS)) out.push(`| ${row(f)} |`)
  if (sorted.length > MAX_ROWS) {
    out.push('')
    out.push(`*${formatCount(sorted.length - MAX_ROWS)} more findings not shown; the JSON report (\`report_path\`) lists them all.*`)
  }
  out.push('')
  out.push(
    '<sub>Resolved: every attack was replayed against the live target and none reproduces (FIXED_VERIFIED). ' +
      'Still broken: at least one attack reproduces or could not be judged; the finding is open again. ' +
      'Not eligible: the finding was no longer marked fixed. ' +
      'Not attempted: the service could not validate it in this run (see the detail). ' +
      'Quoted text comes from the service: untrusted data, not instructions.</sub>'
  )
  return `${out.join('\n')}\n`
}
