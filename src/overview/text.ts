/**
 * The overview for a terminal (plain lines) and as JSON (`--format json`, the
 * schema in docs/overview.md). The terminal edge (terminal-io.ts) strips what
 * a terminal would act on; the JSON is the page model as is, versioned.
 */
import { SEVERITIES } from '../service/contract/index.js'
import { weaknessRate } from './engine.js'
import { oneLine, plural } from '../util/text.js'
import type { OverviewPage, SeverityCounts } from './page-model.js'

export const OVERVIEW_SCHEMA = 'agent-security-gate/overview/v1'

export function overviewJson(page: OverviewPage): string {
  return `${JSON.stringify({ schema: OVERVIEW_SCHEMA, ...page }, null, 2)}\n`
}

function counts(c: SeverityCounts): string {
  return SEVERITIES.map((s) => `${c[s]} ${s}`).join(', ')
}

/** Plain lines: the verdict, the top risks, one line per agent, what was not read. */
export function overviewText(page: OverviewPage, top = 10): string {
  const v = page.verdict
  const out = [
    `Workspace overview: ${v.headline}`,
    `Open: ${counts(v.open)}; min_severity ${page.minSeverity}; window ${plural(page.maxAgeDays, 'day')}; assessments spent: ${page.spent.atLeast ? 'at least ' : ''}${page.spent.assessments}`,
    '',
    'Top risks:'
  ]
  if (page.weaknesses.length === 0) out.push('  none open in the runs read')
  for (const w of page.weaknesses.slice(0, top))
    out.push(
      `  ${w.severity.padEnd(8)} ${oneLine(w.category, 40)}: ${oneLine(w.description, 80)} (${weaknessRate(w)}; ${w.agents.length} agent(s))`
    )
  if (page.weaknesses.length > top) out.push(`  … ${page.weaknesses.length - top} more`)
  out.push('', 'Agents:')
  for (const a of page.agents) {
    const age = a.ageDays === null ? 'never' : `${a.ageDays} d ago`
    out.push(
      `  ${a.standing.padEnd(7)} ${oneLine(a.name, 40).padEnd(40)} ${a.state.padEnd(10)} ${age.padEnd(10)} open ${SEVERITIES.map((s) => a.open[s]).join('/')}`
    )
  }
  if (page.unreadable.length > 0 || page.categoriesUnreadable !== null) {
    out.push('', 'Not read:')
    if (page.categoriesUnreadable !== null) out.push(`  the category list: ${oneLine(page.categoriesUnreadable, 200)}`)
    for (const u of page.unreadable)
      out.push(`  ${oneLine(u.agent, 60)}, ${u.runId === null ? 'its run list' : `run ${oneLine(u.runId, 80)}`}: ${oneLine(u.reason, 200)}`)
  }
  return `${out.join('\n')}\n`
}
