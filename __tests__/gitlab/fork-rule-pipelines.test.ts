/**
 * A fork is a fork whatever the pipeline source. GitLab runs a merge
 * request's child pipelines (`parent_pipeline`) "under the same project, ref,
 * and commit SHA as the parent pipeline" and passes them the merge request,
 * so they carry its variables; a downstream pipeline (`pipeline`, `trigger`)
 * carries them when it is given them. In every pipeline that carries them
 * the decision is made from the project ids: the source project against the
 * merge request's project (a fork's code, for outsideCode) and against the
 * pipeline's project (whose CI/CD variables the job holds). Where the
 * variables do not tell (some missing, an id that is not a number), the code
 * is outside: no secret, and the run stands as a pull request (no write).
 */
import { describe, expect, it } from '@jest/globals'
import { readGitLabCi } from '../../src/gitlab/ci-context.js'
import { codeEvidence, forkSecretRefusal, gitlabWriteStanding, runsOutsideCode, secretsAtRisk } from '../../src/gitlab/fork-rule.js'
import { writeRefusal } from '../../src/github/write-rule.js'
import { outsideCode } from '../../src/pipeline/code-origin.js'

/** Every source a pipeline of a merge request may have, and others that may be given its variables. */
const SOURCES = ['merge_request_event', 'parent_pipeline', 'pipeline', 'trigger', 'api', 'web', 'push', 'schedule'] as const

/** The merge request's ids, as GitLab sets them: merge request !5 of project 1. */
const SAME_PROJECT = {
  CI_PROJECT_ID: '1',
  CI_MERGE_REQUEST_IID: '5',
  CI_MERGE_REQUEST_ID: '905',
  CI_MERGE_REQUEST_PROJECT_ID: '1',
  CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1'
}

interface Expected {
  /** outsideCode answers with a reason. */
  outside: boolean
  /** The job holds a project's variables while it runs another's code: the secret is refused. */
  refused: boolean
  /** The reason names this. */
  why?: RegExp
}

/** Id combinations × what every pipeline carrying them must decide. */
const COMBINATIONS: [string, Record<string, string | undefined>, Expected][] = [
  ['a merge request from the same project', SAME_PROJECT, { outside: false, refused: false }],
  [
    "a fork's merge request run in the target project",
    { ...SAME_PROJECT, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' },
    { outside: true, refused: true, why: /the head of merge request !5 is in the fork project 2, not in project 1/ }
  ],
  [
    "a fork's merge request run in the fork",
    { ...SAME_PROJECT, CI_PROJECT_ID: '2', CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' },
    { outside: true, refused: false }
  ],
  [
    'the source project unset',
    { ...SAME_PROJECT, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: undefined },
    { outside: true, refused: true, why: /cannot be told.*CI_MERGE_REQUEST_SOURCE_PROJECT_ID unset/ }
  ],
  [
    'the source project blank',
    { ...SAME_PROJECT, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: ' ' },
    { outside: true, refused: true, why: /CI_MERGE_REQUEST_SOURCE_PROJECT_ID unset/ }
  ],
  [
    'the source project not a number',
    { ...SAME_PROJECT, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1 ' + '; 2' },
    { outside: true, refused: true, why: /CI_MERGE_REQUEST_SOURCE_PROJECT_ID not a number/ }
  ],
  [
    "the merge request's project unset",
    { ...SAME_PROJECT, CI_MERGE_REQUEST_PROJECT_ID: undefined },
    { outside: true, refused: true, why: /CI_MERGE_REQUEST_PROJECT_ID unset/ }
  ],
  [
    "the merge request's project not a number",
    { ...SAME_PROJECT, CI_MERGE_REQUEST_PROJECT_ID: 'acme/shop' },
    { outside: true, refused: true, why: /CI_MERGE_REQUEST_PROJECT_ID not a number/ }
  ],
  [
    "the pipeline's project unset",
    { ...SAME_PROJECT, CI_PROJECT_ID: undefined },
    { outside: true, refused: true, why: /CI_PROJECT_ID unset/ }
  ],
  [
    'the IID unset',
    { ...SAME_PROJECT, CI_MERGE_REQUEST_IID: undefined },
    { outside: true, refused: true, why: /CI_MERGE_REQUEST_IID unset/ }
  ],
  [
    'an IID of 0',
    { ...SAME_PROJECT, CI_MERGE_REQUEST_IID: '0' },
    { outside: true, refused: true, why: /CI_MERGE_REQUEST_IID not a number/ }
  ],
  [
    'only another merge-request variable',
    { CI_PROJECT_ID: '1', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' },
    {
      outside: true,
      refused: true,
      why: /CI_MERGE_REQUEST_IID unset, CI_MERGE_REQUEST_PROJECT_ID unset, CI_MERGE_REQUEST_SOURCE_PROJECT_ID unset\)/
    }
  ]
]

function jobEnv(source: string, ids: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { GITLAB_CI: 'true', CI_PIPELINE_SOURCE: source, CI_DEFAULT_BRANCH: 'main' }
  for (const [k, v] of Object.entries(ids)) if (v !== undefined) env[k] = v
  return env
}

const SECRETS = [
  { name: 'ASAS_API_KEY', value: 'k' },
  { name: 'GITLAB_TOKEN', value: 't' }
]

describe('a pipeline carrying merge-request variables, whatever its source', () => {
  const table = SOURCES.flatMap((source) => COMBINATIONS.map(([name, ids, expected]) => [source, name, ids, expected] as const))

  it.each(table)('%s, %s', (source, _name, ids, expected) => {
    const ci = readGitLabCi(jobEnv(source, ids))
    // outsideCode stays the one answer: the GitLab rule only gathers its evidence.
    const reason = outsideCode(codeEvidence(ci))
    expect(reason !== null).toBe(expected.outside)
    expect(runsOutsideCode(ci)).toBe(expected.outside)
    expect(secretsAtRisk(ci)).toBe(expected.refused)
    const refusal = forkSecretRefusal(ci, SECRETS)
    expect(refusal !== null).toBe(expected.refused)
    if (expected.why) expect(refusal?.message).toMatch(expected.why)
    // A pipeline of a merge request, told or not, stands as a pull request: it writes nothing shared.
    const standing = gitlabWriteStanding(ci)
    expect(standing.kind).toBe('pull_request')
    expect(writeRefusal(standing, { kind: 'baseline' })).not.toBeNull()
    expect(writeRefusal(standing, { kind: 'dismissals' })).not.toBeNull()
    expect(standing).toEqual({ kind: 'pull_request', number: ci.mergeRequest === null ? null : 5 })
  })

  it.each(SOURCES)('%s: the merge request is read from its variables (the note goes to it)', (source) => {
    expect(readGitLabCi(jobEnv(source, { ...SAME_PROJECT, CI_MERGE_REQUEST_PROJECT_URL: 'https://gl.example/acme/shop/' }))).toMatchObject({
      projectId: '1',
      mergeRequest: { projectId: '1', iid: 5, sourceProjectId: '1', webUrl: 'https://gl.example/acme/shop/-/merge_requests/5' },
      mergeRequestGap: null
    })
  })
})

describe('a pipeline carrying no merge-request variable', () => {
  it.each([
    ['push', 'this project'],
    ['parent_pipeline', 'this project'],
    ['pipeline', 'this project'],
    ['trigger', 'this project'],
    ['schedule', 'this project'],
    ['merge_request_event', 'cannot be told'],
    ['external_pull_request_event', 'cannot be told']
  ])('%s: %s', (source, verdict) => {
    const ci = readGitLabCi(jobEnv(source, { CI_PROJECT_ID: '1', CI_MERGE_REQUEST_IID: '' }))
    expect(ci.mergeRequest).toBeNull()
    expect(runsOutsideCode(ci)).toBe(verdict === 'cannot be told')
    expect(secretsAtRisk(ci)).toBe(verdict === 'cannot be told')
    if (source === 'merge_request_event') {
      expect(ci.mergeRequestGap).toMatch(/CI_MERGE_REQUEST_IID unset/)
      expect(gitlabWriteStanding(ci)).toEqual({ kind: 'pull_request', number: null })
    }
  })

  it('a push to the default branch still stands as the default branch', () => {
    const ci = readGitLabCi({ ...jobEnv('push', { CI_PROJECT_ID: '1' }), CI_COMMIT_BRANCH: 'main' })
    expect(gitlabWriteStanding(ci)).toEqual({ kind: 'default-branch', branch: 'main' })
    expect(ci.mergeRequestGap).toBeNull()
  })
})

describe('the refusal and the standing of what cannot be told', () => {
  it('says the whole of it: the project, why the code is outside, what to do', () => {
    const ci = readGitLabCi(jobEnv('parent_pipeline', { ...SAME_PROJECT, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' }))
    expect(forkSecretRefusal(ci, SECRETS)?.message).toBe(
      'is set in a pipeline of project 1 that runs code from outside it (the head of merge request !5 is in the fork project 2, ' +
        "not in project 1), where that code can read it. Let a fork's merge requests run their pipelines in the fork (GitLab's " +
        "default: the target's variables stay out), or assess the change once merged; this job stops before sending anything"
    )
  })

  it('a mirrored pull request in a pipeline of no known project: refused, naming the project unknown; it stands as a pull request', () => {
    const ci = readGitLabCi({ GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'external_pull_request_event' })
    expect(forkSecretRefusal(ci, SECRETS)?.message).toMatch(
      /^is set in a pipeline of project \(unknown\) that runs code from outside it \(it cannot be told whether the code is this repository's \(a mirrored pull request, whose source GitLab does not name\)\)/
    )
    expect(gitlabWriteStanding(ci)).toEqual({ kind: 'pull_request', number: null })
  })

  it('no secret held: nothing to refuse, whatever the code', () => {
    const ci = readGitLabCi(jobEnv('parent_pipeline', { ...SAME_PROJECT, CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' }))
    expect(
      forkSecretRefusal(ci, [
        { name: 'ASAS_API_KEY', value: '' },
        { name: 'GITLAB_TOKEN', value: undefined }
      ])
    ).toBeNull()
    expect(forkSecretRefusal(ci, [])).toBeNull()
  })
})

describe('the standing of a pipeline of no merge request', () => {
  it.each([
    ['a push with neither branch known', { CI_PIPELINE_SOURCE: 'push' }, { kind: 'other', eventName: 'push', ref: '' }],
    [
      'no pipeline source',
      { CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' },
      { kind: 'other', eventName: 'unknown', ref: 'refs/heads/main' }
    ],
    [
      'a source with no GitHub twin on the default branch',
      { CI_PIPELINE_SOURCE: 'chat', CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' },
      { kind: 'other', eventName: 'chat', ref: 'refs/heads/main' }
    ],
    [
      'a manual run (web) on the default branch',
      { CI_PIPELINE_SOURCE: 'web', CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' },
      { kind: 'default-branch', branch: 'main' }
    ]
  ])('%s', (_name, env, standing) => {
    expect(gitlabWriteStanding(readGitLabCi({ GITLAB_CI: 'true', CI_PROJECT_ID: '1', ...env }))).toEqual(standing)
  })
})
