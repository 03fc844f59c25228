import { describe, expect, test } from '@jest/globals'
import { otherStatusOwners, statusContext, statusDescription, statusOwnerIn, statusTargetUrl } from '../../src/github/commit-status.js'
import { finalStatusState as statusStateFor } from '../../src/action/output-table.js'
import { graphqlBaseUrl } from '../../src/github/assessment-record.js'
import { orderPullsForCommit, type PullSummary } from '../../src/github/pulls.js'

describe('commit status values', () => {
  test('the state at the end follows the step: success when it passes, error when no verdict was reached', () => {
    expect(statusStateFor('pass', false)).toBe('success')
    expect(statusStateFor('incomplete', false)).toBe('success')
    expect(statusStateFor('incomplete', true)).toBe('failure')
    expect(statusStateFor('fail', true)).toBe('failure')
    expect(statusStateFor('error', true)).toBe('error')
  })

  test('the context: agent-security/<name>, on one line', () => {
    expect(statusContext('m_shop')).toBe('agent-security/m_shop')
    expect(statusContext('a\nb')).toBe('agent-security/a b')
    expect(statusContext('')).toBe('agent-security/agent')
    expect(statusContext('x'.repeat(300)).length).toBeLessThanOrEqual('agent-security/'.length + 100)
  })

  test('the description: at most 140 characters as GitHub counts them (code points), on one line', () => {
    expect(statusDescription('passed\nno findings')).toBe('passed no findings')
    const long = statusDescription('🔒'.repeat(200))
    expect(Array.from(long)).toHaveLength(140)
    expect(long.endsWith('🔒…')).toBe(true)
    expect(statusDescription('x'.repeat(140))).toBe('x'.repeat(140))
  })
})

test('graphqlBaseUrl: GitHub Enterprise Server serves GraphQL at /api/graphql', () => {
  expect(graphqlBaseUrl('https://api.github.com')).toBe('https://api.github.com')
  expect(graphqlBaseUrl('https://ghe.example/api/v3/')).toBe('https://ghe.example/api')
})

test('orderPullsForCommit: stable within a rank', () => {
  const p = (number: number, state: 'open' | 'closed', headSha: string): PullSummary => ({
    number,
    state,
    merged: false,
    headSha,
    headRef: null,
    baseRef: null,
    headRepo: null,
    htmlUrl: ''
  })
  const c = 'c'.repeat(40)
  expect(
    orderPullsForCommit([p(1, 'closed', c), p(2, 'open', 'd'.repeat(40)), p(3, 'open', c), p(4, 'open', c)], c).map((x) => x.number)
  ).toEqual([3, 4, 2, 1])
})

describe('commit status owners', () => {
  test('otherStatusOwners: another owner, or none, in the same context only', () => {
    const listed = [
      { context: 'agent-security/x', owner: 'aaaaaaaa' },
      { context: 'agent-security/y', owner: 'bbbbbbbb' },
      { context: 'agent-security/x', owner: 'aaaaaaaa' }
    ]
    expect(otherStatusOwners(listed, 'agent-security/x', 'aaaaaaaa')).toEqual([])
    expect(otherStatusOwners([...listed, { context: 'agent-security/x', owner: 'cccccccc' }], 'agent-security/x', 'aaaaaaaa')).toEqual([
      'cccccccc'
    ])
    expect(otherStatusOwners([...listed, { context: 'agent-security/x', owner: null }], 'agent-security/x', 'aaaaaaaa')).toEqual([
      'unnamed'
    ])
  })
})

describe('the agent a status names', () => {
  test('in the target URL’s fragment, which replaces any fragment the URL had; none without a URL to link to', () => {
    expect(statusTargetUrl('https://g/run/1', '0a1b2c3d')).toBe('https://g/run/1#agent-0a1b2c3d')
    expect(statusTargetUrl('https://g/run/1#x', '0a1b2c3d')).toBe('https://g/run/1#agent-0a1b2c3d')
    expect(statusTargetUrl(null, '0a1b2c3d')).toBeNull()
    expect(statusTargetUrl('https://g/run/1', null)).toBe('https://g/run/1')
  })

  test('read back from the URL, or from the description’s end as 1.0 wrote it; a name elsewhere is not one', () => {
    expect(statusOwnerIn('https://g/run/1#agent-0a1b2c3d', 'fail: 1 blocking')).toBe('0a1b2c3d')
    expect(statusOwnerIn(null, 'fail: 1 blocking [agent 0a1b2c3d]')).toBe('0a1b2c3d')
    expect(statusOwnerIn('https://g/run/1#agent-0a1b2c3d-x', 'fail [agent 0a1b2c3d] then')).toBeNull()
    expect(statusOwnerIn('https://g/run/1', null)).toBeNull()
  })
})
