import { describe, expect, test } from '@jest/globals'
import { assessedCommit, targetFromEvent, type EventTarget } from '../../src/github/event-target.js'

const PR_PAYLOAD = { action: 'synchronize', number: 42, pull_request: { number: 42, head: { sha: 'abc' } } }

describe('targetFromEvent', () => {
  const cases: [string, string, unknown, string, EventTarget][] = [
    ['pull_request', 'pull_request', PR_PAYLOAD, 'octo/agent', { kind: 'pull_request', owner: 'octo', repo: 'agent', number: 42 }],
    [
      'pull_request_target',
      'pull_request_target',
      PR_PAYLOAD,
      'octo/agent',
      { kind: 'pull_request', owner: 'octo', repo: 'agent', number: 42 }
    ],
    [
      'number only at the top',
      'pull_request',
      { number: 7 },
      'octo/agent',
      { kind: 'pull_request', owner: 'octo', repo: 'agent', number: 7 }
    ],
    [
      'pull_request.number wins',
      'pull_request',
      { number: 1, pull_request: { number: 9 } },
      'a/b',
      { kind: 'pull_request', owner: 'a', repo: 'b', number: 9 }
    ],
    [
      'dots, dashes and underscores',
      'pull_request',
      PR_PAYLOAD,
      'my-org.x/re_po.js',
      { kind: 'pull_request', owner: 'my-org.x', repo: 're_po.js', number: 42 }
    ],
    [
      'repository from payload when env is empty',
      'pull_request',
      { ...PR_PAYLOAD, repository: { full_name: 'p/q' } },
      '',
      { kind: 'pull_request', owner: 'p', repo: 'q', number: 42 }
    ],
    ['push', 'push', { ref: 'refs/heads/main' }, 'octo/agent', { kind: 'none', eventName: 'push' }],
    ['schedule', 'schedule', { schedule: '0 3 * * *' }, 'octo/agent', { kind: 'none', eventName: 'schedule' }],
    ['workflow_dispatch', 'workflow_dispatch', { inputs: {} }, 'octo/agent', { kind: 'none', eventName: 'workflow_dispatch' }],
    [
      'issue_comment on a PR',
      'issue_comment',
      { issue: { number: 42, pull_request: {} } },
      'octo/agent',
      { kind: 'none', eventName: 'issue_comment' }
    ],
    ['merge_group', 'merge_group', PR_PAYLOAD, 'octo/agent', { kind: 'none', eventName: 'merge_group' }],
    ['pull_request_review', 'pull_request_review', PR_PAYLOAD, 'octo/agent', { kind: 'none', eventName: 'pull_request_review' }],
    ['empty event name', '', PR_PAYLOAD, 'octo/agent', { kind: 'none', eventName: '' }]
  ]
  test.each(cases)('%s', (_name, eventName, payload, repository, expected) => {
    expect(targetFromEvent(eventName, payload, repository)).toEqual(expected)
  })

  const noNumber: [string, unknown][] = [
    ['null payload', null],
    ['array payload', [42]],
    ['string number', { number: '42' }],
    ['zero', { number: 0 }],
    ['negative', { pull_request: { number: -3 } }],
    ['fraction', { pull_request: { number: 1.5 } }],
    ['no number', { pull_request: {} }]
  ]
  test.each(noNumber)('a PR event without a usable number gives none with a reason: %s', (_name, payload) => {
    const t = targetFromEvent('pull_request', payload, 'octo/agent')
    expect(t.kind).toBe('none')
    expect(t.kind === 'none' && t.reason).toMatch(/pull request number/)
  })

  test.each(['', 'octo', 'octo/agent/extra', 'octo/', '/agent', 'oc to/agent', 'octo/..'])(
    'unusable repository %j gives none with a reason',
    (repository) => {
      const t = targetFromEvent('pull_request', PR_PAYLOAD, repository)
      expect(t).toEqual({ kind: 'none', eventName: 'pull_request', reason: expect.stringMatching(/GITHUB_REPOSITORY/) })
    }
  )
})

describe('assessedCommit', () => {
  const head = 'ABCDEF0123456789abcdef0123456789abcdef01'
  test.each([
    ['the pull request head, not the merge commit', { pull_request: { head: { sha: head } } }, 'f'.repeat(40), head.toLowerCase()],
    ['GITHUB_SHA without a pull request', { ref: 'refs/heads/main' }, 'a'.repeat(40), 'a'.repeat(40)],
    ['GITHUB_SHA when the head is not hex', { pull_request: { head: { sha: 'x; rm -rf' } } }, 'b'.repeat(40), 'b'.repeat(40)],
    ['null when neither is a SHA', null, 'not-a-sha', null],
    ['null when nothing is set', null, undefined, null]
  ] as const)('%s', (_name, payload, githubSha, expected) => {
    expect(assessedCommit(payload, githubSha)).toBe(expected)
  })
})
