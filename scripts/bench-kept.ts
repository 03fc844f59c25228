/**
 * The confirmation rule alone, simulated (pure, seeded, fast): how often a
 * KEPT weakness, one still landing with probability p, gets through a pull
 * request that changed the agent, by the size of the evidence it was seen in.
 *
 * Per cell (p, n): n earlier runs (the pull request's own lineage and main's,
 * pooled) each see the weakness with probability p, drawn again until at
 * least one does (a weakness never seen is never presumed); the pull
 * request's run misses it with probability 1 - p (else it blocks at once);
 * then the focused runs of its confirmation (src/evidence/confirmation-rule.ts:
 * m = confirmationNeeds(k, n, confidence)), stopping at the first that sees
 * it. The pull request passes when every one missed it: each pass is false.
 * Written into docs/baseline.md with the confirmation tables (bench.ts).
 */
import { confirmationNeeds, RATE_FLOOR } from '../src/evidence/confirmation-rule.js'
import { seededRandom } from '../src/util/seeded-random.js'
import { medianAndWorst } from './bench-verdicts.js'

export const KEPT_DEFAULTS = { probabilities: [0.1, 0.3, 0.5, 0.9], sizes: [1, 2, 3, 5], trials: 20_000, confidence: 0.95 } as const

export interface KeptCell {
  p: number
  /** Runs of the evidence (own lineage and main's) the weakness could be seen in. */
  size: number
  trials: number
  passed: number
  /** Pull requests whose own run missed it, so a confirmation ran. */
  confirmed: number
  /** Of them, passed (the share the promise bounds by 1 - confidence at p >= RATE_FLOOR). */
  confirmationPassed: number
  /** Confirmation runs each confirmation spent. */
  spent: number[]
}

export interface KeptOptions {
  probabilities: readonly number[]
  sizes: readonly number[]
  trials: number
  confidence: number
  seed: number
}

/** One pull request: 'blocked' by its own run, or its confirmation's spent runs and whether it passed. */
function onePullRequest(p: number, size: number, confidence: number, random: () => number): { spent: number; passed: boolean } | null {
  let seen = 0
  while (seen === 0) for (let i = 0; i < size; i++) if (random() < p) seen++
  if (random() < p) return null
  const { needed } = confirmationNeeds(seen, size, confidence)
  for (let run = 1; run <= needed; run++) if (random() < p) return { spent: run, passed: false }
  return { spent: needed, passed: true }
}

export function measureKept(o: KeptOptions): KeptCell[] {
  const random = seededRandom(o.seed)
  const cells: KeptCell[] = []
  for (const p of o.probabilities)
    for (const size of o.sizes) {
      const cell: KeptCell = { p, size, trials: o.trials, passed: 0, confirmed: 0, confirmationPassed: 0, spent: [] }
      for (let t = 0; t < o.trials; t++) {
        const r = onePullRequest(p, size, o.confidence, random)
        if (r === null) continue
        cell.confirmed++
        cell.spent.push(r.spent)
        if (r.passed) {
          cell.passed++
          cell.confirmationPassed++
        }
      }
      cells.push(cell)
    }
  return cells
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`

/** The table: rows p, columns the evidence size; each cell passed (of confirmations), runs median / worst, marked where the promise breaks. */
export function keptMarkdown(cells: readonly KeptCell[], o: KeptOptions, seconds: number): string {
  const risk = 1 - o.confidence
  const L = [
    `**A kept weakness against the rule alone** (scripts/bench-kept.ts: a pure simulation of src/evidence/confirmation-rule.ts, seed ${o.seed}, ${o.trials} pull requests per cell, confidence ${o.confidence}, ${seconds.toFixed(1)} s): the weakness still lands with probability p; it was seen at least once in the n earlier runs pooled (the pull request's own lineage and main's); the pull request changed the agent, its run missed it (else it blocks at once) and a confirmation of m = confirmationNeeds(seen, n) focused runs followed, stopping at the first that saw it. Each cell: pull requests passed, of all (every pass is false) · of those confirmed · confirmation runs spent, median / worst. **⚠** marks a cell at p >= RATE_FLOOR (${RATE_FLOOR}) where the confirmed ones passed more than 1 - confidence (${pct(risk)}): the promise broken.`,
    '',
    `| p | ${o.sizes.map((n) => `n = ${n}`).join(' | ')} |`,
    `|---|${o.sizes.map(() => '---:').join('|')}|`
  ]
  for (const p of o.probabilities) {
    const row = o.sizes.map((size) => {
      const c = cells.find((x) => x.p === p && x.size === size)
      if (c === undefined) return '–'
      const ofConfirmed = c.confirmed === 0 ? 0 : c.confirmationPassed / c.confirmed
      const { median, worst } = medianAndWorst(c.spent)
      const mark = p >= RATE_FLOOR && ofConfirmed > risk ? ' **⚠**' : ''
      return `${pct(c.passed / c.trials)} · ${pct(ofConfirmed)} · ${median} / ${worst}${mark}`
    })
    L.push(`| ${p} | ${row.join(' | ')} |`)
  }
  return L.join('\n')
}

/** Measures and renders with the defaults and `seed`. */
export function keptSection(seed: number): string {
  const o = { ...KEPT_DEFAULTS, seed }
  const started = performance.now()
  const cells = measureKept(o)
  return keptMarkdown(cells, o, (performance.now() - started) / 1000)
}
