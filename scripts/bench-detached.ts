/**
 * Detached waiting, measured (`npm run bench`, the section between the
 * bench-detached markers of docs/performance.md): the main step in-process
 * (runMain) against the GitHub stand-in and a service whose runs last 1, 20
 * or 45 minutes of virtual time (a fake clock: nothing really waits 45
 * minutes), attached and detached.
 *
 * - Runner time per assessment: attached, the step's virtual time (it polls
 *   to the run's end) plus this machine's time; detached, the detached step's
 *   time plus the collector's share of each tick (a tick's time divided by
 *   the pending records it looked at).
 * - The collector's tick, with 1 and with 10 pending records.
 * - The latency from a run's end to its verdict on the pull request: the
 *   collector runs every `interval` minutes from the trigger; the verdict is
 *   set by the first tick after the end, plus that tick's own time.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { runMain } from '../src/action/main.js'
import type { RunStatusResponse } from '../src/service/contract/index.js'
import type { ServiceApi } from '../src/service/service-api.js'
import type { Clock } from '../src/util/clock.js'
import { makeModel, PLANNED } from '../__tests__/__fixtures__/builders.js'
import { fakeApi } from '../__tests__/__fixtures__/fake-api.js'
import { fakeActionIO, type FakeActionIO } from '../__tests__/__fixtures__/fake-io.js'
import { startGitHubStandin, type GitHubStandin } from '../__tests__/__fixtures__/github-standin.js'
import { checkoutWith } from '../__tests__/__fixtures__/workspace.js'
import { AGENT_PATHS, lifecycle, spentBy, type Config, type StepRow } from '../__tests__/__fixtures__/pr-lifecycle.js'
import { startEmulator } from '../src/emulator/server.js'

const REPO = 'octo-org/agent-app'
const MODEL = 'mdl_bench_detached'
const repository = { full_name: REPO, default_branch: 'main' }

export interface DetachedBenchOptions {
  /** Assessment lengths, in minutes. */
  lengths: number[]
  /** The collector's schedule, in minutes. */
  intervalMinutes: number
}

export const DEFAULT_DETACHED: DetachedBenchOptions = { lengths: [1, 20, 45], intervalMinutes: 5 }

export interface DetachedRow {
  minutes: number
  /** Attached: virtual ms the step took (its waits) and this machine's ms. */
  attached: { virtualMs: number; wallMs: number }
  /** Detached: the step's virtual and wall ms, the collector's ticks until the verdict, their wall ms. */
  detached: { virtualMs: number; wallMs: number; ticks: number; tickWallMs: number[]; collectorShareMs: number }
  /** From the run's end to the verdict on the pull request (virtual ms to the deciding tick, plus its wall ms). */
  latencyMs: number
}

/** Virtual time, advanced by sleeps and by hand. */
function virtualClock(start: number): Clock & { set(ms: number): void } {
  let now = start
  return {
    now: () => now,
    sleep: async (ms) => {
      now += Math.max(0, ms)
      await Promise.resolve()
    },
    set: (ms) => {
      now = ms
    }
  }
}

/** A service whose every run lasts `lengthMs` of the clock's time, then passes with full coverage. */
function timedService(clock: Clock, lengthMs: number): ServiceApi {
  const started = new Map<string, number>()
  const status = (runId: string): RunStatusResponse => {
    const at = started.get(runId) ?? clock.now()
    const done = clock.now() >= at + lengthMs
    const share = Math.min(1, (clock.now() - at) / lengthMs)
    return {
      run_id: runId,
      model_id: MODEL,
      status: done ? 'completed' : 'running',
      started_at: new Date(at).toISOString(),
      completed_at: done ? new Date(at + lengthMs).toISOString() : null,
      categories_planned: [...PLANNED],
      categories_completed: PLANNED.slice(0, Math.floor(share * PLANNED.length)),
      verdict: done ? 'pass' : null
    }
  }
  return fakeApi({
    listModels: async () => ({ models: [makeModel({ model_id: MODEL, name: 'bench' })] }),
    triggerRun: async () => {
      const runId = `run_${started.size + 1}`
      started.set(runId, clock.now())
      return { run_id: runId, model_id: MODEL, status: 'running', started_at: new Date(clock.now()).toISOString() }
    },
    getRun: async (runId) => status(runId),
    cancelRun: async (runId) => ({ run_id: runId, status: 'cancelling' }),
    getCoverage: async (runId) => ({
      run_id: runId,
      run_status: 'completed',
      categories: PLANNED.map((c) => ({
        category: c,
        attacks_blocked: 3,
        attacks_succeeded: 0,
        owasp: 'LLM01:2025',
        atlas: 'AML.T0051',
        worst_severity: null
      }))
    }),
    listFindings: async () => ({ findings: [], count: 0 }),
    listCategories: async () => ({ lens: 'security', categories: PLANNED.map((key) => ({ key, display_name: key, description: key })) }),
    listRuns: async (_model, query) => {
      const ids = [...started.keys()].filter((id) => query?.status === undefined || status(id).status === query.status)
      const runs = ids.map((id) => ({
        run_id: id,
        status: status(id).status,
        started_at: new Date(started.get(id) ?? 0).toISOString(),
        findings_count: 0,
        ingest_incomplete: false,
        categories_planned: [...PLANNED],
        completed_at: status(id).completed_at ?? null
      }))
      return { runs, total: runs.length, returned: runs.length }
    }
  })
}

interface World {
  gh: GitHubStandin
  api: ServiceApi
  clock: Clock & { set(ms: number): void }
  base: string
}

const hex = (n: number): string => n.toString(16).padStart(40, '0')

/** One step of the action: its outputs, and this machine's ms. */
async function step(
  w: World,
  event: { name: string; payload: unknown; env: Record<string, string> },
  inputs: Record<string, string>
): Promise<{ io: FakeActionIO; wallMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-detached-'))
  const eventPath = join(dir, 'event.json')
  writeFileSync(eventPath, JSON.stringify(event.payload))
  const io = fakeActionIO(
    {
      api_key: 'asas_bench_key_0123456789',
      base_url: 'https://asas.example.test',
      github_token: 'ghs_bench',
      model_id: MODEL,
      accepted_risks_file: 'off',
      timeout_minutes: '60',
      ...inputs
    },
    {
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: event.name,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: REPO,
        GITHUB_API_URL: w.gh.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: '1',
        GITHUB_WORKSPACE: checkoutWith({}),
        RUNNER_TEMP: dir,
        ...event.env
      }
    }
  )
  const t0 = performance.now()
  await runMain({
    io,
    clock: w.clock,
    signal: new AbortController().signal,
    random: () => 0.5,
    makeApi: () => w.api,
    baselineStore: { save: async () => ({ saved: false, where: '' }) }
  })
  return { io, wallMs: performance.now() - t0 }
}

function pullRequest(w: World, n: number, head: string) {
  const payload = {
    number: n,
    pull_request: {
      number: n,
      head: { sha: head, ref: `f-${n}`, repo: { full_name: REPO } },
      base: { sha: w.base, ref: 'main', repo: { full_name: REPO } }
    },
    repository
  }
  return { name: 'pull_request', payload, env: { GITHUB_REF: `refs/pull/${n}/merge`, GITHUB_HEAD_REF: `f-${n}` } }
}

const schedule = (w: World) => ({
  name: 'schedule',
  payload: { schedule: '*/5 * * * *', repository },
  env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: w.base }
})

async function world(lengthMs: number, pulls: number): Promise<World> {
  const gh = await startGitHubStandin({ repository: REPO })
  const clock = virtualClock(Date.parse('2026-11-21T12:00:00Z'))
  const base = hex(1)
  gh.addCommit(base, null, ['README.md'])
  for (let n = 1; n <= pulls; n++) {
    gh.addCommit(hex(100 + n), base, ['agent/prompt.md'])
    gh.seedPull({ number: n, headSha: hex(100 + n), commits: [hex(100 + n)] })
  }
  return { gh, api: timedService(clock, lengthMs), clock, base }
}

/** One assessment of `minutes`, attached then detached (with its collector's ticks). */
export async function measureLength(minutes: number, intervalMinutes: number): Promise<DetachedRow> {
  const lengthMs = minutes * 60_000
  const a = await world(lengthMs, 1)
  const a0 = a.clock.now()
  const attached = await step(a, pullRequest(a, 1, hex(101)), {})
  const attachedVirtual = a.clock.now() - a0
  await a.gh.stop()

  const d = await world(lengthMs, 1)
  const t0 = d.clock.now()
  const detached = await step(d, pullRequest(d, 1, hex(101)), { wait: 'detached' })
  const detachedVirtual = d.clock.now() - t0
  const tickWallMs: number[] = []
  let latencyMs = 0
  for (let k = 1; k <= Math.ceil(minutes / intervalMinutes) + 2; k++) {
    d.clock.set(t0 + k * intervalMinutes * 60_000)
    const tick = await step(d, schedule(d), { mode: 'collect' })
    tickWallMs.push(tick.wallMs)
    const state = d.gh.git.statuses.filter((s) => s.sha === hex(101)).at(-1)?.state
    if (state !== undefined && state !== 'pending') {
      latencyMs = t0 + k * intervalMinutes * 60_000 - (t0 + lengthMs) + tick.wallMs
      break
    }
  }
  await d.gh.stop()
  const collectorShareMs = tickWallMs.reduce((x, y) => x + y, 0)
  return {
    minutes,
    attached: { virtualMs: attachedVirtual, wallMs: attached.wallMs },
    detached: { virtualMs: detachedVirtual, wallMs: detached.wallMs, ticks: tickWallMs.length, tickWallMs, collectorShareMs },
    latencyMs
  }
}

/** A collector tick's wall ms with `pending` records still running (the share of each is the tick over the records). */
export async function measureTick(pending: number): Promise<number> {
  const w = await world(60 * 60_000, pending)
  for (let n = 1; n <= pending; n++) await step(w, pullRequest(w, n, hex(100 + n)), { wait: 'detached' })
  const tick = await step(w, schedule(w), { mode: 'collect' })
  await w.gh.stop()
  return tick.wallMs
}

const s = (ms: number): string => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(2)} s`)

export function detachedMarkdown(rows: DetachedRow[], ticks: { pending: number; wallMs: number }[], opts: DetachedBenchOptions): string {
  const lines = [
    '| Assessment | Attached: runner time | Detached: the step | Collector ticks until the verdict | Collector time, all ticks | Detached: runner time in all | Run end to verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |'
  ]
  for (const r of rows) {
    const total = r.detached.virtualMs + r.detached.wallMs + r.detached.collectorShareMs
    lines.push(
      `| ${r.minutes} min | ${s(r.attached.virtualMs + r.attached.wallMs)} | ${s(r.detached.virtualMs + r.detached.wallMs)} | ${r.detached.ticks} | ${s(r.detached.collectorShareMs)} | ${s(total)} | ${s(r.latencyMs)} |`
    )
  }
  lines.push('', '| Pending records in a tick | Tick time | Share per record |', '| --- | --- | --- |')
  for (const t of ticks) lines.push(`| ${t.pending} | ${s(t.wallMs)} | ${s(t.wallMs / t.pending)} |`)
  lines.push(
    '',
    `Virtual time for the service's waits (a fake clock), this machine's time for the work; the collector every ${opts.intervalMinutes} min from the trigger. ` +
      'The stand-ins answer in-process: a real tick adds the round trips to GitHub (the open pull requests, one comment list per pull request) and to the service (one status read per pending record, the results of a run that ended), a few hundred milliseconds each. ' +
      "A tick's time is the collector step's own (a runner's start-up, about 10 s on GitHub-hosted runners, comes on top of each tick, shared by every pending record of the repository). " +
      "The latency depends on where the run's end falls between two ticks (the table's last column): " +
      `from a tick's own time to the interval plus a tick, ${opts.intervalMinutes} min + ${s(Math.max(...rows.flatMap((r) => r.detached.tickWallMs)))}, plus GitHub's delay in starting a scheduled run. ` +
      'Every tick is a job of its own whether anything is pending or not: its start-up and billing apply per tick, so the interval trades latency for runner minutes.'
  )
  return lines.join('\n')
}

/** Every length, then the ticks: the section's markdown. */
export async function measureDetached(opts: DetachedBenchOptions = DEFAULT_DETACHED): Promise<string> {
  const rows: DetachedRow[] = []
  for (const m of opts.lengths) rows.push(await measureLength(m, opts.intervalMinutes))
  const ticks = [
    { pending: 1, wallMs: await measureTick(1) },
    { pending: 10, wallMs: await measureTick(10) }
  ]
  const lifecycles = lifecycleMarkdown(await measureLifecycles())
  return [detachedMarkdown(rows, ticks, opts), '', '#### Assessments per preview lifecycle', '', lifecycles].join('\n')
}

/** One preview lifecycle's spend: what each workflow assessed, what the preview registered. */
export interface LifecycleRow {
  label: string
  deployments: number
  registered: number
  gate: number
  total: number
}

function lifecycleRow(label: string, rows: StepRow[]): LifecycleRow {
  const deployments = spentBy(rows, 'preview')
  const gate = spentBy(rows, 'gate')
  const registered = rows.filter((r) => r.workflow === 'preview').reduce((n, r) => n + r.registered, 0)
  return { label, deployments, registered, gate, total: deployments + gate }
}

/** The preview pipeline's lifecycle (__tests__/__fixtures__/pr-lifecycle.ts) against the emulator: a stable host, a host per deployment, every event assessed. */
export async function measureLifecycles(): Promise<LifecycleRow[]> {
  const runs: [string, Config][] = [
    ['stable host', { agentPaths: AGENT_PATHS, mergeGroup: 'carry_over' }],
    ['a host per deployment', { agentPaths: AGENT_PATHS, mergeGroup: 'carry_over', hosts: 'per-deployment' }],
    ['every event assessed (no agent_paths)', { agentPaths: '', mergeGroup: 'assess' }]
  ]
  const out: LifecycleRow[] = []
  for (const [label, config] of runs) {
    // A fresh service each time: the inventory starts empty.
    const emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 5, attacksPerCategory: 1 })
    try {
      const { rows, gh } = await lifecycle(emu, config)
      await gh.stop()
      out.push(lifecycleRow(label, rows))
    } finally {
      await emu.stop()
    }
  }
  return out
}

export function lifecycleMarkdown(rows: LifecycleRow[]): string {
  const lines = [
    '| Preview pipeline | Deployments assessed | Targets registered | Gate workflow | Total |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.label} | ${r.deployments} | ${r.registered} | ${r.gate} | ${r.total} |`)
  ]
  lines.push(
    '',
    'The lifecycle of docs/performance.md#pr-lifecycle (five pushes, three touching `agent/**`, each deployed; the merge queue; the merge). ' +
      'A deployment that changes nothing under `agent_paths` carries the last result over whatever host it moved to and registers no target; ' +
      'with a host per deployment, each deployment that changes the agent registers its new host once.'
  )
  return lines.join('\n')
}
