/**
 * How often a weakness was seen across the runs of a window, in the words
 * every rendering uses. Pure.
 */
import { SEVERITIES, type Severity } from '../service/contract/index.js'

/**
 * Whose runs a rate counts: the default branch's, this agent's (a pull request's own), the model's as the service
 * lists them (main's records gone: whoever ran them), or this run alone.
 */
export type EvidenceScope = 'main' | 'agent' | 'model'

export interface SeenRate {
  /** Runs that saw it. */
  seen: number
  /** Runs counted (this run included when it is one of them). */
  of: number
  /** 'this run': no other run of the agent was read. */
  scope: EvidenceScope | 'this run'
}

export const THIS_RUN_ONLY: SeenRate = { seen: 1, of: 1, scope: 'this run' }

/** "4 of 5 runs of main", "2 of 3 runs of this agent", "this run only". */
export function seenLabel(r: SeenRate): string {
  if (r.scope === 'this run' || r.of <= 1) return r.seen >= 1 ? 'this run only' : 'not seen'
  const whose = { main: 'main', agent: 'this agent', model: 'the model' }[r.scope]
  return `${r.seen} of ${r.of} runs of ${whose}`
}

/**
 * The one counting rule of a rate, as every report view words it (docs/baseline.md, "How rates are counted"): the
 * runs counted are the window's and this run, which counts as seeing the weakness only when it reproduced it: "3 of
 * the last 5 runs", "4 of main's last 5 runs" (main's window for an agent that changed since), "this run only", "not seen".
 * Whose runs they are is said once beside the rates (blockers.ts runsCounted), not in each.
 */
export function rateLabel(r: SeenRate, o: { mainOnly?: boolean } = {}): string {
  if (r.scope === 'this run' || r.of <= 1) return seenLabel(r)
  return `${r.seen} of ${o.mainOnly === true ? "main's" : 'the'} last ${r.of} runs`
}

/** "seen in 4 of 5 runs of main", "this run only": a label in a sentence. */
export function seenPhrase(label: string): string {
  return label === 'this run only' ? label : `seen in ${label}`
}

/** Steady: seen in every run counted; flaky: in some. A single run is neither (null). */
export function steadiness(r: SeenRate): 'steady' | 'flaky' | null {
  if (r.of <= 1) return null
  return r.seen >= r.of ? 'steady' : 'flaky'
}

/** What a line about findings of the window this run did not reproduce needs. */
export interface UnreproducedLine {
  severity: Severity
  rate: SeenRate
}

/**
 * "1 high not reproduced in this run, seen in 3 of the last 5 runs, still
 * open": one phrase per severity and rate, most severe first.
 */
export function notReproducedPhrases(items: readonly UnreproducedLine[]): string[] {
  const groups = new Map<string, { severity: Severity; rate: SeenRate; n: number }>()
  for (const i of items) {
    const key = `${i.severity}:${i.rate.seen}:${i.rate.of}`
    const g = groups.get(key)
    if (g) g.n++
    else groups.set(key, { severity: i.severity, rate: i.rate, n: 1 })
  }
  return [...groups.values()]
    .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || b.rate.seen - a.rate.seen)
    .map(
      (g) => `${g.n} ${g.severity} not reproduced in this run, seen in ${g.rate.of <= 1 ? 'the last run' : rateLabel(g.rate)}, still open`
    )
}
