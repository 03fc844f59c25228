/**
 * The coverage section of the markdown report: at most 5 columns, clean
 * categories rolled up into one line, folded on a pass; the job summary has
 * every row (ATLAS included).
 */
import { type Bounded, type MarkdownProfile, para, SEVERITY_ICON } from './markdown-profile.js'
import { plannedCount } from './markdown-headline.js'
import { SEVERITIES } from '../service/contract/index.js'
import { codeSpan, enumCell, formatCount } from './markdown-safe.js'
import type { Report, ReportCoverageRow } from './report-model.js'
import { plural } from '../util/text.js'
import { blockers } from './blockers.js'

/** `██░ 2/3`: attacks that got through of those tried. */
export function bar(succeeded: number | null, blocked: number | null): string {
  if (succeeded === null || blocked === null) return '–'
  const total = succeeded + blocked
  if (total <= 0) return '–'
  const width = total <= 3 ? total : 5
  const filled = succeeded === 0 ? 0 : Math.min(width, Math.max(1, Math.round((width * succeeded) / total)))
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${formatCount(succeeded)}/${formatCount(total)}`
}

/** ❗ only where something blocks; ⚪ where attacks got through but nothing of it blocks (known, accepted, below). */
function stateIcon(row: ReportCoverageRow, blocking: ReadonlySet<string>): string {
  if (blocking.has(row.category)) return '❗'
  if (row.state === 'not reached') return '⬜'
  if (row.state === 'partial') return '◐'
  if (row.state === 'probed') return '❔'
  return (row.succeeded ?? 0) > 0 ? '⚪' : '✅'
}

const STATE_NOTE: Record<string, string> = { partial: ' partial', 'not reached': ' **not reached**', probed: ' probed' }

function categoryCell(row: ReportCoverageRow, blocking: ReadonlySet<string>, missed: ReadonlySet<string>): string {
  const note =
    (STATE_NOTE[row.state] ?? '') +
    (row.planned ? '' : ' (not planned)') +
    (missed.has(row.category) ? ' · blocks: not reproduced in this run' : '') +
    (!blocking.has(row.category) && (row.succeeded ?? 0) > 0 && row.state === 'completed' ? ' · does not block' : '')
  return `${stateIcon(row, blocking)} ${codeSpan(row.category, { max: 60, table: true })}${note}`
}

function worstCell(row: ReportCoverageRow, blocking: ReadonlySet<string>): string {
  if (row.worstSeverity === null) return '–'
  // The severity's colour only where it blocks.
  const icon = blocking.has(row.category) ? SEVERITY_ICON[row.worstSeverity] : undefined
  return icon ? `${icon} ${row.worstSeverity}` : enumCell(row.worstSeverity, SEVERITIES)
}

const ref = (v: string | null): string => (v === null ? '–' : codeSpan(v, { max: 30, table: true }))

interface Blocking {
  blocking: ReadonlySet<string>
  missed: ReadonlySet<string>
}

function coverageRowLine(row: ReportCoverageRow, full: boolean, { blocking, missed }: Blocking): string {
  const cells = [categoryCell(row, blocking, missed), bar(row.succeeded, row.blocked), worstCell(row, blocking), ref(row.owasp)]
  if (full) cells.push(ref(row.atlas))
  return `| ${cells.join(' | ')} |\n`
}

/** A row with nothing to read: completed, nothing got through, no severity. */
function isClean(row: ReportCoverageRow, blocking: ReadonlySet<string> = new Set()): boolean {
  return (
    !blocking.has(row.category) &&
    row.planned &&
    row.state === 'completed' &&
    (row.succeeded ?? 0) === 0 &&
    row.worstSeverity === null &&
    row.blocked !== null
  )
}

export function coverageBlock(r: Report, profile: MarkdownProfile, budget: number): Bounded {
  const m = profile.measure
  const full = profile.coverage === 'full'
  const planned = plannedCount(r)
  const rows = r.coverageRows
  const list = blockers(r)
  const b: Blocking = {
    blocking: new Set(list.map((x) => x.category)),
    missed: new Set(list.filter((x) => !x.reproduced).map((x) => x.category))
  }
  const clean = (row: ReportCoverageRow): boolean => isClean(row, b.blocking)
  const tried = rows.reduce((n, row) => n + (row.succeeded ?? 0) + (row.blocked ?? 0), 0)
  const through = rows.reduce((n, row) => n + (row.succeeded ?? 0), 0)
  let title: string
  if (r.categoriesPlanned === null) title = 'Coverage: the planned categories are unknown (the run status was not read)'
  else title = `Coverage: ${formatCount(r.coverageCompleted)} of ${formatCount(planned)} categories completed`
  if (r.coverageNotReached > 0) title += `, ${formatCount(r.coverageNotReached)} not reached`
  if (r.coverageReadable && tried > 0) title += ` · ${formatCount(through)} of ${formatCount(tried)} attacks got through`
  const lines: string[] = []
  if (!r.coverageReadable) lines.push(para('The coverage could not be read: attack counts and OWASP and ATLAS references are unknown.'))
  const unreached = (row: ReportCoverageRow): boolean => row.planned && row.state === 'not reached' && row.blocked === null
  const shown = full ? rows : rows.filter((row) => !clean(row) && !unreached(row))
  const rolled = full ? [] : rows.filter(clean)
  const notReached = full ? [] : rows.filter(unreached)
  const head = full
    ? '| Category | Got through | Worst | OWASP | ATLAS |\n| --- | --- | --- | --- | --- |\n'
    : '| Category | Got through | Worst | OWASP |\n| --- | --- | --- | --- |\n'
  let used = m(title) + m(head) + 400
  const table: string[] = []
  let left = 0
  for (let i = 0; i < shown.length; i++) {
    const line = coverageRowLine(shown[i], full, b)
    if (used + m(line) > budget) {
      left = shown.length - i
      break
    }
    used += m(line)
    table.push(line)
  }
  if (table.length > 0) lines.push(head, table.join(''), '\n')
  if (rolled.length > 0) {
    const n = rolled.reduce((k, row) => k + (row.blocked ?? 0), 0)
    const other = table.length > 0 ? 'other ' : ''
    const what = `${plural(rolled.length, `${other}category`, `${other}categories`)}: 0 of ${formatCount(n)} attacks got through`
    // A run the step stopped is no pass: no ✅ beside it, and why it stopped (the time ran out) said.
    lines.push(para(r.result === 'error' ? `⏹️ ${what} before ${stoppedWhy(r.reason)}: not a result.` : `✅ ${what}.`))
  }
  if (notReached.length > 0) {
    const names = notReached.slice(0, 12).map((row) => codeSpan(row.category, { max: 60 }))
    const more = notReached.length - names.length
    lines.push(
      para(
        `⬜ **${plural(notReached.length, 'category', 'categories')} not reached:** ${names.join(', ')}${more > 0 ? ` and ${formatCount(more)} more` : ''}.`
      )
    )
  }
  if (left > 0)
    lines.push(para(`*${plural(left, 'more category', 'more categories')} not shown here (${profile.fullListWhere} has them).*`))
  const body = lines.join('')
  if (r.result === 'pass' && !full) {
    return { text: `<details>\n<summary>${title}</summary>\n\n${body}</details>\n\n`, left }
  }
  return { text: para(`#### ${title}`) + body, left }
}

/** Why a run that ended in error stopped, for the coverage line: "the time ran out (timeout_minutes)". */
function stoppedWhy(reason: string): string {
  if (reason.startsWith('timeout_minutes ran out')) return 'the time ran out (timeout_minutes)'
  if (reason.startsWith('the step was cancelled')) return 'the job was cancelled'
  return 'the run was stopped'
}
