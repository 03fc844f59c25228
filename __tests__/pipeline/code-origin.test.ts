import { describe, expect, test } from '@jest/globals'
import { outsideCode, type CodeEvidence } from '../../src/pipeline/code-origin.js'
import { readPipelineEvent } from '../../src/pipeline/event.js'

const SHA = 'a'.repeat(40)
const REPO = 'octo/agent'

describe('outsideCode: the one answer to "is this code from outside the repository"', () => {
  const cases: [string, CodeEvidence, RegExp | null][] = [
    ["the event's own branch (push, merge queue, schedule)", { kind: 'this_repository' }, null],
    ['a pull request whose head branch is here', { kind: 'head', of: 'pull request #7', headRepo: REPO, repository: REPO }, null],
    ['the same repository, named in another case', { kind: 'head', of: 'pull request #7', headRepo: 'Octo/Agent', repository: REPO }, null],
    [
      "a fork's pull request",
      { kind: 'head', of: 'pull request #7', headRepo: 'mallory/agent', repository: REPO },
      /^the head of pull request #7 is in the fork mallory\/agent, not in octo\/agent$/
    ],
    [
      'a pull request from a deleted fork',
      { kind: 'head', of: 'pull request #7', headRepo: null, repository: REPO },
      /a fork that no longer exists/
    ],
    ['a deployed commit its branch holds', { kind: 'commit', sha: SHA, asked: ['feat'], heldBy: 'feat', forkPull: null }, null],
    [
      "a deployed fork's head",
      { kind: 'commit', sha: SHA, asked: ['feat'], heldBy: null, forkPull: { number: 9, headRepo: 'mallory/agent' } },
      /^the deployed commit aaaaaaa is the head of pull request #9 from the fork mallory\/agent, and on no branch of this repository \(not on 'feat'\)$/
    ],
    [
      'a deployed commit on no branch, the event naming none',
      { kind: 'commit', sha: SHA, asked: [], heldBy: null, forkPull: null },
      /on no branch of this repository \(the event names no branch\)/
    ],
    ['what cannot be told', { kind: 'unknown', why: 'github_token is empty' }, /cannot be told .*github_token is empty/]
  ]
  test.each(cases)('%s', (_name, evidence, expected) => {
    const reason = outsideCode(evidence)
    if (expected === null) expect(reason).toBeNull()
    else expect(reason).toMatch(expected)
  })
})

describe('what the events say of their head', () => {
  const env = { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: SHA }
  test.each([
    [
      'a pull request from a fork',
      { number: 7, pull_request: { number: 7, head: { repo: { full_name: 'mallory/agent' } } } },
      'mallory/agent'
    ],
    ['a pull request whose fork was deleted (head.repo null)', { number: 7, pull_request: { number: 7, head: { repo: null } } }, null]
  ])('%s', (_name, payload, headRepo) => {
    expect(readPipelineEvent('pull_request_target', payload, env)).toMatchObject({ kind: 'pull_request', headRepo })
  })

  test('a workflow_run names its head repository; an issue comment its pull request', () => {
    expect(readPipelineEvent('workflow_run', { workflow_run: { head_repository: { full_name: 'mallory/agent' } } }, env)).toMatchObject({
      kind: 'other',
      runHeadRepo: 'mallory/agent'
    })
    expect(readPipelineEvent('issue_comment', { issue: { number: 4, pull_request: {} } }, env)).toMatchObject({
      kind: 'other',
      commentedPull: 4
    })
    expect(readPipelineEvent('issue_comment', { issue: { number: 4 } }, env)).toMatchObject({ commentedPull: null })
  })

  test('status, check_run and check_suite name the commit they are about and its branches', () => {
    const F = 'f'.repeat(40)
    expect(readPipelineEvent('status', { sha: F, branches: [{ name: 'feat' }, { name: 7 }] }, env)).toMatchObject({
      kind: 'other',
      namedCommit: { sha: F, branches: ['feat'] }
    })
    expect(readPipelineEvent('check_run', { check_run: { head_sha: F, check_suite: { head_branch: 'feat' } } }, env)).toMatchObject({
      namedCommit: { sha: F, branches: ['feat'] }
    })
    expect(readPipelineEvent('check_suite', { check_suite: { head_sha: 'nope', head_branch: null } }, env)).toMatchObject({
      namedCommit: { sha: null, branches: [] }
    })
    expect(readPipelineEvent('push', { ref: 'refs/heads/main' }, env)).not.toHaveProperty('namedCommit')
  })
})
