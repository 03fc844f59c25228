/**
 * agentIdentity, the one answer to "which agent is this": what registration,
 * the records, the sticky comment and the commit status are keyed on.
 */
import { describe, expect, it } from '@jest/globals'
import {
  agentIdentity,
  assessmentIdentityOf,
  identityMismatch,
  type AgentContext,
  type AgentIdentity,
  type AgentTarget
} from '../../src/pipeline/identity.js'
import type { EndpointTarget } from '../../src/target/target-spec.js'

const endpoint = (over: Partial<EndpointTarget> = {}): AgentTarget => ({
  kind: 'endpoint',
  endpoint: {
    endpointUrl: 'https://agent-app-git-feat.vercel.app/api/support',
    name: null,
    environment: null,
    authType: 'none',
    credential: null,
    oauth: null,
    responseField: 'output.text',
    transport: 'http',
    requestTimeout: null,
    ...over
  }
})
const pr = (n: number, site: string | null = 'Preview'): AgentContext => ({ repository: 'octo/agent-app', prNumber: n, ref: 'feat', site })

describe('agentIdentity', () => {
  it('a model: its id everywhere', () => {
    expect(agentIdentity({ kind: 'model', modelId: 'm_shop' }, pr(12))).toMatchObject({
      display: 'm_shop',
      commentKey: 'm_shop',
      statusName: 'm_shop',
      config: null,
      host: null
    })
  })

  it("a per-PR preview: displayed by its default name, registered with its configuration's digest", () => {
    const a = agentIdentity(endpoint(), pr(12))
    expect(a.display).toBe('agent-app-pr-12')
    expect(a.targetName).toMatch(/^agent-app-pr-12 cfg-[0-9a-f]{8}$/)
    expect(a.host).toBe('agent-app-git-feat.vercel.app')
    expect(a.statusName).toBe(`preview cfg-${a.config}`)
  })

  const same = (): AgentIdentity => agentIdentity(endpoint(), pr(12))
  it.each<[string, AgentTarget, AgentContext, { comment: boolean; status: boolean; record: boolean; key?: boolean }]>([
    [
      'another host (a new deployment URL)',
      endpoint({ endpointUrl: 'https://agent-app-x9-team.vercel.app/api/support' }),
      pr(12),
      { comment: true, status: true, record: true, key: false }
    ],
    ['another pull request', endpoint(), pr(13), { comment: false, status: true, record: false }],
    [
      'another path at the host',
      endpoint({ endpointUrl: 'https://agent-app-git-feat.vercel.app/api/billing' }),
      pr(12),
      { comment: false, status: false, record: false }
    ],
    ['another reply field', endpoint({ responseField: 'reply' }), pr(12), { comment: false, status: false, record: false }],
    ['another project deploying the commit', endpoint(), pr(12, 'Preview – docs'), { comment: false, status: false, record: false }],
    [
      'another auth type',
      endpoint({ authType: 'bearer', credential: 'other-secret-123' }),
      pr(12),
      { comment: false, status: false, record: false }
    ]
  ])('%s', (_what, target, ctx, sameAs) => {
    const other = agentIdentity(target, ctx)
    const first = same()
    expect(other.commentKey === first.commentKey).toBe(sameAs.comment)
    expect(other.statusName === first.statusName).toBe(sameAs.status)
    // A status names its owner: one context, one owner.
    expect(other.statusOwner === first.statusOwner).toBe(sameAs.status)
    // A record of the one stands for the other (the host is not part of the agent: carry-over across hosts).
    const digests = { profileDigest: null, policyDigest: null }
    const recorded = assessmentIdentityOf(first, digests)
    const record = { ...recorded, result: 'pass' as const, assessedSha: 'a'.repeat(40), headSha: 'a'.repeat(40), at: null }
    expect(identityMismatch(record, assessmentIdentityOf(other, digests)) === null).toBe(sameAs.record)
    // The key (evidence windows, caches) still names the host.
    expect(other.key === first.key).toBe(sameAs.key ?? sameAs.record)
  })

  it('target_name names the status; the registered name still carries the digest', () => {
    const a = agentIdentity(endpoint({ name: 'support-bot' }), pr(12))
    expect(a).toMatchObject({ display: 'support-bot', statusName: 'support-bot' })
    expect(a.targetName).toMatch(/^support-bot cfg-[0-9a-f]{8}$/)
  })

  it('one target_name given to two configurations: one status name, two owners (refused at the status)', () => {
    const a = agentIdentity(endpoint({ name: 'agent' }), pr(12))
    const b = agentIdentity(endpoint({ name: 'agent', endpointUrl: 'https://agent-app-git-feat.vercel.app/api/billing' }), pr(12))
    const moved = agentIdentity(endpoint({ name: 'agent', endpointUrl: 'https://agent-app-x9-team.vercel.app/api/support' }), pr(13))
    expect(b.statusName).toBe(a.statusName)
    expect(b.statusOwner).not.toBe(a.statusOwner)
    expect(moved.statusOwner).toBe(a.statusOwner)
    expect(a.statusOwner).toMatch(/^[0-9a-f]{8}$/)
  })

  it('a preview this event has no deployment of (a merge queue): the name only', () => {
    expect(agentIdentity({ kind: 'preview', name: null }, pr(12))).toMatchObject({
      display: 'agent-app-pr-12',
      config: null,
      host: null,
      targetName: null,
      statusName: 'preview'
    })
  })
})
