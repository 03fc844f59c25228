/**
 * What a GitLab pipeline is (its predefined variables) and what it may do:
 * the write rule's standing of each pipeline source, which merge requests
 * run code from outside the project, and the refusal of a secret held while
 * a fork's code runs in the target project.
 */
import { describe, expect, it } from '@jest/globals'
import { GITLAB_JOB_VARIABLES, gitlabStepEnv, isGitLabCi, readGitLabCi } from '../../src/gitlab/ci-context.js'
import { forkSecretRefusal, gitlabWriteStanding, runsOutsideCode, secretsAtRisk } from '../../src/gitlab/fork-rule.js'
import { writeRefusal } from '../../src/github/write-rule.js'
import { ConfigError } from '../../src/util/errors.js'

const MR: NodeJS.ProcessEnv = {
  GITLAB_CI: 'true',
  CI_SERVER_URL: 'https://gitlab.example.com',
  CI_PROJECT_ID: '1',
  CI_PIPELINE_SOURCE: 'merge_request_event',
  CI_MERGE_REQUEST_IID: '5',
  CI_MERGE_REQUEST_PROJECT_ID: '1',
  CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1',
  CI_DEFAULT_BRANCH: 'main'
}
const FORK_IN_TARGET = { ...MR, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' }
const FORK_IN_FORK = { ...FORK_IN_TARGET, CI_PROJECT_ID: '2' }
const branch = (source: string, name: string): NodeJS.ProcessEnv => ({
  GITLAB_CI: 'true',
  CI_PROJECT_ID: '1',
  CI_PIPELINE_SOURCE: source,
  CI_COMMIT_BRANCH: name,
  CI_DEFAULT_BRANCH: 'main'
})

describe('the GitLab CI context', () => {
  it('reads a merge-request pipeline', () => {
    expect(isGitLabCi(MR)).toBe(true)
    expect(isGitLabCi({})).toBe(false)
    expect(readGitLabCi(MR)).toMatchObject({
      apiUrl: 'https://gitlab.example.com/api/v4',
      projectId: '1',
      mergeRequest: { projectId: '1', iid: 5, sourceProjectId: '1', webUrl: null }
    })
  })

  it.each([
    [{ CI_API_V4_URL: 'https://gl.example/api/v4/' }, 'https://gl.example/api/v4'],
    [{ CI_SERVER_URL: 'https://gl.example/sub/' }, 'https://gl.example/sub/api/v4'],
    [{ CI_SERVER_URL: 'https://user:pw@gl.example' }, null],
    [{ CI_API_V4_URL: 'ftp://gl.example' }, null],
    [{}, null]
  ])('takes the API root from %j as %j', (env, apiUrl) => {
    expect(readGitLabCi(env).apiUrl).toBe(apiUrl)
  })

  it.each([
    ['a push pipeline', branch('push', 'feature')],
    ['no IID', { ...MR, CI_MERGE_REQUEST_IID: '' }],
    ['an IID that is not a number', { ...MR, CI_MERGE_REQUEST_IID: '5; rm' }]
  ])('has no merge request in %s', (_name, env) => {
    expect(readGitLabCi(env).mergeRequest).toBeNull()
  })
})

describe("a shell's step environment in a GitLab job", () => {
  it("passes GitLab's variables through and turns the comment (the note) on; nothing outside GitLab unless forced", () => {
    const env = { ...MR, GITLAB_TOKEN: 'glpat-x', HOME: '/root', ASAS_API_KEY: 'k' }
    const step = gitlabStepEnv(env)
    expect(step).toEqual({ ...MR, GITLAB_TOKEN: 'glpat-x', INPUT_COMMENT: 'update' })
    expect(gitlabStepEnv({ HOME: '/root' })).toBeNull()
    expect(gitlabStepEnv({ CI_PIPELINE_SOURCE: 'push' }, true)).toEqual({
      GITLAB_CI: 'true',
      CI_PIPELINE_SOURCE: 'push',
      INPUT_COMMENT: 'update'
    })
    // Every variable the context reads is passed through.
    const all: NodeJS.ProcessEnv = Object.fromEntries(GITLAB_JOB_VARIABLES.map((v) => [v, `https://x/${v}`]))
    Object.assign(all, { GITLAB_CI: 'true', CI_MERGE_REQUEST_IID: '5', CI_PIPELINE_SOURCE: 'merge_request_event' })
    expect(readGitLabCi(gitlabStepEnv(all) ?? {})).toEqual(readGitLabCi(all))
  })
})

describe('code from outside the project', () => {
  it.each([
    ['a merge request from the same project', MR, false, false],
    ['a fork merge request run in the target project', FORK_IN_TARGET, true, true],
    ['a fork merge request run in the fork', FORK_IN_FORK, true, false],
    ['a merge request whose source project GitLab does not name', { ...MR, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '' }, true, true],
    ['a merge-request pipeline without its IID', { ...MR, CI_MERGE_REQUEST_IID: '' }, true, true],
    ['a mirrored GitHub pull request', { ...branch('external_pull_request_event', 'x') }, true, true],
    ['a push to the default branch', branch('push', 'main'), false, false],
    ['a schedule', branch('schedule', 'main'), false, false]
  ])('%s: outside %s, secrets at risk %s', (_name, env, outside, atRisk) => {
    const ci = readGitLabCi(env)
    expect(runsOutsideCode(ci)).toBe(outside)
    expect(secretsAtRisk(ci)).toBe(atRisk)
  })

  it('refuses a secret held while a fork runs in the target project, naming the first one set', () => {
    const secrets = [
      { name: 'ASAS_API_KEY', value: 'k' },
      { name: 'GITLAB_TOKEN', value: 't' }
    ]
    const refusal = forkSecretRefusal(readGitLabCi(FORK_IN_TARGET), secrets)
    expect(refusal).toBeInstanceOf(ConfigError)
    expect(refusal?.input).toBe('ASAS_API_KEY')
    expect(refusal?.message).toMatch(
      /pipeline of project 1 that runs code from outside it \(the head of merge request !5 is in the fork project 2, not in project 1\)/
    )
    expect(
      forkSecretRefusal(readGitLabCi(FORK_IN_TARGET), [
        { name: 'ASAS_API_KEY', value: '' },
        { name: 'GITLAB_TOKEN', value: 't' }
      ])?.input
    ).toBe('GITLAB_TOKEN')
    expect(forkSecretRefusal(readGitLabCi(FORK_IN_TARGET), [{ name: 'ASAS_API_KEY', value: undefined }])).toBeNull()
    expect(forkSecretRefusal(readGitLabCi(FORK_IN_FORK), secrets)).toBeNull()
    expect(forkSecretRefusal(readGitLabCi(MR), secrets)).toBeNull()
  })
})

describe('the write rule in GitLab pipelines', () => {
  it.each([
    ['push to the default branch', branch('push', 'main'), 'default-branch'],
    ['schedule on the default branch', branch('schedule', 'main'), 'default-branch'],
    ['a manual run (web) on the default branch', branch('web', 'main'), 'default-branch'],
    ['push to another branch', branch('push', 'feature'), 'other'],
    ['an API-triggered run on the default branch', branch('api', 'main'), 'other'],
    ['a trigger on the default branch', branch('trigger', 'main'), 'other'],
    ['a merge request', MR, 'pull_request'],
    ['a fork merge request', FORK_IN_TARGET, 'pull_request']
  ])('%s stands as %s', (_name, env, kind) => {
    expect(gitlabWriteStanding(readGitLabCi(env)).kind).toBe(kind)
  })

  it('lets only the default branch write the baseline and dismissals', () => {
    expect(writeRefusal(gitlabWriteStanding(readGitLabCi(branch('schedule', 'main'))), { kind: 'baseline' })).toBeNull()
    expect(writeRefusal(gitlabWriteStanding(readGitLabCi(MR)), { kind: 'baseline' })).toMatch(
      /pull request #5 may run a pull request's code/
    )
    expect(writeRefusal(gitlabWriteStanding(readGitLabCi(branch('push', 'feature'))), { kind: 'dismissals' })).toMatch(
      /this push run on refs\/heads\/feature/
    )
  })
})
