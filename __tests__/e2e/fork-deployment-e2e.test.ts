/**
 * A fork's preview through the main step, in-process (runMain) against the
 * emulator and the GitHub stand-in: a deployment_status event for the head of
 * a pull request from a fork, with a target credential and a protection
 * bypass in endpoint_path, fails closed and the service never receives
 * either (what the emulator stored and was asked, and what the agent was
 * sent, are read back). The same preview deployed from a branch of this
 * repository is registered with both: the check can see them when they come.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'
import { checkoutWith } from '../__fixtures__/workspace.js'

const REPO = 'octo-org/agent-app'
const BYPASS = 'vercel-bypass-fork-0123456789abcdef'
const CREDENTIAL = 'target-credential-fork-0123456789'
const MAIN = '1'.repeat(40)
const OURS = '2'.repeat(40)
const FORK = '3'.repeat(40)

let emu: Emulator
let gh: GitHubStandin
const dirs: string[] = []

beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 5, attacksPerCategory: 1 })
  gh = await startGitHubStandin({ repository: REPO })
  gh.addCommit(MAIN, null, ['README.md'])
  gh.addCommit(OURS, MAIN, ['agent/prompt.md'])
  gh.addCommit(FORK, MAIN, ['agent/prompt.md'])
  gh.setBranch('main', MAIN)
  gh.seedPull({ number: 7, headSha: OURS, headRef: 'feature-7' })
  // The fork's branch has the same name as one here: the name proves nothing.
  gh.seedPull({ number: 8, headSha: FORK, headRef: 'feature-7', headRepo: 'mallory/agent-app' })
})
afterAll(async () => {
  await stopStarted(emu, gh)
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** `given`: the URL the deployment event names (undefined: none) and the step's own endpoint_url inputs (empty: endpoint_path). */
async function deploy(
  sha: string,
  given: { environmentUrl?: string; inputs?: Record<string, string> } = { environmentUrl: `${emu.demoAgent.url}/` }
): Promise<FakeActionIO> {
  const dir = mkdtempSync(join(tmpdir(), 'fork-deploy-'))
  dirs.push(dir)
  const eventPath = join(dir, 'event.json')
  writeFileSync(
    eventPath,
    JSON.stringify({
      deployment_status: { state: 'success', environment: 'Preview', environment_url: given.environmentUrl },
      deployment: { sha, ref: 'feature-7', environment: 'Preview', creator: { login: 'vercel[bot]' } },
      repository: { full_name: REPO, default_branch: 'main' }
    })
  )
  const clock = fakeClock(Date.parse('2026-11-21T12:00:00Z'))
  const io = fakeActionIO(
    {
      api_key: emu.keys.full,
      base_url: emu.url,
      github_token: 'ghs_fork_e2e_token_0123',
      timeout_minutes: '30',
      accepted_risks_file: 'off',
      response_field: 'output.text',
      endpoint_path: `/chat/open?x-vercel-protection-bypass=${BYPASS}`,
      auth_type: 'bearer',
      target_credential: CREDENTIAL,
      ...given.inputs
    },
    {
      env: {
        GITHUB_EVENT_NAME: 'deployment_status',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: REPO,
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: '4242',
        GITHUB_REF: 'refs/heads/feature-7',
        GITHUB_SHA: sha,
        GITHUB_WORKSPACE: checkoutWith({}),
        RUNNER_TEMP: dir
      }
    }
  )
  await runMain({
    io,
    clock,
    signal: new AbortController().signal,
    random: () => 0.5,
    baselineStore: { save: async () => ({ saved: false, where: '' }) },
    makeApi: (_inputs, deadline, opts) =>
      createClient({ baseUrl: emu.url, apiKey: emu.keys.full, clock, deadline, log: opts?.log, requestTimeoutMs: opts?.requestTimeoutMs })
  })
  return io
}

/** What the service holds and was asked, and what reached the agent, that carries a secret. */
function secretsSeen(): { stored: boolean; credentials: boolean; agentAsked: boolean } {
  return {
    stored: emu.control.snapshot().includes(BYPASS) || emu.control.snapshot().includes(CREDENTIAL),
    credentials: emu.control.registeredCredentials().some((c) => c.includes(CREDENTIAL)),
    agentAsked: emu.requestLog.some((e) => e.endpoint === 'demo-agent' && e.query.includes(BYPASS))
  }
}

describe("a fork's preview and the target's secrets", () => {
  it("the fork's head: fails closed, and the service receives neither the credential nor the bypass", async () => {
    const before = emu.requestLog.length
    const io = await deploy(FORK)
    expect(io.outputs.result).toBe('error')
    expect(io.failures.join('\n')).toMatch(/pull request #8 from the fork mallory\/agent-app, and on no branch of this repository/)
    expect(secretsSeen()).toEqual({ stored: false, credentials: false, agentAsked: false })
    // Nothing was registered, probed or run: the service was not asked at all.
    expect(emu.requestLog.slice(before).filter((e) => e.endpoint !== 'admin')).toEqual([])
    expect(emu.control.runs()).toEqual([])
    expect(gh.git.statuses.filter((s) => s.sha === FORK).map((s) => s.state)).toEqual(['pending', 'error'])
  })

  it("the fork's deployment naming no usable URL, with endpoint_url given for it: fails closed the same, nothing sent", async () => {
    const before = emu.requestLog.length
    const io = await deploy(FORK, {
      environmentUrl: undefined,
      inputs: { endpoint_path: '', endpoint_url: `${emu.demoAgent.url}/chat/open?x-vercel-protection-bypass=${BYPASS}` }
    })
    expect(io.outputs.result).toBe('error')
    expect(io.failures.join('\n')).toMatch(/pull request #8 from the fork mallory\/agent-app, and on no branch of this repository/)
    expect(secretsSeen()).toEqual({ stored: false, credentials: false, agentAsked: false })
    expect(emu.requestLog.slice(before).filter((e) => e.endpoint !== 'admin')).toEqual([])
  })

  it('the same preview deployed from a branch of this repository is registered with both (the check above can see them)', async () => {
    const io = await deploy(OURS)
    expect(io.failures.join('\n')).not.toMatch(/outside this repository/)
    expect(io.outputs.model_id).toMatch(/.+/)
    expect(secretsSeen().stored).toBe(true)
  })
})
