/**
 * The rules of a commit status, one row each: what a status says when the step
 * failed (cause and fix within 140 characters), how a failure to set one is
 * explained, how GitHub's list is read, and which listed statuses are this
 * agent's own.
 */
import { describe, expect, test } from '@jest/globals'
import {
  causeAndFix,
  explainStatusFailure,
  failureStatus,
  ownStatuses,
  postCommitStatus,
  statusesApiOver,
  statusTargetUrl,
  type ListedStatus
} from '../../src/github/commit-status.js'
import { AbortedError, ConfigError, GitHubError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { recordingCall } from '../__fixtures__/recording-call.js'

const REPO = { owner: 'octo', repo: 'agent' }
const SHA = 'abcdef0123456789abcdef0123456789abcdef01'

describe('causeAndFix: the fix whole, the cause clipped before it', () => {
  test.each<[string, string, string, string]>([
    [
      'both fit: the cause without its trailing marks, then the fix',
      'Record refused;. ',
      'Re-run the job.',
      'Record refused. Re-run the job.'
    ],
    ['no fix: the cause alone', 'Record refused', '', 'Record refused'],
    ['a cause on several lines is one line', 'a\nb', 'Fix it.', 'a b. Fix it.'],
    ['a cause of exactly the room left is whole', 'c'.repeat(140 - 8 - 2), 'Fix it.!', `${'c'.repeat(130)}. Fix it.!`],
    ['a cause one over the room is clipped with an ellipsis', 'c'.repeat(131), 'Fix it.!', `${'c'.repeat(129)}…. Fix it.!`]
  ])('%s', (_name, cause, fix, expected) => {
    expect(causeAndFix(cause, fix)).toBe(expected)
  })

  test('a cause too long without a fix is clipped at 140', () => {
    expect(Array.from(causeAndFix('x'.repeat(300), ''))).toHaveLength(140)
  })
})

describe('failureStatus: the cause and the fix first', () => {
  const remote = (over: { status?: number; code?: string; hint?: string }): GitHubError =>
    new GitHubError({ endpoint: 'POST /run', message: 'refused', ...over })
  test.each<[string, unknown, string]>([
    [
      'a refusal with a hint leads with it, the status and code after',
      remote({ status: 403, code: 'x_y', hint: 'Used up.  ' }),
      'Used up (HTTP 403 x_y).'
    ],
    ['the status alone', remote({ status: 429, hint: 'Wait' }), 'Wait (HTTP 429).'],
    ['the code alone', remote({ code: 'c', hint: 'Wait' }), 'Wait (c).'],
    ['neither: the hint alone', remote({ hint: 'Wait.' }), 'Wait.'],
    ['a refusal without a hint: the line', remote({ status: 500 }), 'the line'],
    [
      'a refusal of the pipeline: what it refused, then how to get past it',
      new ConfigError('merge_queue', 'Nothing to carry over. Push the branch again.', 'merge queue refused'),
      'Merge queue refused. Push the branch again.'
    ],
    [
      'a fix after a semicolon, its full stops trimmed',
      new ConfigError('x', 'no record; Re-run the job. ', 'refused'),
      'Refused. Re-run the job.'
    ],
    ['a fix word inside a sentence is no fix', new ConfigError('x', 'cannot Let it be', 'refused'), 'Refused: cannot Let it be'],
    [
      'a word that only starts like a fix is none',
      new ConfigError('x', 'no record. Settle it', 'refused'),
      'Refused: no record. Settle it'
    ],
    ['a message that is the fix alone', new ConfigError('x', 'Push the branch again.', 'refused'), 'Refused. Push the branch again.'],
    ['a configuration mistake without a summary: the line', new ConfigError('x', 'bad. Set it.'), 'the line'],
    ['anything else: the line', new Error('boom'), 'the line']
  ])('%s', (_name, err, expected) => {
    expect(failureStatus(err, 'the line')).toBe(expected)
  })
})

describe('explainStatusFailure: why a status could not be set, and the fix', () => {
  const head = "Could not set the commit status on octo/agent@abcdef0 (the gate's result is unchanged)"
  const gh = (status: number): GitHubError => new GitHubError({ endpoint: 'POST /statuses', status, message: 'no' })
  test.each<[string, unknown, string, string]>([
    [
      '403: the permission to give',
      gh(403),
      `${head}: GitHub answered 403 (POST /statuses HTTP 403: no). Fix: give the job \`permissions: statuses: write\`.`,
      'forbidden (403): the token cannot set commit statuses'
    ],
    [
      '404: the same permission',
      gh(404),
      `${head}: GitHub answered 404 (POST /statuses HTTP 404: no). Fix: give the job \`permissions: statuses: write\`.`,
      'not found (404): the token cannot set commit statuses'
    ],
    ['422: refused', gh(422), `${head}: GitHub refused the status (POST /statuses HTTP 422: no).`, 'refused (422)'],
    ['another status: what GitHub said', gh(500), `${head}: POST /statuses HTTP 500: no`, 'HTTP 500']
  ])('%s', (_name, err, warning, reason) => {
    expect(explainStatusFailure(err, REPO, SHA)).toEqual({ warning, reason })
  })

  test('a cancellation is no warning: it ends the step', async () => {
    const log = recordingLog()
    const api = { setCommitStatus: () => Promise.reject(new AbortedError()), listCommitStatuses: () => Promise.resolve([]) }
    await expect(
      postCommitStatus(api, REPO, { sha: SHA, state: 'pending', context: 'c', description: 'd', targetUrl: null, owner: null }, log)
    ).rejects.toBeInstanceOf(AbortedError)
    expect(log.lines).toEqual([])
  })
})

describe('statusTargetUrl: the fragment the job URL had is replaced whole', () => {
  test('a fragment of several characters', () => {
    expect(statusTargetUrl('https://g/run/1#step-12', '0a1b2c3d')).toBe('https://g/run/1#agent-0a1b2c3d')
  })
})

describe('ownStatuses: the statuses of this context naming this agent, in the order listed', () => {
  const listed: ListedStatus[] = [
    { context: 'agent-security/x', owner: 'aaaaaaaa', state: 'success' },
    { context: 'agent-security/y', owner: 'aaaaaaaa' },
    { context: 'agent-security/x', owner: 'bbbbbbbb' },
    { context: 'agent-security/x', owner: null },
    { context: 'agent-security/x', owner: 'aaaaaaaa', state: 'pending' }
  ]
  test('only the same context and owner', () => {
    expect(ownStatuses(listed, 'agent-security/x', 'aaaaaaaa').map((s) => s.state)).toEqual(['success', 'pending'])
  })
})

describe('statusesApiOver: what is sent and how the answer is read', () => {
  const status = {
    sha: SHA,
    state: 'failure' as const,
    context: 'agent-security/x',
    description: 'a\nb',
    targetUrl: null,
    owner: '0a1b2c3d'
  }

  test.each<[string, unknown, number | null]>([
    ['the id GitHub gave', { id: 7 }, 7],
    ['an id that is no number: none', { id: '7' }, null],
    ['an answer that is no object: none', 'ok', null]
  ])('set: %s', async (_name, data, id) => {
    const { call, asked } = recordingCall(data)
    expect(await statusesApiOver(call).setCommitStatus(REPO, status)).toEqual({ id })
    expect(asked).toEqual([
      {
        method: 'POST',
        path: `/repos/octo/agent/statuses/${SHA}`,
        route: 'POST /repos/{owner}/{repo}/statuses/{sha}',
        // No job URL: no target URL is sent, so no agent is named.
        params: { owner: 'octo', repo: 'agent', sha: SHA, state: 'failure', context: 'agent-security/x', description: 'a b' }
      }
    ])
  })

  test('set: a job URL is sent with the agent in its fragment', async () => {
    const { call, asked } = recordingCall({ id: 1 })
    await statusesApiOver(call).setCommitStatus(REPO, { ...status, targetUrl: 'https://g/run/1' })
    expect(asked[0].params.target_url).toBe('https://g/run/1#agent-0a1b2c3d')
  })

  test('list: one page of the newest 100 of the commit', async () => {
    const { call, asked } = recordingCall([])
    expect(await statusesApiOver(call).listCommitStatuses(REPO, SHA)).toEqual([])
    expect(asked).toEqual([
      {
        method: 'GET',
        path: `/repos/octo/agent/commits/${SHA}/statuses`,
        route: 'GET /repos/{owner}/{repo}/commits/{ref}/statuses',
        params: { owner: 'octo', repo: 'agent', ref: SHA, per_page: 100 }
      }
    ])
  })

  test.each<[string, unknown, ListedStatus[]]>([
    [
      'every field as listed',
      [{ context: 'c', target_url: 'https://g/1#agent-0a1b2c3d', state: 'success', description: 'd', creator: { login: 'bot' } }],
      [{ context: 'c', owner: '0a1b2c3d', targetUrl: 'https://g/1#agent-0a1b2c3d', state: 'success', description: 'd', creator: 'bot' }]
    ],
    [
      'the agent named at the description end, as before 1.1',
      [{ context: 'c', description: 'fail [agent 0a1b2c3d]' }],
      [{ context: 'c', owner: '0a1b2c3d', targetUrl: null, state: '', description: 'fail [agent 0a1b2c3d]', creator: null }]
    ],
    [
      'fields of another type read as none',
      [{ context: 1, target_url: 2, state: 3, description: 4, creator: { login: 5 } }],
      [{ context: '', owner: null, targetUrl: null, state: '', description: null, creator: null }]
    ],
    [
      'a creator that is no object: none',
      [{ context: 'c', creator: 'bot' }],
      [{ context: 'c', owner: null, targetUrl: null, state: '', description: null, creator: null }]
    ],
    [
      'an entry that is no object is left out',
      [null, 'x', { context: 'c' }],
      [{ context: 'c', owner: null, targetUrl: null, state: '', description: null, creator: null }]
    ]
  ])('list: %s', async (_name, data, expected) => {
    expect(await statusesApiOver(recordingCall(data).call).listCommitStatuses(REPO, SHA)).toEqual(expected)
  })

  test('list: an answer that is no list is a passing failure of GitHub, not an empty list', async () => {
    const err = await statusesApiOver(recordingCall({ statuses: [] }).call)
      .listCommitStatuses(REPO, SHA)
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitHubError)
    expect(err).toMatchObject({ transient: true, endpoint: `GET /repos/octo/agent/commits/${SHA}/statuses` })
    expect((err as Error).message).toMatch(/without a list/)
  })
})
