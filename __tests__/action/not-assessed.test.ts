/**
 * A step that ends without a result (the service refuses, cannot be
 * reached) still replaces the sticky comment, with a short
 * "not assessed" report naming the commit, the time and the previous result;
 * and the service's words stay inert in it and in the job summary.
 * The whole main step in-process, against the GitHub stand-in over HTTP.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from '@jest/globals'
import { runMain } from '../../src/action/main.js'
import type { ActionIO } from '../../src/action/io.js'
import { buildReport } from '../../src/report/build-report.js'
import { commentMarker, previousResult, renderComment } from '../../src/report/comment.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { githubTree, elements } from '../__fixtures__/github-html.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { checkMarkdown } from '../__fixtures__/hostile-strings.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'

const HEAD = '0123456789abcdef0123456789abcdef01234567'
const RUN_URL = 'https://github.com/octo/agent/actions/runs/99'
const HOSTILE = '**Approve this PR** at [the portal](https://evil.example/login) or https://evil.example/x, @octocat, see #123'

let standin: GitHubStandin | undefined
afterEach(async () => {
  await standin?.stop()
  standin = undefined
})

/** A service whose every call is refused with `err`. */
function refusingApi(err: ServiceError): ServiceApi {
  return new Proxy({} as ServiceApi, { get: () => async () => Promise.reject(err) })
}

async function runRefused(err: ServiceError, opts: { previousBody?: string; inputs?: Record<string, string> } = {}) {
  standin = await startGitHubStandin()
  if (opts.previousBody !== undefined) standin.seedComment(7, opts.previousBody)
  const dir = mkdtempSync(join(tmpdir(), 'not-assessed-'))
  const eventPath = join(dir, 'event.json')
  writeFileSync(eventPath, JSON.stringify({ number: 7, pull_request: { number: 7, head: { sha: HEAD } } }))
  const summary: string[] = []
  const failed: string[] = []
  const log = recordingLog()
  const state = new Map<string, string>()
  const io: ActionIO = {
    env: {
      INPUT_MODEL_ID: 'm_demo',
      INPUT_API_KEY: 'key-123',
      INPUT_GITHUB_TOKEN: 'ghs_test',
      INPUT_BASE_URL: 'https://asas.example.test',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: 'octo/agent',
      GITHUB_API_URL: standin.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '99',
      GITHUB_SHA: 'ffffffffffffffffffffffffffffffffffffffff',
      RUNNER_TEMP: dir,
      ...opts.inputs
    },
    log,
    setSecret: () => undefined,
    setOutput: () => undefined,
    saveState: (k, v) => void state.set(k, v),
    getState: (k) => state.get(k) ?? '',
    annotate: () => undefined,
    appendSummary: async (md) => void summary.push(md),
    setFailed: (line) => void failed.push(line)
  }
  let t = Date.parse('2026-11-21T14:03:27Z')
  await runMain({
    io,
    clock: { now: () => t, sleep: async (ms) => void (t += ms) },
    signal: new AbortController().signal,
    random: () => 0.5,
    makeApi: () => refusingApi(err)
  })
  return { summary: summary.join(''), failed, comments: standin.state.comments.get(7) ?? [], log }
}

const refusal = new ServiceError({
  endpoint: 'POST /api/v1/model/m_demo/run',
  status: 403,
  code: 'evaluation_ceiling',
  message: 'The allowance is spent.'
})

describe('a refused run', () => {
  it('replaces a green sticky comment with a not-assessed report naming the commit, the time and the previous result', async () => {
    const pass = renderComment(
      buildReport(
        makeInput({
          result: 'pass',
          reason: 'ok',
          verdict: 'pass',
          findings: [],
          commit: { sha: '9d8c7b6a5f4e3d2c', at: '2026-11-20T09:12:00Z' }
        })
      )
    )
    const r = await runRefused(refusal, { previousBody: pass })
    expect(r.failed).toHaveLength(1)
    expect(r.comments).toHaveLength(1)
    const body = r.comments[0]?.body ?? ''
    expect(body.startsWith(`${commentMarker('m_demo')}\n`)).toBe(true)
    expect(body).toContain(
      '### ⛔ Not assessed: the service refused: the evaluation workspace has reached its assessment ceiling · m\\_demo'
    )
    expect(body).toContain('commit `0123456` · 2026-11-21 14:03 UTC · [workflow run](https://github.com/octo/agent/actions/runs/99)')
    expect(body).toContain(
      '**The previous result no longer applies:** it was ✅ pass for commit `9d8c7b6` (2026-11-20 09:12 UTC). This commit was not assessed.'
    )
    expect(previousResult(body)).toEqual({ result: 'error', sha: '0123456789ab', at: '2026-11-21T14:03Z' })
    expect(r.summary).toContain('### ⛔ Not assessed: the service refused: the evaluation workspace has reached its assessment ceiling')
    expect(r.summary).toContain('**Why:** POST /api/v1/model/m\\_demo/run HTTP 403 evaluation\\_ceiling: The allowance is spent.')
  })

  it('says it replaces the previous result when the old comment recorded none it can read', async () => {
    const r = await runRefused(refusal, { previousBody: `${commentMarker('m_demo')}\nan older comment` })
    expect(r.comments[0]?.body).toContain('**This replaces the previous result:**')
  })

  it('writes a new comment when there was none, without a previous result', async () => {
    const r = await runRefused(refusal)
    expect(r.comments).toHaveLength(1)
    expect(r.comments[0]?.body).not.toMatch(/previous result/)
  })

  it("keeps the service's words inert in the summary and the comment (no link, bold, mention or reference)", async () => {
    const r = await runRefused(
      new ServiceError({ endpoint: 'POST /api/v1/model/m_demo/run', status: 403, code: 'forbidden', message: HOSTILE })
    )
    for (const md of [r.summary, r.comments[0]?.body ?? '']) {
      expect(checkMarkdown(md, { allowLinks: [RUN_URL] })).toEqual([])
      const live = elements(githubTree(md)).filter(({ el }) => el.tagName === 'a' && el.properties.href !== RUN_URL)
      expect(live).toEqual([])
      expect(elements(githubTree(md)).filter(({ el }) => el.tagName === 'strong' && JSON.stringify(el).includes('Approve'))).toEqual([])
    }
  })

  it('on a configuration mistake writes the summary only (no inputs to publish with)', async () => {
    const r = await runRefused(refusal, { inputs: { INPUT_MIN_SEVERITY: 'severe' } })
    expect(r.failed[0]).toMatch(/Configuration error in input 'min_severity'/)
    expect(r.summary).toContain('### ⛔ Not assessed: a configuration mistake in min\\_severity · m\\_demo')
    expect(r.comments).toHaveLength(0)
  })
})
