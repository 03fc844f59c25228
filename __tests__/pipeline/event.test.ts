import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { deploymentUrl, endpointAt, eventCommit, parseQueueRef, readPipelineEvent, type PipelineEvent } from '../../src/pipeline/event.js'

const SHA = 'a'.repeat(40)
const BASE = 'b'.repeat(40)
const ENV = { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'c'.repeat(40) }

function deploymentStatus(state: string, status: Record<string, unknown> = {}, deployment: Record<string, unknown> = {}) {
  return {
    deployment_status: {
      state,
      environment: 'Preview',
      environment_url: 'https://agent-git-feat.vercel.app',
      target_url: 'https://vercel.com/x/y',
      ...status
    },
    deployment: { sha: SHA, environment: 'Preview', ...deployment },
    repository: { default_branch: 'main' }
  }
}

/** Vercel's repository_dispatch payload, as its @vercel/repository-dispatch package describes it. */
function vercel(type: string, client: Record<string, unknown> = {}) {
  return {
    action: type,
    branch: 'main',
    client_payload: {
      environment: 'preview',
      git: { ref: 'feat', sha: SHA, shortSha: SHA.slice(0, 7) },
      id: 'dpl_123',
      project: { id: 'prj_1', name: 'agent' },
      state: { type: 'success' },
      url: 'https://agent-abc123.vercel.app',
      ...client
    },
    repository: { default_branch: 'main' }
  }
}

describe('readPipelineEvent: deployment events', () => {
  const cases: [string, string, unknown, Partial<PipelineEvent>][] = [
    [
      'deployment_status success: environment_url',
      'deployment_status',
      deploymentStatus('success'),
      {
        kind: 'deployment',
        source: 'deployment_status',
        endpointUrl: 'https://agent-git-feat.vercel.app/',
        sha: SHA,
        environment: 'Preview'
      }
    ],
    [
      'deployment_status success: never target_url (a page about the deployment), even when environment_url is empty',
      'deployment_status',
      deploymentStatus('success', { environment_url: '', target_url: 'https://github.com/octo/agent/actions/runs/1' }),
      { kind: 'deployment_invalid', sha: SHA, reason: 'the event carries no deployment URL (deployment_status.environment_url)' }
    ],
    [
      'deployment_status success: plain http is refused',
      'deployment_status',
      deploymentStatus('success', { environment_url: 'http://agent-git-feat.vercel.app' }),
      { kind: 'deployment_invalid', sha: SHA }
    ],
    [
      'deployment_status success: plain http on a loopback host (a preview on the same machine)',
      'deployment_status',
      deploymentStatus('success', { environment_url: 'http://127.0.0.1:3000/' }),
      { kind: 'deployment', endpointUrl: 'http://127.0.0.1:3000/' }
    ],
    [
      'vercel: plain http is refused',
      'repository_dispatch',
      vercel('vercel.deployment.success', { url: 'http://agent-abc123.vercel.app' }),
      { kind: 'deployment_invalid', sha: SHA }
    ],
    [
      'deployment_status success: environment from the deployment',
      'deployment_status',
      deploymentStatus('success', { environment: undefined }, { environment: 'staging' }),
      { kind: 'deployment', environment: 'staging' }
    ],
    ['deployment_status pending', 'deployment_status', deploymentStatus('pending'), { kind: 'deployment_skipped', sha: SHA }],
    ['deployment_status in_progress', 'deployment_status', deploymentStatus('in_progress'), { kind: 'deployment_skipped' }],
    ['deployment_status failure', 'deployment_status', deploymentStatus('failure'), { kind: 'deployment_skipped' }],
    ['deployment_status error', 'deployment_status', deploymentStatus('error'), { kind: 'deployment_skipped' }],
    [
      'deployment_status with a status but no state',
      'deployment_status',
      deploymentStatus(undefined as unknown as string),
      { kind: 'deployment_skipped' }
    ],
    [
      'deployment_status without its deployment_status object: unreadable (fails closed), its commit from GITHUB_SHA',
      'deployment_status',
      { deployment: { sha: SHA } },
      { kind: 'unreadable', sha: ENV.GITHUB_SHA }
    ],
    ['a payload that is not an object: unreadable', 'deployment_status', [1, 2], { kind: 'unreadable', sha: ENV.GITHUB_SHA }],
    ['a push payload that is a string: unreadable', 'push', 'x', { kind: 'unreadable', sha: ENV.GITHUB_SHA }],
    [
      'vercel without client_payload: unreadable, no commit (GITHUB_SHA is the default branch one)',
      'repository_dispatch',
      { action: 'vercel.deployment.success' },
      { kind: 'unreadable', sha: null }
    ],
    [
      'deployment_status success without a URL',
      'deployment_status',
      deploymentStatus('success', { environment_url: null, target_url: null }),
      { kind: 'deployment_invalid', sha: SHA }
    ],
    [
      'deployment_status success with a javascript: URL',
      'deployment_status',
      deploymentStatus('success', { environment_url: 'javascript:alert(1)' }),
      { kind: 'deployment_invalid' }
    ],
    [
      'deployment_status success with credentials in the URL',
      'deployment_status',
      deploymentStatus('success', { environment_url: 'https://u:p@agent.example' }),
      { kind: 'deployment_invalid' }
    ],
    [
      'deployment_status success without a full commit',
      'deployment_status',
      deploymentStatus('success', {}, { sha: 'abc1234' }),
      { kind: 'deployment_invalid', sha: null }
    ],
    [
      'vercel.deployment.success',
      'repository_dispatch',
      vercel('vercel.deployment.success'),
      { kind: 'deployment', source: 'vercel', endpointUrl: 'https://agent-abc123.vercel.app/', sha: SHA, environment: 'preview' }
    ],
    [
      'vercel.deployment.ready (not promoted)',
      'repository_dispatch',
      vercel('vercel.deployment.ready', { state: undefined }),
      { kind: 'deployment', source: 'vercel', sha: SHA }
    ],
    [
      'vercel URL without a scheme (as Vercel API writes it)',
      'repository_dispatch',
      vercel('vercel.deployment.ready', { url: 'agent-abc123.vercel.app' }),
      { kind: 'deployment', endpointUrl: 'https://agent-abc123.vercel.app/' }
    ],
    ['vercel.deployment.error', 'repository_dispatch', vercel('vercel.deployment.error'), { kind: 'deployment_skipped', source: 'vercel' }],
    ['vercel.deployment.pending', 'repository_dispatch', vercel('vercel.deployment.pending'), { kind: 'deployment_skipped' }],
    ['vercel.deployment.promoted', 'repository_dispatch', vercel('vercel.deployment.promoted'), { kind: 'deployment_skipped' }],
    [
      'ready type but a failed state',
      'repository_dispatch',
      vercel('vercel.deployment.ready', { state: { type: 'failed', detail: 'checks_failed' } }),
      { kind: 'deployment_skipped' }
    ],
    [
      'vercel without git.sha',
      'repository_dispatch',
      vercel('vercel.deployment.success', { git: { ref: 'feat' } }),
      { kind: 'deployment_invalid', sha: null }
    ],
    ['vercel without url', 'repository_dispatch', vercel('vercel.deployment.success', { url: '' }), { kind: 'deployment_invalid' }],
    [
      'another repository_dispatch type',
      'repository_dispatch',
      { action: 'deploy-done', client_payload: { url: 'https://x.example' } },
      { kind: 'other', ref: 'refs/heads/main', sha: 'c'.repeat(40) }
    ]
  ]
  test.each(cases)('%s', (_name, eventName, payload, expected) => {
    expect(readPipelineEvent(eventName, payload, ENV)).toMatchObject({ eventName, ...expected })
  })

  test('a skipped deployment says why, naming its state and commit', () => {
    const e = readPipelineEvent('deployment_status', deploymentStatus('failure'), ENV)
    expect(e.kind === 'deployment_skipped' && e.reason).toBe(
      `the deployment of ${SHA.slice(0, 7)} to Preview is failure, not success: nothing to assess`
    )
    // Only a deployment that may still succeed has nothing to assess "yet".
    const pending = readPipelineEvent('deployment_status', deploymentStatus('in_progress'), ENV)
    expect(pending.kind === 'deployment_skipped' && pending.reason).toMatch(/is in_progress, not success: nothing to assess yet$/)
  })

  test('an invalid deployment names the field', () => {
    const e = readPipelineEvent('repository_dispatch', vercel('vercel.deployment.success', { url: 'ftp://x' }), ENV)
    expect(e.kind === 'deployment_invalid' && e.reason).toMatch(/scheme 'ftp:'.*client_payload\.url/)
  })
})

describe('readPipelineEvent: merge_group, pull_request, push, other', () => {
  test('merge_group names the queued pull request, the queue commit and its base', () => {
    const payload = {
      action: 'checks_requested',
      merge_group: {
        head_sha: SHA,
        head_ref: `refs/heads/gh-readonly-queue/main/pr-42-${BASE}`,
        base_sha: BASE,
        base_ref: 'refs/heads/main'
      }
    }
    expect(readPipelineEvent('merge_group', payload, ENV)).toEqual({
      kind: 'merge_group',
      eventName: 'merge_group',
      prNumbers: [42],
      headSha: SHA,
      baseSha: BASE,
      baseRef: 'main'
    })
  })

  test.each([
    ['refs/heads/gh-readonly-queue/release/1.x/pr-7-' + BASE, { base: 'release/1.x', prNumber: 7 }],
    ['gh-readonly-queue/main/pr-3-' + BASE, { base: 'main', prNumber: 3 }],
    ['refs/heads/gh-readonly-queue/main/pr-0-' + BASE, null],
    ['refs/heads/gh-readonly-queue/main/pr-42-abc', null],
    ['refs/heads/feature/pr-42-' + BASE, null],
    ['refs/heads/gh-readonly-queue/main/pr-42-' + BASE + '/x', null],
    ['refs/heads/gh-readonly-queue/main/pr-42-' + 'c'.repeat(64), { base: 'main', prNumber: 42 }],
    ['refs/heads/evil/gh-readonly-queue/main/pr-42-' + BASE, null],
    ['refs/heads/gh-readonly-queue/main/pr-42-a', null],
    ['refs/heads/gh-readonly-queue/main/pr-42-' + 'z'.repeat(64), null],
    ['refs/heads/gh-readonly-queue/main/pr-1234567890-' + BASE, null],
    ['refs/heads/gh-readonly-queue/main/pr-x-' + BASE, null]
  ])('parseQueueRef(%s)', (ref, expected) => {
    expect(parseQueueRef(ref)).toEqual(expected)
  })

  test('merge_group with an unexpected head_ref names no pull request and says why', () => {
    const e = readPipelineEvent('merge_group', { merge_group: { head_sha: SHA, head_ref: 'refs/heads/x' } }, ENV)
    expect(e).toMatchObject({ kind: 'merge_group', prNumbers: [], reason: expect.stringMatching(/gh-readonly-queue/) })
  })

  test("pull_request: number, head, base, and the head's repository (outsideCode decides what it means)", () => {
    const pr = {
      number: 9,
      head: { sha: SHA.toUpperCase(), repo: { full_name: 'someone/agent' } },
      base: { sha: BASE, ref: 'main', repo: { full_name: 'octo/agent' } }
    }
    expect(readPipelineEvent('pull_request', { pull_request: pr }, ENV)).toEqual({
      kind: 'pull_request',
      eventName: 'pull_request',
      number: 9,
      headSha: SHA,
      baseSha: BASE,
      baseRef: 'main',
      headRepo: 'someone/agent'
    })
  })

  test.each([
    [
      'push to the default branch',
      { ref: 'refs/heads/main', after: SHA, repository: { default_branch: 'main' } },
      { onDefaultBranch: true, queueRef: false, sha: SHA }
    ],
    [
      'push to a branch',
      { ref: 'refs/heads/feat', after: SHA, repository: { default_branch: 'main' } },
      { onDefaultBranch: false, sha: SHA }
    ],
    [
      'push to a queue branch',
      { ref: `refs/heads/gh-readonly-queue/main/pr-1-${BASE}`, after: SHA, repository: { default_branch: 'main' } },
      { queueRef: true, onDefaultBranch: false }
    ],
    ['branch deleted', { ref: 'refs/heads/feat', after: '0'.repeat(40), repository: { default_branch: 'main' } }, { sha: null }],
    ['default branch unknown', { ref: 'refs/heads/main', after: SHA }, { onDefaultBranch: false }]
  ])('%s', (_name, payload, expected) => {
    expect(readPipelineEvent('push', payload, ENV)).toMatchObject({ kind: 'push', ...expected })
  })

  test('schedule on the default branch', () => {
    expect(readPipelineEvent('schedule', { repository: { default_branch: 'main' } }, ENV)).toEqual({
      kind: 'other',
      eventName: 'schedule',
      ref: 'refs/heads/main',
      sha: 'c'.repeat(40),
      onDefaultBranch: true,
      commentedPull: null
    })
  })

  test('eventCommit: the commit each kind is about', () => {
    expect(eventCommit(readPipelineEvent('deployment_status', deploymentStatus('success'), ENV))).toBe(SHA)
    expect(eventCommit(readPipelineEvent('merge_group', { merge_group: { head_sha: SHA } }, ENV))).toBe(SHA)
    expect(eventCommit(readPipelineEvent('workflow_dispatch', {}, ENV))).toBe('c'.repeat(40))
  })

  test('never throws, whatever the payload', () => {
    const names = fc.constantFrom('deployment_status', 'repository_dispatch', 'merge_group', 'pull_request', 'push', 'schedule', '')
    fc.assert(
      fc.property(names, fc.anything(), (name, payload) => {
        const e = readPipelineEvent(name, payload, {})
        if (e.kind === 'deployment') expect(deploymentUrl(e.endpointUrl)).toEqual({ url: e.endpointUrl })
      })
    )
  })
})

describe('endpointAt', () => {
  test.each([
    ['https://agent-abc.vercel.app/', '', 'https://agent-abc.vercel.app/'],
    ['https://agent-abc.vercel.app/', '/api/chat', 'https://agent-abc.vercel.app/api/chat'],
    ['https://agent-abc.vercel.app/base', '/api/chat?x=1', 'https://agent-abc.vercel.app/api/chat?x=1']
  ])('%s + %s', (base, path, expected) => {
    expect(endpointAt(base, path)).toBe(expected)
  })
})
