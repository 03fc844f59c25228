/**
 * A branch's newest commits (branchCommitsApiOver), one row per rule: the one
 * request it makes (the branch, the date, one page of 1 to 100), the SHAs it
 * keeps of GitHub's answer in its order, and an answer that is no list, a
 * service failure to retry. The transport is the injected Call (its own tests
 * run over the GitHub stand-in).
 */
import { describe, expect, it } from '@jest/globals'
import { branchCommitsApiOver } from '../../src/github/branch-commits.js'
import { recordingCall } from '../__fixtures__/recording-call.js'
import { GitHubError } from '../../src/util/errors.js'

const REPO = { owner: 'octo', repo: 'agent' }
const SINCE = '2026-11-01T00:00:00Z'

function answering(data: unknown) {
  const { call, asked } = recordingCall(data)
  return { api: branchCommitsApiOver(call), calls: asked }
}

describe('listBranchCommits: the request', () => {
  it.each<[string, number, number]>([
    ['a page of the limit', 5, 5],
    ['no fewer than 1', 0, 1],
    ['a negative limit: 1', -3, 1],
    ['the largest page, 100', 100, 100],
    ['no more than 100', 500, 100]
  ])('%s (limit %i: per_page %i)', async (_name, limit, perPage) => {
    const { api, calls } = answering([])
    await api.listBranchCommits(REPO, 'main', { since: SINCE, limit })
    expect(calls).toEqual([
      {
        method: 'GET',
        path: '/repos/octo/agent/commits',
        route: 'GET /repos/{owner}/{repo}/commits',
        params: { owner: 'octo', repo: 'agent', sha: 'main', since: SINCE, per_page: perPage, page: 1 }
      }
    ])
  })
})

describe('listBranchCommits: what it keeps of the answer', () => {
  it.each<[string, unknown[], string[]]>([
    ['the SHAs in the order GitHub lists them', [{ sha: 'c3' }, { sha: 'b2' }, { sha: 'a1' }], ['c3', 'b2', 'a1']],
    ['an entry without a SHA is left out', [{ sha: 'c3' }, { commit: {} }, { sha: 'a1' }], ['c3', 'a1']],
    ['an empty SHA is left out', [{ sha: '' }, { sha: 'a1' }], ['a1']],
    ['a SHA that is not text is left out', [{ sha: 7 }, { sha: null }, { sha: 'a1' }], ['a1']],
    ['an entry that is no object is left out', ['c3', null, 5, { sha: 'a1' }], ['a1']],
    ['an empty page: none', [], []]
  ])('%s', async (_name, data, want) => {
    const { api } = answering(data)
    expect(await api.listBranchCommits(REPO, 'main', { since: SINCE, limit: 100 })).toEqual(want)
  })

  it.each<[string, unknown]>([
    ['an object', { sha: 'a1' }],
    ['nothing', null],
    ['a text', 'a1']
  ])('an answer that is no list (%s) is a service failure to retry', async (_name, data) => {
    const { api } = answering(data)
    const got = await api.listBranchCommits(REPO, 'main', { since: SINCE, limit: 100 }).catch((e: unknown) => e)
    expect(got).toBeInstanceOf(GitHubError)
    expect(got).toMatchObject({ transient: true, endpoint: 'GET /repos/{owner}/{repo}/commits' })
    expect((got as Error).message).toContain('GitHub answered the commit list without a list')
  })
})
