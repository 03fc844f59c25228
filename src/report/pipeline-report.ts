/**
 * The report of a step that assessed nothing because of its event
 * (docs/pr-pipelines.md): a result carried over from an earlier assessment of
 * the same agent ("carried over" in its headline, naming the commit assessed
 * and the files changed since), or a deployment event that is not ready
 * ("skipped"). Both say what the step spent of the assessment budget (0).
 *
 * A carried-over comment keeps the report of the assessment it carries below
 * its own lines, so the findings stay on the pull request.
 */
import { COMMENT_LIMIT, readAssessmentRecord, withRecord, type AssessmentRecord } from './comment.js'
import { gateTitle, headline, metaLine, stateMarker } from './markdown-headline.js'
import { clampText, proseText, sanitizeText, trustedLink } from './markdown-safe.js'

export interface PipelineReportInput {
  kind: 'carried_over' | 'skipped'
  /** The carried result, or skipped. */
  result: 'pass' | 'fail' | 'skipped'
  /** The model or target, as titles name it. */
  subject: string
  /** Carried over: the line of the carry-over ("carried over: pass as assessed at ..."); skipped: why. */
  reason: string
  /** The commit the carried result was assessed at (null: skipped). */
  assessedSha: string | null
  /** Files changed since the assessed commit (none of them under agent_paths). */
  changedFiles: string[]
  /** The commit this step is about, and when it ran (ISO). */
  commitSha: string | null
  at: string
  runUrl: string | null
  /** What the run link is called where this is read (GitHub's "workflow run", the default; GitLab's "job"). */
  runLinkLabel?: string
  /** The comment that recorded the carried result; null when unknown. */
  recordUrl: string | null
  /** What the event was, where its result goes. */
  lines: string[]
  /** "Assessments spent by this step: 0 (...)." */
  budgetLine: string
  /** Carried over: what decided the carried result, as its report's headline said ("1 open critical"); null when unknown. */
  cause?: string | null
}

/** Between these two hidden lines a carried-over comment keeps the report of the assessment it carries. */
const ASSESSED_OPEN = '<!-- asas-gate:assessed-report -->'
const ASSESSED_CLOSE = '<!-- asas-gate:assessed-report-end -->'

const short = (sha: string | null): string => (sha === null ? 'an earlier commit' : sha.slice(0, 7))

/** The one title, as every report has: "Agent security gate: pass · carried over from the assessment of abc1234 · model". */
export function pipelineTitle(input: PipelineReportInput): string {
  if (input.kind === 'carried_over') {
    return gateTitle(input.result, `carried over from the assessment of ${short(input.assessedSha)}`, input.subject)
  }
  return sanitizeText(clampText(`Agent security gate: skipped · ${clampText(input.reason, 160).text} · ${input.subject}`, 300).text, false)
}

/**
 * The lines of a report. In the comment (`blocks`: the blockers its kept report
 * names, or null) the link to the recording comment is left out: it is this one.
 */
function headerLines(
  input: PipelineReportInput,
  where: { comment: boolean; blocks: string | null } = { comment: false, blocks: null }
): string[] {
  const icon = input.kind === 'skipped' ? '### ⏭️ ' : null
  const out = [icon === null ? headline(input.result, pipelineTitle(input)) : `${icon}${proseText(pipelineTitle(input), 400)}`]
  if (where.blocks !== null) out.push(where.blocks)
  const meta = metaLine({
    commitSha: input.commitSha,
    assessedAt: input.at,
    threshold: null,
    runUrl: input.runUrl,
    runLinkLabel: input.runLinkLabel
  })
  if (meta !== '') out.push(meta)
  if (input.kind === 'carried_over') {
    const link = where.comment ? null : trustedLink('the comment of that assessment', input.recordUrl)
    // "carried over: fail as assessed at abc1234 (the same commit)" said once: the headline names the result and commit.
    const why = input.reason
      .replace(/^carried over: (?:pass|fail) as assessed at ([0-9a-f]{7,}) \((.*)\)$/, 'from $1: $2')
      .replace(/^carried over: /, '')
    if (input.cause)
      out.push(
        `**${input.result === 'fail' ? 'What failed' : 'Assessed'} at ${short(input.assessedSha)}:** ${proseText(input.cause, 300)}.`
      )
    out.push(`**Carried over:** ${proseText(why, 1200)}.${link === null ? '' : ` Recorded in ${link}.`}`)
    if (input.result === 'fail') out.push(where.comment ? WHAT_TO_DO : WHAT_TO_DO_SUMMARY)
  } else {
    out.push(
      `**Not assessed:** ${proseText(input.reason, 600)}. Not a failure: the step passes and sets no commit status; the next deployment that succeeds is assessed.`
    )
  }
  out.push([...input.lines, input.budgetLine].map((l) => proseText(l, 600)).join('  \n'))
  return out
}

/** What a carried-over fail asks of the author. */
const WHAT_TO_DO =
  '**To pass:** fix the findings of the assessed report (below), then push the fix: a change to a file under `agent_paths` is assessed again.'

const WHAT_TO_DO_SUMMARY =
  "**To pass:** fix the findings of the assessed report (the pull request's comment keeps it), then push the fix: a change to a file under `agent_paths` is assessed again."

const FOOTER = '<sub>A carried-over result is the recorded one: a fail stays a fail, and only pass and fail are carried.</sub>'

/** The job summary (no hidden lines). */
export function renderPipelineSummary(input: PipelineReportInput): string {
  return `${[...headerLines(input), ...(input.kind === 'carried_over' ? [FOOTER] : [])].join('\n\n')}\n`
}

/**
 * The report of the assessment a comment shows: its own lines, or those it
 * kept when it carried a result already. Kept under a carried-over headline,
 * its own headline becomes a bold line (not a second headline of the same
 * size) and its budget line speaks of the step that assessed.
 */
function assessedReport(existing: string): string {
  const open = existing.indexOf(ASSESSED_OPEN)
  const close = existing.indexOf(ASSESSED_CLOSE)
  const own =
    open >= 0 && close > open
      ? existing.slice(open + ASSESSED_OPEN.length, close).trim()
      : existing
          .split('\n')
          .filter((l) => !l.startsWith('<!-- asas-gate:'))
          .join('\n')
          .trim()
  return own
    .replace(/^### (.+)$/m, '**$1**')
    .replace(/Assessments spent by this step: 1 (\\?\()/g, 'Assessments spent by the step that assessed: 1 $1')
}

/** The headline of a gate report, as rendered or as kept (bold): its result and cause. */
const HEADLINE = /^(?:### |\*\*)(?:✅|❌) Agent security gate: (pass|fail) · (.+) · [^·\n]*?(?:\*\*)?$/m

/**
 * What decided the result of the assessment a comment holds (its report's
 * headline: "1 open critical"), as plain text; null when the comment shows
 * no such headline. The headline is the action's own rendering: its markdown
 * escapes are undone for plain-text uses (a commit status).
 */
export function assessedCause(body: string): string | null {
  const m = HEADLINE.exec(assessedReport(body))
  if (m === null) return null
  const plain = m[2]
    .replace(/`(#\d+)`/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
  return plain.startsWith('carried over') ? null : clampText(plain, 200).text
}

/**
 * The blockers a kept report names under its title (the action's own
 * rendering, already escaped: markdown-headline.ts blockersBlock), so a
 * carried fail names them above its folded report; null when it names none.
 */
export function assessedBlocks(body: string): string | null {
  const m = /^\*\*Blocks(?: \(\d[\d,]*\))?:\*\*\n(?:- [^\n]*\n?){1,6}/m.exec(assessedReport(body))
  return m === null ? null : m[0].trimEnd()
}

/**
 * The sticky comment of a carried-over result: the marker, the state and
 * record lines, its own lines, then the report of the assessment it carries
 * (taken from `existing` when that comment records the same assessment).
 */
export function renderCarriedComment(
  input: PipelineReportInput,
  opts: { marker: string; record: AssessmentRecord | null; existing: string | null }
): string {
  const hidden = `${opts.marker}\n${stateMarker({ result: input.result, commitSha: input.commitSha, assessedAt: input.at })}\n\n`
  const kept = opts.existing !== null && readAssessmentRecord(opts.existing)?.assessedSha === input.assessedSha ? opts.existing : null
  const blocks = kept === null || input.result !== 'fail' ? null : assessedBlocks(kept)
  const own = `${hidden}${[...headerLines(input, { comment: true, blocks }), FOOTER].join('\n\n')}\n`
  const body = opts.record ? withRecord(own, opts.record) : own
  if (kept === null) return body
  const embedded =
    `\n${ASSESSED_OPEN}\n<details><summary>The report of the assessment of ${short(input.assessedSha)}</summary>\n\n` +
    `${assessedReport(kept)}\n\n</details>\n${ASSESSED_CLOSE}\n`
  return body.length + embedded.length <= COMMENT_LIMIT ? `${body}${embedded}` : body
}

/** report.json of such a step: what it carried or skipped, and the budget. */
export function renderPipelineJson(input: PipelineReportInput): string {
  const data = {
    schema_version: 1,
    kind: input.kind,
    result: input.result,
    model: input.subject,
    reason: input.reason,
    assessed_commit: input.assessedSha,
    changed_files: input.changedFiles,
    commit: input.commitSha,
    at: input.at,
    run_url: input.runUrl,
    record_url: input.recordUrl,
    pipeline: input.lines,
    assessments_spent: 0,
    budget: input.budgetLine
  }
  return `${JSON.stringify(data, null, 2)}\n`
}
