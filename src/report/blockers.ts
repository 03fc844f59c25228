/**
 * What blocks, in one derivation every view asks (the title, the heading,
 * the annotations, the outputs, the commit status, the command line's list):
 * this run's blocking findings and the weaknesses of this agent's window that
 * this run did not reproduce but that still block, most severe first, the
 * reproduced ones first within a severity. And what does not block, and why,
 * in one line. Rates are worded here, one way everywhere. Pure.
 */
import { atOrAbove, SEVERITIES, severityRank, type Severity } from '../service/contract/index.js'
import { formatCount } from './markdown-safe.js'
import { FINDING_STANDINGS, type Report, type ReportSeen, type SeverityCounts, zeroCounts } from './report-model.js'
import { plural } from '../util/text.js'
import { steadiness } from '../evidence/seen-rate.js'
import { missedStanding, type Standing, standingCount, type StandingContext, STANDINGS } from './standings.js'

/** One finding that fails the gate. */
export interface Blocker {
  /** This run's finding id; null for a weakness this run did not reproduce. */
  findingId: string | null
  fingerprint: string
  severity: Severity
  category: string
  description: string
  /** False: not reproduced in this run, still blocks (an earlier run of this agent saw it, still open). */
  reproduced: boolean
  /** Against the baseline (fail_on new: new or known); null without one. */
  baselineState: 'new' | 'known' | null
  seen: ReportSeen
}

type BlockerSource = Pick<Report, 'findings' | 'baseline'>

/** Every finding that fails the gate, most severe first, reproduced before not reproduced. */
export function blockers(r: BlockerSource): Blocker[] {
  const found: Blocker[] = r.findings
    .filter((f) => f.standing === 'blocking')
    .map((f) => ({
      findingId: f.findingId,
      fingerprint: f.fingerprint,
      severity: f.severity,
      category: f.category,
      description: f.description,
      reproduced: true,
      baselineState: f.baselineState,
      seen: f.seen
    }))
  const missed: Blocker[] = (r.baseline?.notReproduced ?? [])
    .filter((n) => n.blocks)
    .map((n) => ({
      findingId: null,
      fingerprint: n.fingerprint,
      severity: n.severity,
      category: n.category,
      description: n.description,
      reproduced: false,
      baselineState: n.baselineState,
      seen: n.seen
    }))
  return [...found, ...missed]
    .map((b, i) => ({ b, i }))
    .sort((x, y) => severityRank(x.b.severity) - severityRank(y.b.severity) || Number(y.b.reproduced) - Number(x.b.reproduced) || x.i - y.i)
    .map((x) => x.b)
}

/** The blockers by severity. */
export function blockerCounts(list: readonly Blocker[]): SeverityCounts {
  const c = zeroCounts()
  for (const b of list) c[b.severity] += 1
  return c
}

/** "1 new high, 1 new medium" / "2 open high": the blockers counted in the words of the gate's policy. */
export function blockerCountText(r: BlockerSource, list: readonly Blocker[] = blockers(r)): string {
  const c = blockerCounts(list)
  const word = r.baseline?.available && r.baseline.failOn === 'new' ? 'new' : 'open'
  const parts = SEVERITIES.filter((s) => c[s] > 0).map((s) => `${formatCount(c[s])} ${word} ${s}`)
  return parts.join(', ')
}

/**
 * A rate, one way everywhere: "seen in 3 of the last 5 runs (flaky)", "seen
 * in 5 of the last 5 runs (steady)", "this run only"; what the runs are is
 * said once (runsCounted). A rate of main's runs for a changed agent says so
 * ("seen in 4 of main's last 5 runs").
 */
export function rateText(seen: Pick<ReportSeen, 'seen' | 'of' | 'scope' | 'label'>): string {
  if (seen.scope === 'this run' || seen.of <= 1) return seen.seen >= 1 ? 'this run only' : 'not seen'
  const kind = flakiness(seen)
  return `seen in ${seen.label}${kind === null ? '' : ` (${kind})`}`
}

/** Flaky: seen in some but not all runs counted, at least two counted; steady: in all of them; null: one run only. */
export function flakiness(seen: Pick<ReportSeen, 'seen' | 'of' | 'scope'>): 'steady' | 'flaky' | null {
  return seen.scope === 'this run' ? null : steadiness(seen)
}

/** A blocker's standing in words: "new · not reproduced in this run · seen in 1 of the last 2 runs (flaky: blocks all the same)". */
export function blockerTraits(b: Blocker): string[] {
  const parts: string[] = []
  if (b.baselineState !== null) parts.push(b.baselineState)
  if (!b.reproduced) parts.push(STANDINGS.held.label)
  // A rate only where a window of other runs was read: alone, every finding is "this run only".
  if (!b.seen.windowed && b.reproduced) return parts
  const rate = rateText(b.seen)
  parts.push(flakiness(b.seen) === 'flaky' ? `${rate.replace(/ \(flaky\)$/, '')} (flaky: blocks all the same)` : rate)
  return parts
}

/**
 * What the rates of this report count, said once: "the last 5 runs of this
 * agent: this run and main's 4 recorded runs". null when no window was read.
 */
export function runsCounted(r: Pick<Report, 'findings' | 'baseline'>): string | null {
  const rates = [...r.findings.map((f) => f.seen), ...(r.baseline?.notReproduced ?? []).map((n) => n.seen)].filter(
    (s) => s.scope !== 'this run' && s.of > 1 && s.mainOnly !== true
  )
  if (rates.length === 0) return null
  const model = rates.find((s) => s.scope === 'model')
  if (model !== undefined)
    return `the last ${formatCount(model.of)} runs of the model: this run and ${plural(model.of - 1, 'other run')} the service lists (main's records were gone; whoever ran them)`
  const agent = rates.find((s) => s.scope === 'agent')
  if (agent !== undefined)
    return `the last ${formatCount(agent.of)} runs of this agent: this run and ${plural(agent.of - 1, 'other run')} of this pull request`
  const of = Math.max(...rates.map((s) => s.of))
  return `the last ${formatCount(of)} runs of this agent: this run and main's ${plural(of - 1, 'recorded run')}`
}

/** "1 known (fail_on new: already in main's runs) · 1 accepted (the accepted-risks file) · 1 below threshold (...)": what does not block, and why, in one line, in the standings' words. */
export function notBlockingParts(r: Report): string[] {
  const c = r.counts
  if (c === null) return []
  const ctx: StandingContext = { minSeverity: r.minSeverity, failOn: r.baseline?.available ? r.baseline.failOn : null }
  const sum = (s: SeverityCounts): number => SEVERITIES.reduce((n, k) => n + s[k], 0)
  const missed = (r.baseline?.notReproduced ?? []).filter((n) => !n.blocks && atOrAbove(n.severity, r.minSeverity))
  const weaknesses = (n: number): string => plural(n, 'weakness', 'weaknesses')
  // Every finding standing that does not block, in FINDING_STANDINGS' order; below last, from belowThreshold.
  const findings = FINDING_STANDINGS.filter((s) => !STANDINGS[s].blocks && s !== 'below')
  const counts: [Standing, number, (n: number) => string][] = [
    ...findings.map((s): [Standing, number, (n: number) => string] => [s, sum(c.byStanding[s]), formatCount]),
    ['gone', missed.filter((n) => missedStanding(n) === 'gone').length, weaknesses],
    ['unheld', missed.filter((n) => missedStanding(n) === 'unheld').length, weaknesses],
    ['below', c.belowThreshold, formatCount]
  ]
  return counts.filter(([, n]) => n > 0).map(([s, n, count]) => standingCount(s, n, ctx, count))
}
