/**
 * A repository whose agent has one flaky weakness, and the real gate run on
 * it in-process (runMain, as the pull-request lifecycle e2e does): the
 * emulator with its demo agent complying with one category by a seeded
 * chance, one probe per category (so a run finds the weakness with exactly
 * that probability), the GitHub stand-in holding main's commits, the pull
 * requests and the Actions caches list, and the runner's cache kept in
 * memory: a step's record is saved under the step's ref, and GitHub's caches
 * API lists it with that ref (what the evidence window reads). The gate polls
 * on virtual time; the emulator's run really calls the agent over HTTP.
 *
 * Shared by the stochastic e2e test and `npm run bench` (scripts/bench-stochastic.ts).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import type { BaselineStore } from '../../src/evidence/record-store.js'
import { evidenceKey } from '../../src/evidence/records.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import { fakeClock } from './fake-clock.js'
import { fakeActionIO } from './fake-io.js'
import { startGitHubStandin, type GitHubStandin, type ListedCacheEntry } from './github-standin.js'
import { stopStarted } from './teardown.js'
import { checkoutWith } from './workspace.js'

export const STOCHASTIC_REPO = 'octo-org/agent-app'
/** The agent's files: a pull request changing one of these changes the agent. */
export const AGENT_PATHS = 'agent/**'
const TOKEN = 'ghs_stochastic_token_0123'
const repository = { full_name: STOCHASTIC_REPO, default_branch: 'main' }

export interface WorldOptions {
  /** The flaky category (one probe each run). */
  category: string
  /** Its probability of complying on main's agent. */
  p: number
  seed: number
}

/**
 * One gate step: a push to main, or the first push of a new pull request; or
 * (rerun) GitHub's "Re-run jobs" of the previous step: the same commit and
 * event (GITHUB_SHA, GITHUB_RUN_ID), the next GITHUB_RUN_ATTEMPT.
 */
export interface GateStep {
  on: 'main' | 'pr'
  /** Re-run the previous step's job (its commit and event; `on` and `files` are then ignored). */
  rerun?: boolean
  /** A scheduled run on main at its head (no new commit; `on` and `files` are then ignored). */
  schedule?: boolean
  failOn: 'any' | 'new'
  /** Files the commit changes (default: README.md, not the agent). */
  files?: string[]
  /** Inputs added to the step's (the evidence window's, for one). */
  inputs?: Record<string, string>
}

export interface GateResult {
  /** The step's result output: pass, fail, incomplete, error. */
  result: string
  failed: boolean
  runId: string
  /** Whether this step's own run found the flaky category (asked of the service afterwards). */
  foundThisRun: boolean
  /** The flaky category's finding in the JSON report: its baseline state (new, known, ...), or absent. */
  reported: { baseline: string | null } | null
  newCount: number
  /** Requests of the step: to the service API, and to the GitHub stand-in. */
  serviceRequests: number
  githubRequests: number
  /** Confirmation runs the step spent (report.json confirmation.run_ids). */
  confirmationRuns: number
  /** Assessments the step spent, its own run included (report.json assessments_spent; 0 when absent). */
  assessmentsSpent: number
  /** What the step's report says reading the evidence window cost (report.json baseline.window); null when none was read. */
  window: { runsRead: number; holdersRead: number; serviceRequests: number; githubRequests: number } | null
  /** Wall time of runMain (the emulator's run included; polling on virtual time). */
  ms: number
  /** Wall time from the step's start to its trigger reaching the emulator (the policy and the window are read before it). */
  msToTrigger: number
  summary: string
}

/**
 * The runner's Actions cache in memory, as the gate sees it: a save goes to
 * the step's ref, and GitHub's caches API (served by the GitHub stand-in)
 * lists each entry with that ref, newest first.
 */
export function scopedMemoryCache(gh: GitHubStandin): {
  storeFor(ref: string, now: () => number): BaselineStore
  entries: ListedCacheEntry[]
} {
  const entries: ListedCacheEntry[] = []
  gh.setActionsCaches((q) =>
    entries
      .filter((e) => (q.key === undefined || e.key.startsWith(q.key)) && (q.ref === undefined || e.ref === q.ref))
      .sort((a, b) => b.id - a.id)
  )
  return {
    entries,
    storeFor: (ref, now) => ({
      save: async (baseline, agentKey, holders) => {
        const key = evidenceKey(agentKey, baseline.run_id, baseline.commit, holders)
        if (key === null) return { saved: false, where: '' }
        entries.push({ key, ref, created_at: new Date(now()).toISOString(), id: entries.length + 1 })
        return { saved: true, where: `memory cache entry ${key} (${ref})` }
      }
    })
  }
}

const sha = (): string => randomBytes(20).toString('hex')

export interface StochasticWorld {
  emu: Emulator
  gh: GitHubStandin
  /** Sets the agent's probability of complying with the flaky category (a change to the agent, or back). */
  setP(p: number): void
  gate(step: GateStep): Promise<GateResult>
  /** The Actions cache's entries (the caches API lists them): a test may add one. */
  cacheEntries(): ListedCacheEntry[]
  stop(): Promise<void>
}

export async function startStochasticWorld(opts: WorldOptions): Promise<StochasticWorld> {
  let emu: Emulator | undefined
  let gh: GitHubStandin | undefined
  try {
    emu = await startEmulator({
      allowLoopbackTargets: true,
      categoryDurationMs: 0,
      attacksPerCategory: 1,
      agentSeed: opts.seed,
      limits: { triggersPerMinute: 1_000_000, dailyAssessmentBudget: 1_000_000 }
    })
    emu.demoAgent.setAllVulnerable(false)
    emu.demoAgent.setComplyProbability(opts.category, opts.p)
    gh = await startGitHubStandin({ repository: STOCHASTIC_REPO })
  } catch (e) {
    await stopStarted(emu, gh)
    throw e
  }
  return worldOf(emu, gh, opts)
}

function worldOf(emu: Emulator, gh: GitHubStandin, opts: WorldOptions): StochasticWorld {
  const cache = scopedMemoryCache(gh)
  // virtual time starts now (the emulator stamps runs with the real time), 10 minutes a step
  const start = Date.now()
  const temp = mkdtempSync(join(tmpdir(), 'asas-stochastic-'))
  const workspace = checkoutWith({})
  let mainHead = sha()
  gh.addCommit(mainHead, null, ['README.md'])
  gh.setBranch('main', mainHead)
  let step = 0
  let nextPull = 100
  /** The previous step's job, which a re-run repeats. */
  let last: { event: GateEvent; attempt: number; runNumber: number } | null = null
  const newEvent = (s: GateStep): GateEvent => {
    const head = sha()
    gh.addCommit(head, mainHead, s.files ?? ['README.md'])
    if (s.on === 'main') {
      mainHead = head
      gh.setBranch('main', head)
      return mainPush(head)
    }
    const number = nextPull++
    gh.seedPull({ number, headSha: head, commits: [head] })
    return pullOpened(number, head, mainHead)
  }
  return {
    emu,
    gh,
    setP: (p) => {
      emu.demoAgent.setComplyProbability(opts.category, p)
    },
    gate: async (s) => {
      step++
      if (s.rerun === true) {
        if (last === null) throw new Error('a re-run needs an earlier step')
        last = { ...last, attempt: last.attempt + 1 }
      } else last = { event: s.schedule === true ? scheduled(mainHead) : newEvent(s), attempt: 1, runNumber: 1000 + step }
      const event = withAttempt(last)
      const clock = fakeClock(start + step * 10 * 60_000)
      const store = cache.storeFor(event.env.GITHUB_REF, () => clock.now())
      return runGate({ emu, gh, store, clock, temp, workspace, step, event, category: opts.category }, s)
    },
    cacheEntries: () => cache.entries,
    stop: async () => {
      await stopStarted(emu, gh)
      rmSync(temp, { recursive: true, force: true })
      rmSync(workspace, { recursive: true, force: true })
    }
  }
}

interface GateEvent {
  name: string
  payload: unknown
  env: Record<string, string>
}

/** The event of a job's attempt: GITHUB_RUN_ID kept across attempts, GITHUB_RUN_ATTEMPT counting them. */
function withAttempt(job: { event: GateEvent; attempt: number; runNumber: number }): GateEvent {
  return { ...job.event, env: { ...job.event.env, GITHUB_RUN_ID: String(job.runNumber), GITHUB_RUN_ATTEMPT: String(job.attempt) } }
}

function mainPush(head: string): GateEvent {
  return {
    name: 'push',
    payload: { ref: 'refs/heads/main', after: head, repository },
    env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: head }
  }
}

function scheduled(head: string): GateEvent {
  return { name: 'schedule', payload: { schedule: '0 3 * * *', repository }, env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: head } }
}

function pullOpened(number: number, head: string, base: string): GateEvent {
  const branch = `feature-${number}`
  return {
    name: 'pull_request',
    payload: {
      action: 'opened',
      number,
      pull_request: {
        number,
        head: { sha: head, ref: branch, repo: { full_name: STOCHASTIC_REPO } },
        base: { sha: base, ref: 'main', repo: { full_name: STOCHASTIC_REPO } }
      },
      repository
    },
    env: { GITHUB_REF: `refs/pull/${number}/merge`, GITHUB_SHA: sha(), GITHUB_HEAD_REF: branch, GITHUB_BASE_REF: 'main' }
  }
}

interface GateContext {
  emu: Emulator
  gh: GitHubStandin
  store: BaselineStore
  clock: ReturnType<typeof fakeClock>
  temp: string
  workspace: string
  step: number
  event: GateEvent
  category: string
}

async function runGate(c: GateContext, s: GateStep): Promise<GateResult> {
  const { emu, gh } = c
  const { clock } = c
  const eventPath = join(c.temp, `event-${c.step}.json`)
  writeFileSync(eventPath, JSON.stringify(c.event.payload))
  const io = fakeActionIO(
    {
      model_id: emu.demoModelId,
      api_key: emu.keys.full,
      base_url: emu.url,
      github_token: TOKEN,
      timeout_minutes: '30',
      min_severity: 'low',
      categories: c.category,
      agent_paths: AGENT_PATHS,
      fail_on: s.failOn,
      ...s.inputs
    },
    {
      env: {
        GITHUB_EVENT_NAME: c.event.name,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: STOCHASTIC_REPO,
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_WORKSPACE: c.workspace,
        RUNNER_TEMP: c.temp,
        ...c.event.env
      }
    }
  )
  const logFrom = emu.requestLog.length
  const ghFrom = gh.requests.length
  const t0 = performance.now()
  const wallStart = Date.now()
  await runMain({
    io,
    clock,
    signal: new AbortController().signal,
    random: () => 0.5,
    baselineStore: c.store,
    makeApi: (_inputs, deadline, opts) =>
      createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock, deadline, log: opts?.log, requestTimeoutMs: opts?.requestTimeoutMs })
  })
  const ms = performance.now() - t0
  const trigger = emu.requestLog.slice(logFrom).find((e) => e.endpoint === 'triggerRun')
  const serviceRequests = emu.requestLog.slice(logFrom).filter((e) => e.path.startsWith('/api/v1')).length
  const githubRequests = gh.requests.length - ghFrom
  // an output the step did not set is absent
  const outputs: Partial<Record<string, string>> = io.outputs
  const runId = outputs.run_id ?? ''
  return {
    result: outputs.result ?? '',
    failed: io.failures.length > 0,
    runId,
    foundThisRun: runId !== '' && (await runFound(emu, runId, c.category)),
    ...fromReport(outputs.report_path, c.category),
    newCount: Number(outputs.new_count ?? '0') || 0,
    serviceRequests,
    githubRequests,
    ms,
    msToTrigger: trigger ? trigger.at - wallStart : NaN,
    summary: io.summary.join('\n')
  }
}

/** Whether the run's findings (as the service lists them) hold the category. */
export async function runFound(emu: Emulator, runId: string, category: string): Promise<boolean> {
  const res = await fetch(`${emu.url}/api/v1/run/${runId}/findings`, { headers: { authorization: `Bearer ${emu.keys.full}` } })
  if (!res.ok) throw new Error(`findings of ${runId}: ${res.status}`)
  const body = (await res.json()) as { findings: { category: string }[] }
  return body.findings.some((f) => f.category === category)
}

interface ReportJson {
  assessments_spent?: number | null
  findings?: { category: string; baseline?: string | null }[]
  confirmation?: { run_ids: string[] } | null
  baseline?: { window?: { runs_read: number; holders_read: number; service_requests: number; github_requests: number } | null }
}

/** The category's finding in the step's JSON report (null when it lists none), and what the window cost. */
function fromReport(
  reportPath: string | undefined,
  category: string
): Pick<GateResult, 'reported' | 'window' | 'confirmationRuns' | 'assessmentsSpent'> {
  if (!reportPath) return { reported: null, window: null, confirmationRuns: 0, assessmentsSpent: 0 }
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as ReportJson
  const f = report.findings?.find((x) => x.category === category)
  const w = report.baseline?.window
  return {
    confirmationRuns: report.confirmation?.run_ids.length ?? 0,
    assessmentsSpent: report.assessments_spent ?? 0,
    reported: f ? { baseline: f.baseline ?? null } : null,
    window: w
      ? { runsRead: w.runs_read, holdersRead: w.holders_read, serviceRequests: w.service_requests, githubRequests: w.github_requests }
      : null
  }
}
