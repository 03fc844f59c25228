/**
 * The overview as GitHub-flavoured markdown (the job summary and the tracking
 * issue): verdict first, top risks in tables, the rest in `<details>`, the
 * trend as a Mermaid xychart github.com draws. Service text goes through the
 * comment's safe rendering (markdown-safe.ts); the chart holds only numbers
 * and dates this file writes. The body stays within GitHub's 65,536
 * characters: rows beyond what fits are counted, not shown.
 */
import { SEVERITIES } from '../service/contract/index.js'
import { weaknessRate } from './engine.js'
import { codeSpan, formatCount, proseText } from '../report/markdown-safe.js'
import { plural } from '../util/text.js'
import type { AgentRow, OverviewPage, SeverityCounts, Weakness } from './page-model.js'

/** GitHub's limit on an issue body, less room for the tracking issue's marker. */
export const OVERVIEW_MARKDOWN_MAX = 60_000
const TOP = 10

const STATUS_ICON = { clear: '✅', attention: '❌', incomplete: '⚠️' } as const
const STANDING = { pass: '✅ pass', fail: '❌ fail', unknown: '⚠️ unknown' } as const
const STATE = { assessed: 'assessed', stale: '**stale**', never: '**never assessed**', unreadable: '**not read**' } as const

function counts(c: SeverityCounts): string {
  return SEVERITIES.map((s) => c[s]).join(' / ')
}

function weaknessRow(w: Weakness): string {
  const agents = w.agents.slice(0, 5).map((a) => proseText(a, 60))
  const more = w.agents.length > 5 ? ` +${w.agents.length - 5}` : ''
  return `| ${w.severity} | ${codeSpan(w.category, { max: 60, table: true })} | ${proseText(w.description, 160)} | ${weaknessRate(w)} | ${agents.join(', ')}${more} |`
}

function age(a: AgentRow): string {
  return a.ageDays === null ? '–' : a.ageDays === 0 ? 'today' : `${a.ageDays} d ago`
}

function agentRow(a: AgentRow): string {
  const worst = a.worst === null ? '–' : `${a.worst.severity}: ${proseText(a.worst.description, 100)}`
  const cov = a.coverage.of > 0 ? `${a.coverage.completed} of ${a.coverage.of}` : `${a.coverage.completed}`
  return `| ${proseText(a.name, 80)} | ${STATE[a.state]} | ${age(a)} | ${STANDING[a.standing]} | ${counts(a.open)} | ${worst} | ${cov} |`
}

function table(head: string, rows: string[], limit: number, what: string): string[] {
  if (rows.length === 0) return []
  const shown = rows.slice(0, limit)
  const out = [head, ...shown.slice(0, TOP)]
  const rest = shown.slice(TOP)
  if (rest.length > 0)
    out.push('', `<details><summary>${formatCount(rest.length)} more ${what}</summary>`, '', head, ...rest, '', '</details>')
  if (rows.length > shown.length)
    out.push('', `*${formatCount(rows.length - shown.length)} more ${what} not shown here (the JSON and HTML formats hold all).*`)
  return out
}

const WEAK_HEAD = '| Severity | Category | Weakness | Seen | Agents |\n|---|---|---|---|---|'
const AGENT_HEAD = '| Agent | State | Last assessed | Standing | Open (C/H/M/L) | Worst open | Coverage |\n|---|---|---|---|---|---|---|'

export function trendChart(page: OverviewPage): string[] {
  if (page.trend.length < 2) return []
  const labels = page.trend.map((p) => `"${p.day.slice(5)}"`).join(', ')
  const max = Math.max(1, ...page.trend.flatMap((p) => SEVERITIES.map((s) => p.open[s])))
  const lines = SEVERITIES.map((s) => `  line [${page.trend.map((p) => p.open[s]).join(', ')}]`)
  return [
    '```mermaid',
    'xychart-beta',
    '  title "Open findings per day (lines: critical, high, medium, low)"',
    `  x-axis [${labels}]`,
    `  y-axis "open findings" 0 --> ${max}`,
    ...lines,
    '```'
  ]
}

function unreadableLines(page: OverviewPage): string[] {
  const out: string[] = []
  if (page.categoriesUnreadable !== null) out.push(`- the category list: ${proseText(page.categoriesUnreadable, 200)}`)
  for (const u of page.unreadable.slice(0, 50))
    out.push(
      `- ${proseText(u.agent, 80)}, ${u.runId === null ? 'its run list' : `run ${codeSpan(u.runId, { max: 80 })}`}: ${proseText(u.reason, 200)}`
    )
  if (page.unreadable.length > 50) out.push(`- and ${formatCount(page.unreadable.length - 50)} more`)
  return out.length === 0 ? [] : ['', '### Not read', '', 'The page says nothing of these; they count as not assessed.', '', ...out]
}

function render(page: OverviewPage, limit: number): string {
  const v = page.verdict
  const out = [
    `## ${STATUS_ICON[v.status]} Workspace overview: ${v.headline}`,
    '',
    `Open weaknesses (critical / high / medium / low): **${counts(v.open)}** · standing at \`min_severity: ${page.minSeverity}\` · ` +
      `window ${plural(page.maxAgeDays, 'day')} · assessments spent in the window: ${page.spent.atLeast ? 'at least ' : ''}${formatCount(page.spent.assessments)} · as of ${page.generatedAt}`,
    '',
    '### Top risks',
    ''
  ]
  const weak = table(WEAK_HEAD, page.weaknesses.map(weaknessRow), limit, 'weaknesses')
  out.push(...(weak.length > 0 ? weak : ['No open weakness in the runs read.']))
  out.push('', '### Agents', '', ...table(AGENT_HEAD, page.agents.map(agentRow), limit, 'agents'))
  if (page.categories.length > 0) {
    out.push(
      '',
      '<details><summary>Open by category (OWASP, ATLAS)</summary>',
      '',
      '| Category | OWASP | ATLAS | Open (C/H/M/L) | Agents |',
      '|---|---|---|---|---|'
    )
    for (const c of page.categories)
      out.push(
        `| ${proseText(c.name, 80)} | ${c.owasp === '' ? '–' : codeSpan(c.owasp, { max: 40, table: true })} | ${c.atlas === '' ? '–' : codeSpan(c.atlas, { max: 40, table: true })} | ${counts(c.open)} | ${c.agents} |`
      )
    out.push('', '</details>')
  }
  const chart = trendChart(page)
  if (chart.length > 0) out.push('', '### Trend', '', ...chart)
  out.push(...unreadableLines(page))
  return `${out.join('\n')}\n`
}

/** The page as markdown within OVERVIEW_MARKDOWN_MAX characters. */
export function overviewMarkdown(page: OverviewPage, max = OVERVIEW_MARKDOWN_MAX): string {
  let limit = Math.max(page.weaknesses.length, page.agents.length)
  let md = render(page, limit)
  while (md.length > max && limit > TOP) {
    limit = Math.max(TOP, Math.floor(limit * 0.7))
    md = render(page, limit)
  }
  return md
}
