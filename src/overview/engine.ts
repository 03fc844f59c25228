/**
 * The workspace overview's engine: what was read (OverviewInput) to the page
 * (OverviewPage). Pure. Each agent's runs are pooled as the gate pools a
 * window (pool.ts): a weakness is open until the service closed it in the
 * newest run that saw it, and its rate is over the runs read. Missing evidence
 * is never evidence of safety: an agent stale, never assessed or unreadable
 * makes the page incomplete, never clear.
 */
import { atOrAbove, SEVERITIES, severityRank } from '../service/contract/index.js'
import { byCompletion, closesWeakness, poolEvidence, type PooledFinding, type RunEvidence } from '../evidence/pool.js'
import { rateLabel } from '../evidence/seen-rate.js'
import { plural } from '../util/text.js'
import type { AgentRead, AgentRow, CategoryRow, OverviewInput, OverviewPage, SeverityCounts, TrendPoint, Weakness } from './page-model.js'

const DAY_MS = 86_400_000
/** The most days the trend draws (one point a day). */
export const TREND_DAYS_MAX = 60

/**
 * A weakness's rate over the runs read, in the reports' counting words (seen-rate.ts rateLabel): "3 of the last 5
 * runs"; "7 of the last 12 runs of 3 agents" when several share it; "the only run read" when one was.
 */
export function weaknessRate(w: Weakness): string {
  const runs = w.rate.of <= 1 ? 'the only run read' : rateLabel(w.rate)
  return w.agents.length > 1 ? `${runs} of ${w.agents.length} agents` : runs
}

export function zeroCounts(): SeverityCounts {
  return { critical: 0, high: 0, medium: 0, low: 0 }
}

function ageDays(now: number, at: string | null): number | null {
  if (at === null || at === '') return null
  const ms = Date.parse(at)
  return Number.isFinite(ms) ? Math.max(0, Math.floor((now - ms) / DAY_MS)) : null
}

function openOf(findings: Iterable<PooledFinding>): PooledFinding[] {
  return [...findings].filter((f) => !f.closed).sort((a, b) => severityRank(a.severity) - severityRank(b.severity))
}

function agentRow(input: OverviewInput, a: AgentRead, open: PooledFinding[], categoriesCompleted: number): AgentRow {
  const age = ageDays(input.now, a.lastCompletedAt)
  const listFailed = a.lastCompletedAt === null
  const readAny = a.runs.length > 0
  let state: AgentRow['state']
  if (listFailed) state = 'unreadable'
  else if (a.lastCompletedAt === '') state = 'never'
  else if (age === null || age > input.maxAgeDays || a.runsInWindow === 0) state = 'stale'
  else state = readAny ? 'assessed' : 'unreadable'
  const counts = zeroCounts()
  for (const f of open) counts[f.severity]++
  const blocks = open.some((f) => atOrAbove(f.severity, input.minSeverity))
  // A failing finding fails it whatever else is missing; a pass needs every run of the window read.
  const standing = blocks ? 'fail' : state === 'assessed' && a.unreadable.length === 0 ? 'pass' : 'unknown'
  const w = open.at(0)
  return {
    modelId: a.modelId,
    name: a.name,
    state,
    lastAssessedAt: a.lastCompletedAt === '' ? null : a.lastCompletedAt,
    ageDays: age,
    standing,
    runsRead: a.runs.length,
    open: counts,
    worst: w === undefined ? null : { severity: w.severity, category: w.category, description: w.description },
    coverage: { completed: categoriesCompleted, of: input.categories.length }
  }
}

interface Pooled {
  read: AgentRead
  open: PooledFinding[]
  runsRead: number
}

function weaknesses(pooled: readonly Pooled[]): Weakness[] {
  const byFp = new Map<string, Weakness>()
  for (const p of pooled) {
    for (const f of p.open) {
      const w = byFp.get(f.fingerprint)
      if (w === undefined) {
        byFp.set(f.fingerprint, {
          fingerprint: f.fingerprint,
          severity: f.severity,
          category: f.category,
          description: f.description,
          rate: { seen: f.seenIn.length, of: p.runsRead, scope: 'model' },
          agents: [p.read.name]
        })
        continue
      }
      w.rate = { ...w.rate, seen: w.rate.seen + f.seenIn.length, of: w.rate.of + p.runsRead }
      w.agents.push(p.read.name)
    }
  }
  return [...byFp.values()].sort(
    (a, b) =>
      severityRank(a.severity) - severityRank(b.severity) ||
      b.agents.length - a.agents.length ||
      b.rate.seen / Math.max(1, b.rate.of) - a.rate.seen / Math.max(1, a.rate.of) ||
      a.category.localeCompare(b.category)
  )
}

function categoryRows(input: OverviewInput, found: readonly Weakness[]): CategoryRow[] {
  const rows = new Map<string, CategoryRow & { names: Set<string> }>()
  const known = new Map(input.categories.map((c) => [c.key, c]))
  for (const w of found) {
    const c = known.get(w.category) ?? { key: w.category, name: w.category, owasp: '', atlas: '' }
    let row = rows.get(c.key)
    if (row === undefined) {
      row = { ...c, open: zeroCounts(), agents: 0, names: new Set() }
      rows.set(c.key, row)
    }
    row.open[w.severity] += w.agents.length
    for (const n of w.agents) row.names.add(n)
  }
  return [...rows.values()]
    .map(({ names, ...r }) => ({ ...r, agents: names.size }))
    .sort((a, b) => SEVERITIES.reduce((d, s) => d || b.open[s] - a.open[s], 0) || a.key.localeCompare(b.key))
}

/** Open findings per severity a run shows (the service has not closed them). */
function runOpen(run: RunEvidence): SeverityCounts {
  const c = zeroCounts()
  const seen = new Set<string>()
  for (const f of run.findings) {
    if (closesWeakness(f.status) || seen.has(f.fingerprint)) continue
    seen.add(f.fingerprint)
    c[f.severity]++
  }
  return c
}

/** Per day of the window: open findings per severity summed over each agent's newest run completed by the day's end. */
function trend(input: OverviewInput): TrendPoint[] {
  const days = Math.min(Math.max(1, Math.ceil(input.maxAgeDays)), TREND_DAYS_MAX)
  const startDay = Math.floor(input.now / DAY_MS) - days + 1
  const perAgent = input.agents.map((a) =>
    byCompletion(a.runs)
      .reverse()
      .map((r) => ({ at: Date.parse(r.completedAt), open: runOpen(r) }))
  )
  const points: TrendPoint[] = []
  for (let d = startDay; d < startDay + days; d++) {
    const end = (d + 1) * DAY_MS
    const open = zeroCounts()
    for (const runs of perAgent) {
      const latest = runs.filter((r) => Number.isFinite(r.at) && r.at < end).at(-1)
      if (latest) for (const s of SEVERITIES) open[s] += latest.open[s]
    }
    points.push({ day: new Date(d * DAY_MS).toISOString().slice(0, 10), open })
  }
  return points
}

function headline(v: Omit<OverviewPage['verdict'], 'status' | 'headline'>, status: OverviewPage['verdict']['status']): string {
  const parts = [`${v.assessed} of ${plural(v.agents, 'agent')} assessed within the bound`]
  if (v.failing > 0) parts.push(`${v.failing} would fail the gate`)
  if (v.stale > 0) parts.push(`${v.stale} stale`)
  if (v.never > 0) parts.push(`${v.never} never assessed`)
  if (v.unreadable > 0) parts.push(`${v.unreadable} not read`)
  const word = { clear: 'Clear', attention: 'Needs attention', incomplete: 'Incomplete' }[status]
  return `${word}: ${parts.join(', ')}`
}

/** The page for what was read. */
export function buildOverview(input: OverviewInput): OverviewPage {
  const pooled: Pooled[] = input.agents.map((read) => {
    const pool = poolEvidence(read.runs)
    return { read, open: openOf(pool.findings.values()), runsRead: pool.runIds.length }
  })
  const agents = pooled.map((p) => agentRow(input, p.read, p.open, new Set(byCompletion(p.read.runs)[0]?.categoriesCompleted ?? []).size))
  const found = weaknesses(pooled)
  const open = zeroCounts()
  for (const w of found) open[w.severity] += w.agents.length
  const count = (s: AgentRow['state']): number => agents.filter((a) => a.state === s).length
  const v = {
    agents: agents.length,
    assessed: count('assessed'),
    stale: count('stale'),
    never: count('never'),
    unreadable: count('unreadable'),
    failing: agents.filter((a) => a.standing === 'fail').length,
    open
  }
  const unreadable = input.agents.flatMap((a) => a.unreadable)
  const status = v.failing > 0 ? 'attention' : v.assessed === v.agents && unreadable.length === 0 && v.agents > 0 ? 'clear' : 'incomplete'
  const order = { fail: 0, unknown: 1, pass: 2 }
  agents.sort(
    (a, b) =>
      order[a.standing] - order[b.standing] || SEVERITIES.reduce((d, s) => d || b.open[s] - a.open[s], 0) || a.name.localeCompare(b.name)
  )
  return {
    generatedAt: new Date(input.now).toISOString(),
    minSeverity: input.minSeverity,
    maxAgeDays: input.maxAgeDays,
    verdict: { status, headline: headline(v, status), ...v },
    weaknesses: found,
    categories: categoryRows(input, found),
    agents,
    trend: trend(input),
    spent: {
      assessments: input.agents.reduce((n, a) => n + a.runsInWindow, 0),
      atLeast: input.agents.some((a) => a.moreThanListed)
    },
    unreadable,
    categoriesUnreadable: input.categoriesUnreadable ?? null
  }
}
