/**
 * A deployment's URL as the gate assesses it, one row per rule: https (plain
 * http for a loopback host only), a host, and no credential of any part in it
 * (a user name alone, a password alone, or both).
 */
import { describe, expect, it } from '@jest/globals'
import { commitSha, deploymentUrl, endpointAt, eventCommit, readPipelineEvent } from '../../src/pipeline/event.js'

describe('deploymentUrl', () => {
  it.each<[unknown, { url: string } | { error: string }]>([
    ['app-abc.vercel.app', { url: 'https://app-abc.vercel.app/' }],
    ['https://app-abc.vercel.app/x?y=1', { url: 'https://app-abc.vercel.app/x?y=1' }],
    ['app-abc.vercel.app/x?next=http://evil.test', { url: 'https://app-abc.vercel.app/x?next=http://evil.test' }],
    ['javascript:alert(1)', { error: "the deployment URL of the event has scheme 'javascript:', not https" }],
    [`${'s'.repeat(30)}://x`, { error: `the deployment URL of the event has scheme '${'s'.repeat(20)}', not https` }],
    ['http://127.0.0.1:3000/', { url: 'http://127.0.0.1:3000/' }],
    ['http://localhost:3000/', { url: 'http://localhost:3000/' }],
    ['https://user@app.example.test/', { error: 'the deployment URL of the event carries credentials' }],
    ['https://:secret@app.example.test/', { error: 'the deployment URL of the event carries credentials' }],
    ['https://user:secret@app.example.test/', { error: 'the deployment URL of the event carries credentials' }],
    ['user@app.example.test', { error: 'the deployment URL of the event carries credentials' }],
    ['http://user@127.0.0.1/', { error: 'the deployment URL of the event carries credentials' }],
    [
      'http://app.example.test/',
      { error: 'the deployment URL of the event is plain http: only https is assessed (plain http for a loopback host only)' }
    ],
    ['ftp://app.example.test/', { error: "the deployment URL of the event has scheme 'ftp:', not https" }],
    ['https://', { error: 'the deployment URL of the event is not a URL' }],
    ['', { error: 'the event carries no deployment URL' }],
    [null, { error: 'the event carries no deployment URL' }],
    [42, { error: 'the event carries no deployment URL' }]
  ])('%j: %j', (raw, expected) => {
    expect(deploymentUrl(raw)).toEqual(expected)
  })
})

const SHA = 'a'.repeat(40)
const ENV = { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'c'.repeat(40) }
const vercel = (type: string, state: string) => ({
  action: type,
  client_payload: { git: { ref: 'feat', sha: SHA }, state: { type: state }, url: 'https://agent-abc.vercel.app' }
})
const status = (state: string) => ({
  deployment_status: { state, environment_url: 'https://agent-abc.vercel.app' },
  deployment: { sha: SHA }
})

describe('which deployment events are assessed: a ready deployment only', () => {
  it.each([
    ['vercel.deployment.ready', 'ready', 'deployment'],
    ['vercel.deployment.success', 'success', 'deployment'],
    ...['pending', 'error', 'failed', 'canceled', 'skipped', 'ignored'].flatMap((state) => [
      ['vercel.deployment.ready', state, 'deployment_skipped'],
      ['vercel.deployment.success', state, 'deployment_skipped']
    ]),
    ['vercel.deployment.created', 'ready', 'deployment_skipped'],
    ['vercel.deployment.canceled', 'ready', 'deployment_skipped']
  ])('Vercel %s with state %s: %s', (type, state, kind) => {
    expect(readPipelineEvent('repository_dispatch', vercel(type, state), ENV).kind).toBe(kind)
  })

  it.each([
    ['pending', 'nothing to assess yet'],
    ['queued', 'nothing to assess yet'],
    ['in_progress', 'nothing to assess yet'],
    ['failure', 'nothing to assess'],
    ['inactive', 'nothing to assess']
  ])('deployment_status %s is skipped: %s', (state, why) => {
    const e = readPipelineEvent('deployment_status', status(state), ENV)
    expect(e).toMatchObject({ kind: 'deployment_skipped', reason: `the deployment of aaaaaaa is ${state}, not success: ${why}` })
  })
})

describe("events about a pull request name it (its head may be a fork's)", () => {
  it.each(['pull_request_review', 'pull_request_review_comment', 'pull_request_review_thread'])('%s', (name) => {
    expect(readPipelineEvent(name, { pull_request: { number: 12 } }, ENV)).toMatchObject({ kind: 'other', commentedPull: 12 })
  })
  it.each([
    ['a review of no pull request number', 'pull_request_review', { pull_request: {} }],
    ['another event carrying a pull request', 'check_run', { pull_request: { number: 12 } }],
    ['a comment on an issue', 'issue_comment', { issue: { number: 12 } }],
    ['a pull request number 0', 'issue_comment', { issue: { number: 0, pull_request: {} } }]
  ])('none: %s', (_what, name, payload) => {
    expect(readPipelineEvent(name, payload, ENV)).toMatchObject({ kind: 'other', commentedPull: null })
  })
})

describe('endpointAt: the endpoint stays on the deployment host', () => {
  it('puts the path in place of the deployment path', () => {
    expect(endpointAt('https://app.test/x', '/api/chat?t=1')).toBe('https://app.test/api/chat?t=1')
    expect(endpointAt('https://app.test/x', '')).toBe('https://app.test/x')
  })
  it('refuses a path that would run into the host name', () => {
    expect(() => endpointAt('https://app.test/', 'evil.test/api')).toThrow("endpointAt: path must start with '/': evil.test/api")
    expect(() => endpointAt('https://app.test/', 'p'.repeat(50))).toThrow(new RegExp(`'/': ${'p'.repeat(40)}$`))
  })
})

describe('the default branch is only what the payload names', () => {
  it.each([
    ['a branch named null, no default branch named', { ref: 'refs/heads/null', after: SHA }, false],
    ['the default branch', { ref: 'refs/heads/main', after: SHA, repository: { default_branch: 'main' } }, true],
    ['another branch', { ref: 'refs/heads/feat', after: SHA, repository: { default_branch: 'main' } }, false]
  ])('push to %s', (_name, payload, onDefaultBranch) => {
    expect(readPipelineEvent('push', payload, ENV)).toMatchObject({ kind: 'push', onDefaultBranch })
  })
})

describe('what a deployment event says of itself', () => {
  const ready = (client: Record<string, unknown>) => ({
    action: 'vercel.deployment.ready',
    client_payload: { git: { sha: SHA }, url: 'https://agent-abc.vercel.app', ...client }
  })
  it.each([
    ['a project name', { project: 'agent' }, 'agent'],
    ['a project object', { project: { name: 'agent', id: 'prj_1' } }, 'agent'],
    ['a project id only', { project: { id: 'prj_1' } }, 'prj_1'],
    ['no project', {}, null]
  ])('Vercel: %s', (_name, client, project) => {
    expect(readPipelineEvent('repository_dispatch', ready(client), ENV)).toMatchObject({ kind: 'deployment', project })
  })

  it.each<[string, string, unknown, string]>([
    [
      'deployment_status with no state',
      'deployment_status',
      { deployment_status: {}, deployment: {} },
      'the deployment is unknown, not success: nothing to assess'
    ],
    [
      'deployment_status with no commit',
      'deployment_status',
      { deployment_status: { state: 'success' }, deployment: {} },
      'the event names no commit (deployment.sha)'
    ],
    [
      'Vercel with no commit',
      'repository_dispatch',
      { action: 'vercel.deployment.ready', client_payload: {} },
      'the event names no commit (client_payload.git.sha)'
    ],
    [
      'Vercel not ready',
      'repository_dispatch',
      { action: `vercel.deployment.${'q'.repeat(80)}`, client_payload: {} },
      `Vercel sent vercel.deployment.${'q'.repeat(42)}, not a ready deployment: nothing to assess`
    ],
    [
      'Vercel in a failed state',
      'repository_dispatch',
      { action: 'vercel.deployment.ready', client_payload: { state: { type: 'error' } } },
      'Vercel sent vercel.deployment.ready with state error: nothing to assess'
    ],
    [
      'deployment_status in a long state',
      'deployment_status',
      { deployment_status: { state: 'z'.repeat(50) }, deployment: {} },
      `the deployment is ${'z'.repeat(40)}, not success: nothing to assess`
    ]
  ])('%s', (_name, eventName, payload, reason) => {
    expect(readPipelineEvent(eventName, payload, ENV)).toMatchObject({ reason })
  })

  it.each<[string, unknown, string]>([
    ['deployment_status', { deployment: {} }, 'it has no deployment_status object'],
    [
      'repository_dispatch',
      { action: `vercel.deployment.${'r'.repeat(80)}` },
      `Vercel's vercel.deployment.${'r'.repeat(42)} has no client_payload object`
    ]
  ])('%s without its object is unreadable', (eventName, payload, why) => {
    expect(readPipelineEvent(eventName, payload, ENV)).toMatchObject({
      kind: 'unreadable',
      reason: expect.stringMatching(new RegExp(`: ${why}$`))
    })
  })
})

describe('a pull request event names its pull request, or its code cannot be told', () => {
  const pr = (number: unknown, payloadNumber?: unknown) => ({
    ...(payloadNumber === undefined ? {} : { number: payloadNumber }),
    pull_request: { number, head: { repo: { full_name: 'mallory/agent' } } }
  })
  it.each<[string, unknown, number]>([
    ["the pull request's number", pr(7, 8), 7],
    ["the payload's number when the pull request names none", pr(undefined, 8), 8],
    ['not a number in text', pr('7', 8), 8],
    ['not 0', pr(0, 8), 8],
    ['not a negative number', pr(-1, 8), 8],
    ['not a fraction', pr(1.5, 8), 8],
    ['not past the safe integers', pr(2 ** 53, 8), 8]
  ])('%s', (_name, payload, number) => {
    expect(readPipelineEvent('pull_request', payload, ENV)).toMatchObject({ kind: 'pull_request', number, headRepo: 'mallory/agent' })
  })

  // Read as another event, its code would count as this repository's (a fork's head would get the target's secrets).
  it.each<[string, string, unknown]>([
    ['pull_request', 'no number at all', pr(undefined)],
    ['pull_request_target', 'no usable number', pr(0, '8')],
    ['pull_request_target', 'no payload (GITHUB_EVENT_PATH unset)', null]
  ])('%s with %s is unreadable (fails closed)', (eventName, _what, payload) => {
    expect(readPipelineEvent(eventName, payload, ENV)).toEqual({
      kind: 'unreadable',
      eventName,
      sha: null,
      reason: `the payload of the ${eventName} event (GITHUB_EVENT_PATH) cannot be used: it names no pull request number (pull_request.number)`
    })
  })
})

describe('a commit is a full SHA (40 or 64 hex), nothing more or less', () => {
  const H40 = `${'0123456789abcdef'.repeat(2)}01234567`
  const H64 = '0123456789abcdef'.repeat(4)
  it.each<[unknown, string | null]>([
    [H40, H40],
    [H64, H64],
    [H40.toUpperCase(), H40],
    [` ${H40}\n`, H40],
    [H40.slice(1), null],
    [`${H40}a`, null],
    [H64.slice(1), null],
    [`${H64}a`, null],
    ['a', null],
    [`x${H40}`, null],
    [`${H40}x`, null],
    [`refs/heads/${H40}`, null],
    ['z'.repeat(64), null],
    ['g'.repeat(40), null],
    [null, null],
    [42, null]
  ])('commitSha(%j) is %j', (given, sha) => {
    expect(commitSha(given)).toBe(sha)
  })
})

describe('what a payload field says: blank is absent, a branch loses only a leading refs/heads/', () => {
  it.each<[string, unknown, string | null]>([
    ['refs/heads/main', 'refs/heads/main', 'main'],
    ['a bare branch name', 'main', 'main'],
    ['spaces around it', '  main\t', 'main'],
    ['refs/heads/ inside a name', 'team/refs/heads/main', 'team/refs/heads/main'],
    ['a tag', 'refs/tags/v1', 'refs/tags/v1'],
    ['blank', '   ', null],
    ['none', undefined, null]
  ])('pull request base: %s', (_name, ref, baseRef) => {
    const payload = { pull_request: { number: 7, base: { ref } } }
    expect(readPipelineEvent('pull_request', payload, ENV)).toMatchObject({ kind: 'pull_request', baseRef })
  })

  it.each<[string, unknown, NodeJS.ProcessEnv, string]>([
    ["the payload's ref", { ref: 'refs/heads/feat' }, ENV, 'refs/heads/feat'],
    ['a blank ref: GITHUB_REF', { ref: '  ' }, ENV, 'refs/heads/main'],
    ['no ref anywhere', {}, {}, '']
  ])('push: %s', (_name, payload, env, ref) => {
    expect(readPipelineEvent('push', payload, env)).toMatchObject({ kind: 'push', ref, onDefaultBranch: false })
  })
})

describe('the commit a push is about: none only for a deleted branch', () => {
  const zeroEnd = `${'a'.repeat(39)}0`
  const zeroStart = `0${'a'.repeat(39)}`
  it.each<[string, Record<string, unknown>, string | null]>([
    ['a commit ending in 0', { after: zeroEnd }, zeroEnd],
    ['a commit starting with 0', { after: zeroStart }, zeroStart],
    ['a deleted branch (all zero)', { after: '0'.repeat(40) }, null],
    ['no after: GITHUB_SHA', {}, ENV.GITHUB_SHA]
  ])('%s', (_name, payload, sha) => {
    expect(readPipelineEvent('push', { ref: 'refs/heads/feat', ...payload }, ENV)).toMatchObject({ kind: 'push', sha })
  })
})

describe('a merge queue event: the pull request and base its head ref names', () => {
  const QUEUED = `refs/heads/gh-readonly-queue/release/1.x/pr-7-${'b'.repeat(40)}`
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['the base from the queue ref when base_ref is absent', { head_ref: QUEUED }, { prNumbers: [7], baseRef: 'release/1.x' }],
    ['base_ref first', { head_ref: QUEUED, base_ref: 'refs/heads/main' }, { prNumbers: [7], baseRef: 'main' }],
    [
      'base_ref with a head ref of another form',
      { head_ref: 'refs/heads/feat', base_ref: 'refs/heads/main' },
      {
        prNumbers: [],
        baseRef: 'main',
        reason: 'merge_group.head_ref is not of the form refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>'
      }
    ],
    ['no head ref', {}, { prNumbers: [], baseRef: null, reason: 'the event has no merge_group.head_ref' }]
  ])('%s', (_name, group, expected) => {
    expect(readPipelineEvent('merge_group', { merge_group: group }, ENV)).toMatchObject({ kind: 'merge_group', ...expected })
  })
})

describe('what other events name of the code they run (outside-code evidence)', () => {
  const F = 'f'.repeat(40)
  it.each<[string, string, unknown, Record<string, unknown>]>([
    ['a comment on a pull request', 'issue_comment', { issue: { number: 12, pull_request: {} } }, { commentedPull: 12 }],
    ['an issues event on an issue that is a pull request', 'issues', { issue: { number: 12, pull_request: {} } }, { commentedPull: null }],
    ['a comment with a fractional number', 'issue_comment', { issue: { number: 1.5, pull_request: {} } }, { commentedPull: null }],
    [
      'a review with a number past the safe integers',
      'pull_request_review',
      { pull_request: { number: 2 ** 53 } },
      { commentedPull: null }
    ],
    [
      'a workflow run: its head repository',
      'workflow_run',
      { workflow_run: { head_repository: { full_name: 'm/a' } } },
      { runHeadRepo: 'm/a' }
    ],
    ['a workflow run naming none: null, not absent', 'workflow_run', { workflow_run: {} }, { runHeadRepo: null }],
    ['a status with no branches', 'status', { sha: F }, { namedCommit: { sha: F, branches: [] } }],
    ['a status with branches not a list', 'status', { sha: F, branches: 'feat' }, { namedCommit: { sha: F, branches: [] } }],
    [
      'a check suite: its own commit and branch',
      'check_suite',
      { check_suite: { head_sha: F, head_branch: 'refs/heads/feat' }, check_run: { check_suite: { head_sha: SHA } } },
      { namedCommit: { sha: F, branches: ['feat'] } }
    ],
    [
      "a check run without its commit: its suite's",
      'check_run',
      { check_run: { check_suite: { head_sha: F, head_branch: 'feat' } }, check_suite: { head_sha: SHA } },
      { namedCommit: { sha: F, branches: ['feat'] } }
    ]
  ])('%s', (_name, eventName, payload, expected) => {
    expect(readPipelineEvent(eventName, payload, ENV)).toMatchObject({ kind: 'other', ...expected })
  })

  it.each(['issue_comment', 'schedule', 'pull_request_review'])('%s names neither a run head nor a commit', (eventName) => {
    const e = readPipelineEvent(eventName, { workflow_run: { head_repository: { full_name: 'm/a' } }, sha: F }, ENV)
    expect(e).not.toHaveProperty('runHeadRepo')
    expect(e).not.toHaveProperty('namedCommit')
  })

  it('no payload and no GITHUB_REF: an event of no ref, on no default branch', () => {
    expect(readPipelineEvent('schedule', null, {})).toEqual({
      kind: 'other',
      eventName: 'schedule',
      ref: '',
      sha: null,
      onDefaultBranch: false,
      commentedPull: null
    })
  })
})

describe('an unreadable payload: its commit only where GitHub says GITHUB_SHA is the event commit', () => {
  it.each<[string, string | null]>([
    ['push', ENV.GITHUB_SHA],
    ['deployment_status', ENV.GITHUB_SHA],
    ['schedule', ENV.GITHUB_SHA],
    ['repository_dispatch', null],
    ['merge_group', null],
    ['pull_request', null],
    ['pull_request_target', null]
  ])('%s: %s', (eventName, sha) => {
    expect(readPipelineEvent(eventName, [1], ENV)).toEqual({
      kind: 'unreadable',
      eventName,
      sha,
      reason: `the payload of the ${eventName} event (GITHUB_EVENT_PATH) cannot be used: it is not a JSON object`
    })
  })

  it.each([
    ['', 'unnamed'],
    ['e'.repeat(50), 'e'.repeat(40)]
  ])('the event name %j is shown as %j', (eventName, shown) => {
    expect(readPipelineEvent(eventName, 'x', ENV)).toMatchObject({
      reason: `the payload of the ${shown} event (GITHUB_EVENT_PATH) cannot be used: it is not a JSON object`
    })
  })
})

describe('eventCommit: the commit each kind of event is about', () => {
  const H = 'd'.repeat(40)
  const ready = { deployment_status: { state: 'success', environment_url: 'https://a.test' }, deployment: { sha: H } }
  it.each<[string, string, unknown]>([
    ['deployment', 'deployment_status', ready],
    ['deployment_skipped', 'deployment_status', { ...ready, deployment_status: { state: 'pending' } }],
    ['deployment_invalid', 'deployment_status', { ...ready, deployment_status: { state: 'success' } }],
    ['push', 'push', { after: H }],
    ['other', 'schedule', {}],
    ['unreadable', 'push', [1]],
    ['pull_request', 'pull_request', { pull_request: { number: 1, head: { sha: H }, base: { sha: SHA } } }],
    ['merge_group', 'merge_group', { merge_group: { head_sha: H, base_sha: SHA } }]
  ])('%s', (kind, eventName, payload) => {
    const e = readPipelineEvent(eventName, payload, { ...ENV, GITHUB_SHA: H })
    expect(e.kind).toBe(kind)
    expect(eventCommit(e)).toBe(H)
  })
})
