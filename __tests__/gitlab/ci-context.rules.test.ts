/**
 * The rules of reading a GitLab job (src/gitlab/ci-context.ts), as tables:
 * the API root, the ids (positive integers only), the merge request and its
 * page, what a blank variable means, and what the command line passes on.
 */
import { describe, expect, it } from '@jest/globals'
import { gitlabStepEnv, isGitLabCi, readGitLabCi } from '../../src/gitlab/ci-context.js'

const MR: NodeJS.ProcessEnv = {
  GITLAB_CI: 'true',
  CI_PROJECT_ID: '1',
  CI_PIPELINE_SOURCE: 'merge_request_event',
  CI_MERGE_REQUEST_IID: '5',
  CI_MERGE_REQUEST_PROJECT_ID: '1',
  CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1'
}

describe('the API root', () => {
  it.each([
    [{ CI_API_V4_URL: 'https://gl.example/api/v4' }, 'https://gl.example/api/v4'],
    [{ CI_API_V4_URL: 'http://gl.example/api/v4//' }, 'http://gl.example/api/v4'],
    [{ CI_API_V4_URL: 'https://user@gl.example/api/v4' }, null],
    [{ CI_API_V4_URL: 'https://:secret@gl.example/api/v4' }, null],
    [{ CI_API_V4_URL: 'https://gl.example/api/v4?private_token=x' }, null],
    [{ CI_API_V4_URL: 'https://gl.example/api/v4#x' }, null],
    [{ CI_API_V4_URL: 'git+https://gl.example/api/v4' }, null],
    [{ CI_API_V4_URL: 'not a url' }, null],
    // CI_API_V4_URL set wins, even when it is unusable: CI_SERVER_URL is not tried then.
    [{ CI_API_V4_URL: 'ftp://gl.example', CI_SERVER_URL: 'https://gl.example' }, null],
    [{ CI_API_V4_URL: ' ', CI_SERVER_URL: 'https://gl.example' }, 'https://gl.example/api/v4'],
    [{ CI_SERVER_URL: 'https://gl.example//' }, 'https://gl.example/api/v4'],
    [{ CI_SERVER_URL: 'ftp://gl.example' }, null],
    [{ CI_SERVER_URL: '' }, null]
  ])('%j: %j', (env, apiUrl) => {
    expect(readGitLabCi(env).apiUrl).toBe(apiUrl)
  })
})

describe('a job read whole', () => {
  it('every field from its variable', () => {
    expect(
      readGitLabCi({
        ...MR,
        CI_API_V4_URL: 'https://gl.example/api/v4',
        CI_COMMIT_BRANCH: 'feature',
        CI_DEFAULT_BRANCH: 'main',
        CI_COMMIT_SHA: 'abc123',
        CI_JOB_URL: 'https://gl.example/acme/shop/-/jobs/9',
        CI_MERGE_REQUEST_PROJECT_URL: 'https://gl.example/acme/shop',
        CI_CONFIG_PATH: 'ci/pipeline.yml'
      })
    ).toEqual({
      apiUrl: 'https://gl.example/api/v4',
      projectId: '1',
      pipelineSource: 'merge_request_event',
      commitBranch: 'feature',
      defaultBranch: 'main',
      commitSha: 'abc123',
      mergeRequest: { projectId: '1', iid: 5, sourceProjectId: '1', webUrl: 'https://gl.example/acme/shop/-/merge_requests/5' },
      mergeRequestGap: null,
      jobUrl: 'https://gl.example/acme/shop/-/jobs/9',
      configPath: 'ci/pipeline.yml'
    })
  })

  it('a blank variable reads as unset', () => {
    expect(
      readGitLabCi({
        CI_PIPELINE_SOURCE: ' ',
        CI_COMMIT_BRANCH: ' ',
        CI_DEFAULT_BRANCH: '\t',
        CI_COMMIT_SHA: '',
        CI_JOB_URL: '  ',
        CI_CONFIG_PATH: ' '
      })
    ).toEqual({
      apiUrl: null,
      projectId: null,
      pipelineSource: '',
      commitBranch: null,
      defaultBranch: null,
      commitSha: null,
      mergeRequest: null,
      mergeRequestGap: null,
      jobUrl: null,
      configPath: null
    })
  })

  it('only GITLAB_CI=true is a GitLab job', () => {
    expect([isGitLabCi({ GITLAB_CI: 'true' }), isGitLabCi({ GITLAB_CI: 'TRUE' }), isGitLabCi({ GITLAB_CI: '1' }), isGitLabCi({})]).toEqual([
      true,
      false,
      false,
      false
    ])
  })
})

describe('ids are positive integers', () => {
  it.each([
    ['1', '1'],
    ['42', '42'],
    ['1234567890123456', '1234567890123456'],
    ['12345678901234567', null],
    ['0', null],
    ['07', null],
    ['-1', null],
    ['1.5', null],
    [' 1', null],
    ['1 ', null],
    ['v1', null],
    ['1a', null],
    ['', null]
  ])('CI_PROJECT_ID %j: %j', (value, id) => {
    expect(readGitLabCi({ CI_PROJECT_ID: value }).projectId).toBe(id)
    // The same rule for every id of a merge request.
    for (const name of ['CI_MERGE_REQUEST_IID', 'CI_MERGE_REQUEST_PROJECT_ID', 'CI_MERGE_REQUEST_SOURCE_PROJECT_ID']) {
      const ci = readGitLabCi({ ...MR, [name]: value })
      expect([name, ci.mergeRequest !== null]).toEqual([name, id !== null])
      expect([name, ci.mergeRequestGap]).toEqual([
        name,
        id === null ? expect.stringContaining(`${name} ${value === '' ? 'unset' : 'not a number'}`) : null
      ])
    }
  })
})

describe("the merge request's page", () => {
  it.each([
    ['https://gl.example/acme/shop', 'https://gl.example/acme/shop/-/merge_requests/5'],
    ['http://gl.example/acme/shop//', 'http://gl.example/acme/shop/-/merge_requests/5'],
    ['javascript:alert(1)//https://x', null],
    ['ftp://gl.example/acme/shop', null],
    ['', null]
  ])('CI_MERGE_REQUEST_PROJECT_URL %j: %j', (url, webUrl) => {
    expect(readGitLabCi({ ...MR, CI_MERGE_REQUEST_PROJECT_URL: url }).mergeRequest?.webUrl).toBe(webUrl)
  })
})

describe('which pipelines carry a merge request', () => {
  it.each([
    ['a merge-request variable set', { CI_PIPELINE_SOURCE: 'push', CI_MERGE_REQUEST_LABELS: 'x' }, true],
    ['only blank merge-request variables', { CI_PIPELINE_SOURCE: 'push', CI_MERGE_REQUEST_LABELS: ' ', CI_MERGE_REQUEST_IID: '' }, false],
    [
      'a variable of another prefix',
      { CI_PIPELINE_SOURCE: 'push', CI_OPEN_MERGE_REQUESTS: 'acme/shop!5', MY_CI_MERGE_REQUEST_IID: '5' },
      false
    ],
    ['a merge-request pipeline without any', { CI_PIPELINE_SOURCE: 'merge_request_event' }, true]
  ])('%s: %s', (_name, env, carried) => {
    const ci = readGitLabCi({ CI_PROJECT_ID: '1', ...env })
    expect(ci.mergeRequest).toBeNull()
    expect(ci.mergeRequestGap !== null).toBe(carried)
  })

  it('names each missing id, in order, and nothing present', () => {
    expect(readGitLabCi({ CI_PROJECT_ID: '1', CI_MERGE_REQUEST_IID: '5', CI_PIPELINE_SOURCE: 'parent_pipeline' }).mergeRequestGap).toBe(
      'a pipeline of a merge request whose variables do not say where its code is from (CI_MERGE_REQUEST_PROJECT_ID unset, CI_MERGE_REQUEST_SOURCE_PROJECT_ID unset)'
    )
  })
})

describe("the command line's step environment", () => {
  it("passes GitLab's variables and every merge-request variable on, nothing else; GITLAB_CI is always true there", () => {
    const env = { ...MR, GITLAB_CI: 'true', CI_MERGE_REQUEST_LABELS: 'x', CI_JOB_TOKEN: 'job-token', HOME: '/root', ASAS_API_KEY: 'k' }
    expect(gitlabStepEnv(env)).toEqual({ ...MR, CI_MERGE_REQUEST_LABELS: 'x', INPUT_COMMENT: 'update' })
    expect(gitlabStepEnv({ GITLAB_CI: 'yes', CI_PROJECT_ID: '1' }, true)).toEqual({
      GITLAB_CI: 'true',
      CI_PROJECT_ID: '1',
      INPUT_COMMENT: 'update'
    })
    expect(gitlabStepEnv({ GITLAB_CI: 'yes', CI_PROJECT_ID: '1' })).toBeNull()
  })
})
