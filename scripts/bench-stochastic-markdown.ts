/**
 * The tables and goals of the stochastic bench (scripts/bench-stochastic.ts
 * measures): the section of docs/performance.md between
 * `<!-- bench-stochastic:start -->` and `<!-- bench-stochastic:end -->`,
 * the evidence window's scenarios (a) to (d). Pure.
 */
import { noCost, pct, pct1, type CellResult, type Cost, type StochasticOptions } from './bench-stochastic.js'

/** The goals of the evidence window (docs/performance.md). */
export const STOCHASTIC_GOALS = { flipAt03: 0.02, flipAtHalfOrMore: 0.01, falseNew: 0.01 } as const

/** Whether a column meets every goal of the window over its cells ((a) to (c); confirmation's are in bench-confirmation.ts). */
export function goalsMet(cells: readonly CellResult[]): { met: boolean; misses: string[] } {
  const misses: string[] = []
  for (const c of cells) {
    if (c.reruns.passesAfterSeen > 0) misses.push(`p=${c.p}: ${c.reruns.passesAfterSeen} re-runs passed after the weakness was seen`)
    if (c.p === 0.3 && c.reruns.flip > STOCHASTIC_GOALS.flipAt03) misses.push(`p=0.3: ${pct1(c.reruns.flip)} of verdicts changed`)
    if (c.p >= 0.5 && c.reruns.flip > STOCHASTIC_GOALS.flipAtHalfOrMore) misses.push(`p=${c.p}: ${pct1(c.reruns.flip)} of verdicts changed`)
    if (c.unrelated.blocked / c.unrelated.prs > STOCHASTIC_GOALS.falseNew)
      misses.push(`p=${c.p}: ${c.unrelated.blocked} of ${c.unrelated.prs} unrelated PRs blocked as new`)
    if (c.introduce.blocked < c.introduce.found || c.introduce.foundNotBlocked > 0)
      misses.push(`p=${c.p}: ${c.introduce.foundNotBlocked} introducing PRs whose run found the weakness passed`)
    if (c.remove.blocked > 0) misses.push(`p=${c.p}: ${c.remove.blocked} fixing PRs blocked`)
  }
  return { met: misses.length === 0, misses }
}

export function byP(cells: readonly CellResult[], columns: readonly string[]): Map<number, CellResult[]> {
  const out = new Map<number, CellResult[]>()
  for (const c of cells) out.set(c.p, [...(out.get(c.p) ?? []), c])
  for (const [p, row] of out)
    out.set(
      p,
      columns.map((label) => row.find((c) => c.column === label)).filter((c) => c !== undefined)
    )
  return out
}

function costRows(cells: readonly CellResult[], columns: readonly string[]): string[] {
  const per = (label: string): Cost => {
    const sum = noCost()
    for (const c of cells.filter((x) => x.column === label)) for (const k of Object.keys(sum) as (keyof Cost)[]) sum[k] += c.cost[k]
    return sum
  }
  const base = per(columns[0])
  const avg = (c: Cost, k: keyof Cost): number => c[k] / Math.max(1, c.gates)
  const cell = (c: Cost, k: keyof Cost, digits: number, unit = ''): string => {
    const d = avg(c, k) - avg(base, k)
    return `${avg(c, k).toFixed(digits)}${unit} (${d >= 0 ? '+' : ''}${d.toFixed(digits)})`
  }
  return columns.map((label) => {
    const c = per(label)
    return (
      `| ${label} | ${c.gates} | ${avg(c, 'windowRuns').toFixed(1)} | ${avg(c, 'windowService').toFixed(1)} | ${avg(c, 'windowGithub').toFixed(1)} | ` +
      `${cell(c, 'serviceRequests', 1)} | ${cell(c, 'githubRequests', 1)} | ${cell(c, 'msToTrigger', 0, ' ms')} | ${cell(c, 'ms', 0, ' ms')} |`
    )
  })
}

export function stochasticMarkdown(
  cells: readonly CellResult[],
  o: Pick<StochasticOptions, 'seed' | 'n' | 'history' | 'columns' | 'category'>,
  command: string
): string {
  const labels = o.columns.map((c) => c.label)
  const rows = byP(cells, labels)
  const head = (first: string): string[] => [`| ${first} | ${labels.join(' | ')} |`, `|---|${labels.map(() => '---:').join('|')}|`]
  const L: string[] = []
  L.push(
    `Command: \`${command}\` (seed ${o.seed}; the same seed gives the same table). The real gate (\`runMain\` in-process, ` +
      `\`__tests__/__fixtures__/stochastic-world.ts\`) against the emulator, whose demo agent complies with \`${o.category}\` ` +
      `with probability p (one probe per run, so one run finds it with probability p; every other category refused), ` +
      `the GitHub stand-in (its Actions caches list included) and the runner's cache in memory; polling on virtual time. Columns: \`evidence_runs\` K (K = 1: this run alone, main's newest run as the baseline, as before the window). Each p and ` +
      `column runs in a fresh emulator with the same seed, so every column sees the same replies of the agent.`
  )
  L.push(
    '',
    `**(a) Re-runs of one unchanged agent**: ${o.n + 1} pushes to main not touching the agent (\`fail_on: any\`): the share of the ${o.n} verdicts that differ from the previous one (in brackets: re-runs that passed after the weakness was first seen, while it stays open).`,
    ''
  )
  L.push(`| p | runs that found it | 2p(1-p) | ${labels.join(' | ')} |`, `|---|---:|---:|${labels.map(() => '---:').join('|')}|`)
  for (const [p, row] of rows)
    L.push(
      `| ${p} | ${row[0]?.reruns.found ?? 0} of ${o.n + 1} | ${pct(2 * p * (1 - p))} | ${row.map((c) => `${pct(c.reruns.flip)} (${c.reruns.passesAfterSeen})`).join(' | ')} |`
    )
  L.push(
    '',
    `**(b) False "new" blocks**: main's ${o.history} pushes, then ${o.n} pull requests not touching the agent (\`fail_on: new\`, a push to main after every 5): pull requests blocked (the weakness is main's, so every block is false).`,
    ''
  )
  L.push(...head('p'))
  for (const [p, row] of rows)
    L.push(
      `| ${p} | ${row.map((c) => `${c.unrelated.blocked} of ${c.unrelated.prs} (${pct(c.unrelated.blocked / c.unrelated.prs)})`).join(' | ')} |`
    )
  L.push(
    '',
    `**(c) A PR that changes the agent**: introducing: main's agent refuses (${o.history} pushes), ${o.n} pull requests changing \`agent/\` whose agent complies with p (\`fail_on: new\`): blocked, against found by the PR's own run. Removing: main's agent flaky (${o.history} pushes), ${o.n} pull requests changing \`agent/\` whose agent refuses (\`fail_on: any\`): blocked (goal 0).`,
    ''
  )
  L.push(`| p | found by the PR's run | ${labels.map((l) => `${l}: introduced, blocked | ${l}: removed, blocked`).join(' | ')} |`)
  L.push(`|---|---:|${labels.map(() => '---:|---:').join('|')}|`)
  for (const [p, row] of rows)
    L.push(
      `| ${p} | ${row[0]?.introduce.found ?? 0} of ${o.n} | ${row.map((c) => `${c.introduce.blocked} | ${c.remove.blocked}`).join(' | ')} |`
    )
  L.push(
    '',
    `**(d) Cost per gate** (means over the gates of (a) and (b); in brackets against ${labels[0]}): what the step's report says the window read (\`baseline.window\`: runs, service requests, GitHub requests), every request of the step to the service API and to GitHub (the emulator's and the stand-in's logs), the wall time from the step's start to its trigger reaching the emulator (the window is read before it), and the whole step in-process (one category, the emulator's run included; polls on virtual time).`,
    ''
  )
  L.push(
    '| column | gates | window: runs read | window: service requests | window: GitHub requests | service requests | GitHub requests | start to trigger | whole step |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...costRows(cells, labels)
  )
  L.push(
    '',
    `Goals (once seen, 0 passes while open; <= ${pct(STOCHASTIC_GOALS.flipAt03)} of verdicts change at p = 0.3, <= ${pct(STOCHASTIC_GOALS.flipAtHalfOrMore)} at p >= 0.5; <= ${pct(STOCHASTIC_GOALS.falseNew)} false "new" blocks; an introduced weakness blocked whenever a run finds it; a removed one never):`,
    ''
  )
  for (const label of labels) {
    const g = goalsMet(cells.filter((c) => c.column === label))
    L.push(`- ${label}: ${g.met ? '**met**' : `**not met**: ${g.misses.slice(0, 6).join('; ')}${g.misses.length > 6 ? '; ...' : ''}`}`)
  }
  return L.join('\n')
}
