/**
 * The gate's shared pipeline in a GitLab CI job (GITLAB_CI=true, no GitHub
 * Actions), in-process against the GitLab stand-in: the merge-request note
 * takes the pull-request comment's place (created, then updated in place),
 * the JUnit and Code Quality files are written, the GitLab token is a step
 * secret, and a fork's code run with this project's variables is refused
 * before any request.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { commentMarker } from '../../src/report/comment.js'
import { makeFinding, PLANNED } from '../__fixtures__/builders.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO } from '../__fixtures__/fake-io.js'
import { scriptedService } from '../__fixtures__/scripted-service.js'
import { startGitLabStandin, type GitLabStandin } from '../__fixtures__/gitlab-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const KEY = 'asas_key_gitlab_job_0123456789'
const TOKEN = 'glpat-gitlab-job-token-0123'
const BOT = { id: 41, username: 'project_1_bot_5f2a', bot: true }

let standin: GitLabStandin
let dir: string

beforeEach(async () => {
  standin = await startGitLabStandin({ tokens: { [TOKEN]: BOT }, projects: { '1': 'acme/shop', '2': 'mallory/shop' } })
  standin.openMergeRequest('1', 5)
  dir = mkdtempSync(join(tmpdir(), 'gitlab-job-'))
})

afterEach(async () => {
  await stopStarted(standin)
  rmSync(dir, { recursive: true, force: true })
})

function gitlabEnv(over: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    GITLAB_CI: 'true',
    GITLAB_TOKEN: TOKEN,
    CI_API_V4_URL: standin.apiUrl,
    CI_PROJECT_ID: '1',
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_PROJECT_ID: '1',
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1',
    CI_MERGE_REQUEST_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
    CI_COMMIT_SHA: 'a'.repeat(40),
    RUNNER_TEMP: dir,
    ...over
  }
}

async function job(env: NodeJS.ProcessEnv, service: ServiceApi) {
  const io = fakeActionIO({ model_id: 'm', api_key: KEY, base_url: 'https://asas.example.test', accepted_risks_file: 'off' }, { env })
  await runMain({ io, clock: fakeClock(), signal: new AbortController().signal, random: () => 0.5, makeApi: () => service })
  return io
}

const verdict = (v: 'pass' | 'fail'): ServiceApi =>
  scriptedService({ statuses: [{ status: 'completed', categories_completed: [...PLANNED], verdict: v }] })
const notes = () => standin.notes.get('1!5') ?? []

describe('the gate in a GitLab merge-request pipeline', () => {
  it('writes the note in place of the comment, then updates it; the JUnit and Code Quality files beside the report', async () => {
    const first = await job(gitlabEnv(), verdict('fail'))
    expect(first.outputs.result).toBe('fail')
    expect(notes()).toHaveLength(1)
    expect(notes()[0].body.startsWith(commentMarker('m'))).toBe(true)
    expect(first.outputs.comment_url).toBe(`https://gitlab.example.com/acme/shop/-/merge_requests/5#note_${notes()[0].id}`)
    expect(readFileSync(first.outputs.junit_path, 'utf8')).toMatch(/<testsuites /)
    expect(JSON.parse(readFileSync(first.outputs.codequality_path, 'utf8'))).toEqual(expect.any(Array))
    expect(first.secrets).toContain(TOKEN)

    const second = await job(gitlabEnv(), verdict('pass'))
    expect(second.outputs.result).toBe('pass')
    expect(notes()).toHaveLength(1)
    expect(notes()[0].body).toMatch(/Agent security gate: pass/)
    expect(standin.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  it.each([
    ["CI_CONFIG_PATH unset: GitLab's default CI file", {}, '.gitlab-ci.yml'],
    ['CI_CONFIG_PATH set: that file', { CI_CONFIG_PATH: 'ci/agent.gitlab-ci.yml' }, 'ci/agent.gitlab-ci.yml'],
    ['a CI file of another project: none of this repository', { CI_CONFIG_PATH: '.gitlab-ci.yml@acme/ci-templates' }, 'README.md']
  ])('the reports point at a file of this repository, never a GitHub path (%s)', async (_name, over, file) => {
    const findings = [makeFinding('high')]
    const service = scriptedService({
      statuses: [{ status: 'completed', categories_completed: [...PLANNED], verdict: 'fail' }],
      findings: async () => ({ findings, count: findings.length })
    })
    const io = await job(gitlabEnv(over), service)
    const issues = JSON.parse(readFileSync(io.outputs.codequality_path, 'utf8')) as { location: { path: string } }[]
    expect(issues.length).toBeGreaterThan(0)
    expect(issues.map((i) => i.location.path)).toEqual(issues.map(() => file))
    const sarif = JSON.parse(readFileSync(io.outputs.sarif_path, 'utf8')) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[]
    }
    const uris = sarif.runs[0].results.map((r) => r.locations[0].physicalLocation.artifactLocation.uri)
    expect(uris.length).toBeGreaterThan(0)
    expect(new Set(uris)).toEqual(new Set([file]))
    const junit = readFileSync(io.outputs.junit_path, 'utf8')
    const cases = [...junit.matchAll(/<testcase [^>]*>/g)].map((m) => m[0])
    expect(cases.length).toBeGreaterThan(0)
    // GitLab reads `file` on each test case ("copy failed tests"); a fallback is no file known, so none is named.
    for (const c of cases) expect(c.includes(` file="${file}"`)).toBe(file !== 'README.md')
    expect(junit + JSON.stringify(issues) + JSON.stringify(sarif)).not.toContain('.github/')
  })

  it("speaks GitLab's words in the note: links the job (CI_JOB_URL), records the commit (CI_COMMIT_SHA), no GitHub term", async () => {
    const jobUrl = 'https://gitlab.example.com/acme/shop/-/jobs/4242'
    const sha = 'b'.repeat(40)
    const findings = [makeFinding('high')]
    const service = scriptedService({
      statuses: [{ status: 'completed', categories_completed: [...PLANNED], verdict: 'fail' }],
      findings: async () => ({ findings, count: findings.length })
    })
    await job(gitlabEnv({ CI_JOB_URL: jobUrl, CI_COMMIT_SHA: sha }), service)
    const body = notes()[0].body
    expect(body).toContain(`[job](${jobUrl})`)
    expect(body).toContain(`commit \`${sha.slice(0, 7)}\``)
    expect(body).toMatch(new RegExp(`^<!-- asas-gate:result=fail;sha=${sha.slice(0, 12)};at=\\d{4}-`, 'm'))
    expect(body).toContain('its job log')
    expect(body).not.toMatch(/workflow|GitHub|job summary|secrets\.|pull request/i)
  })

  it("refuses a fork's code run with this project's variables before any request, naming the secret", async () => {
    const service = fakeApi({})
    const io = await job(gitlabEnv({ CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' }), service)
    expect(io.outputs.result).toBe('error')
    expect(io.failures).toEqual([
      expect.stringMatching(
        /input 'api_key'.*pipeline of project 1 that runs code from outside it \(the head of merge request !5 is in the fork project 2, not in project 1\)/
      )
    ])
    expect(service.calls).toEqual([])
    expect(standin.requests).toEqual([])
  })

  it('leaves GitHub alone outside GitLab: in GitHub Actions the GitLab variables change nothing', async () => {
    const io = await job(gitlabEnv({ GITHUB_ACTIONS: 'true', CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' }), verdict('pass'))
    expect(io.outputs.result).toBe('pass')
    expect(standin.requests).toEqual([])
  })
})
