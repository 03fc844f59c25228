/**
 * The whole life of a pull request through the main step, in-process
 * (runMain) against the emulator and the GitHub stand-in, on virtual time:
 * opened, pushed to five times (three pushes touch agent_paths), each push
 * deployed as a preview (deployment_status; the first also sends a pending
 * one), the merge queue, the merge. Two workflows: gate (pull_request,
 * merge_group, push to main, model_id) and preview (deployment_status, the
 * endpoint from the event), each deployment at one stable host or at a host
 * of its own. Used by __tests__/e2e/pr-lifecycle-e2e.test.ts and `npm run
 * bench` (scripts/bench-detached.ts).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import type { BaselineStore } from '../../src/evidence/record-store.js'
import type { Emulator } from '../../src/emulator/server.js'
import { DEFAULT_VULNERABLE } from '../../src/emulator/taxonomy.js'
import { createClient } from '../../src/service/client.js'
import { fakeActionIO, type FakeActionIO } from './fake-io.js'
import { fakeClock } from './fake-clock.js'
import { startGitHubStandin, type GitHubStandin } from './github-standin.js'
import { startServiceProxy, type ServiceProxy } from './service-proxy.js'
import { checkoutWith } from './workspace.js'

export const REPO = 'octo-org/agent-app'
export const PR = 7
export const TOKEN = 'ghs_lifecycle_token_0123'
export const BYPASS = 'vercel-bypass-0123456789abcdef'
export const AGENT_PATHS = 'agent/**'
/** The preview's name: the default name of PR 7's own target. */

/** The emulator of the lifecycle being run (set by lifecycle()). */
let emu: Emulator

const sha = (): string => randomBytes(20).toString('hex')

/** The pushes of the pull request: the files each changes, and whether the agent it deploys is vulnerable. */
export const PUSHES: { files: string[]; vulnerable: boolean }[] = [
  { files: ['agent/prompt.md'], vulnerable: true },
  { files: ['docs/guide.md'], vulnerable: true },
  { files: ['agent/prompt.md'], vulnerable: false },
  { files: ['README.md'], vulnerable: false },
  { files: ['agent/tools.py'], vulnerable: false }
]

export interface Config {
  agentPaths: string
  mergeGroup: 'carry_over' | 'assess'
  /** stable: every deployment at one URL; per-deployment: each at its own host (Vercel's deployment URLs). */
  hosts?: 'stable' | 'per-deployment'
}

export interface StepRow {
  event: string
  workflow: 'gate' | 'preview'
  commit: string
  /** The agent version the commit deploys (the last push that touched agent paths). */
  version: number
  result: string
  /** The step's assessments_spent output. */
  spent: number
  /** Runs the emulator created during the step. */
  runs: number
  /** Targets the step registered with the service (POST /model). */
  registered: number
  failed: boolean
  summary: string
}

function memoryStore(): BaselineStore {
  return {
    save: async () => ({ saved: true, where: 'memory' })
  }
}

function eventFile(payload: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lifecycle-')), 'event.json')
  writeFileSync(path, JSON.stringify(payload))
  return path
}

const repository = { full_name: REPO, default_branch: 'main' }

function setAgent(vulnerable: boolean): void {
  emu.demoAgent.setAllVulnerable(false)
  if (vulnerable) for (const c of DEFAULT_VULNERABLE) emu.demoAgent.setVulnerable(c, true)
}

/** One lifecycle, returning a row per step. */
export async function lifecycle(emulator: Emulator, config: Config): Promise<{ rows: StepRow[]; gh: GitHubStandin }> {
  emu = emulator
  const gh = await startGitHubStandin({ repository: REPO })
  const hosts: ServiceProxy[] = []
  try {
    return await lifecycleSteps(config, gh, hosts)
  } finally {
    await Promise.all(hosts.map((h) => h.stop()))
  }
}

const registrations = (): number => emu.requestLog.filter((e) => e.endpoint === 'registerModel' && e.status === 201).length

async function lifecycleSteps(config: Config, gh: GitHubStandin, hosts: ServiceProxy[]): Promise<{ rows: StepRow[]; gh: GitHubStandin }> {
  const store = memoryStore()
  const rows: StepRow[] = []
  let minute = 0

  async function step(
    workflow: StepRow['workflow'],
    commit: string,
    version: number,
    event: { name: string; payload: unknown; env: Record<string, string> },
    inputs: Record<string, string>
  ): Promise<FakeActionIO> {
    const clock = fakeClock(Date.parse('2026-11-21T12:00:00Z') + ++minute * 10 * 60_000)
    const io = fakeActionIO(
      {
        api_key: emu.keys.full,
        base_url: emu.url,
        github_token: TOKEN,
        timeout_minutes: '30',
        agent_paths: config.agentPaths,
        merge_group: config.mergeGroup,
        // What each event spends, one run per assessment: the evidence window (the runs a weakness stays presumed by, and
        // the confirmation runs that show it gone) is measured in confirmation-e2e, baseline-e2e and the stochastic bench.
        evidence_runs: '1',
        ...inputs
      },
      {
        env: {
          GITHUB_EVENT_NAME: event.name,
          GITHUB_EVENT_PATH: eventFile(event.payload),
          GITHUB_REPOSITORY: REPO,
          GITHUB_API_URL: gh.url,
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_RUN_ID: String(1000 + minute),
          GITHUB_WORKSPACE: checkoutWith({}),
          RUNNER_TEMP: mkdtempSync(join(tmpdir(), 'lifecycle-tmp-')),
          ...event.env
        }
      }
    )
    const before = emu.control.runs().length
    const registeredBefore = registrations()
    await runMain({
      io,
      clock,
      signal: new AbortController().signal,
      random: () => 0.5,
      baselineStore: store,
      makeApi: (_inputs, deadline, opts) =>
        createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock, deadline, log: opts?.log, requestTimeoutMs: opts?.requestTimeoutMs })
    })
    rows.push({
      event: event.name === 'deployment_status' ? `deployment_status ${describeState(event.payload)}` : event.name,
      workflow,
      commit,
      version,
      result: io.outputs.result,
      spent: Number(io.outputs.assessments_spent),
      runs: emu.control.runs().length - before,
      registered: registrations() - registeredBefore,
      failed: io.failures.length > 0,
      // As read: markdown escapes and the full-width # of quoted text undone.
      summary: io.summary.join('\n').replace(/\\(.)/g, '$1').replace(/＃/g, '#')
    })
    return io
  }

  const gate = { model_id: emu.demoModelId }
  const preview = { response_field: 'output.text', endpoint_path: `/chat/open?x-vercel-protection-bypass=${BYPASS}` }
  const agentUrl = emu.demoAgent.url

  const base = sha()
  gh.addCommit(base, null, ['README.md'])
  const pull = gh.seedPull({ number: PR, headSha: base, commits: [] })
  let parent = base
  let version = 0
  for (const [i, push] of PUSHES.entries()) {
    const head = sha()
    gh.addCommit(head, parent, push.files)
    pull.headSha = head
    pull.commits.push(head)
    parent = head
    if (push.files.some((f) => f.startsWith('agent/'))) version = i + 1
    setAgent(push.vulnerable)
    await step(
      'gate',
      head,
      version,
      {
        name: 'pull_request',
        payload: {
          action: i === 0 ? 'opened' : 'synchronize',
          number: PR,
          pull_request: {
            number: PR,
            head: { sha: head, ref: 'feature-7', repo: { full_name: REPO } },
            base: { sha: base, ref: 'main', repo: { full_name: REPO } }
          },
          repository
        },
        env: { GITHUB_REF: `refs/pull/${PR}/merge`, GITHUB_SHA: sha(), GITHUB_HEAD_REF: 'feature-7', GITHUB_BASE_REF: 'main' }
      },
      gate
    )
    // Another host for the demo agent: a proxy on a port of its own (the host names the port), sending the agent's Host.
    const proxy = config.hosts === 'per-deployment' ? await startServiceProxy(agentUrl, () => null) : null
    if (proxy !== null) hosts.push(proxy)
    const url = proxy?.url ?? agentUrl
    const deployment = (state: string) => ({
      name: 'deployment_status',
      payload: {
        deployment_status: { state, environment: 'Preview', environment_url: state === 'success' ? `${url}/` : '' },
        deployment: { sha: head, ref: 'feature-7', environment: 'Preview' },
        repository
      },
      env: { GITHUB_REF: 'refs/heads/feature-7', GITHUB_SHA: head }
    })
    if (i === 0) await step('preview', head, version, deployment('in_progress'), preview)
    await step('preview', head, version, deployment('success'), preview)
  }

  const queue = sha()
  gh.addCommit(queue, parent, [])
  const queueRef = `refs/heads/gh-readonly-queue/main/pr-${PR}-${base}`
  await step(
    'gate',
    queue,
    version,
    {
      name: 'merge_group',
      payload: {
        action: 'checks_requested',
        merge_group: { head_sha: queue, head_ref: queueRef, base_sha: base, base_ref: 'refs/heads/main' },
        repository
      },
      env: { GITHUB_REF: queueRef, GITHUB_SHA: queue }
    },
    gate
  )

  pull.state = 'closed'
  pull.merged = true
  await step(
    'gate',
    queue,
    version,
    {
      name: 'push',
      payload: { ref: 'refs/heads/main', after: queue, repository },
      env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: queue }
    },
    gate
  )
  return { rows, gh }
}

function describeState(payload: unknown): string {
  return (payload as { deployment_status: { state: string } }).deployment_status.state
}

/** The agent of `version` is vulnerable when the push that made it deployed a vulnerable one. */
export const vulnerableAt = (version: number): boolean => PUSHES[version - 1]?.vulnerable ?? false

export function spentBy(rows: StepRow[], workflow: StepRow['workflow'], event?: string): number {
  return rows.filter((r) => r.workflow === workflow && (event === undefined || r.event.startsWith(event))).reduce((n, r) => n + r.spent, 0)
}

/** Passes of a step that spent nothing, with no passing assessment of the same agent (workflow = subject, version) before it. */
export function passesWithoutAssessment(rows: StepRow[]): StepRow[] {
  const assessedPass = new Set<string>()
  const bad: StepRow[] = []
  for (const r of rows) {
    const key = `${r.workflow}@${r.version}`
    if (r.result === 'pass' && r.spent === 1) assessedPass.add(key)
    if (r.result === 'pass' && (r.spent === 0 ? !assessedPass.has(key) : vulnerableAt(r.version))) bad.push(r)
  }
  return bad
}

/** One line per step: event, commit, agent version, then result and assessments spent with and without the pipeline. */
export function measuredTable(pipeline: StepRow[], everyEvent: StepRow[]): string {
  const lines = [
    '| Workflow | Event | Agent | Pipeline: result | spent | Every event: result | spent |',
    '| --- | --- | --- | --- | --- | --- | --- |'
  ]
  pipeline.forEach((r, i) => {
    const e = everyEvent[i]
    lines.push(`| ${r.workflow} | ${r.event} | v${r.version} | ${r.result} | ${r.spent} | ${e.result} | ${e.spent} |`)
  })
  const total = (rows: StepRow[]) => rows.reduce((n, r) => n + r.spent, 0)
  lines.push(`| | total | | | ${total(pipeline)} | | ${total(everyEvent)} |`)
  return lines.join('\n')
}
