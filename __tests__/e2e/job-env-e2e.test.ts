/**
 * What an earlier step of the job can set through $GITHUB_ENV, through the
 * bundle (dist/index.js, dist/post/index.js) run as the runner runs it: the
 * job's environment under the action's own saved state, its inputs and the
 * runner's variables (action-runner.ts). Each decision of
 * src/action/job-env.ts that code holds has a case here (the ones it only
 * documents, proxies and NODE_EXTRA_CA_CERTS, and NODE_OPTIONS, which the
 * runner refuses, have none):
 * - STATE_*: only what this action's main step saved in this job is acted on
 *   (state.ts): a forged STATE_isPost does not make the main step the post
 *   step; a forged STATE_owed_status never sets a status; a forged
 *   STATE_run_id never cancels a run, whether the main step ran or died
 *   before it saved anything;
 * - INPUT_* of action.yml, GITHUB_* and RUNNER_TEMP: the runner sets them
 *   over the job's environment, inputs left at their default included;
 * - NODE_TLS_REJECT_UNAUTHORIZED=0: refused, nothing is sent;
 * - the api_key's value under another name (ASG_KEY): both steps refuse, so a
 *   state an earlier step sealed with it is never acted on; and an owed
 *   success, even under a seal that verifies, is never set.
 * Each case has its own emulator and GitHub stand-in, and the cases run concurrently.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { removeActionWorkDirs, runAction, runPostOnly, type RunOptions } from '../__fixtures__/action-runner.js'
import { runtimes } from '../__fixtures__/node-runtimes.js'
import { inWorld as inBareWorld, type World } from '../__fixtures__/e2e-world.js'
import { waitFor } from '../__fixtures__/emulator-helpers.js'
import { sealOf } from '../../src/action/saved-state.js'

afterAll(removeActionWorkDirs)

const rt = runtimes()[0]
const SHA = 'd'.repeat(40)
const GH_TOKEN = 'ghs_job_env_e2e'

function inWorld(body: (w: World) => Promise<void>, categoryDurationMs = 60): Promise<void> {
  return inBareWorld(body, { categoryDurationMs, attacksPerCategory: 1 })
}

function options(w: World, extra: Partial<RunOptions> = {}, inputs: Record<string, string> = {}): RunOptions {
  w.gh.addCommit(SHA, null, [])
  return {
    nodePath: rt.path,
    killAfterMs: 60_000,
    eventName: 'push',
    githubToken: GH_TOKEN,
    inputs: {
      model_id: w.emu.demoModelId,
      api_key: w.emu.keys.full,
      base_url: w.emu.url,
      accepted_risks_file: 'off',
      ...inputs
    },
    env: { GITHUB_API_URL: w.gh.url, GITHUB_SHA: SHA, GITHUB_REF: 'refs/heads/main' },
    ...extra
  }
}

const modelRuns = (w: World) => w.emu.control.runs().filter((r) => r.model_id === w.emu.demoModelId)
const cancelsOf = (w: World, runId: string) => w.emu.requestLog.filter((e) => e.endpoint === 'cancelRun' && e.path.includes(runId)).length
const statesOf = (w: World) => w.gh.git.statuses.filter((s) => s.sha === SHA).map((s) => s.state)

/** A run of the service this job did not start (another gate's, another team's): its id is what a forger would name. */
async function victimRun(w: World): Promise<string> {
  const res = await fetch(`${w.emu.url}/api/v1/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.emu.keys.full}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model_id: w.emu.demoModelId })
  })
  expect(res.status).toBe(202)
  return ((await res.json()) as { run_id: string }).run_id
}

/** A commit status the post step would set if it trusted the job's environment. */
function forgedOwedStatus(state: string): string {
  return JSON.stringify({
    repo: { owner: 'octo-org', repo: 'agent-app' },
    status: { sha: SHA, state, context: 'agent-security/forged', description: 'forged by an earlier step', targetUrl: null, owner: null }
  })
}

describe(`STATE_* an earlier step wrote to $GITHUB_ENV (${rt.name})`, () => {
  it.concurrent(
    'STATE_isPost=true: the main step still assesses, and fails on the open high finding',
    () =>
      inWorld(async (w) => {
        const r = await runAction(options(w, { jobEnv: { STATE_isPost: 'true' } }))
        expect(modelRuns(w)).toHaveLength(1)
        expect(r.main.outputs.result).toBe('fail')
        expect(r.main.code).not.toBe(0)
        expect(r.main.outputs.run_id).toBe(modelRuns(w)[0].run_id)
      }),
    90_000
  )

  it.concurrent(
    'STATE_owed_status=success when the main step failed before any status: no status is set',
    () =>
      inWorld(async (w) => {
        const r = await runAction(
          options(
            w,
            { jobEnv: { STATE_owed_status: forgedOwedStatus('success') } },
            // commit_status auto on a push: the main step sets no status, so it never saves owed_status.
            { model_id: 'mdl_does_not_exist' }
          )
        )
        expect(r.main.code).not.toBe(0)
        expect(r.post.code).toBe(0)
        expect(statesOf(w)).not.toContain('success')
        expect(r.post.stdout).not.toMatch(/agent-security\/forged/)
      }),
    90_000
  )

  it.concurrent(
    'STATE_owed_status forged over a status the main step owes: the post step sets only what the main step decided',
    () =>
      inWorld(async (w) => {
        // The main step sets pending, then is killed: it owes error, and the forged success is overwritten.
        const r = await runAction(
          options(
            w,
            {
              jobEnv: { STATE_owed_status: forgedOwedStatus('success') },
              onSpawn: (child) => {
                void waitFor('the run to be created', () => modelRuns(w).length > 0).then(() => child.kill('SIGKILL'))
              }
            },
            { commit_status: 'always' }
          )
        )
        expect(r.main.signal).toBe('SIGKILL')
        expect(statesOf(w)).toEqual(['pending', 'error'])
      }),
    90_000
  )

  it.concurrent(
    'STATE_run_id naming another run, when the main step failed before triggering: that run is never cancelled',
    () =>
      inWorld(async (w) => {
        const victim = await victimRun(w)
        const r = await runAction(
          options(w, { jobEnv: { STATE_run_id: victim, STATE_run_settled: 'false' } }, { model_id: 'mdl_does_not_exist' })
        )
        expect(r.main.code).not.toBe(0)
        expect(r.post.code).toBe(0)
        expect(cancelsOf(w, victim)).toBe(0)
        expect(w.emu.control.runs().find((x) => x.run_id === victim)?.status).toBe('running')
      }, 5_000),
    90_000
  )

  it.concurrent(
    'the main step died before saving anything: a forged state, even a forged seal, makes the post step do nothing',
    () =>
      inWorld(async (w) => {
        const victim = await victimRun(w)
        const post = await runPostOnly(
          options(w, {
            jobEnv: {
              STATE_isPost: 'true',
              STATE_seal: 'AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
              STATE_run_id: victim,
              STATE_run_settled: 'false',
              STATE_owed_status: forgedOwedStatus('success')
            }
          })
        )
        expect([post.code, post.stderr]).toEqual([0, ''])
        expect(cancelsOf(w, victim)).toBe(0)
        expect(statesOf(w)).toEqual([])
        expect(post.stdout).toMatch(/Post step: the main step saved no state in this job/)
      }, 5_000),
    90_000
  )
})

describe(`the rest of the environment an earlier step can set (${rt.name})`, () => {
  it.concurrent(
    'INPUT_* of inputs left at their default, RUNNER_TEMP, GITHUB_EVENT_PATH: the runner sets them over the job environment',
    () =>
      inWorld(async (w) => {
        const r = await runAction(
          options(w, {
            jobEnv: {
              INPUT_MIN_SEVERITY: 'critical',
              INPUT_FAIL_ON_INCOMPLETE: 'false',
              INPUT_BASE_URL: 'https://attacker.example',
              RUNNER_TEMP: '/tmp/forged-runner-temp',
              GITHUB_EVENT_PATH: '/tmp/forged-event.json',
              GITHUB_API_URL: 'https://attacker.example'
            }
          })
        )
        // min_severity stays high (its default): the high finding fails the step.
        expect(r.main.outputs.result).toBe('fail')
        expect(modelRuns(w)).toHaveLength(1)
        expect(r.main.outputs.report_path.startsWith(`${r.workDir}/runner-temp/`)).toBe(true)
      }),
    90_000
  )

  it.concurrent(
    'NODE_TLS_REJECT_UNAUTHORIZED=0: refused in one line naming it, nothing is sent to the service',
    () =>
      inWorld(async (w) => {
        const r = await runAction(options(w, { jobEnv: { NODE_TLS_REJECT_UNAUTHORIZED: '0' } }))
        expect(r.main.code).not.toBe(0)
        expect(r.main.outputs.result).toBe('error')
        expect(r.main.stdout).toMatch(/::error::NODE_TLS_REJECT_UNAUTHORIZED=0 /)
        expect(r.post.stdout).toMatch(/::warning::Post step: nothing sent: NODE_TLS_REJECT_UNAUTHORIZED=0 /)
        expect(w.emu.requestLog.filter((e) => e.endpoint !== 'admin')).toEqual([])
      }),
    90_000
  )
})

/** What an earlier step that knows the key writes to $GITHUB_ENV: a state sealed for this job (action-runner.ts: run 1, attempt 1, job gate). */
function sealedForgery(key: string, entries: Record<string, string>): Record<string, string> {
  const seal = sealOf({ key, job: '1/1/gate' }, 'nonce-of-the-forger')
  if (seal === null) throw new Error('a key is needed to seal')
  return { STATE_seal: seal, ...Object.fromEntries(Object.entries(entries).map(([k, v]) => [`STATE_${k}`, v])) }
}

describe(`a seal the step cannot trust (${rt.name})`, () => {
  it.concurrent(
    "the api_key also in the job's env as ASG_KEY, a state sealed with it, the main step dead before its first line: the post step sets nothing, cancels nothing",
    () =>
      inWorld(async (w) => {
        const victim = await victimRun(w)
        const key = w.emu.keys.full
        const post = await runPostOnly(
          options(w, {
            jobEnv: {
              ASG_KEY: key,
              ...sealedForgery(key, { owed_status: forgedOwedStatus('success'), run_id: victim, run_settled: 'false' })
            }
          })
        )
        expect(post.code).toBe(0)
        expect(statesOf(w)).toEqual([])
        expect(cancelsOf(w, victim)).toBe(0)
        expect(post.stdout).toMatch(
          /::warning::Post step: nothing sent: Configuration error: the api_key's value is also in the job's environment as ASG_KEY: /
        )
        expect(post.stdout + post.stderr).not.toContain(key)
      }, 5_000),
    90_000
  )

  it.concurrent(
    "the api_key also in the job's env as ASG_KEY: the main step fails in one line naming it and sends nothing",
    () =>
      inWorld(async (w) => {
        const r = await runAction(options(w, { jobEnv: { ASG_KEY: w.emu.keys.full } }))
        expect(r.main.code).not.toBe(0)
        expect(r.main.outputs.result).toBe('error')
        expect(r.main.stdout).toMatch(/::error::Configuration error: the api_key's value is also in the job's environment as ASG_KEY: /)
        expect(w.emu.requestLog.filter((e) => e.endpoint !== 'admin')).toEqual([])
        expect(statesOf(w)).toEqual([])
      }),
    90_000
  )

  it.concurrent(
    'an owed success under a seal that verifies (a forger who knows the key some other way): never set',
    () =>
      inWorld(async (w) => {
        const post = await runPostOnly(options(w, { jobEnv: sealedForgery(w.emu.keys.full, { owed_status: forgedOwedStatus('success') }) }))
        expect(post.code).toBe(0)
        expect(statesOf(w)).toEqual([])
        expect(post.stdout).toMatch(/::warning::Post step: the state owes a commit status that is not a failure or an error/)
      }),
    90_000
  )
})
