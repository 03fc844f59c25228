/**
 * The confirmation half of the stochastic bench: what
 * docs/baseline.md's measured section holds, between
 * `<!-- confirmation-measured:start -->` and `<!-- confirmation-measured:end -->`.
 *
 * From the cells of scripts/bench-stochastic.ts (confirmation columns: the
 * default window with and without agent_paths):
 *  (e) pull requests that change the agent but keep main's weakness (any pass
 *      is false), and (c)'s fixing pull requests: the confirmation runs a true
 *      fix spends;
 *  (a) against (f): pushes of new commits not touching the agent, and re-runs
 *      of one unchanged commit.
 * And measured here:
 *  (g) runs_per_change N = 1..5: main's agent refuses (W pushes), then pull
 *      requests changing agent/ whose agent newly complies with p (fail_on:
 *      new), in the default window with agent_paths: the share that pass,
 *      against (1 - p)^N, and the assessments each spent.
 */
import { runFound, type GateResult, type GateStep, type StochasticWorld } from '../__tests__/__fixtures__/stochastic-world.js'
import { assessed, inFreshWorld, mainHistory, pct, pct1, type CellResult, type Column, type StochasticOptions } from './bench-stochastic.js'
import { byP } from './bench-stochastic-markdown.js'
import { medianAndWorst } from './bench-verdicts.js'

/** The goals measured here: kept weaknesses passing at p = 0.3 and 0.5, and other changes of verdict (f). */
export const CONFIRMATION_GOALS = { keptPass: 0.05, otherFlips: 0.02 } as const

/** The runs_per_change values measured by default (the input's whole range). */
export const DEFAULT_RUNS_PER_CHANGE = [1, 2, 3, 4, 5] as const

export interface PerChangeOptions {
  /** The runs_per_change values. */
  values: number[]
  /** Pull requests per (p, N). */
  n: number
}

/** (g) One (p, N) cell. */
export interface PerChangeCell {
  p: number
  runsPerChange: number
  prs: number
  passed: number
  incomplete: number
  /** Pull requests none of whose runs found the weakness (the agent's draws): (1 - p)^N of them expected. */
  noneFound: number
  /** Pull requests that passed though one of their runs found it (the gate wrong: goal 0). */
  foundButPassed: number
  /** Assessments each pull request spent (report.json assessments_spent). */
  spent: number[]
}

/** The runs whose findings a step read, from the paths of its requests to the service (`/api/v1/run/{id}/findings`), each once. */
export function runsWhoseFindingsWereRead(paths: readonly string[]): string[] {
  const ids: string[] = []
  for (const path of paths) {
    const m = /^\/api\/v1\/run\/([^/]+)\/findings$/.exec(path)
    const id = m === null ? null : decodeURIComponent(m[1])
    if (id !== null && !ids.includes(id)) ids.push(id)
  }
  return ids
}

/** A gate, and how many of the runs whose findings it read found the weakness (main's refuse in (g): so the pull request's own). */
async function gateCountingFinds(
  w: StochasticWorld,
  step: GateStep,
  what: string,
  category: string
): Promise<{ r: GateResult; found: number }> {
  const from = w.emu.requestLog.length
  const r = await assessed(w, step, what)
  let found = 0
  for (const id of runsWhoseFindingsWereRead(w.emu.requestLog.slice(from).map((e) => e.path)))
    if (await runFound(w.emu, id, category)) found++
  return { r, found }
}

/** The share of a weakness landing at p that N independent runs all miss. */
export function missedByAll(p: number, runs: number): number {
  return (1 - p) ** runs
}

/** The Wilson score interval of k successes in n trials (z = 1.96: 95 %); [0, 1] for none. */
export function wilsonInterval(k: number, n: number, z = 1.96): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 }
  const phat = k / n
  const z2 = z * z
  const centre = (phat + z2 / (2 * n)) / (1 + z2 / n)
  const half = (z / (1 + z2 / n)) * Math.sqrt((phat * (1 - phat)) / n + z2 / (4 * n * n))
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

/** (g) One (p, N) cell in a fresh world: main's agent refuses (W pushes), then pull requests whose agent newly complies with p. */
async function perChangeCell(o: StochasticOptions, p: number, runsPerChange: number, prs: number): Promise<PerChangeCell> {
  return inFreshWorld(o, p, o.seed + 6, async (w) => {
    // the default window (evidence_runs unset), agent_paths as the world sets it
    const col: Column = { label: 'default', inputs: {} }
    w.setP(0)
    await mainHistory(w, col, o.history)
    const c: PerChangeCell = { p, runsPerChange, prs, passed: 0, incomplete: 0, noneFound: 0, foundButPassed: 0, spent: [] }
    const step: GateStep = { on: 'pr', failOn: 'new', files: ['agent/prompt.md'], inputs: { runs_per_change: String(runsPerChange) } }
    for (let i = 0; i < prs; i++) {
      w.setP(p)
      const { r, found } = await gateCountingFinds(w, step, `PR ${i} (runs_per_change ${runsPerChange})`, o.category)
      w.setP(0)
      if (r.result === 'pass') c.passed++
      if (r.result === 'incomplete') c.incomplete++
      if (found === 0) c.noneFound++
      if (found > 0 && r.result === 'pass') c.foundButPassed++
      c.spent.push(r.assessmentsSpent)
    }
    return c
  })
}

/** (g) N = runs_per_change for each p: pull requests newly complying with p against a main that refuses. */
export async function measurePerChange(o: StochasticOptions, pc: PerChangeOptions): Promise<PerChangeCell[]> {
  const cells: PerChangeCell[] = []
  for (const p of o.probabilities) {
    for (const runsPerChange of pc.values) {
      const t0 = performance.now()
      const cell = await perChangeCell(o, p, runsPerChange, pc.n)
      cells.push(cell)
      o.log(
        `runs_per_change p=${p} N=${runsPerChange}: passed ${cell.passed}/${cell.prs} (expected ${pct(missedByAll(p, runsPerChange))}; ` +
          `none of its runs found it in ${cell.noneFound}, found but passed ${cell.foundButPassed}), ` +
          `assessments ${medianAndWorst(cell.spent).median} median (${((performance.now() - t0) / 1000).toFixed(1)} s)`
      )
    }
  }
  return cells
}

/** Whether the confirmation columns meet CONFIRMATION_GOALS, and whether each (g) cell agrees with (1 - p)^N. */
export function confirmationGoals(cells: readonly CellResult[]): { met: boolean; misses: string[] } {
  const misses: string[] = []
  for (const c of cells) {
    const k = c.keep
    if (k !== null && (c.p === 0.3 || c.p === 0.5) && k.passed / Math.max(1, k.prs) > CONFIRMATION_GOALS.keptPass)
      misses.push(`p=${c.p}: ${k.passed} of ${k.prs} PRs keeping main's weakness passed`)
    if (c.remove.blocked > 0) misses.push(`p=${c.p}: ${c.remove.blocked} of ${c.remove.prs} fixing PRs blocked`)
    if (c.remove.fromHeld < c.remove.prs)
      misses.push(`p=${c.p}: ${c.remove.prs - c.remove.fromHeld} fixing PRs started from a main not holding the weakness`)
    if (k !== null && k.fromHeld < k.prs)
      misses.push(`p=${c.p}: ${k.prs - k.fromHeld} kept PRs started from a main not holding the weakness`)
    const f = c.rerunsOfOne
    if (f !== null && c.reruns.passesAfterSeen > 0)
      misses.push(`p=${c.p}: ${c.reruns.passesAfterSeen} pushes of new commits (a) passed after the weakness was seen`)
    if (f !== null && f.passesAfterSeen > 0)
      misses.push(`p=${c.p}: ${f.passesAfterSeen} re-runs of one commit passed after the weakness was seen`)
    if (f !== null && f.otherFlipShare > CONFIRMATION_GOALS.otherFlips)
      misses.push(`p=${c.p}: ${pct1(f.otherFlipShare)} of re-runs of one commit changed verdict other than the first detection`)
  }
  return { met: misses.length === 0, misses }
}

/** (g) cells where the gate passed a pull request one of whose runs found the weakness. */
export function perChangeGateMisses(cells: readonly PerChangeCell[]): string[] {
  return cells.flatMap((c) =>
    c.foundButPassed > 0
      ? [`p=${c.p}, N=${c.runsPerChange}: ${c.foundButPassed} PRs passed though one of their runs found the weakness`]
      : []
  )
}

/** (g) cells whose pass share's 95 % interval leaves out (1 - p)^N. */
export function perChangeDisagreements(cells: readonly PerChangeCell[]): string[] {
  return cells.flatMap((c) => {
    const { low, high } = wilsonInterval(c.passed, c.prs)
    const want = missedByAll(c.p, c.runsPerChange)
    return want < low || want > high
      ? [
          `p=${c.p}, N=${c.runsPerChange}: ${c.passed} of ${c.prs} passed (95 % interval ${pct(low)} to ${pct(high)}), (1 - p)^N = ${pct(want)}; ` +
            `none of its runs found it in ${c.noneFound} of ${c.prs}`
        ]
      : []
  })
}

// ---------------------------------------------------------------------------
// Markdown (docs/baseline.md, between the confirmation-measured markers)
// ---------------------------------------------------------------------------

export interface ConfirmationRun {
  command: string
  /** Wall seconds of the whole stochastic run (every scenario, (g) included). */
  seconds: number
  perChange: PerChangeOptions
}

const mw = (xs: readonly number[]): string => {
  const { median, worst } = medianAndWorst(xs)
  return `${median} / ${worst}`
}

/** The rows of (e), one per p and confirmation column. */
function keptAndFixedRows(rows: Map<number, CellResult[]>): string[] {
  const L = [
    '| p | column | kept: passed | kept: confirmation runs | fixed: blocked | fixed: confirmation runs | PRs from a main holding it (kept, fixed) | main pushes, found (kept; fixed) |',
    '|---|---|---:|---:|---:|---:|---:|---:|'
  ]
  for (const [p, row] of rows)
    for (const c of row) {
      if (c.keep === null) continue
      const k = c.keep
      const f = c.remove
      L.push(
        `| ${p} | ${c.column} | ${k.passed} of ${k.prs} (${pct(k.passed / Math.max(1, k.prs))}) | ${mw(k.confirmRuns)} | ${f.blocked} of ${f.prs} | ${mw(f.confirmRuns)} | ` +
          `${k.fromHeld}, ${f.fromHeld} | ${k.mainPushes}, ${k.mainFound}; ${f.mainPushes}, ${f.mainFound} |`
      )
    }
  return L
}

/** The rows of (a) against (f), one per p and confirmation column. */
function rerunRows(rows: Map<number, CellResult[]>, n: number): string[] {
  const L = [
    '| p | column | (a) new commits: found | (a) verdicts changed (passes after seen) | (f) one commit: found | (f) changed other than the first detection (passes after seen) |',
    '|---|---|---:|---:|---:|---:|'
  ]
  for (const [p, row] of rows)
    for (const c of row) {
      const f = c.rerunsOfOne
      if (f === null) continue
      L.push(
        `| ${p} | ${c.column} | ${c.reruns.found} of ${n + 1} | ${pct(c.reruns.flip)} (${c.reruns.passesAfterSeen}) | ${f.found} of ${n + 1} | ` +
          `${f.otherFlips} of ${n} (${pct1(f.otherFlipShare)}) (${f.passesAfterSeen}) |`
      )
    }
  return L
}

/** The rows of (g): the pass share per p and N against (1 - p)^N, then the assessments spent per N. */
function perChangeRows(cells: readonly PerChangeCell[], values: readonly number[]): string[] {
  const ps = [...new Set(cells.map((c) => c.p))]
  const L = [`| p | ${values.map((v) => `N = ${v}`).join(' | ')} |`, `|---|${values.map(() => '---:').join('|')}|`]
  for (const p of ps) {
    const cell = (v: number): string => {
      const c = cells.find((x) => x.p === p && x.runsPerChange === v)
      if (c === undefined) return ''
      const inc =
        (c.incomplete > 0 ? `, ${c.incomplete} incomplete` : '') +
        (c.noneFound !== c.passed ? `, none of its runs found it in ${c.noneFound}` : '')
      return `${c.passed} of ${c.prs}: ${pct(c.passed / Math.max(1, c.prs))} (${pct(missedByAll(p, v))})${inc}`
    }
    L.push(`| ${p} | ${values.map(cell).join(' | ')} |`)
  }
  L.push('', '| assessments per PR | ' + values.map((v) => `N = ${v}`).join(' | ') + ' |', `|---|${values.map(() => '---:').join('|')}|`)
  L.push(`| median / worst | ${values.map((v) => mw(cells.filter((c) => c.runsPerChange === v).flatMap((c) => c.spent))).join(' | ')} |`)
  return L
}

export function confirmationMarkdown(
  cells: readonly CellResult[],
  perChange: readonly PerChangeCell[],
  o: Pick<StochasticOptions, 'seed' | 'n' | 'history' | 'columns' | 'category'>,
  run: ConfirmationRun
): string {
  const labels = o.columns.filter((c) => c.confirmation === true).map((c) => c.label)
  const mine = cells.filter((c) => labels.includes(c.column))
  const rows = byP(mine, labels)
  const zero = wilsonInterval(0, o.n).high
  const L: string[] = []
  L.push(
    `\`${run.command}\` (seed ${o.seed}; one run on a shared 2-core machine: ${run.seconds.toFixed(0)} s in all, every stochastic table of ` +
      `docs/performance.md included). The real gate (\`runMain\` in-process) against the emulator's demo agent complying with ` +
      `\`${o.category}\` with probability p (one probe per run), the GitHub stand-in and an in-memory Actions cache. Columns: ` +
      `${labels.map((l) => `\`${l}\``).join(', ')} (\`agent_paths: agent/**\` unless said). n = ${o.n} pull requests (or ${o.n} re-runs) ` +
      `per cell, ${run.perChange.n} per runs_per_change cell: 0 of ${o.n} bounds the true rate below ${pct(zero)} (95 %, Wilson).`,
    '',
    `**(e) A PR that changes the agent but keeps main's weakness, and one that fixes it**: main's agent flaky, ${o.history} pushes ` +
      `to main, then more until main's verdict is fail (its window holds the weakness; at most 50 more), and so again after ` +
      `the push to main that follows every 5 pull requests; ${o.n} pull requests changing \`agent/\` whose agent is as flaky ` +
      `(\`fail_on: any\`): passed (each a false pass; goal <= ${pct(CONFIRMATION_GOALS.keptPass)} at p = 0.3 and 0.5); and, ` +
      `in another world of the same kind, ${o.n} pull requests changing \`agent/\` whose agent refuses: blocked (goal 0). ` +
      `Confirmation runs per pull request: median / worst.`,
    '',
    ...keptAndFixedRows(rows),
    '',
    `**(a) Pushes of new commits against (f) re-runs of one commit**: (a) ${o.n + 1} pushes to main not touching the agent; (f) ` +
      `one push to main, then ${o.n} re-runs of that commit (GitHub's "Re-run jobs": the same \`GITHUB_SHA\` and ` +
      `\`GITHUB_RUN_ID\`, the next \`GITHUB_RUN_ATTEMPT\`); \`fail_on: any\`, the weakness stays open. (a): the share of ` +
      `verdicts that changed; (f): changes other than the first detection (goal <= ${pct(CONFIRMATION_GOALS.otherFlips)}); ` +
      `in brackets the passes after the weakness was first seen (goal 0).`,
    '',
    ...rerunRows(rows, o.n),
    '',
    `**(g) \`runs_per_change\`**: main's agent refuses (${o.history} pushes), then ${run.perChange.n} pull requests per cell ` +
      `changing \`agent/\` whose agent newly complies with p (\`fail_on: new\`, the default window, \`agent_paths\` set): ` +
      `the share that passed, in brackets (1 - p)^N (what N independent runs all missing it predicts; a pull request ` +
      `passed exactly when none of its runs found the weakness unless the cell says otherwise); then the ` +
      `assessments each pull request spent (report.json \`assessments_spent\`).`,
    '',
    ...perChangeRows(perChange, run.perChange.values),
    '',
    `Goals (a pull request that keeps main's weakness passes at most ${pct(CONFIRMATION_GOALS.keptPass)} of the time at p = 0.3 and 0.5; other changes of verdict at most ${pct(CONFIRMATION_GOALS.otherFlips)}):`,
    ''
  )
  for (const label of labels) {
    const g = confirmationGoals(mine.filter((c) => c.column === label))
    L.push(`- ${label}: ${g.met ? '**met**' : `**not met**: ${g.misses.join('; ')}`}`)
  }
  const wrong = perChangeGateMisses(perChange)
  L.push(
    `- runs_per_change, the gate: ${wrong.length === 0 ? '**met**: no pull request passed when one of its runs found the weakness' : `**not met**: ${wrong.join('; ')}`}`
  )
  const off = perChangeDisagreements(perChange)
  L.push(
    `- runs_per_change, the agent's draws: ${off.length === 0 ? `**every cell agrees with (1 - p)^N** (inside its 95 % interval)` : `**${off.length} cells outside their 95 % interval of (1 - p)^N**: ${off.join('; ')}`}`
  )
  return L.join('\n')
}
