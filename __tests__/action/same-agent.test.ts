/**
 * "The same agent" across the PR-pipeline features, end to end in-process:
 * a service that registers targets (one model per name and host) and fails
 * the one at /api/billing, the GitHub stand-in, and the main step on the
 * events of a preview pipeline. Two agents of one commit (two paths at one
 * host, two projects deploying one commit) never share a record, a sticky
 * comment or a commit status; a preview that moves to another host keeps its
 * one comment and carries its result over when no agent path changed,
 * registering nothing for the new host.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import type { ModelListItem } from '../../src/service/contract/index.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { makeFinding, makeModel, PLANNED } from '../__fixtures__/builders.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { checkoutWith } from '../__fixtures__/workspace.js'

const REPO = 'octo/agent-app'
const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const C = 'c'.repeat(40)
const repository = { full_name: REPO, default_branch: 'main' }

let gh: GitHubStandin | undefined
const dirs: string[] = []
afterEach(async () => {
  await gh?.stop()
  gh = undefined
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A service with an inventory: a model per registration; a run of the model at a path (or query) containing "billing" fails. */
function inventory(): ServiceApi & { triggered: () => string[] } {
  const models: ModelListItem[] = []
  const paths = new Map<string, string>()
  const triggered: string[] = []
  const failing = (id: string): boolean => (paths.get(id) ?? '').includes('billing')
  let current = ''
  const api = fakeApi({
    listModels: async () => ({ models: [...models] }),
    registerModel: async (body) => {
      const id = `m${models.length + 1}`
      const url = new URL(body.config.endpoint_url)
      models.push(makeModel({ model_id: id, name: body.name, endpoint_host: url.host }))
      paths.set(id, `${url.pathname}${url.search}`)
      return { model_id: id, connected: true as const }
    },
    triggerRun: async (body) => {
      current = body.model_id
      triggered.push(current)
      return { run_id: `run_${triggered.length}`, model_id: current, status: 'running', started_at: '2026-11-21T12:00:00Z' }
    },
    getRun: async (runId) => ({
      run_id: runId,
      model_id: current,
      status: 'completed',
      started_at: '2026-11-21T12:00:00Z',
      completed_at: '2026-11-21T12:10:00Z',
      categories_planned: [...PLANNED],
      categories_completed: [...PLANNED],
      verdict: failing(current) ? 'fail' : 'pass'
    }),
    getCoverage: async (runId) => ({
      run_id: runId,
      run_status: 'completed',
      categories: PLANNED.map((c) => ({
        category: c,
        attacks_blocked: 3,
        attacks_succeeded: failing(current) && c === 'prompt_injection' ? 1 : 0,
        owasp: 'LLM01:2025',
        atlas: 'AML.T0051',
        worst_severity: failing(current) && c === 'prompt_injection' ? ('critical' as const) : null
      }))
    }),
    listFindings: async () => {
      const findings = failing(current) ? [makeFinding('critical')] : []
      return { findings, count: findings.length }
    },
    listRuns: async () => {
      const runs = triggered.map((_, i) => ({
        run_id: `run_${i + 1}`,
        status: 'completed' as const,
        started_at: '2026-11-21T12:00:00Z',
        findings_count: 0,
        ingest_incomplete: false,
        categories_planned: [...PLANNED],
        completed_at: null
      }))
      return { runs, total: runs.length, returned: runs.length }
    }
  })
  return new Proxy(api, {
    get: (t, prop) => (prop === 'triggered' ? () => [...triggered] : Reflect.get(t, prop))
  }) as unknown as ServiceApi & {
    triggered: () => string[]
  }
}

async function step(
  event: { name: string; payload: unknown; env?: Record<string, string> },
  inputs: Record<string, string>,
  api: ServiceApi
) {
  gh ??= await startGitHubStandin({ repository: REPO })
  const dir = mkdtempSync(join(tmpdir(), 'same-agent-'))
  dirs.push(dir)
  const eventPath = join(dir, 'event.json')
  writeFileSync(eventPath, JSON.stringify(event.payload))
  const io: FakeActionIO = fakeActionIO(
    {
      api_key: 'asas_key_same_agent_0123456789',
      base_url: 'https://asas.example.test',
      github_token: 'ghs_same_agent',
      accepted_risks_file: 'off',
      response_field: 'output.text',
      agent_paths: 'agent/**',
      ...inputs
    },
    {
      env: {
        GITHUB_EVENT_NAME: event.name,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: REPO,
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: '77',
        GITHUB_WORKSPACE: checkoutWith({}),
        RUNNER_TEMP: dir,
        ...event.env
      }
    }
  )
  await runMain({
    io,
    clock: fakeClock(),
    signal: new AbortController().signal,
    random: () => 0.5,
    makeApi: () => api,
    baselineStore: { save: async () => ({ saved: false, where: '' }) }
  })
  return io
}

function deployed(sha: string, url: string, environment = 'Preview') {
  return {
    name: 'deployment_status',
    payload: { deployment_status: { state: 'success', environment, environment_url: url }, deployment: { sha, ref: 'feat' }, repository },
    env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: A }
  }
}

function pullRequest(number: number, head: string) {
  return {
    name: 'pull_request',
    payload: { number, pull_request: { number, head: { sha: head, ref: 'feat' }, base: { sha: A, ref: 'main' } }, repository },
    env: { GITHUB_REF: `refs/pull/${number}/merge`, GITHUB_HEAD_REF: 'feat' }
  }
}

const comments = (n: number): string[] => (gh?.state.comments.get(n) ?? []).map((c) => c.body)

describe('two agents on one preview host (a matrix of endpoint_path)', () => {
  it("billing is assessed (and fails), never carrying support's pass over", async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/billing.py'])
    gh.seedPull({ number: 12, headSha: B, commits: [B] })
    const api = inventory()
    const host = 'https://agent-app-git-feat.vercel.app'
    const support = await step(deployed(B, host), { endpoint_path: '/api/support' }, api)
    expect(support.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    const billing = await step(deployed(B, host), { endpoint_path: '/api/billing' }, api)
    expect(billing.outputs).toMatchObject({ result: 'fail', assessments_spent: '1' })
    expect(api.triggered()).toEqual(['m1', 'm2'])
    // Each agent keeps its own comment and its own commit status.
    expect(comments(12)).toHaveLength(2)
    const finals = gh.git.statuses.filter((s) => s.state !== 'pending').map((s) => [s.context, s.state])
    expect(finals).toHaveLength(2)
    expect(finals[0][0]).not.toBe(finals[1][0])
    expect(finals.map(([, state]) => state)).toEqual(['success', 'failure'])
  })

  it('a second push of the billing agent carries over its own fail, not the pass of support', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/billing.py'])
    gh.addCommit(C, B, ['docs/readme.md'])
    gh.seedPull({ number: 12, headSha: C, commits: [B, C] })
    const api = inventory()
    const host = 'https://agent-app-git-feat.vercel.app'
    await step(deployed(B, host), { endpoint_path: '/api/billing' }, api)
    await step(deployed(B, host), { endpoint_path: '/api/support' }, api)
    const billing = await step(deployed(C, host), { endpoint_path: '/api/billing' }, api)
    expect(billing.summary.join('\n')).toContain('carried over')
    expect(billing.outputs).toMatchObject({ result: 'fail', assessments_spent: '0' })
    const support = await step(deployed(C, host), { endpoint_path: '/api/support' }, api)
    expect(support.outputs).toMatchObject({ result: 'pass', assessments_spent: '0' })
    expect(api.triggered()).toEqual(['m1', 'm2'])
  })
})

describe('two agents at one path, told apart by a query value (a matrix of ?agent=)', () => {
  it("billing is registered and assessed on its own, never finding support's target or carrying its pass over", async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/billing.py'])
    gh.seedPull({ number: 12, headSha: B, commits: [B] })
    const api = inventory()
    const host = 'https://agent-app-git-feat.vercel.app'
    const support = await step(deployed(B, host), { endpoint_path: '/api/chat?agent=support' }, api)
    expect(support.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    const billing = await step(deployed(B, host), { endpoint_path: '/api/chat?agent=billing' }, api)
    expect(billing.outputs).toMatchObject({ result: 'fail', assessments_spent: '1' })
    expect(api.triggered()).toEqual(['m1', 'm2'])
    const contexts = new Set(gh.git.statuses.map((s) => s.context))
    expect(contexts.size).toBe(2)
  })
})

describe('the agent moved', () => {
  it('endpoint_url moved to another path is assessed again, never passed with 0 runs', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/a.py'])
    gh.addCommit(C, B, ['docs/readme.md'])
    gh.seedPull({ number: 4, headSha: B, commits: [B] })
    const api = inventory()
    const first = await step(pullRequest(4, B), { endpoint_url: 'https://agent.example.test/api/support' }, api)
    expect(first.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    gh.seedPull({ number: 4, headSha: C, commits: [B, C] })
    const moved = await step(pullRequest(4, C), { endpoint_url: 'https://agent.example.test/api/billing' }, api)
    expect(moved.outputs).toMatchObject({ result: 'fail', assessments_spent: '1' })
    expect(api.triggered()).toHaveLength(2)
  })

  it('a preview whose host changes with every deployment carries its result over, registering nothing for the new hosts', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    const shas = ['1', '2', '3', '4', '5'].map((d) => d.repeat(40))
    let parent = A
    for (const sha of shas) {
      gh.addCommit(sha, parent, ['docs/readme.md'])
      parent = sha
    }
    const api = inventory()
    const registered: string[] = []
    const counting = new Proxy(api, {
      get: (t, prop) =>
        prop === 'registerModel'
          ? async (body: Parameters<ServiceApi['registerModel']>[0]) => {
              registered.push(body.config.endpoint_url)
              return t.registerModel(body)
            }
          : Reflect.get(t, prop)
    })
    const hostOf = (i: number) => `agent-app-${i}abc-team.vercel.app`
    const runs: FakeActionIO[] = []
    for (const [i, sha] of shas.entries()) {
      gh.seedPull({ number: 12, headSha: sha, commits: shas.slice(0, i + 1) })
      runs.push(await step(deployed(sha, `https://${hostOf(i)}`), { endpoint_path: '/api/support' }, counting))
    }
    expect(runs.map((io) => [io.outputs.result, io.outputs.assessments_spent])).toEqual([
      ['pass', '1'],
      ...shas.slice(1).map(() => ['pass', '0'])
    ])
    // Only the first host was registered; a carried-over push names no model.
    expect(registered).toEqual([`https://${hostOf(0)}/api/support`])
    expect(api.triggered()).toEqual(['m1'])
    expect(['', undefined]).toContain(runs[3].outputs.model_id)
    // Each carried-over push says which host was assessed, and the record keeps it.
    for (const [i, io] of runs.slice(1).entries()) {
      expect(io.summary.join('\n').replace(/\\(.)/g, '$1')).toContain(`assessed at ${hostOf(0)}, the agent is now at ${hostOf(i + 1)}`)
    }
    expect(comments(12)).toHaveLength(1)
    expect(comments(12)[0].split('\n')[2]).toContain(
      `;host=${hostOf(0).replace(/[^A-Za-z0-9_]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)};`
    )
  })

  it('a push that changes the agent at a new host is assessed there (registered under the moved name)', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['docs/readme.md'])
    gh.addCommit(C, B, ['agent/a.py'])
    const api = inventory()
    gh.seedPull({ number: 12, headSha: B, commits: [B] })
    await step(deployed(B, 'https://agent-app-1abc-team.vercel.app'), { endpoint_path: '/api/support' }, api)
    gh.seedPull({ number: 12, headSha: C, commits: [B, C] })
    const io = await step(deployed(C, 'https://agent-app-2abc-team.vercel.app'), { endpoint_path: '/api/support' }, api)
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    expect(api.triggered()).toEqual(['m1', 'm2'])
  })
})

describe('two projects deploying one commit', () => {
  it('never share a commit status context or a record', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/a.py'])
    gh.seedPull({ number: 12, headSha: B, commits: [B] })
    const api = inventory()
    const web = await step(deployed(B, 'https://web-git-feat.vercel.app', 'Preview – web'), { endpoint_path: '/api/chat' }, api)
    const docs = await step(deployed(B, 'https://docs-git-feat.vercel.app', 'Preview – docs'), { endpoint_path: '/api/chat' }, api)
    expect(web.outputs.assessments_spent).toBe('1')
    expect(docs.outputs.assessments_spent).toBe('1')
    const contexts = new Set(gh.git.statuses.map((s) => s.context))
    expect(contexts.size).toBe(2)
    expect(contexts.has('agent-security/preview')).toBe(false)
    expect(comments(12)).toHaveLength(2)
  })
})

describe('a merge queue of a preview (its configuration and host unknown there)', () => {
  it('passes only when every agent recorded under the name passed at the head', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/a.py'])
    gh.seedPull({ number: 12, headSha: B, commits: [B] })
    const api = inventory()
    const host = 'https://agent-app-git-feat.vercel.app'
    await step(deployed(B, host), { endpoint_path: '/api/support' }, api)
    const queue = {
      name: 'merge_group',
      payload: {
        merge_group: { head_sha: C, head_ref: `refs/heads/gh-readonly-queue/main/pr-12-${A}`, base_sha: A, base_ref: 'refs/heads/main' },
        repository
      },
      env: { GITHUB_REF: `refs/heads/gh-readonly-queue/main/pr-12-${A}`, GITHUB_SHA: C }
    }
    expect((await step(queue, {}, api)).outputs).toMatchObject({ result: 'pass', assessments_spent: '0' })
    await step(deployed(B, host), { endpoint_path: '/api/billing' }, api)
    const io = await step(queue, {}, api)
    expect(io.outputs).toMatchObject({ result: 'error', assessments_spent: '0' })
    expect(io.failures[0]).toMatch(/#12: its last result is fail/)
  })
})

describe('two agents given one target_name (one status context)', () => {
  const host = 'https://agent-app-git-feat.vercel.app'
  const support = { endpoint_path: '/api/support', target_name: 'agent' }
  const billing = { endpoint_path: '/api/billing', target_name: 'agent' }
  const finals = (): string[][] =>
    (gh?.git.statuses ?? []).filter((s) => s.state !== 'pending').map((s) => [s.state, s.description ?? '', s.target_url ?? ''])
  const lastState = (): string | undefined => gh?.git.statuses.at(-1)?.state

  async function commit(): Promise<void> {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/billing.py'])
    gh.seedPull({ number: 12, headSha: B, commits: [B] })
  }

  it.each([
    ['the failing agent first, then the passing one', billing, support],
    ['the passing agent first, then the failing one', support, billing]
  ])('one after the other (%s): the context ends in failure, never green', async (_, first, second) => {
    await commit()
    const api = inventory()
    await step(deployed(B, host), first, api)
    const later = await step(deployed(B, host), second, api)
    expect(new Set(gh?.git.statuses.map((s) => s.context))).toEqual(new Set(['agent-security/agent']))
    expect(lastState()).toBe('failure')
    expect(finals().at(-1)?.[1]).toBe('Another agent sets this status too: give each agent its own target_name')
    expect(finals().at(-1)?.[2]).toMatch(/^https:\/\/.*#agent-[0-9a-f]{8}$/)
    expect(later.outputs.result).toBe('error')
    expect(later.failures).toEqual([
      expect.stringMatching(/target_name.*another agent \([0-9a-f]{8}\) set the commit status agent-security\/agent/)
    ])
    expect(later.failures[0]).not.toMatch(/\n/)
  })

  it('interleaved (A pending, B pending, A final and read, B final and read): both refuse, the last status is a failure', async () => {
    await commit()
    let bPending!: () => void
    const bStarted = new Promise<void>((resolve) => (bPending = resolve))
    let aEnded!: () => void
    const aDone = new Promise<void>((resolve) => (aEnded = resolve))
    // A waits for B's pending status before it triggers; B waits for A's whole step.
    const a = gated(inventory(), () => bStarted)
    const b = gated(inventory(), async () => {
      bPending()
      await aDone
    })
    const runA = step(deployed(B, host), support, a).then((io) => {
      aEnded()
      return io
    })
    const runB = step(deployed(B, host), billing, b)
    const [ioA, ioB] = await Promise.all([runA, runB])
    const states = gh?.git.statuses.map((s) => s.state)
    expect(states?.slice(0, 2)).toEqual(['pending', 'pending'])
    expect(ioA.outputs.result).toBe('error')
    expect(ioB.outputs.result).toBe('error')
    expect(lastState()).toBe('failure')
    expect(finals().filter(([state]) => state === 'success')).toHaveLength(1)
  })

  it('one agent run again on the same commit keeps its own context and result', async () => {
    await commit()
    const api = inventory()
    const first = await step(deployed(B, host), support, api)
    const again = await step(deployed(B, host), support, api)
    expect([first.outputs.result, again.outputs.result]).toEqual(['pass', 'pass'])
    expect(again.failures).toEqual([])
    expect(lastState()).toBe('success')
  })

  it('statuses that cannot be read fail the check closed: the context ends in failure and the step fails', async () => {
    await commit()
    const api = inventory()
    gh?.failNext('GET', /\/commits\/[0-9a-f]+\/statuses$/, 403)
    const io = await step(deployed(B, host), support, api)
    expect(io.outputs.result).toBe('error')
    expect(io.failures).toEqual([expect.stringMatching(/Could not read the statuses of bbbbbbb.*403/)])
    expect(lastState()).toBe('failure')
  })
})

/** `api` whose triggerRun first awaits `before()`. */
function gated(api: ServiceApi, before: () => Promise<void>): ServiceApi {
  return new Proxy(api, {
    get: (t, prop) =>
      prop === 'triggerRun'
        ? async (...args: Parameters<ServiceApi['triggerRun']>) => {
            await before()
            return t.triggerRun(...args)
          }
        : Reflect.get(t, prop)
  })
}
