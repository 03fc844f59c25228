/**
 * The whole life of a pull request through the main step, in-process
 * (runMain) against the emulator and the GitHub stand-in, on virtual time:
 * the PR is opened, pushed to five times (three pushes touch agent_paths),
 * each push is deployed as a preview (a deployment_status event; the first
 * also sends a pending one), the PR enters the merge queue, and is merged
 * (a push to the default branch).
 *
 * Two workflows run, as a team with previews sets them up:
 * - gate:    on pull_request, merge_group and push to main, with model_id;
 * - preview: on deployment_status, the endpoint taken from the event
 *            (endpoint_path with a protection bypass in its query).
 *
 * The lifecycle runs twice: with agent_paths and merge_group: carry_over (the
 * pipeline), and as a gate that assesses every event (agent_paths empty,
 * merge_group: assess). Measured: assessments spent per event (the step's
 * assessments_spent output, checked against the runs the emulator created),
 * every step's result and check, every commit status, and that no result
 * passed without an assessment of the same agent that passed.
 *
 * Accounting: the gate workflow spends 3 on the pushes (the three that touch
 * agent paths) + 0 on the queue + 1 on the default branch = 4, against 7 when
 * it assesses every event (5 + 1 + 1). The preview workflow spends what the
 * deployments spend: 3 (the first deployment of each agent change; a pending
 * deployment is skipped and spends 0), against 5. Together 7 against 12.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runMain } from '../../src/action/main.js'
import type { BaselineStore } from '../../src/baseline/store.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { DEFAULT_VULNERABLE } from '../../src/emulator/taxonomy.js'
import { createClient } from '../../src/service/client.js'
import { fakeActionIO, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'
import { checkoutWith } from '../__fixtures__/workspace.js'

const REPO = 'octo-org/agent-app'
const PR = 7
const TOKEN = 'ghs_lifecycle_token_0123'
const BYPASS = 'vercel-bypass-0123456789abcdef'
const AGENT_PATHS = 'agent/**'
/** The preview's name: the default name of PR 7's own target. */

let emu: Emulator

beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 5, attacksPerCategory: 1 })
})
afterAll(async () => {
  await stopStarted(emu)
})

const sha = (): string => randomBytes(20).toString('hex')

/** The pushes of the pull request: the files each changes, and whether the agent it deploys is vulnerable. */
const PUSHES: { files: string[]; vulnerable: boolean }[] = [
  { files: ['agent/prompt.md'], vulnerable: true },
  { files: ['docs/guide.md'], vulnerable: true },
  { files: ['agent/prompt.md'], vulnerable: false },
  { files: ['README.md'], vulnerable: false },
  { files: ['agent/tools.py'], vulnerable: false }
]

interface Config {
  agentPaths: string
  mergeGroup: 'carry_over' | 'assess'
  /** stable: every deployment at one URL; per-deployment: each at its own host (Vercel's deployment URLs). */
  hosts?: 'stable' | 'per-deployment'
}

/** Another host for the demo agent: a proxy on a port of its own (the host names the port), sending the agent's Host. */
async function forwarder(target: string, open: Server[]): Promise<string> {
  const to = new URL(target)
  const server = createServer((req, res) => {
    const up = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    up.on('error', () => res.destroy())
    req.pipe(up)
  })
  open.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

interface StepRow {
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
async function lifecycle(config: Config): Promise<{ rows: StepRow[]; gh: GitHubStandin }> {
  const gh = await startGitHubStandin({ repository: REPO })
  const hosts: Server[] = []
  try {
    return await lifecycleSteps(config, gh, hosts)
  } finally {
    for (const h of hosts) h.close()
    for (const h of hosts) h.closeAllConnections()
  }
}

const registrations = (): number => emu.requestLog.filter((e) => e.endpoint === 'registerModel' && e.status === 201).length

async function lifecycleSteps(config: Config, gh: GitHubStandin, hosts: Server[]): Promise<{ rows: StepRow[]; gh: GitHubStandin }> {
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
    const url = config.hosts === 'per-deployment' ? await forwarder(agentUrl, hosts) : agentUrl
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
const vulnerableAt = (version: number): boolean => PUSHES[version - 1]?.vulnerable ?? false

function spentBy(rows: StepRow[], workflow: StepRow['workflow'], event?: string): number {
  return rows.filter((r) => r.workflow === workflow && (event === undefined || r.event.startsWith(event))).reduce((n, r) => n + r.spent, 0)
}

/** Passes of a step that spent nothing, with no passing assessment of the same agent (workflow = subject, version) before it. */
function passesWithoutAssessment(rows: StepRow[]): StepRow[] {
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
function measuredTable(pipeline: StepRow[], everyEvent: StepRow[]): string {
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

describe('the life of a pull request', () => {
  let pipeline: { rows: StepRow[]; gh: GitHubStandin }
  let everyEvent: { rows: StepRow[]; gh: GitHubStandin }

  let perDeployment: { rows: StepRow[]; gh: GitHubStandin }

  beforeAll(async () => {
    pipeline = await lifecycle({ agentPaths: AGENT_PATHS, mergeGroup: 'carry_over' })
    everyEvent = await lifecycle({ agentPaths: '', mergeGroup: 'assess' })
    perDeployment = await lifecycle({ agentPaths: AGENT_PATHS, mergeGroup: 'carry_over', hosts: 'per-deployment' })
  }, 180_000)
  afterAll(async () => {
    await Promise.all([pipeline.gh.stop(), everyEvent.gh.stop(), perDeployment.gh.stop()])
  })

  it('with a host per deployment, spends what a stable host spends (3 on the deployments) and registers no target for a carried-over push', () => {
    const previews = (rows: StepRow[]) => rows.filter((r) => r.event === 'deployment_status success')
    expect(spentBy(perDeployment.rows, 'preview')).toBe(3)
    expect(spentBy(perDeployment.rows, 'preview')).toBe(spentBy(pipeline.rows, 'preview'))
    expect(perDeployment.rows.reduce((n, r) => n + r.spent, 0)).toBe(7)
    // Each deployment that changed the agent is registered at its new host (a moved name); a carried one registers nothing.
    expect(previews(perDeployment.rows).map((r) => [r.spent, r.registered])).toEqual([
      [1, 1],
      [0, 0],
      [1, 1],
      [0, 0],
      [1, 1]
    ])
    expect(previews(pipeline.rows).map((r) => r.registered)).toEqual([1, 0, 0, 0, 0])
    expect(perDeployment.rows.map((r) => r.result)).toEqual(pipeline.rows.map((r) => r.result))
    expect(passesWithoutAssessment(perDeployment.rows)).toEqual([])
    // A carried-over push names the host that was assessed.
    expect(previews(perDeployment.rows)[1].summary).toMatch(/assessed at 127\.0\.0\.1:\d+, the agent is now at 127\.0\.0\.1:\d+/)
    if (process.env.LIFECYCLE_TABLE) process.stdout.write(`${measuredTable(perDeployment.rows, pipeline.rows)}\n`)
  })

  it('spends 3 + 0 + 1 assessments on the gate workflow against 7, and 3 on the deployments against 5', () => {
    const table = (rows: StepRow[]) => ({
      pushes: spentBy(rows, 'gate', 'pull_request'),
      queue: spentBy(rows, 'gate', 'merge_group'),
      defaultBranch: spentBy(rows, 'gate', 'push'),
      deployments: spentBy(rows, 'preview')
    })
    expect(table(pipeline.rows)).toEqual({ pushes: 3, queue: 0, defaultBranch: 1, deployments: 3 })
    expect(table(everyEvent.rows)).toEqual({ pushes: 5, queue: 1, defaultBranch: 1, deployments: 5 })
    // The output tells what the emulator saw: one run per assessment spent, none otherwise.
    for (const r of [...pipeline.rows, ...everyEvent.rows]) expect([r.event, r.commit, r.spent]).toEqual([r.event, r.commit, r.runs])
    // LIFECYCLE_TABLE=1 prints the measured table (docs/performance.md, "PR lifecycle").
    if (process.env.LIFECYCLE_TABLE) process.stdout.write(`${measuredTable(pipeline.rows, everyEvent.rows)}\n`)
  })

  it('gives every step the result of the agent it deployed, and fails the check exactly when it is not a pass', () => {
    const expected = (rows: StepRow[]) =>
      rows.map((r) => {
        if (r.event === 'deployment_status in_progress') return [r.event, 'skipped', false]
        const result = vulnerableAt(r.version) ? 'fail' : 'pass'
        return [r.event, result, result !== 'pass']
      })
    expect(pipeline.rows.map((r) => [r.event, r.result, r.failed])).toEqual(expected(pipeline.rows))
    expect(everyEvent.rows.map((r) => [r.event, r.result, r.failed])).toEqual(expected(everyEvent.rows))
  })

  it('passes no result without a passing assessment of the same agent, and assesses a push that touches agent paths after a fail', () => {
    expect(passesWithoutAssessment(pipeline.rows)).toEqual([])
    expect(passesWithoutAssessment(everyEvent.rows)).toEqual([])
    const pushes = pipeline.rows.filter((r) => r.workflow === 'gate' && r.event === 'pull_request')
    // Push 3 changes the agent after push 1's fail (carried to push 2): it is assessed, not carried.
    expect(pushes.map((r) => [r.result, r.spent])).toEqual([
      ['fail', 1],
      ['fail', 0],
      ['pass', 1],
      ['pass', 0],
      ['pass', 1]
    ])
    expect(pushes[1].summary).toMatch(/Agent security gate: fail · carried over from the assessment of [0-9a-f]{7}/)
    expect(pushes[1].summary).toContain('docs/guide.md')
    expect(pushes[3].summary).toMatch(/carried over from the assessment of [0-9a-f]{7}/)
    const queue = pipeline.rows.find((r) => r.event === 'merge_group')
    expect(queue?.summary).toMatch(/\*\*Carried over:\*\* `#7` passed at its head [0-9a-f]{7}\./)
  })

  it('says in every summary what the step spent and why', () => {
    for (const r of [...pipeline.rows, ...everyEvent.rows]) {
      expect(r.summary).toMatch(new RegExp(`Assessments spent by this step: ${r.spent} \\(`))
    }
  })

  it('sets a commit status on each deployed commit: pending, then the result of its agent', () => {
    for (const { rows, gh } of [pipeline, everyEvent]) {
      const deployed = rows.filter((r) => r.event === 'deployment_status success')
      for (const r of deployed) {
        const states = gh.git.statuses.filter((s) => s.sha === r.commit).map((s) => [s.context, s.state])
        // The default context names the preview's configuration, the same on every pull request.
        const context = expect.stringMatching(/^agent-security\/preview cfg-[0-9a-f]{8}$/)
        expect(states).toEqual([
          [context, 'pending'],
          [context, vulnerableAt(r.version) ? 'failure' : 'success']
        ])
      }
      // The pending deployment sets none, and the other workflows none (commit_status: auto).
      expect(gh.git.statuses).toHaveLength(deployed.length * 2)
      for (const s of gh.git.statuses) {
        expect(s.target_url).toMatch(/^https:\/\/github\.com\/octo-org\/agent-app\/actions\/runs\/\d+$/)
        expect(Array.from(s.description ?? '').length).toBeLessThanOrEqual(140)
      }
    }
  })

  it('keeps one sticky comment per workflow on the PR, each with the record of its last result, and never shows the bypass', () => {
    const comments = pipeline.gh.state.comments.get(PR) ?? []
    expect(comments).toHaveLength(2)
    for (const c of comments) {
      expect(c.body.split('\n')[2]).toMatch(/^<!-- asas-gate:record=2;result=pass;assessed=[0-9a-f]{40};head=[0-9a-f]{40};subject=/)
    }
    const everything = [
      ...comments.map((c) => c.body),
      ...pipeline.rows.map((r) => r.summary),
      ...pipeline.gh.git.statuses.map((s) => s.description ?? '')
    ].join('\n')
    expect(everything).not.toContain(BYPASS)
  })
})
