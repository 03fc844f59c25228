/**
 * The markdown rendering of a report, shared by the PR comment and the job
 * summary, fitted to a size budget, laid out for the reader who decides in
 * seconds:
 *
 * 1. A headline: icon, result, the blocking counts or the cause, the model.
 *    An error reads "⛔ Not assessed: ...": never "pass" wording under an
 *    error or an incomplete run.
 * 2. One metadata line: commit, categories done/planned, threshold, elapsed,
 *    the run and a link to the workflow run (where the job summary is).
 * 3. The findings at or above the threshold, blocking ones first: the most
 *    severe with their proof (one <details> per finding: the first reproducing
 *    attack as prompt → reply → the check it failed, hard-wrapped so nothing
 *    scrolls sideways), every other one as a one-line row, and only when even
 *    the rows do not fit, a category × severity count grid. What was cut is
 *    said with exact counts. Accepted, known (fail_on new) and closed findings
 *    follow, each marked as such and counted apart: the headline, the lines
 *    under it and the list heading all count from the report model's one
 *    count (FindingStanding), in the same words.
 * 4. Coverage: at most 5 columns; clean categories rolled up into one line;
 *    folded on a pass. The job summary has every row (ATLAS included).
 * 5. Notes in a quote block labelled as text from the run, then the footer.
 *
 * The document is built from blocks whose sizes add up, so nothing is
 * rendered twice to be measured. Every value from the service or the target
 * goes through markdown-safe.ts.
 */
import { type MarkdownProfile, para } from './markdown-profile.js'
import { contextBlock, headerBlock, headline, metaLine, reportTitle, standingParts, stateMarker } from './markdown-headline.js'
import { blockers } from './blockers.js'
import { coverageBlock } from './markdown-coverage.js'
import { countsText, findingRow, layoutFindings, ROWS_HEAD } from './markdown-findings.js'
import { footerBlock, notesBlock, redactionLine } from './markdown-notes.js'
import { SEVERITIES } from '../service/contract/index.js'
import { enumText, formatCount } from './markdown-safe.js'
import { FINDING_STANDINGS, type Report, type SeverityCounts } from './report-model.js'
import { plural } from '../util/text.js'
import { STANDINGS } from './standings.js'

/** Share of the budget the coverage table and the notes may take at most. */
const COVERAGE_SHARE = 0.2
const NOTES_SHARE = 0.06
/** The one fold under the header: findings, coverage, how the run was assessed, notes. */
export const DETAILS_OPEN = '<details>\n<summary>Findings, coverage and how this run was assessed</summary>\n\n'
const DETAILS_CLOSE = '\n</details>\n'
const FOLD = DETAILS_OPEN + DETAILS_CLOSE
/** Room kept for the line on what was cut. */
const RESERVE = 1200

function minimalDocument(r: Report, profile: MarkdownProfile): string {
  const lines: string[] = []
  if (profile.marker) lines.push(profile.marker)
  lines.push(headline(r.result, reportTitle(r)))
  lines.push(
    metaLine({
      commitSha: r.commitSha,
      assessedAt: r.assessedAt,
      runUrl: r.runUrl,
      runLinkLabel: profile.runLinkLabel,
      threshold: r.minSeverity
    })
  )
  const counts = standingParts(r, { of: 'gate' })
  if (counts.length > 0) lines.push(`**Found:** ${counts.join(' · ')}.`)
  lines.push(`*The report did not fit ${profile.limitLabel}: only counts are shown. Full data: ${profile.fullDataWhere}.*`)
  const m = profile.measure
  while (lines.length > 1 && m(lines.join('\n\n') + '\n') > profile.limit) lines.pop()
  const doc = lines.join('\n\n') + '\n'
  return m(doc) <= profile.limit ? doc : ''
}

/** The list heading's counts, of this run's findings: what blocks, then what does not and why in a word. */
function findingsHeadingParts(r: Report, missed: number): string[] {
  const c = r.counts
  if (c === null) return []
  const word = r.baseline?.available && r.baseline.failOn === 'new' ? 'new' : 'open'
  const sum = (s: SeverityCounts): number => SEVERITIES.reduce((n, k) => n + s[k], 0)
  const blocking = SEVERITIES.filter((s) => c.byStanding.blocking[s] > 0).map(
    (s) => `${formatCount(c.byStanding.blocking[s])} ${word} ${s}`
  )
  // "0 new" only when nothing blocks: a blocker this run did not reproduce is new all the same (said after the counts).
  const parts = blocking.length > 0 ? [blocking.join(', ')] : word === 'new' && missed === 0 ? ['0 new'] : []
  // Every other standing at or above the threshold (FINDING_STANDINGS' order), so a new one is counted too.
  for (const st of FINDING_STANDINGS.filter((s) => s !== 'blocking' && s !== 'below'))
    if (sum(c.byStanding[st]) > 0) parts.push(`${formatCount(sum(c.byStanding[st]))} ${STANDINGS[st].label}`)
  return parts
}

/** The reviewer's ten seconds: the headline, what blocks, what does not, the meta line; everything else in one fold. */
function foldedDocument(top: string, rest: string[]): string {
  const folded = rest.join('').replace(/\n+$/, '\n')
  return (top + (folded.trim() === '' ? '' : DETAILS_OPEN + folded + DETAILS_CLOSE)).replace(/\n+$/, '\n')
}

export function renderMarkdownReport(r: Report, profile: MarkdownProfile): string {
  const m = profile.measure
  const limit = profile.limit
  const marker = profile.marker ? `${profile.marker}\n${stateMarker(r)}\n\n` : ''
  const header = headerBlock(r, profile.runLinkLabel)
  const context = contextBlock(r)
  const coverage = coverageBlock(r, profile, Math.floor(limit * COVERAGE_SHARE))
  const notes = notesBlock(r, Math.floor(limit * NOTES_SHARE), m)
  const footer = footerBlock(profile, r.findings.length > 0 || r.notes.length > 0)
  const redaction = redactionLine(r)
  const sev = enumText(r.minSeverity, SEVERITIES)

  // Blocking findings first (most severe first), then the known, accepted and closed ones.
  const grouped = r.groups.flatMap((g) => g.findings)
  const blocking = FINDING_STANDINGS.flatMap((st) => grouped.filter((f) => f.standing === st))
  const below = r.below
  let heading = ''
  const missed = blockers(r).filter((b) => !b.reproduced).length
  const missedText =
    missed > 0 ? ` · ${formatCount(missed)} more ${missed === 1 ? 'blocks' : 'block'} without being reproduced in this run (above)` : ''
  if (r.counts !== null && blocking.length > 0) {
    heading = para(
      `#### ${plural(blocking.length, 'finding')} at or above ${sev}: ${findingsHeadingParts(r, missed).join(' · ')}${missedText}`
    )
  } else if (r.counts !== null && r.result !== 'error') {
    heading = para(`**No findings at or above ${sev}**${missedText}.`)
  }
  let belowCount = ''
  if (r.counts !== null && below.length > 0 && !profile.listBelowThreshold) {
    belowCount = para(
      `**Below ${sev}:** ${plural(below.length, 'finding')} (${countsText(below)}), counted here and listed in ${profile.fullListWhere}.`
    )
  }

  const fixed = m(marker + header + FOLD + context + coverage.text + notes.text + footer + redaction + belowCount)
  const avail = limit - fixed - RESERVE
  if (avail < 0 || profile.ladder.length === 0) return minimalDocument(r, profile)

  const main = layoutFindings(blocking, profile, avail, heading)
  let belowText = belowCount
  let belowLeft = 0
  if (profile.listBelowThreshold && below.length > 0) {
    const head = para(`#### Below ${sev}: ${plural(below.length, 'finding')} (${countsText(below)})`)
    const room = avail - m(main.text) - m(head) - m(ROWS_HEAD) - 200
    const lines: string[] = []
    let size = 0
    if (main.gridOnly === 0) {
      for (const f of below) {
        const line = findingRow(f)
        if (size + m(line) > room) break
        size += m(line)
        lines.push(line)
      }
    }
    belowLeft = below.length - lines.length
    belowText = head + (lines.length > 0 ? `${ROWS_HEAD}${lines.join('')}\n` : '')
    if (belowLeft > 0) belowText += para(`*${plural(belowLeft, 'finding')} below ${sev} not listed here.*`)
  }

  // What was cut, with exact counts.
  const cuts: string[] = []
  const full = main.detailed.filter((L) => L === 0).length
  const trimmed = main.detailed.length - full
  if (trimmed > 0) cuts.push(`${plural(trimmed, 'finding')} with shorter proof`)
  if (main.rows > 0 && blocking.length > 0) cuts.push(`${plural(main.rows, 'finding')} as one-line rows without proof`)
  if (main.gridOnly > 0) cuts.push(`${plural(main.gridOnly, 'finding')} only counted in the grid`)
  if (belowLeft > 0) cuts.push(`${plural(belowLeft, 'finding')} below ${sev} not listed`)
  if (coverage.left > 0) cuts.push(`${plural(coverage.left, 'coverage row')} not shown`)
  if (notes.left > 0) cuts.push(`${plural(notes.left, 'note')} not shown`)
  const cutLine = cuts.length > 0 ? para(`*To fit ${profile.limitLabel}: ${cuts.join('; ')}. Full data: ${profile.fullDataWhere}.*`) : ''

  const findingsFirst = blocking.length > 0
  // What was cut is said before the rows it explains.
  const mainText =
    main.text.startsWith(heading) && cutLine !== '' ? heading + cutLine + main.text.slice(heading.length) : main.text + cutLine
  const body = findingsFirst ? [mainText, context, belowText, coverage.text] : [context, coverage.text, mainText, belowText]
  const doc = foldedDocument(marker + header, [...body, redaction, notes.text, footer])
  if (m(doc) > limit) return minimalDocument(r, profile)
  return doc
}
