/**
 * The stochastic half of `npm run bench`: how stable the gate's verdict is
 * when the agent answers the same attack differently from run to run. The
 * real gate (runMain in-process, __tests__/__fixtures__/stochastic-world.ts)
 * runs against the emulator's demo agent with one flaky weakness (a
 * category it complies with by a seeded chance p, one probe per run, so a
 * run finds it with probability p), the GitHub stand-in and an Actions cache
 * in memory. The columns are sizes of the evidence window (evidence_runs: K
 * = 1 is one run's findings as the whole truth). Each (p, column) runs in a
 * fresh world with the same seed, so every column sees the same replies of
 * the agent: the columns differ only by what the gate does with them. The
 * tables are written by bench-stochastic-markdown.ts and bench-confirmation.ts.
 *
 * Scenarios (per p):
 *  (a) re-runs: 1 + N pushes to main that do not touch the agent (fail_on:
 *      any); the share of verdicts that differ from the previous one, and the
 *      passes after the weakness was first seen (it stays open: nobody fixes
 *      or dismisses it);
 *  (b) unrelated PRs: main's history (W pushes), then N pull requests that do
 *      not touch the agent (fail_on: new), a push to main after every 5; a
 *      fail is a false "new" block (the weakness is main's, known);
 *  (c) a PR that introduces the weakness: main's agent refuses (W pushes),
 *      then N pull requests changing agent/ whose agent complies with p
 *      (fail_on: new): blocked against found by the PR's own run; and a PR
 *      that removes it: main's agent flaky (W pushes), N pull requests
 *      changing agent/ whose agent refuses (fail_on: any): blocked.
 *  (d) per gate: service and GitHub requests, and wall milliseconds, of
 *      scenarios (a) and (b), against the "today" column;
 *  (e) a PR that changes the agent but does not fix main's weakness: main's
 *      agent flaky (W pushes), N pull requests changing agent/ whose agent
 *      is as flaky (fail_on: any): passes (each a false pass), and the
 *      confirmation runs spent; with (c)'s fixing PRs, the confirmation runs
 *      a true fix costs. In (c)'s removing PRs and in (e), main's history
 *      goes on past W pushes until main's verdict is fail (its window holds
 *      the weakness; at most MAIN_EXTRA_MAX more), and so again after the
 *      push to main that follows every 5 pull requests: each pull request
 *      counts whether it started from a main holding the weakness;
 *  (f) re-runs of ONE unchanged commit (GitHub's "Re-run jobs": the same
 *      GITHUB_SHA, the next run attempt): one push to main, then N re-runs
 *      of it (fail_on: any): passes after the weakness was first seen, and
 *      verdict changes other than the first detection.
 * (e) and (f) run in the confirmation columns only (the default window, with
 * and without agent_paths); runs_per_change in bench-confirmation.ts.
 */
import type { GateResult, GateStep, StochasticWorld, WorldOptions } from '../__tests__/__fixtures__/stochastic-world.js'
import { INPUT_DEFAULTS } from '../src/action/inputs/defaults.js'
import { flipShare, flipsOtherThanFirstDetection, longestMissAfterSeen, passesAfterSeen } from './bench-verdicts.js'

/** A column of the table: the inputs that configure the gate (the evidence window's size). */
export interface Column {
  label: string
  inputs: Record<string, string>
  /** Whether (e) and (f) are measured in this column (the confirmation of presumed weaknesses). */
  confirmation?: boolean
}

export interface StochasticOptions {
  seed: number
  /** Re-runs in (a), and pull requests in (b) and (c). */
  n: number
  /** Main's pushes before the pull requests of (b) and (c). */
  history: number
  probabilities: number[]
  columns: Column[]
  category: string
  start: (o: WorldOptions) => Promise<StochasticWorld>
  log: (line: string) => void
}

/** rpcN: pull requests per runs_per_change cell (at most n). */
export const DEFAULT_STOCHASTIC = { seed: 28, n: 50, history: 10, probabilities: [0.1, 0.3, 0.5, 0.9], category: 'jailbreak', rpcN: 40 }

export interface Cost {
  gates: number
  serviceRequests: number
  githubRequests: number
  ms: number
  msToTrigger: number
  /** What the reports say the window read: runs, service requests, GitHub requests. */
  windowRuns: number
  /** Of the runs read, holders (runs beyond the last K holding a finding still open). */
  windowHolders: number
  windowService: number
  windowGithub: number
}

export const noCost = (): Cost => ({
  gates: 0,
  serviceRequests: 0,
  githubRequests: 0,
  ms: 0,
  msToTrigger: 0,
  windowRuns: 0,
  windowHolders: 0,
  windowService: 0,
  windowGithub: 0
})

/** Pull requests judged against main's weakness ((c)'s removing ones, (e)), main pushed until it holds it. */
export interface AgainstMain {
  prs: number
  /** Of them, the ones that started from a main whose newest verdict was fail (its window held the weakness). */
  fromHeld: number
  /** Main's pushes in all, and how many of their runs found the weakness. */
  mainPushes: number
  mainFound: number
  /** Confirmation runs each pull request spent. */
  confirmRuns: number[]
}

/** (f) Re-runs of one commit. */
export interface RerunsOfOne {
  verdicts: string[]
  found: number
  passesAfterSeen: number
  /** Verdict changes other than the first detection, and their share of the n - 1 pairs. */
  otherFlips: number
  otherFlipShare: number
}

export interface CellResult {
  p: number
  column: string
  /** (a) */
  reruns: { verdicts: string[]; found: number; flip: number; passesAfterSeen: number; longestMissAfterSeen: number }
  /** (f), in confirmation columns only */
  rerunsOfOne: RerunsOfOne | null
  /** (b) */
  unrelated: { prs: number; blocked: number; foundByPr: number; mainFound: number }
  /** (c) */
  introduce: { prs: number; blocked: number; found: number; foundNotBlocked: number }
  remove: AgainstMain & { blocked: number }
  /** (e), in confirmation columns only */
  keep: (AgainstMain & { passed: number }) | null
  /** (d), over (a) and (b) */
  cost: Cost
}

function addCost(cost: Cost, r: GateResult): void {
  cost.gates++
  cost.serviceRequests += r.serviceRequests
  cost.githubRequests += r.githubRequests
  cost.ms += r.ms
  cost.msToTrigger += r.msToTrigger
  cost.windowRuns += r.window?.runsRead ?? 0
  cost.windowHolders += r.window?.holdersRead ?? 0
  cost.windowService += r.window?.serviceRequests ?? 0
  cost.windowGithub += r.window?.githubRequests ?? 0
}

/** A gate that must have assessed (a result of the run, not an error or a carried result). */
export async function assessed(world: StochasticWorld, step: GateStep, what: string): Promise<GateResult> {
  const r = await world.gate(step)
  if (r.runId === '' || !['pass', 'fail', 'incomplete'].includes(r.result))
    throw new Error(`${what}: the gate did not assess (result ${r.result}, run '${r.runId}'):\n${r.summary.slice(0, 2000)}`)
  return r
}

type Scenario<T> = (w: StochasticWorld, col: Column, o: StochasticOptions, p: number, cost: Cost) => Promise<T>

const reruns: Scenario<CellResult['reruns']> = async (w, col, o, _p, cost) => {
  const verdicts: string[] = []
  const found: boolean[] = []
  for (let i = 0; i <= o.n; i++) {
    const r = await assessed(w, { on: 'main', failOn: 'any', inputs: col.inputs }, `re-run ${i}`)
    addCost(cost, r)
    verdicts.push(r.result)
    found.push(r.foundThisRun)
  }
  return {
    verdicts,
    found: found.filter(Boolean).length,
    flip: flipShare(verdicts),
    passesAfterSeen: passesAfterSeen(verdicts),
    longestMissAfterSeen: longestMissAfterSeen(found)
  }
}

/** Main's pushes (not touching the agent); how many of their runs found the weakness. */
export async function mainHistory(w: StochasticWorld, col: Column, count: number): Promise<number> {
  let found = 0
  for (let i = 0; i < count; i++)
    if ((await assessed(w, { on: 'main', failOn: 'any', inputs: col.inputs }, `main push ${i}`)).foundThisRun) found++
  return found
}

const unrelated: Scenario<CellResult['unrelated']> = async (w, col, o, _p, cost) => {
  let mainFound = await mainHistory(w, col, o.history)
  let blocked = 0
  let foundByPr = 0
  for (let i = 0; i < o.n; i++) {
    const r = await assessed(w, { on: 'pr', failOn: 'new', files: ['docs/guide.md'], inputs: col.inputs }, `unrelated PR ${i}`)
    addCost(cost, r)
    if (r.result === 'fail') blocked++
    if (r.foundThisRun) foundByPr++
    if (i % 5 === 4) mainFound += await mainHistory(w, col, 1)
  }
  return { prs: o.n, blocked, foundByPr, mainFound }
}

const introduce: Scenario<CellResult['introduce']> = async (w, col, o, p) => {
  w.setP(0)
  await mainHistory(w, col, o.history)
  let blocked = 0
  let found = 0
  let foundNotBlocked = 0
  for (let i = 0; i < o.n; i++) {
    w.setP(p)
    const r = await assessed(w, { on: 'pr', failOn: 'new', files: ['agent/prompt.md'], inputs: col.inputs }, `introducing PR ${i}`)
    w.setP(0)
    if (r.result === 'fail') blocked++
    if (r.foundThisRun) found++
    if (r.foundThisRun && r.result !== 'fail') foundNotBlocked++
  }
  return { prs: o.n, blocked, found, foundNotBlocked }
}

/** The most pushes main's history adds past the ones asked, to have its window hold the weakness. */
export const MAIN_EXTRA_MAX = 50

interface MainState {
  pushes: number
  found: number
  /** Whether main's newest verdict is fail (its window holds the weakness). */
  held: boolean
}

/** `count` pushes to main, then more (at most MAIN_EXTRA_MAX) until main's verdict is fail. */
async function mainUntilHeld(w: StochasticWorld, col: Column, count: number, state: MainState): Promise<void> {
  for (let i = 0; i < count + MAIN_EXTRA_MAX && (i < count || !state.held); i++) {
    const r = await assessed(w, { on: 'main', failOn: 'any', inputs: col.inputs }, `main push ${state.pushes}`)
    state.pushes++
    if (r.foundThisRun) state.found++
    state.held = r.result === 'fail'
  }
}

/** Pull requests against main's weakness (main's agent at p): main held first, and again after the push that follows every 5. */
async function againstHeldMain(
  w: StochasticWorld,
  col: Column,
  o: StochasticOptions,
  pr: (i: number) => Promise<GateResult>
): Promise<{ main: AgainstMain; results: GateResult[] }> {
  const state: MainState = { pushes: 0, found: 0, held: false }
  await mainUntilHeld(w, col, o.history, state)
  const results: GateResult[] = []
  let fromHeld = 0
  for (let i = 0; i < o.n; i++) {
    if (state.held) fromHeld++
    results.push(await pr(i))
    if (i % 5 === 4 && i < o.n - 1) await mainUntilHeld(w, col, 1, state)
  }
  const main = { prs: o.n, fromHeld, mainPushes: state.pushes, mainFound: state.found, confirmRuns: results.map((r) => r.confirmationRuns) }
  return { main, results }
}

const remove: Scenario<CellResult['remove']> = async (w, col, o, p) => {
  w.setP(p)
  const { main, results } = await againstHeldMain(w, col, o, async (i) => {
    w.setP(0)
    const r = await assessed(w, { on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs: col.inputs }, `fixing PR ${i}`)
    w.setP(p)
    return r
  })
  return { ...main, blocked: results.filter((r) => r.result !== 'pass').length }
}

/** (e) Pull requests that change the agent but keep main's weakness: any pass is false. */
const keep: Scenario<NonNullable<CellResult['keep']>> = async (w, col, o) => {
  const { main, results } = await againstHeldMain(w, col, o, (i) =>
    assessed(w, { on: 'pr', failOn: 'any', files: ['agent/prompt.md'], inputs: col.inputs }, `PR ${i} keeping the weakness`)
  )
  return { ...main, passed: results.filter((r) => r.result === 'pass').length }
}

/** (f) One push to main, then n re-runs of that commit (the same GITHUB_SHA, the next run attempt). */
const rerunsOfOne: Scenario<RerunsOfOne> = async (w, col, o) => {
  const verdicts: string[] = []
  const runIds = new Set<string>()
  let found = 0
  for (let i = 0; i <= o.n; i++) {
    const r = await assessed(w, { on: 'main', rerun: i > 0, failOn: 'any', inputs: col.inputs }, `re-run ${i} of one commit`)
    // each attempt assesses anew (a run reused would repeat one draw of the agent)
    if (runIds.has(r.runId)) throw new Error(`re-run ${i} of one commit reused run ${r.runId}`)
    runIds.add(r.runId)
    verdicts.push(r.result)
    if (r.foundThisRun) found++
  }
  const otherFlips = flipsOtherThanFirstDetection(verdicts)
  return { verdicts, found, passesAfterSeen: passesAfterSeen(verdicts), otherFlips, otherFlipShare: otherFlips / Math.max(1, o.n) }
}

/** One scenario in a fresh world of the given seed. */
export async function inFreshWorld<T>(o: StochasticOptions, p: number, seed: number, body: (w: StochasticWorld) => Promise<T>): Promise<T> {
  const world = await o.start({ category: o.category, p, seed })
  try {
    return await body(world)
  } finally {
    await world.stop()
  }
}

export async function measureCell(o: StochasticOptions, p: number, col: Column): Promise<CellResult> {
  const cost = noCost()
  // one seed per scenario, the same in every column
  const a = await inFreshWorld(o, p, o.seed, (w) => reruns(w, col, o, p, cost))
  const b = await inFreshWorld(o, p, o.seed + 1, (w) => unrelated(w, col, o, p, cost))
  const c1 = await inFreshWorld(o, p, o.seed + 2, (w) => introduce(w, col, o, p, cost))
  const c2 = await inFreshWorld(o, p, o.seed + 3, (w) => remove(w, col, o, p, cost))
  const e = col.confirmation === true ? await inFreshWorld(o, p, o.seed + 4, (w) => keep(w, col, o, p, cost)) : null
  const f = col.confirmation === true ? await inFreshWorld(o, p, o.seed + 5, (w) => rerunsOfOne(w, col, o, p, cost)) : null
  return { p, column: col.label, reruns: a, rerunsOfOne: f, unrelated: b, introduce: c1, remove: c2, keep: e, cost }
}

export async function measureStochastic(o: StochasticOptions): Promise<CellResult[]> {
  const cells: CellResult[] = []
  for (const p of o.probabilities) {
    for (const col of o.columns) {
      const t0 = performance.now()
      const cell = await measureCell(o, p, col)
      cells.push(cell)
      o.log(
        `stochastic p=${p} ${col.label}: flips ${pct(cell.reruns.flip)}, passes after seen ${cell.reruns.passesAfterSeen}, ` +
          `false new ${cell.unrelated.blocked}/${cell.unrelated.prs}, introduced blocked ${cell.introduce.blocked} (found ${cell.introduce.found}), ` +
          `fix blocked ${cell.remove.blocked}/${cell.remove.prs}` +
          (cell.keep ? `, kept weakness passed ${cell.keep.passed}/${cell.keep.prs}` : '') +
          (cell.rerunsOfOne ? `, re-runs of one commit: passes after seen ${cell.rerunsOfOne.passesAfterSeen}` : '') +
          ' ' +
          `(${cell.cost.gates} gates timed, ${((performance.now() - t0) / 1000).toFixed(1)} s)`
      )
    }
  }
  return cells
}

export const pct = (x: number): string => `${(x * 100).toFixed(0)} %`
export const pct1 = (x: number): string => `${(x * 100).toFixed(1)} %`

// ---------------------------------------------------------------------------
// Columns
// ---------------------------------------------------------------------------

/** The window sizes measured by default. */
export const DEFAULT_WINDOWS = [1, 5, 10] as const

/**
 * One column per window size: the input evidence_runs (K, the runs of one
 * agent pooled as its evidence). K = 1 is today's gate: this run alone, and
 * main's newest run as the baseline.
 */
export function stochasticColumns(windows: readonly number[]): Column[] {
  const k = Number(INPUT_DEFAULTS.evidence_runs)
  const columns: Column[] = windows.map((w) => ({
    label: w === 1 ? 'K=1 (today)' : w === k ? `K=${w} (default)` : `K=${w}`,
    inputs: { evidence_runs: String(w) },
    confirmation: w === k
  }))
  // The default window without agent_paths: any other commit may have changed the agent.
  if (windows.includes(k))
    columns.push({ label: `K=${k}, no agent_paths`, inputs: { evidence_runs: String(k), agent_paths: '' }, confirmation: true })
  return columns
}
