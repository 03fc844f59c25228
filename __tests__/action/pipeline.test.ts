/**
 * The main step on the events of PR pipelines (docs/pr-pipelines.md),
 * in-process with a scripted service and the GitHub stand-in: deployments
 * (the pull request of the deployed commit, the commit status, a deployment
 * not ready, one that cannot be used), merge queues (carried over, assessed,
 * failed closed), the carried-over comment, GitHub failures that must mean
 * "assess", and the budget line when the service refuses the trigger.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { runPost } from '../../src/action/post-step.js'
import { stepSecrets } from '../../src/action/scrubbed-io.js'
import { verdictInputs } from '../../src/decision/carried-result.js'
import { policyDigest } from '../../src/pipeline/identity.js'
import { commentMarker, readAssessmentRecord, recordMarker, recordSubjectKey, type RecordedResult } from '../../src/report/comment.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { ServiceError } from '../../src/util/errors.js'
import { PLANNED } from '../__fixtures__/builders.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, logged, mainState, type FakeActionIO } from '../__fixtures__/fake-io.js'
import { openState, stepBinding } from '../../src/action/saved-state.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { scriptedService } from '../__fixtures__/scripted-service.js'
import { checkoutWith } from '../__fixtures__/workspace.js'
import { waitFor } from '../__fixtures__/emulator-helpers.js'

const REPO = 'octo/agent'
const KEY = 'asas_key_pipeline_0123456789'
const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const C = 'c'.repeat(40)
const Q = 'd'.repeat(40)
const passing = (): ServiceApi =>
  scriptedService({ statuses: [{ status: 'completed', categories_completed: [...PLANNED], verdict: 'pass' }] })

let gh: GitHubStandin | undefined
afterEach(async () => {
  await gh?.stop()
  gh = undefined
})

/** The digest of the default verdict inputs with accepted_risks_file off (asked in a test, never at import). */
const defaultPolicy = (): string =>
  policyDigest(
    verdictInputs({
      minSeverity: 'high',
      categories: [],
      failOn: 'any',
      failOnIncomplete: true,
      acceptedText: null,
      baselineRunId: null,
      evidenceRuns: 5,
      evidenceMaxAgeDays: 30,
      confidence: 0.95,
      confirmationRunsMax: 30,
      runsPerChange: 1
    })
  )

/** A sticky comment of this action recording `result` of `subject`, assessed at `assessed` and standing for `head`. */
function recordComment(
  marker: string,
  subject: string,
  result: RecordedResult,
  assessed: string,
  head = assessed,
  config: string | null = null
): string {
  return [
    marker,
    `<!-- asas-gate:result=${result};sha=${head.slice(0, 12)};at=2026-11-21T11:00Z -->`,
    recordMarker({
      result,
      assessedSha: assessed,
      headSha: head,
      subject,
      config,
      host: config === null ? null : recordSubjectKey('agent-git-feat.vercel.app'),
      profileDigest: null,
      policyDigest: defaultPolicy(),
      at: '2026-11-21T11:00Z'
    }),
    '',
    `### ${result === 'pass' ? '✅' : '❌'} Agent security gate: ${result} · ${result === 'pass' ? 'nothing blocks at or above high' : '1 open critical'} · m`,
    '',
    'Assessments spent by this step: 1 (assessed run run\\_1 of bbbbbbb: agent\\_paths is empty).',
    '',
    'FINDINGS OF THE ASSESSED REPORT'
  ].join('\n')
}

async function step(
  event: { name: string; payload: unknown; env?: Record<string, string> },
  inputs: Record<string, string>,
  api: ServiceApi = passing(),
  signal: AbortSignal = new AbortController().signal,
  started: (io: FakeActionIO) => void = () => {}
): Promise<FakeActionIO> {
  gh ??= await startGitHubStandin({ repository: REPO })
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-'))
  const eventPath = join(dir, 'event.json')
  writeFileSync(eventPath, JSON.stringify(event.payload))
  const io = fakeActionIO(
    { api_key: KEY, base_url: 'https://asas.example.test', github_token: 'ghs_pipeline', accepted_risks_file: 'off', ...inputs },
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
  // As runMainAction does first thing: the keys the post step reads, then the seal.
  openState(io, stepBinding(io.env), 'nonce-of-the-test')
  started(io)
  await runMain({
    io,
    clock: fakeClock(),
    signal,
    random: () => 0.5,
    makeApi: () => api,
    baselineStore: { save: async () => ({ saved: false, where: '' }) }
  })
  return io
}

/** The summary as read: markdown escapes and the code spans of quoted references undone. */
const summary = (io: FakeActionIO): string =>
  io.summary
    .join('\n')
    .replace(/\\(.)/g, '$1')
    .replace(/`(#\d+)`/g, '$1')
const repository = { full_name: REPO, default_branch: 'main' }

function deploymentStatus(state: string, sha: string, url = 'https://agent-git-feat.vercel.app') {
  return {
    name: 'deployment_status',
    payload: { deployment_status: { state, environment: 'Preview', environment_url: url }, deployment: { sha, ref: 'feat' }, repository },
    env: { GITHUB_REF: 'refs/heads/feat', GITHUB_SHA: sha }
  }
}

function pullRequest(number: number, head: string) {
  return {
    name: 'pull_request',
    payload: { number, pull_request: { number, head: { sha: head, ref: 'feat' }, base: { sha: A, ref: 'main' } }, repository },
    env: { GITHUB_REF: `refs/pull/${number}/merge`, GITHUB_HEAD_REF: 'feat' }
  }
}

function mergeGroup(pr: number) {
  const ref = `refs/heads/gh-readonly-queue/main/pr-${pr}-${A}`
  return {
    name: 'merge_group',
    payload: { merge_group: { head_sha: Q, head_ref: ref, base_sha: A, base_ref: 'refs/heads/main' }, repository },
    env: { GITHUB_REF: ref, GITHUB_SHA: Q }
  }
}

describe("a target's secrets and code from outside the repository", () => {
  const F = 'f'.repeat(40)
  const BYPASS = 'bypass-secret-0123456789abcdef'
  const secrets = {
    response_field: 'output.text',
    endpoint_path: `/api/chat?x-vercel-protection-bypass=${BYPASS}`,
    auth_type: 'bearer',
    target_credential: 'target-credential-0123456789'
  }
  const calls = (api: ServiceApi): string[] => (api as unknown as { calls: string[] }).calls

  /** This repository's main at A, a branch feat at B; a fork's commit F (on A) heads pull request 13 from mallory/agent. */
  async function world(): Promise<GitHubStandin> {
    const standin = await startGitHubStandin({ repository: REPO })
    standin.addCommit(A, null, [])
    standin.addCommit(B, A, ['agent/a.py'])
    standin.addCommit(F, A, ['agent/a.py'])
    standin.setBranch('main', A)
    standin.setBranch('feat', B)
    standin.seedPull({ number: 13, headSha: F, headRef: 'feat', headRepo: 'mallory/agent' })
    return standin
  }

  it("a deployment of a fork's head (its branch named like one here) fails closed: nothing sent to the service, the status error", async () => {
    gh = await world()
    const api = passing()
    const io = await step(deploymentStatus('success', F), secrets, api)
    expect(io.outputs.result).toBe('error')
    expect(calls(api)).toEqual([])
    const failure = io.failures.join('\n')
    expect(failure).toMatch(
      /target_credential and the query values of endpoint_path would go to code from outside this repository: the deployed commit fffffff is the head of pull request #13 from the fork mallory\/agent, and on no branch of this repository \(not on 'feat'\)/
    )
    expect(failure).toMatch(/allow_outside_code_secrets: true/)
    expect(failure).not.toContain(BYPASS)
    expect(gh.git.statuses.map((s) => [s.sha, s.state])).toEqual([
      [F, 'pending'],
      [F, 'error']
    ])
    // Asked: the pull requests of the commit, then whether the deployment's branch holds it.
    expect(gh.requests.some((r) => r.path === `/repos/${REPO}/compare/feat...${F}`)).toBe(true)
  })

  it('a commit on no branch, no pull request naming it, fails closed too; so does a token that cannot ask', async () => {
    gh = await world()
    const lone = '9'.repeat(40)
    gh.addCommit(lone, A, [])
    const io = await step(deploymentStatus('success', lone), secrets)
    expect(io.failures.join('\n')).toMatch(/the deployed commit 9999999 is on no branch of this repository \(not on 'feat'\)/)
    const noToken = await step(deploymentStatus('success', B), { ...secrets, github_token: '' })
    expect(noToken.failures.join('\n')).toMatch(/cannot be told whether the code is this repository's \(github_token is empty/)
  })

  it("the deployment's branch holding the commit: the step goes on (the target is looked up)", async () => {
    gh = await world()
    const api = passing()
    const io = await step(deploymentStatus('success', B), secrets, api)
    expect(io.failures.join('\n')).not.toMatch(/outside this repository/)
    expect(calls(api).length).toBeGreaterThan(0)
  })

  it('allow_outside_code_secrets: true lets the secrets go, and says so', async () => {
    gh = await world()
    const api = passing()
    const io = await step(deploymentStatus('success', F), { ...secrets, allow_outside_code_secrets: 'true' }, api)
    expect(io.failures.join('\n')).not.toMatch(/outside this repository/)
    expect(calls(api).length).toBeGreaterThan(0)
    expect(logged(io).join('\n')).toContain('allow_outside_code_secrets is true')
  })

  it.each([
    ['without an environment_url', undefined],
    ['with a plain-http environment_url', 'http://agent-git-feat.vercel.app']
  ])("a fork's deployment %s, with endpoint_url given for it, fails closed: the deployed commit still decides", async (_n, url) => {
    gh = await world()
    const api = passing()
    const event = deploymentStatus('success', F)
    Object.assign(event.payload.deployment_status, { environment_url: url })
    const io = await step(
      event,
      { ...secrets, endpoint_path: '', endpoint_url: `https://mallory-preview.example.com/chat?x-vercel-protection-bypass=${BYPASS}` },
      api
    )
    expect(io.outputs.result).toBe('error')
    expect(calls(api)).toEqual([])
    expect(io.failures.join('\n')).toMatch(/the deployed commit fffffff is the head of pull request #13 from the fork mallory\/agent/)
  })

  it.each(['pull_request_review', 'pull_request_review_comment'])(
    "%s on a fork's pull request with endpoint_url and a credential fails closed before any request",
    async (name) => {
      gh = await world()
      const api = passing()
      const pr = { number: 13, head: { sha: F, ref: 'feat', repo: { full_name: 'mallory/agent' } }, base: { sha: A, ref: 'main' } }
      const io = await step(
        { name, payload: { pull_request: pr, repository }, env: { GITHUB_REF: 'refs/pull/13/merge', GITHUB_SHA: F } },
        {
          endpoint_url: 'https://pr-13.preview.example.com/chat',
          response_field: 'output.text',
          auth_type: 'bearer',
          target_credential: 'target-credential-0123456789'
        },
        api
      )
      expect(io.outputs.result).toBe('error')
      expect(io.failures.join('\n')).toMatch(/pull request #13 is in the fork mallory\/agent/)
      expect(calls(api)).toEqual([])
    }
  )

  it('a target without secrets is assessed whoever wrote the code (nothing to hand over)', async () => {
    gh = await world()
    const api = passing()
    const io = await step(deploymentStatus('success', F), { response_field: 'output.text' }, api)
    expect(io.failures.join('\n')).not.toMatch(/outside this repository/)
    expect(calls(api).length).toBeGreaterThan(0)
  })

  it.each([
    [
      'pull_request_target from a fork',
      { head: { sha: F, ref: 'feat', repo: { full_name: 'mallory/agent' } } },
      /pull request #13 is in the fork mallory\/agent/
    ],
    ['pull_request_target from a deleted fork', { head: { sha: F, ref: 'feat', repo: null } }, /a fork that no longer exists/]
  ])('%s with endpoint_url and a credential fails closed before any request', async (_name, pr, why) => {
    gh = await world()
    const api = passing()
    const io = await step(
      {
        name: 'pull_request_target',
        payload: { number: 13, pull_request: { number: 13, ...pr, base: { sha: A, ref: 'main', repo: { full_name: REPO } } }, repository },
        env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: A }
      },
      {
        endpoint_url: 'https://pr-13.preview.example.com/chat',
        response_field: 'output.text',
        auth_type: 'bearer',
        target_credential: 'target-credential-0123456789'
      },
      api
    )
    expect(io.outputs.result).toBe('error')
    expect(io.failures.join('\n')).toMatch(why)
    expect(calls(api)).toEqual([])
  })

  /** The payload GitHub sends for `name` about commit `sha` (branches: the branches here GitHub says hold it). */
  function commitEvent(name: string, sha: string, branch: string | null) {
    const suite = { head_sha: sha, head_branch: branch, pull_requests: [] }
    const payload =
      name === 'status'
        ? { sha, state: 'success', context: 'ci', branches: branch === null ? [] : [{ name: branch, commit: { sha } }], repository }
        : name === 'check_run'
          ? { action: 'completed', check_run: { head_sha: sha, check_suite: suite, pull_requests: [] }, repository }
          : { action: 'completed', check_suite: suite, repository }
    return { name, payload, env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: A } }
  }
  const endpointSecrets = {
    endpoint_url: 'https://preview.example.com/chat',
    response_field: 'output.text',
    auth_type: 'bearer',
    target_credential: 'target-credential-0123456789'
  }

  it.each(['status', 'check_run', 'check_suite'])(
    "%s naming a fork's commit (its branch named like one here) fails closed before any request",
    async (name) => {
      gh = await world()
      const api = passing()
      const io = await step(commitEvent(name, F, 'feat'), endpointSecrets, api)
      expect(io.outputs.result).toBe('error')
      expect(calls(api)).toEqual([])
      expect(io.failures.join('\n')).toMatch(
        /target_credential would go to code from outside this repository: the commit fffffff that the event names is the head of pull request #13 from the fork mallory\/agent, and on no branch of this repository \(not on 'feat'\)/
      )
    }
  )

  it.each(['status', 'check_run', 'check_suite'])('%s naming no commit fails closed', async (name) => {
    gh = await world()
    const api = passing()
    const event = commitEvent(name, F, null)
    const io = await step({ ...event, payload: JSON.parse(JSON.stringify(event.payload).replaceAll(F, 'not-a-sha')) }, endpointSecrets, api)
    expect(io.failures.join('\n')).toMatch(/cannot be told whether the code is this repository's \(the event names no commit\)/)
    expect(calls(api)).toEqual([])
  })

  it.each(['status', 'check_run', 'check_suite'])('%s naming a commit a branch here holds: the step goes on', async (name) => {
    gh = await world()
    const api = passing()
    const io = await step(commitEvent(name, B, 'feat'), endpointSecrets, api)
    expect(io.failures.join('\n')).not.toMatch(/outside this repository/)
    expect(calls(api).length).toBeGreaterThan(0)
  })
})

describe('deployment events', () => {
  it('a ready deployment whose payload nests past the bound fails closed: result error, the commit status error, nothing assessed', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, ['agent/a.py'])
    const event = deploymentStatus('success', B)
    let deep: unknown = 'x'
    for (let i = 0; i < 200; i++) deep = [deep]
    const api = passing()
    const io = await step(
      { ...event, payload: { ...event.payload, deployment: { ...event.payload.deployment, payload: deep } } },
      { model_id: 'm' },
      api
    )
    expect(io.outputs.result).toBe('error')
    expect(io.outputs.assessments_spent).toBe('0')
    expect(io.failures.join('\n')).toMatch(
      /GITHUB_EVENT_PATH.*deployment_status event .*cannot be used: it nests lists or mappings deeper than 64 levels/
    )
    expect(gh.git.statuses.map((s) => [s.sha, s.context, s.state])).toEqual([[B, 'agent-security/m', 'error']])
  })

  it('a payload that is no JSON object fails closed too, in validate mode as well', async () => {
    for (const mode of ['gate', 'validate']) {
      const io = await step({ name: 'deployment_status', payload: 'not an object', env: { GITHUB_SHA: B } }, { model_id: 'm', mode })
      expect(io.outputs.result).toBe('error')
      expect(io.failures.join('\n')).toMatch(/cannot be used: it is not a JSON object/)
    }
  })

  it('with no pull request holding the commit: the summary and the commit status only, and the summary says so', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, ['agent/a.py'])
    const io = await step(deploymentStatus('success', B), { model_id: 'm' })
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    expect(summary(io)).toMatch(
      /Deployment of bbbbbbb to Preview: no open pull request holds this commit, so the result is in this summary/
    )
    expect(summary(io)).toMatch(/Assessments spent by this step: 1 \(assessed run run_1 of bbbbbbb: agent_paths is empty/)
    expect(gh.state.comments.size).toBe(0)
    expect(gh.git.statuses.map((s) => [s.sha, s.context, s.state])).toEqual([
      [B, 'agent-security/m', 'pending'],
      [B, 'agent-security/m', 'success']
    ])
    expect(gh.git.statuses[1].description).toMatch(/^pass: no open findings/)
    expect(gh.git.statuses[1].target_url).toMatch(new RegExp(`^https://github.com/${REPO}/actions/runs/77#agent-[0-9a-f]{8}$`))
  })

  it("posts the sticky comment on the deployed commit's open pull request, with the record of what was assessed", async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, ['agent/a.py'])
    gh.seedPull({ number: 12, headSha: B })
    const io = await step(deploymentStatus('success', B), { model_id: 'm' })
    expect(io.outputs.comment_url).toMatch(/\/12#issuecomment-/)
    const [comment] = gh.state.comments.get(12) ?? []
    expect(readAssessmentRecord(comment.body)).toMatchObject({
      result: 'pass',
      assessedSha: B,
      headSha: B,
      subject: recordSubjectKey('model:m')
    })
    expect(summary(io)).toContain('the commit of pull request #12: the result goes to its comment and the commit status')
  })

  it('a Vercel repository_dispatch: the deployed commit (not GITHUB_SHA, the default branch) gets the status and the report', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/a.py'])
    const io = await step(
      {
        name: 'repository_dispatch',
        payload: {
          action: 'vercel.deployment.success',
          client_payload: { url: 'agent-abc.vercel.app', git: { sha: B, ref: 'feat' } },
          repository
        },
        env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: A }
      },
      { model_id: 'm' }
    )
    expect(io.outputs.result).toBe('pass')
    expect(gh.git.statuses.map((s) => [s.sha, s.state])).toEqual([
      [B, 'pending'],
      [B, 'success']
    ])
    expect(summary(io)).toContain('commit `bbbbbbb`')
  })

  it("reads the accepted risks at the pull request's base branch, never at the deployed commit (the pull request's own copy)", async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, ['agent/a.py'])
    gh.seedPull({ number: 12, headSha: B })
    await step(deploymentStatus('success', B), { model_id: 'm', accepted_risks_file: '' })
    const refs = gh.requests.filter((r) => r.path.includes('/contents/')).map((r) => r.query.ref)
    expect(refs).toEqual(['refs/heads/main'])
  })

  it.each([
    ['deployment_status', deploymentStatus('success', B)],
    [
      'a Vercel repository_dispatch',
      {
        name: 'repository_dispatch',
        payload: {
          action: 'vercel.deployment.success',
          client_payload: { url: 'https://agent-pr.vercel.app', git: { sha: B, ref: 'feat' }, environment: 'preview' },
          repository
        },
        env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: A }
      }
    ]
  ])(
    '%s of a pull request aimed at another branch reads the accepted risks on the default branch, and the report says so',
    async (_name, event) => {
      gh = await startGitHubStandin({ repository: REPO })
      gh.addCommit(A, null, [])
      gh.addCommit(B, A, ['agent/a.py'])
      gh.seedPull({ number: 12, headSha: B, baseRef: 'release' })
      const path = '.github/agent-security-accepted.yml'
      gh.setFile('refs/heads/main', path, 'accepted: []\n')
      gh.setFile('refs/heads/release', path, 'accepted: []\n')
      const io = await step(event, { model_id: 'm', accepted_risks_file: path })
      const refs = gh.requests.filter((r) => r.path.includes('/contents/')).map((r) => r.query.ref)
      expect(refs).toEqual(['refs/heads/main'])
      expect(logged(io).join('\n')).toMatch(/read from the branch main/)
    }
  )

  it('a deployment that is not ready is skipped: no run, no failure, no status, 0 assessments', async () => {
    const api = passing()
    const io = await step(deploymentStatus('failure', B), { response_field: 'output.text' }, api)
    expect(io.failures).toEqual([])
    expect(io.outputs).toMatchObject({ result: 'skipped', assessments_spent: '0' })
    expect((api as unknown as { calls: string[] }).calls).toEqual([])
    expect(gh?.git.statuses).toEqual([])
    expect(summary(io)).toMatch(/skipped · the deployment of bbbbbbb to Preview is failure, not success/)
    expect(summary(io)).toContain('Assessments spent by this step: 0 (not assessed: no deployment ready to assess).')
    const report = JSON.parse(readFileSync(io.outputs.report_path, 'utf8')) as Record<string, unknown>
    expect(report).toMatchObject({ kind: 'skipped', result: 'skipped', assessments_spent: 0 })
  })

  it('a ready deployment without a usable URL fails closed unless endpoint_url is given, and sends nothing', async () => {
    const api = passing()
    const io = await step(deploymentStatus('success', B, ''), { response_field: 'output.text' }, api)
    expect(io.failures).toEqual([
      expect.stringMatching(
        /^Configuration error in input 'endpoint_url': is empty and the deployment event cannot be used: the event carries no deployment URL/
      )
    ])
    expect(io.outputs).toMatchObject({ result: 'error', assessments_spent: '0' })
    expect((api as unknown as { calls: string[] }).calls).toEqual([])
  })

  it('a failure once the status is pending ends it in error; a spent allowance says when it resets, and that nothing was spent', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, [])
    const refused = fakeApi({
      listRuns: async () => ({ runs: [], total: 0, returned: 0 }),
      triggerRun: async () => {
        throw new ServiceError({
          endpoint: 'POST /api/v1/run',
          status: 403,
          code: 'allowance_exhausted',
          message: 'Allowance spent',
          extra: { resets_on: '2026-12-01' }
        })
      }
    })
    const io = await step(deploymentStatus('success', B), { model_id: 'm' }, refused)
    expect(io.failures[0]).toMatch(
      /HTTP 403 allowance_exhausted: Allowance spent\. The workspace's monthly assessment allowance is used up; it resets on 2026-12-01 \(UTC\)/
    )
    expect(io.outputs).toMatchObject({ result: 'error', assessments_spent: '0' })
    // The cause once: the title says it, the Why line gives the service's answer, the budget line only the count.
    expect(summary(io)).toContain("### ⛔ Not assessed: the service refused: the workspace's monthly assessment allowance is used up")
    expect(summary(io)).toMatch(/Assessments spent by this step: 0\\?\.\n/)
    expect(summary(io)).not.toContain('(not assessed: the service refused')
    expect(gh.git.statuses.map((s) => s.state)).toEqual(['pending', 'error'])
    // The status keeps the reset date within GitHub's 140 characters: the cause first, the HTTP code after it.
    const status = gh.git.statuses.at(-1)?.description ?? ''
    expect(status).toMatch(/^The workspace's monthly assessment allowance is used up; it resets on 2026-12-01/)
    expect(Array.from(status).length).toBeLessThanOrEqual(140)
  })

  it("the post step reads the target as the main step did: it stops a run a deployment's step left running", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipeline-post-'))
    const eventPath = join(dir, 'event.json')
    writeFileSync(eventPath, JSON.stringify(deploymentStatus('success', B).payload))
    const io = fakeActionIO(
      { api_key: KEY, base_url: 'https://asas.example.test', response_field: 'output.text' },
      {
        env: { GITHUB_EVENT_NAME: 'deployment_status', GITHUB_EVENT_PATH: eventPath },
        state: mainState({ api_key: KEY }, { run_id: 'run_9' })
      }
    )
    const cancelled: string[] = []
    const api = fakeApi({
      cancelRun: async (runId: string) => {
        cancelled.push(runId)
        return { run_id: runId, status: 'cancelled', cancel_requested: true }
      },
      getRun: async () => ({ status: 'cancelled', categories_planned: [], categories_completed: [] })
    })
    await runPost({ io, clock: fakeClock(), makeApi: () => api })
    expect(cancelled).toEqual(['run_9'])
    expect(logged(io, 'warning')).toEqual([])
  })

  /** The post step of `main`'s job: its state and environment. */
  const postOf = async (main: FakeActionIO): Promise<FakeActionIO> => {
    const inputs = Object.fromEntries(
      Object.entries(main.env).flatMap(([k, v]) => (k.startsWith('INPUT_') && v !== undefined ? [[k.slice(6).toLowerCase(), v]] : []))
    )
    const env = Object.fromEntries(Object.entries(main.env).filter(([k]) => !k.startsWith('INPUT_')))
    const io = fakeActionIO(inputs, { env, state: main.state })
    const api = fakeApi({
      getRun: async () => ({ status: 'cancelled', categories_planned: [], categories_completed: [] }),
      cancelRun: async (runId: string) => ({ run_id: runId, status: 'cancelled', cancel_requested: true })
    })
    await runPost({ io, clock: fakeClock(), makeApi: () => api })
    return io
  }

  it("a job cancelled while the run is going: the main step's GitHub calls stop, the post step ends the pending status in error", async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, [])
    const cancel = new AbortController()
    const service = scriptedService({ statuses: [{ status: 'running' }] })
    // The job is cancelled while the step reads the run's status.
    const running = new Proxy(service, {
      get: (target, prop) =>
        prop === 'getRun'
          ? (...args: Parameters<ServiceApi['getRun']>) => {
              cancel.abort()
              return target.getRun(...args)
            }
          : Reflect.get(target, prop)
    })
    const main = await step(deploymentStatus('success', B), { model_id: 'm' }, running, cancel.signal)
    expect(main.outputs).toMatchObject({ result: 'error' })
    expect(gh.git.statuses.map((s) => s.state)).toEqual(['pending'])
    const post = await postOf(main)
    expect(gh.git.statuses.map((s) => [s.sha, s.context, s.state])).toEqual([
      [B, 'agent-security/m', 'pending'],
      [B, 'agent-security/m', 'error']
    ])
    // The state the main step decided, with its line.
    expect(gh.git.statuses[1]?.description).toMatch(/^error: the step was cancelled while the run was still running/)
    expect(logged(post, 'info')).toContain(
      `Post step: commit status agent-security/m on ${B.slice(0, 7)}: error (the main step could not set it).`
    )
    // Nothing is owed any more: a second post step sets nothing.
    await postOf(main)
    expect(gh.git.statuses).toHaveLength(2)
  })

  it('a step stopped after setting pending and before deciding: the post step ends the status in error, saying so', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, [])
    let answer: ((err: Error) => void) | undefined
    const hanging = scriptedService({ statuses: [{ status: 'running' }], trigger: () => new Promise((_, reject) => (answer = reject)) })
    let main: FakeActionIO | undefined
    const mainDone = step(deploymentStatus('success', B), { model_id: 'm' }, hanging, undefined, (io) => (main = io))
    // The runner kills the main step while the trigger is unanswered (here: it is left hanging).
    await waitFor('the trigger', () => answer)
    expect(gh.git.statuses.map((s) => s.state)).toEqual(['pending'])
    await postOf(main!)
    expect(gh.git.statuses.map((s) => s.state)).toEqual(['pending', 'error'])
    expect(gh.git.statuses[1]?.description).toMatch(
      /^The step stopped \(the job was cancelled\?\) before its result was set: nothing passed/
    )
    answer?.(new Error('killed'))
    await mainDone
  })

  it('the post step sets nothing when the main step set the final status, and only the decided state when its write was lost', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, [])
    const passed = await step(deploymentStatus('success', B), { model_id: 'm' })
    await postOf(passed)
    expect(gh.git.statuses.map((s) => s.state)).toEqual(['pending', 'success'])
    // The main step decided fail, and its write of failure did not reach GitHub: the post step sets failure, not error or success.
    passed.state.set(
      'owed_status',
      JSON.stringify({
        repo: { owner: 'octo', repo: 'agent' },
        status: { sha: B, state: 'failure', context: 'agent-security/m', description: 'Result: fail', targetUrl: null, owner: 'agent 0' }
      })
    )
    await postOf(passed)
    expect(gh.git.statuses.map((s) => s.state)).toEqual(['pending', 'success', 'failure'])
  })

  it('a success the main step could not set is owed as error: the post step never sets success', async () => {
    const refuseSuccess = (r: { method: string; path: string; body: unknown }) =>
      r.method === 'POST' && r.path.includes('/statuses/') && (r.body as { state?: string } | null)?.state === 'success'
        ? { status: 422 }
        : undefined
    gh = await startGitHubStandin({ repository: REPO, failWith: refuseSuccess })
    gh.addCommit(B, null, [])
    const passed = await step(deploymentStatus('success', B), { model_id: 'm' })
    expect(passed.outputs).toMatchObject({ result: 'pass' })
    expect(JSON.parse(passed.state.get('owed_status') ?? 'null')).toMatchObject({
      status: { state: 'error', description: 'The step passed but could not set success, which is never set later: re-run the job' }
    })
    await postOf(passed)
    expect(gh.git.statuses.map((s) => s.state)).toEqual(['pending', 'error'])
    expect(gh.git.statuses[1]?.description).toBe('The step passed but could not set success, which is never set later: re-run the job')
  })

  it('commit_status off sets none on a deployment; always sets one on a pull request', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(B, null, [])
    await step(deploymentStatus('success', B), { model_id: 'm', commit_status: 'off' })
    expect(gh.git.statuses).toEqual([])
    await step(pullRequest(3, B), { model_id: 'm', commit_status: 'always' })
    expect(gh.git.statuses.map((s) => [s.sha, s.state])).toEqual([
      [B, 'pending'],
      [B, 'success']
    ])
  })
})

describe('merge queues', () => {
  const preview = { response_field: 'output.text' }
  const previewSubject = recordSubjectKey('target:agent-pr-9')

  it('a preview target with a pass recorded at the queued head is carried over, with no call to the service', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.seedPull({ number: 9, headSha: C })
    gh.seedComment(9, recordComment(commentMarker('mdl_preview'), previewSubject, 'pass', B, C, '0123abcd'))
    const api = passing()
    const io = await step(mergeGroup(9), preview, api)
    expect(io.failures).toEqual([])
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '0' })
    expect((api as unknown as { calls: string[] }).calls).toEqual([])
    expect(summary(io)).toMatch(/carried over from the assessment of bbbbbbb/)
    expect(summary(io)).toContain('#9 passed at its head ccccccc (assessed at bbbbbbb)')
  })

  it('a preview target without a pass at the queued head fails closed, saying why, with nothing sent', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.seedPull({ number: 9, headSha: C })
    gh.seedComment(9, recordComment(commentMarker('mdl_preview'), previewSubject, 'pass', B, B, '0123abcd'))
    const api = passing()
    const io = await step(mergeGroup(9), preview, api)
    expect(io.failures).toEqual([
      expect.stringMatching(
        /^Configuration error in input 'endpoint_url': is empty \(the target is a preview\), and nothing deploys the queue's commit ddddddd to assess instead; not carried over: #9: its recorded result stands for bbbbbbb, not its head ccccccc\. Let the pull request's own check succeed/
      )
    ])
    expect(io.outputs).toMatchObject({ result: 'error', assessments_spent: '0' })
    expect((api as unknown as { calls: string[] }).calls).toEqual([])
  })

  it('model_id with a fail recorded: the queue commit is assessed, and the summary says why', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.seedPull({ number: 9, headSha: C })
    gh.seedComment(9, recordComment(commentMarker('m'), recordSubjectKey('model:m'), 'fail', C))
    const io = await step(mergeGroup(9), { model_id: 'm' })
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    expect(summary(io)).toMatch(
      /Assessments spent by this step: 1 \(assessed run run_1 of ddddddd: not carried over: #9: its last result is fail: assessing the queue's commit ddddddd\)/
    )
  })

  it('merge_group assess assesses even with a pass recorded', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.seedPull({ number: 9, headSha: C })
    gh.seedComment(9, recordComment(commentMarker('m'), recordSubjectKey('model:m'), 'pass', C))
    const io = await step(mergeGroup(9), { model_id: 'm', merge_group: 'assess' })
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    expect(summary(io)).toContain('merge_group is assess: assessing the queue')
  })
})

describe('agent_paths on pull request pushes', () => {
  const model = recordSubjectKey('model:m')

  it('carries a fail over when no agent path changed: the comment says so, keeps the assessed report, and records the new head', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/prompt.md'])
    gh.addCommit(C, B, ['docs/readme.md'])
    gh.seedPull({ number: 4, headSha: C, commits: [B, C] })
    gh.seedComment(4, recordComment(commentMarker('m'), model, 'fail', B))
    const api = passing()
    const io = await step(pullRequest(4, C), { model_id: 'm', agent_paths: 'agent/**' }, api)
    expect((api as unknown as { calls: string[] }).calls).toEqual([])
    expect(io.outputs).toMatchObject({ result: 'fail', assessments_spent: '0' })
    expect(io.failures).toEqual([
      expect.stringMatching(
        /^Result: fail: 1 open critical, as assessed at bbbbbbb, carried over \(1 file changed since, none under agent_paths: docs\/readme\.md\)$/
      )
    ])
    const [comment] = gh.state.comments.get(4) ?? []
    expect(comment.body).toMatch(/### ❌ Agent security gate: fail · carried over from the assessment of bbbbbbb/)
    expect(comment.body).toContain('FINDINGS OF THE ASSESSED REPORT')
    // What failed and what to do are in view; the kept report has no second headline and speaks of its own step.
    expect(comment.body).toContain('**What failed at bbbbbbb:** 1 open critical.')
    expect(comment.body).toContain('**To pass:** fix the findings')
    expect(comment.body.match(/^### /gm)).toHaveLength(1)
    expect(comment.body).not.toContain('Assessments spent by this step: 1')
    expect(comment.body).toContain('Assessments spent by the step that assessed: 1')
    expect(readAssessmentRecord(comment.body)).toMatchObject({ result: 'fail', assessedSha: B, headSha: C })
  })

  it.each([
    ['evidence_runs', '3'],
    ['evidence_max_age_days', '7']
  ])('a result decided with another %s is not carried over: the step assesses', async (input, value) => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['agent/prompt.md'])
    gh.addCommit(C, B, ['docs/readme.md'])
    gh.seedPull({ number: 4, headSha: C, commits: [B, C] })
    gh.seedComment(4, recordComment(commentMarker('m'), model, 'fail', B))
    const io = await step(pullRequest(4, C), { model_id: 'm', agent_paths: 'agent/**', [input]: value })
    expect(io.outputs).toMatchObject({ assessments_spent: '1' })
    expect(summary(io)).not.toMatch(/carried over from the assessment/)
  })

  it('a record written by someone else is not trusted: the step assesses', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['docs/readme.md'])
    gh.seedPull({ number: 4, headSha: B, commits: [B] })
    gh.seedComment(4, recordComment(commentMarker('m'), model, 'pass', A, A), { login: 'mallory', type: 'User' })
    const io = await step(pullRequest(4, B), { model_id: 'm', agent_paths: 'agent/**' })
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    expect(summary(io)).toContain('no earlier assessment of this pull request is recorded by this action')
  })

  it('when GitHub cannot compare the commits, the step assesses (never carries what it could not check)', async () => {
    gh = await startGitHubStandin({ repository: REPO })
    gh.addCommit(A, null, [])
    gh.addCommit(B, A, ['docs/readme.md'])
    gh.seedPull({ number: 4, headSha: B, commits: [B] })
    gh.seedComment(4, recordComment(commentMarker('m'), model, 'pass', A))
    gh.failNext('GET', /\/compare\//, 500, 10)
    const io = await step(pullRequest(4, B), { model_id: 'm', agent_paths: 'agent/**' })
    expect(io.outputs).toMatchObject({ result: 'pass', assessments_spent: '1' })
    expect(summary(io)).toMatch(
      /the earlier assessment could not be read from GitHub \(GET \/repos\/octo\/agent\/compare\/a{40}\.\.\.b{40} HTTP 500/
    )
    expect(logged(io, 'warning')).toContainEqual(
      expect.stringMatching(/^Could not read the earlier assessment from GitHub, so this step assesses/)
    )
  })
})

describe('endpoint_path', () => {
  it('masks the query values of endpoint_path and endpoint_url (a protection bypass), in every form they are sent in', () => {
    const io = fakeActionIO({
      endpoint_path: '/api/chat?x-vercel-protection-bypass=byp4ss-s3cret%2Bvalue&lang=en',
      endpoint_url: 'https://agent.example.test/chat?token=0123456789abcdef'
    })
    const secrets = stepSecrets(io)
    expect(secrets).toEqual(expect.arrayContaining(['byp4ss-s3cret%2Bvalue', 'byp4ss-s3cret+value', '0123456789abcdef']))
    expect(io.secrets).toEqual(expect.arrayContaining(['byp4ss-s3cret+value']))
    // A value too short to be a credential is not masked (it would hide that text everywhere).
    expect(secrets).not.toContain('en')
  })
})
