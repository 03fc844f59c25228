/**
 * The rules of baselineScope, one row per rule: where a run reads the
 * accepted risks. A pull request reads its base (never its own head or merge
 * commit); a merge queue reads the queue's base, a deployment or a Vercel
 * dispatch the default branch (their commit is often a pull request's head),
 * every other event GITHUB_SHA. What cannot be told is null (nothing is read,
 * nothing accepted), never an empty text nor another commit.
 */
import { describe, expect, it } from '@jest/globals'
import { baselineScope } from '../../src/evidence/scope.js'

const MAIN = { repository: { default_branch: 'main' } }

describe('baselineScope: where a run that is no pull request reads the accepted risks', () => {
  it.each<[string, string, unknown, NodeJS.ProcessEnv, string | null]>([
    ['a push reads GITHUB_SHA', 'push', MAIN, { GITHUB_REF: 'refs/heads/feature', GITHUB_SHA: 'push-sha' }, 'push-sha'],
    ['an empty GITHUB_SHA is no commit', 'push', MAIN, { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: '' }, null],
    [
      "a merge queue reads the queue's base, never its merged head",
      'merge_group',
      { ...MAIN, merge_group: { base_sha: 'queue-base', head_sha: 'queue-head' } },
      { GITHUB_SHA: 'queue-head' },
      'queue-base'
    ],
    [
      'a merge queue with an empty base_sha reads nothing, not GITHUB_SHA',
      'merge_group',
      { ...MAIN, merge_group: { base_sha: '', head_sha: 'queue-head' } },
      { GITHUB_SHA: 'queue-head' },
      null
    ],
    ['a merge queue whose payload names no queue reads nothing, not GITHUB_SHA', 'merge_group', MAIN, { GITHUB_SHA: 'queue-head' }, null],
    [
      'a merge queue whose queue is not an object reads nothing',
      'merge_group',
      { ...MAIN, merge_group: 'queue-base' },
      { GITHUB_SHA: 'queue-head' },
      null
    ],
    [
      "a Vercel dispatch reads the default branch, never its commit (a pull request's head)",
      'repository_dispatch',
      { ...MAIN, client_payload: { git: { sha: 'pr-head' } } },
      { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'pr-head' },
      'refs/heads/main'
    ],
    [
      'a Vercel dispatch naming no default branch reads nothing, not GITHUB_SHA',
      'repository_dispatch',
      { client_payload: { git: { sha: 'pr-head' } } },
      { GITHUB_SHA: 'pr-head' },
      null
    ],
    [
      'a deployment reads the default branch, never the deployed commit',
      'deployment_status',
      { repository: { default_branch: 'trunk' }, deployment: { sha: 'pr-head' } },
      { GITHUB_SHA: 'pr-head' },
      'refs/heads/trunk'
    ],
    [
      'a deployment naming an empty default branch reads nothing',
      'deployment_status',
      { repository: { default_branch: '' }, deployment: { sha: 'pr-head' } },
      { GITHUB_SHA: 'pr-head' },
      null
    ],
    ['a payload that is no object: GITHUB_SHA, no default branch', 'push', null, { GITHUB_SHA: 's' }, 's'],
    ['a merge queue payload that is no object reads nothing', 'merge_group', 'x', { GITHUB_SHA: 'queue-head' }, null]
  ])('%s', (_rule, event, payload, env, sha) => {
    const scope = baselineScope(event, payload, env)
    expect(scope.kind).not.toBe('pull_request')
    expect(scope.sha).toBe(sha)
  })
})

describe('baselineScope: a pull request reads its base; what the payload does not name is null', () => {
  const pr = (pullRequest: unknown) => ({ number: 7, pull_request: pullRequest })
  it.each<[string, string, unknown, NodeJS.ProcessEnv, object]>([
    [
      'base and head as the payload names them, GITHUB_SHA as sha',
      'pull_request',
      { ...pr({ number: 7, base: { ref: 'release', sha: 'base-sha' }, head: { sha: 'head-sha' } }), ...MAIN },
      { GITHUB_BASE_REF: 'main', GITHUB_SHA: 'merge-sha' },
      { baseRef: 'release', baseSha: 'base-sha', headSha: 'head-sha', sha: 'merge-sha', defaultBranch: 'main' }
    ],
    [
      'pull_request_target alike',
      'pull_request_target',
      pr({ number: 7, base: { ref: 'main', sha: 'base-sha' }, head: { sha: 'head-sha' } }),
      { GITHUB_SHA: 'base-tip' },
      { baseRef: 'main', baseSha: 'base-sha', headSha: 'head-sha', sha: 'base-tip', defaultBranch: null }
    ],
    [
      'an empty base ref falls back to GITHUB_BASE_REF',
      'pull_request',
      pr({ number: 7, base: { ref: '', sha: 'base-sha' } }),
      { GITHUB_BASE_REF: 'main' },
      { baseRef: 'main', baseSha: 'base-sha', headSha: null, sha: null }
    ],
    [
      'no base ref at all and no GITHUB_BASE_REF: the empty ref',
      'pull_request',
      pr({ number: 7, base: { sha: 'base-sha' } }),
      {},
      { baseRef: '', baseSha: 'base-sha', headSha: null, sha: null }
    ],
    [
      'empty SHAs are none (nothing is read at an empty commit)',
      'pull_request',
      pr({ number: 7, base: { ref: 'main', sha: '' }, head: { sha: '' } }),
      { GITHUB_SHA: '' },
      { baseRef: 'main', baseSha: null, headSha: null, sha: null }
    ],
    [
      'SHAs that are no text are none',
      'pull_request',
      pr({ number: 7, base: { ref: 7, sha: 123 }, head: { sha: ['h'] } }),
      { GITHUB_BASE_REF: 'main' },
      { baseRef: 'main', baseSha: null, headSha: null, sha: null }
    ],
    [
      'a pull request that is no object names nothing',
      'pull_request',
      pr('base-sha'),
      { GITHUB_SHA: 'merge-sha' },
      { baseRef: '', baseSha: null, headSha: null, sha: 'merge-sha' }
    ],
    [
      'base and head that are no objects name nothing',
      'pull_request',
      pr({ number: 7, base: 'base-sha', head: 'head-sha' }),
      {},
      { baseRef: '', baseSha: null, headSha: null }
    ],
    ['a payload that is no object names nothing', 'pull_request', null, {}, { baseRef: '', baseSha: null, headSha: null, sha: null }]
  ])('%s', (_rule, event, payload, env, expected) => {
    expect(baselineScope(event, payload, env)).toMatchObject({ kind: 'pull_request', ...expected })
  })
})
