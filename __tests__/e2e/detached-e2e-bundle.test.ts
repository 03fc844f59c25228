/**
 * Detached waiting through the bundle (dist/index.js, dist/post/index.js),
 * run as the runner runs it (action-runner.ts): an edited pending
 * record is refused and the collector's outputs and exit say so; the run a
 * collector triggers for a queued record survives its own post step.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { removeActionWorkDirs, runAction, type RunOptions } from '../__fixtures__/action-runner.js'
import { sealedComment, sha } from '../__fixtures__/detached-world.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'
import { runtimes } from '../__fixtures__/node-runtimes.js'

afterAll(removeActionWorkDirs)

const rt = runtimes()[0]
const GH_TOKEN = 'ghs_detached_bundle'
const repository = { full_name: 'octo-org/agent-app', default_branch: 'main' }

function options(w: World, event: 'pr' | 'schedule', inputs: Record<string, string>, c: { head: string; base: string }): RunOptions {
  const pr = {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      head: { sha: c.head, ref: 'f-7', repo: { full_name: repository.full_name } },
      base: { sha: c.base, ref: 'main', repo: { full_name: repository.full_name } }
    },
    repository
  }
  return {
    nodePath: rt.path,
    killAfterMs: 60_000,
    eventName: event === 'pr' ? 'pull_request' : 'schedule',
    eventPayload: event === 'pr' ? pr : { schedule: '*/5 * * * *', repository },
    githubToken: GH_TOKEN,
    inputs: { model_id: w.emu.demoModelId, api_key: w.emu.keys.full, base_url: w.emu.url, accepted_risks_file: 'off', ...inputs },
    env: {
      GITHUB_API_URL: w.gh.url,
      ...(event === 'pr'
        ? { GITHUB_SHA: sha(), GITHUB_REF: 'refs/pull/7/merge', GITHUB_HEAD_REF: 'f-7', GITHUB_BASE_REF: 'main' }
        : { GITHUB_SHA: c.base, GITHUB_REF: 'refs/heads/main' })
    }
  }
}

function world(w: World): { head: string; base: string } {
  const [base, head] = [sha(), sha()]
  w.gh.addCommit(base, null, ['README.md'])
  w.gh.addCommit(head, base, ['agent/prompt.md'])
  w.gh.seedPull({ number: 7, headSha: head, commits: [head] })
  return { head, base }
}

const states = (w: World, commit: string): string[] => w.gh.git.statuses.filter((s) => s.sha === commit).map((s) => s.state)

async function ended(w: World, runId: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (w.emu.control.runs().find((r) => r.run_id === runId)?.status !== 'running') return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`run ${runId} did not end`)
}

describe(`detached waiting through the bundle (${rt.name})`, () => {
  it(
    'an edited record naming an older passing run is refused: error on the head, the collector reads error and fails',
    () =>
      inWorld(
        async (w) => {
          const c = world(w)
          w.emu.demoAgent.setAllVulnerable(false)
          const res = await fetch(`${w.emu.url}/api/v1/run`, {
            method: 'POST',
            headers: { authorization: `Bearer ${w.emu.keys.full}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model_id: w.emu.demoModelId })
          })
          const older = ((await res.json()) as { run_id: string }).run_id
          await ended(w, older)
          w.emu.control.setCategoryDurationMs(10 * 60 * 60_000)
          const pr = await runAction(options(w, 'pr', { wait: 'detached' }, c))
          expect(pr.main.outputs.result).toBe('pending')
          const own = pr.main.outputs.run_id
          const comment = w.gh.state.comments.get(7)?.[0]
          if (comment === undefined) throw new Error('no comment')
          comment.body = comment.body.replace(`run=${own};`, `run=${older};`)
          const collector = await runAction(options(w, 'schedule', { mode: 'collect' }, c))
          expect(states(w, c.head)).not.toContain('success')
          expect(states(w, c.head).at(-1)).toBe('error')
          expect(collector.main.outputs).toMatchObject({ result: 'error', collected: '1' })
          expect(collector.main.code).toBe(1)
          expect(w.emu.control.runs().find((r) => r.run_id === own)?.status).toBe('running')
        },
        { categoryDurationMs: 5, attacksPerCategory: 1 }
      ),
    120_000
  )

  it(
    "the run the collector triggers for a queued record is not cancelled by the collector's post step",
    () =>
      inWorld(
        async (w) => {
          const c = world(w)
          w.emu.control.setCategoryDurationMs(10 * 60 * 60_000)
          const record = { runId: null, commit: c.head, at: null, categories: [], deadline: null }
          w.gh.seedComment(7, sealedComment(w.emu.keys.full, w.emu.demoModelId, 7, record))
          const collector = await runAction(options(w, 'schedule', { mode: 'collect' }, c))
          expect(collector.main.outputs).toMatchObject({ result: 'pending', collected: '0' })
          const triggered = /run=([A-Za-z0-9_-]+);/.exec(w.gh.state.comments.get(7)?.[0]?.body.split('\n')[1] ?? '')?.[1] ?? ''
          expect(triggered).toMatch(/^run_/)
          expect(collector.post.code).toBe(0)
          expect(w.emu.control.runs().find((r) => r.run_id === triggered)?.status).toBe('running')
          expect(w.emu.requestLog.filter((e) => e.endpoint === 'cancelRun')).toEqual([])
        },
        { categoryDurationMs: 5, attacksPerCategory: 1 }
      ),
    120_000
  )
})
