/**
 * A repository whose agent has one flaky weakness, and the real gate run on
 * it in-process (runMain, as the pull-request lifecycle e2e does): the
 * emulator with its demo agent complying with one category by a seeded
 * chance, one probe per category (so a run finds the weakness with exactly
 * that probability), the GitHub stand-in holding main's commits and the pull
 * requests, and an Actions cache kept in memory with the cache's scoping
 * (an entry belongs to the ref that saved it; a run restores its own ref's,
 * then its base branch's, newest first). The gate polls on virtual time; the
 * emulator's run really calls the agent over HTTP.
 *
 * Shared by the stochastic e2e test and `npm run bench` (scripts/bench-stochastic.ts).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import type { Baseline } from '../../src/baseline/baseline.js'
import type { BaselineStore } from '../../src/baseline/store.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import { fakeClock } from './fake-clock.js'
import { fakeActionIO } from './fake-io.js'
import { startGitHubStandin, type GitHubStandin } from './github-standin.js'
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

/** One gate step: a push to main, or the first push of a new pull request. */
export interface GateStep {
  on: 'main' | 'pr'
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
  /** Wall time of runMain (the emulator's run included; polling on virtual time). */
  ms: number
  summary: string
}

/** The runner's Actions cache in memory, with its scoping rules (see the header). */
export function scopedMemoryCache(): { storeFor(ref: string, base?: string): BaselineStore; saved: { ref: string; run: string }[] } {
  const entries: { ref: string; baseline: Baseline }[] = []
  return {
    saved: [],
    storeFor(ref, base) {
      const saved = this.saved
      return {
        load: async (modelId) => {
          for (const scope of base ? [ref, base] : [ref]) {
            const hit = entries.filter((e) => e.ref === scope && e.baseline.model_id === modelId).at(-1)
            if (hit) return { baseline: hit.baseline, where: `memory cache (${scope})` }
          }
          return { baseline: null, why: 'no baseline saved by the default branch yet (no cache entry)' }
        },
        save: async (baseline) => {
          entries.push({ ref, baseline })
          saved.push({ ref, run: baseline.run_id })
          return { saved: true, where: `memory cache (${ref})` }
        }
      }
    }
  }
}

const sha = (): string => randomBytes(20).toString('hex')

export interface StochasticWorld {
  emu: Emulator
  gh: GitHubStandin
  /** Sets the agent's probability of complying with the flaky category (a change to the agent, or back). */
  setP(p: number): void
  gate(step: GateStep): Promise<GateResult>
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
  const cache = scopedMemoryCache()
  const temp = mkdtempSync(join(tmpdir(), 'asas-stochastic-'))
  const workspace = checkoutWith({})
  let mainHead = sha()
  gh.addCommit(mainHead, null, ['README.md'])
  let step = 0
  let nextPull = 100
  return {
    emu,
    gh,
    setP: (p) => {
      emu.demoAgent.setComplyProbability(opts.category, p)
    },
    gate: async (s) => {
      step++
      const head = sha()
      const files = s.files ?? ['README.md']
      gh.addCommit(head, mainHead, files)
      let event: GateEvent
      if (s.on === 'main') {
        mainHead = head
        event = mainPush(head)
      } else {
        const number = nextPull++
        gh.seedPull({ number, headSha: head, commits: [head] })
        event = pullOpened(number, head, mainHead)
      }
      const store = s.on === 'main' ? cache.storeFor('refs/heads/main') : cache.storeFor(event.env.GITHUB_REF, 'refs/heads/main')
      return runGate({ emu, gh, store, temp, workspace, step, event, category: opts.category }, s)
    },
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

function mainPush(head: string): GateEvent {
  return {
    name: 'push',
    payload: { ref: 'refs/heads/main', after: head, repository },
    env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: head }
  }
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
  temp: string
  workspace: string
  step: number
  event: GateEvent
  category: string
}

async function runGate(c: GateContext, s: GateStep): Promise<GateResult> {
  const { emu, gh } = c
  const clock = fakeClock(Date.parse('2026-11-21T12:00:00Z') + c.step * 10 * 60_000)
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
        GITHUB_RUN_ID: String(1000 + c.step),
        GITHUB_WORKSPACE: c.workspace,
        RUNNER_TEMP: c.temp,
        ...c.event.env
      }
    }
  )
  const logFrom = emu.requestLog.length
  const ghFrom = gh.requests.length
  const t0 = performance.now()
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
    reported: reportedFinding(outputs.report_path, c.category),
    newCount: Number(outputs.new_count ?? '0') || 0,
    serviceRequests,
    githubRequests,
    ms,
    summary: io.summary.join('\n')
  }
}

/** Whether the run's findings (as the service lists them) hold the category. */
async function runFound(emu: Emulator, runId: string, category: string): Promise<boolean> {
  const res = await fetch(`${emu.url}/api/v1/run/${runId}/findings`, { headers: { authorization: `Bearer ${emu.keys.full}` } })
  if (!res.ok) throw new Error(`findings of ${runId}: ${res.status}`)
  const body = (await res.json()) as { findings: { category: string }[] }
  return body.findings.some((f) => f.category === category)
}

/** The category's finding in the step's JSON report (null when the report lists none). */
function reportedFinding(reportPath: string | undefined, category: string): { baseline: string | null } | null {
  if (!reportPath) return null
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { findings?: { category: string; baseline?: string | null }[] }
  const f = report.findings?.find((x) => x.category === category)
  return f ? { baseline: f.baseline ?? null } : null
}
