/**
 * The findings of the markdown report: one <details> block per finding shown
 * in full, one-line rows for the rest, a category × severity grid when even
 * the rows do not fit, and the layout that chooses among them within a budget.
 */
import { rateText } from './blockers.js'
import { type Bounded, type DetailLevel, type MarkdownProfile, para, SEVERITY_ICON } from './markdown-profile.js'
import { findingStanding, STANDINGS } from './standings.js'
import { proofAttack, proofSections, replayText } from './markdown-proof.js'
import { FINDING_STATUSES, REPLAY_STATUSES, SEVERITIES } from '../service/contract/index.js'
import { codeSpan, enumCell, formatCount, htmlCode, proofBlock, proseText } from './markdown-safe.js'
import { type ReportFinding, type SeverityCounts, zeroCounts } from './report-model.js'
import { plural } from '../util/text.js'

/** The icon of a finding: its severity colour when it blocks (or is below the threshold), else its standing's (standings.ts). */
function findingIcon(f: ReportFinding): string {
  return STANDINGS[findingStanding(f)].icon ?? SEVERITY_ICON[f.severity]
}

/**
 * What a finding is, in the standings' words: a standing that does not block
 * ("known, does not block"), or against a baseline "new" or "known" for one
 * that blocks; '' for a blocking one without a baseline and one below the threshold.
 */
function standingLabel(f: ReportFinding): string {
  if (STANDINGS[f.standing].blocks) return f.baselineState ?? ''
  const st = findingStanding(f)
  const words = STANDINGS[st]
  if (st === 'below') return ''
  return st === 'known' ? `${words.label}, does not block (fail_on new)` : words.label
}

/** A finding's rate; a known one no window counted is known to main's baseline, not "this run only". */
function findingRate(f: ReportFinding): string {
  if (f.baselineState === 'known' && (f.seen.scope === 'this run' || f.seen.of <= 1)) return "known to main's baseline"
  const rate = rateText(f.seen)
  return f.standing === 'blocking' && rate.endsWith('(flaky)') ? `${rate.slice(0, -1)}: blocks all the same)` : rate
}

function findingSummaryLine(f: ReportFinding): string {
  const label = standingLabel(f)
  const parts = [`${findingIcon(f)} <b>${f.severity}</b>`]
  if (label !== '') parts.push(`<b>${label}</b>`)
  // How steady it is, next to what it is: a rate at the end of a wrapped line is missed.
  if (f.seen.windowed) parts.push(findingRate(f))
  parts.push(htmlCode(f.category, 60), htmlCode(f.findingId, 60))
  if (f.redacted) parts.push('proof withheld by the plan')
  else {
    const reproduced = f.attacks.filter((a) => a.lastReplayStatus === 'reproduced').length
    parts.push(`${plural(f.attacks.length, 'attack')}${reproduced > 0 ? `, ${formatCount(reproduced)} reproduced` : ''}`)
  }
  if (f.status !== 'open')
    parts.push(`status ${(FINDING_STATUSES as readonly string[]).includes(f.status) ? f.status : htmlCode(f.status, 30)}`)
  return parts.join(' · ')
}

function findingBlock(f: ReportFinding, level: DetailLevel): string {
  const out: string[] = [`<details>\n<summary>${findingSummaryLine(f)}</summary>\n\n`]
  if (f.redacted) {
    out.push(para('The proof is withheld by the plan; the finding counts the same as the others.'))
  } else {
    out.push(para(`> ${proseText(f.description, level.proseChars)}`))
    out.push(para(`**Expected:** ${proseText(f.expectedBehavior, level.proseChars)}`))
    const a = proofAttack(f)
    if (a !== null && level.maxSteps > 0) {
      out.push(
        para(`**Proof:** attack ${codeSpan(a.attackId, { max: 60 })}, score ${formatCount(a.score)}, ${replayText(a.lastReplayStatus)}.`)
      )
      const sections = proofSections(a, f, level)
      if (sections.length > 0)
        out.push(para(proofBlock(sections, { width: level.wrap, maxChars: level.fieldChars, maxLines: level.maxLines })))
      else out.push(para('*The attack has no replay steps.*'))
      const others = f.attacks.filter((x) => x !== a)
      if (others.length > 0) {
        const listed = others
          .slice(0, 3)
          .map(
            (x) =>
              `${codeSpan(x.attackId, { max: 40 })} (${(REPLAY_STATUSES as readonly string[]).includes(x.lastReplayStatus) ? x.lastReplayStatus.replace('_', ' ') : codeSpan(x.lastReplayStatus, { max: 20 })})`
          )
        const more = others.length - listed.length
        out.push(para(`Also: ${listed.join(', ')}${more > 0 ? ` and ${formatCount(more)} more` : ''}.`))
      }
    } else if (a !== null) {
      out.push(para(`*Proof of ${plural(f.attacks.length, 'attack')} left out here (see the full data).*`))
    }
  }
  out.push(para('</details>'))
  return out.join('')
}

export const ROWS_HEAD = '| Severity | Category | Finding | Attacks |\n| --- | --- | --- | --- |\n'

export function findingRow(f: ReportFinding): string {
  const attacks = f.redacted
    ? 'proof withheld'
    : `${formatCount(f.attacks.length)}${f.attacks.some((a) => a.lastReplayStatus === 'reproduced') ? ', reproduced' : ''}`
  const status = f.status === 'open' ? '' : ` (${enumCell(f.status, FINDING_STATUSES)})`
  const label = standingLabel(f)
  const seen = f.seen.windowed ? ` · ${findingRate(f)}` : ''
  return `| ${findingIcon(f)} ${f.severity}${label === '' ? '' : ` · **${label}**`}${seen} | ${codeSpan(f.category, { max: 60, table: true })} | ${codeSpan(f.findingId, { max: 60, table: true })}${status} | ${attacks} |\n`
}

/** Counts by category (rows) and severity (columns): at most 5 columns. */
function gridBlock(fs: ReportFinding[], title: string, m: (s: string) => number, budget: number): Bounded {
  const byCat = new Map<string, SeverityCounts>()
  for (const f of fs) {
    const c = byCat.get(f.category) ?? zeroCounts()
    c[f.severity] += 1
    byCat.set(f.category, c)
  }
  const head = `${para(title)}| Category | 🔴 critical | 🟠 high | 🟡 medium | 🔵 low |\n| --- | ---: | ---: | ---: | ---: |\n`
  const lines: string[] = []
  let used = m(head) + 200
  let left = 0
  const cats = [...byCat.entries()]
  for (let i = 0; i < cats.length; i++) {
    const [cat, c] = cats[i]
    const line = `| ${codeSpan(cat, { max: 60, table: true })} | ${SEVERITIES.map((s) => (c[s] > 0 ? formatCount(c[s]) : '–')).join(' | ')} |\n`
    if (used + m(line) > budget) {
      left = cats.length - i
      break
    }
    used += m(line)
    lines.push(line)
  }
  let text = head + lines.join('') + '\n'
  if (left > 0) text += para(`*${plural(left, 'more category', 'more categories')} not shown in the grid.*`)
  return { text, left }
}

export function countsText(fs: ReportFinding[]): string {
  const c = zeroCounts()
  for (const f of fs) c[f.severity] += 1
  return SEVERITIES.filter((s) => c[s] > 0)
    .map((s) => `${formatCount(c[s])} ${s}`)
    .join(', ')
}

interface FindingsLayout {
  /** Ladder level per finding shown in full (a prefix of the list), by index. */
  detailed: number[]
  /** Findings shown as rows (after the detailed ones). */
  rows: number
  /** Findings only counted in the grid. */
  gridOnly: number
  text: string
}

/** When not even the rows fit: the rows that fit, then a count grid of all. */
function rowsThenGrid(list: ReportFinding[], m: (s: string) => number, avail: number, headSize: number, heading: string): FindingsLayout {
  const grid = gridBlock(list, `**All ${plural(list.length, 'finding')} by category:**`, m, Math.floor(avail / 3))
  let used = headSize + m(grid.text)
  let rows = 0
  const lines: string[] = []
  for (const f of list) {
    const line = findingRow(f)
    if (used + m(line) > avail) break
    used += m(line)
    lines.push(line)
    rows += 1
  }
  const parts = [heading]
  if (rows > 0) parts.push(ROWS_HEAD, lines.join(''), '\n')
  parts.push(grid.text)
  return { detailed: [], rows, gridOnly: list.length - rows, text: parts.join('') }
}

/**
 * Details, then rows, then a grid: each severity group gets the most detail
 * that leaves room for a row for every finding after it; when even the rows
 * do not fit, the rows that fit and a count grid of all.
 */
export function layoutFindings(list: ReportFinding[], profile: MarkdownProfile, avail: number, heading: string): FindingsLayout {
  const m = profile.measure
  const ladder = profile.ladder
  const total = list.length
  if (total === 0) return { detailed: [], rows: 0, gridOnly: 0, text: '' }
  const rowSize = list.map((f) => m(findingRow(f)))
  const rowsFrom = (i: number): number => {
    let s = 0
    for (let k = i; k < total; k++) s += rowSize[k]
    return s
  }
  const headSize = m(heading) + m(ROWS_HEAD) + 400
  const cache = new Map<string, string>()
  const block = (i: number, L: number): string => {
    const key = `${i}:${L}`
    let b = cache.get(key)
    if (b === undefined) {
      b = findingBlock(list[i], ladder[L])
      cache.set(key, b)
    }
    return b
  }

  const detailed: number[] = []
  if (headSize + rowsFrom(0) <= avail) {
    let used = headSize
    let i = 0
    // Group boundaries by severity.
    while (i < total && detailed.length < profile.maxDetailed) {
      const sev = list[i].severity
      let end = i
      while (end < total && list[end].severity === sev) end += 1
      end = Math.min(end, i + (profile.maxDetailed - detailed.length))
      const restRows = rowsFrom(end)
      let chosen = -1
      let size = 0
      for (let L = 0; L < ladder.length && chosen < 0; L++) {
        let s = 0
        for (let k = i; k < end && used + s + restRows <= avail; k++) s += m(block(k, L))
        if (used + s + restRows <= avail) {
          chosen = L
          size = s
        }
      }
      if (chosen >= 0) {
        for (let k = i; k < end; k++) detailed.push(chosen)
        used += size
        i = end
        continue
      }
      // Not the whole group: as many as fit at the lowest level, rows for the rest.
      const L = ladder.length - 1
      while (i < end && used + m(block(i, L)) + rowsFrom(i + 1) <= avail) {
        used += m(block(i, L))
        detailed.push(L)
        i += 1
      }
      break
    }
    const parts: string[] = [heading]
    detailed.forEach((L, k) => parts.push(block(k, L)))
    const rows = total - detailed.length
    if (rows > 0) {
      parts.push(para(detailed.length > 0 ? `**${plural(rows, 'more finding')}, one line each:**` : `**One line each:**`))
      parts.push(ROWS_HEAD, list.slice(detailed.length).map(findingRow).join(''), '\n')
    }
    return { detailed, rows, gridOnly: 0, text: parts.join('') }
  }

  return rowsThenGrid(list, m, avail, headSize, heading)
}
