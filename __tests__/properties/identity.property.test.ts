/**
 * "The same agent", as properties: two different agents never share a key,
 * the same agent always has the same one, and a record is of the same
 * assessment exactly when agent, profile and verdict inputs are all equal.
 * And the carry-over built on it carries only the recorded verdict of the
 * same assessment: never a pass for what was not one, never from a partial
 * identity.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  agentIdentity,
  assessmentIdentityOf,
  identityMismatch,
  policyDigest,
  textDigest,
  type AgentContext,
  type AgentTarget,
  type AssessmentIdentity
} from '../../src/pipeline/identity.js'
import { decideCarryOver, planCarryOver } from '../../src/pipeline/carry-over.js'
import { RECORDED_RESULTS, type AssessmentRecord } from '../../src/report/comment.js'

/** Names with the characters that could make two keys collide: separators, escapes, case, long ones. */
const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.stringMatching(/^[a-zA-Z0-9:%._\- ]{1,12}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
  fc.string({ minLength: 590, maxLength: 700 })
)

const endpoint: fc.Arbitrary<AgentTarget> = fc
  .record({
    name: fc.option(fc.constantFrom('agent', 'Agent', 'agent-pr-1'), { freq: 2 }),
    host: fc.constantFrom('a.example.test', 'b.example.test'),
    path: fc.constantFrom('/api', '/api/chat'),
    responseField: fc.constantFrom('reply', 'output.text'),
    transport: fc.constantFrom('http' as const, 'websocket' as const)
  })
  .map((e) => ({
    kind: 'endpoint',
    endpoint: {
      endpointUrl: `https://${e.host}${e.path}`,
      name: e.name,
      environment: null,
      authType: 'none',
      credential: null,
      oauth: null,
      responseField: e.responseField,
      transport: e.transport,
      requestTimeout: null
    }
  }))
const agent: fc.Arbitrary<AgentTarget> = fc.oneof(
  name.map((modelId) => ({ kind: 'model' as const, modelId })),
  name.map((n) => ({ kind: 'preview' as const, name: n })),
  endpoint
)
const context: fc.Arbitrary<AgentContext> = fc.record({
  repository: fc.constant('octo/agent'),
  prNumber: fc.constantFrom(1, 2, null),
  ref: fc.constant('feat'),
  site: fc.constantFrom(null, 'Preview')
})

describe('agentIdentity', () => {
  it('two agents with different names, or a model and a target, never share a record key, a comment key or a key', () => {
    fc.assert(
      fc.property(agent, context, agent, context, (a, ca, b, cb) => {
        const x = agentIdentity(a, ca)
        const y = agentIdentity(b, cb)
        if (x.kind !== y.kind || x.display !== y.display) {
          expect(x.subject).not.toBe(y.subject)
          expect(x.commentKey).not.toBe(y.commentKey)
          expect(x.key).not.toBe(y.key)
        }
      }),
      { numRuns: 3000 }
    )
  })

  it('two endpoints of the same name: another configuration is another agent; another host is the same agent redeployed (its window apart)', () => {
    fc.assert(
      fc.property(endpoint, endpoint, context, (a, b, ctx) => {
        const x = agentIdentity(a, ctx)
        const y = agentIdentity(b, ctx)
        if (a.kind !== 'endpoint' || b.kind !== 'endpoint' || x.display !== y.display) return
        const { name: _an, endpointUrl: au, ...ac } = a.endpoint
        const { name: _bn, endpointUrl: bu, ...bc } = b.endpoint
        const sameConfig = JSON.stringify(ac) === JSON.stringify(bc) && new URL(au).pathname === new URL(bu).pathname
        expect(x.config === y.config).toBe(sameConfig)
        expect(x.host === y.host).toBe(new URL(au).host === new URL(bu).host)
        expect(x.key === y.key).toBe(sameConfig && x.host === y.host)
        const digests = { profileDigest: null, policyDigest: null }
        const record: AssessmentRecord = {
          result: 'pass',
          assessedSha: 'a'.repeat(40),
          headSha: 'a'.repeat(40),
          ...assessmentIdentityOf(x, digests),
          at: null
        }
        // The host is not part of the assessment: a result carries over to the same configuration at another host.
        expect(identityMismatch(record, assessmentIdentityOf(y, digests)) === null).toBe(sameConfig)
      }),
      { numRuns: 1000 }
    )
  })

  it('the same agent always has the same identity', () => {
    fc.assert(
      fc.property(agent, context, (a, ctx) => {
        expect(agentIdentity(a, ctx)).toEqual(agentIdentity(structuredClone(a), { ...ctx }))
      })
    )
  })
})

describe('policyDigest', () => {
  const parts = fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 5 })
  it('is the same in any order, and another for any other value, name added or removed', () => {
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        const reversed = Object.fromEntries(Object.entries(a).reverse())
        expect(policyDigest(reversed)).toBe(policyDigest(a))
        const same = JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort())
        expect(policyDigest(a) === policyDigest(b)).toBe(same)
      }),
      { numRuns: 1000 }
    )
  })
})

const digest = fc.option(fc.constantFrom('a', 'b').map(textDigest), { freq: 3 })
const config = fc.option(fc.constantFrom('0a0a0a0a', '1b1b1b1b'), { freq: 3 })
const identity: fc.Arbitrary<AssessmentIdentity> = fc.record({
  subject: fc.constantFrom('model%3Am1', 'target%3Ax'),
  config,
  host: fc.option(fc.constantFrom('a.example.test', 'b.example.test'), { freq: 3 }),
  partial: fc.boolean(),
  profileDigest: digest,
  policyDigest: digest
})
const sha = fc.constantFrom('a'.repeat(40), 'b'.repeat(40))
const record: fc.Arbitrary<AssessmentRecord> = fc.record({
  result: fc.constantFrom(...RECORDED_RESULTS),
  assessedSha: sha,
  headSha: sha,
  subject: fc.constantFrom('model%3Am1', 'target%3Ax'),
  config,
  host: fc.option(fc.constantFrom('a.example.test', 'b.example.test'), { freq: 3 }),
  profileDigest: digest,
  policyDigest: digest,
  at: fc.constant(null)
})

/** A record and an identity, half the time of the same agent, profile and policy (so that matches are common). */
const recordAndIdentity: fc.Arbitrary<[AssessmentRecord, AssessmentIdentity]> = fc
  .tuple(record, identity, fc.boolean())
  .map(([rec, id, match]) => {
    if (!match) return [rec, id]
    const { partial: _partial, ...fields } = id
    return [{ ...rec, ...fields }, id]
  })

describe('identityMismatch and the carry-over', () => {
  it('a record is of the same assessment exactly when agent, profile and policy are equal (configuration unless partial; the host never)', () => {
    fc.assert(
      fc.property(recordAndIdentity, ([rec, id]) => {
        const agentSame = rec.subject === id.subject && (id.partial || rec.config === id.config)
        const same = agentSame && rec.profileDigest === id.profileDigest && rec.policyDigest === id.policyDigest
        expect(identityMismatch(rec, id) === null).toBe(same)
      }),
      { numRuns: 1000 }
    )
  })

  it('carries over only the recorded verdict of the same full assessment, never turning anything into a pass', () => {
    const changed = fc.oneof(
      fc.constant({ kind: 'everything' as const, reason: 'too many' }),
      fc.subarray(['README.md', 'agent/prompt.txt', 'src/x.ts']).map((files) => ({ kind: 'files' as const, files }))
    )
    let carried = 0
    fc.assert(
      fc.property(recordAndIdentity, sha, fc.boolean(), changed, ([rec, id], headSha, onDefaultBranch, diff) => {
        const agentPaths = ['agent/**']
        const plan = planCarryOver({ agentPaths, onDefaultBranch, headSha, identity: id, record: rec })
        const decision = decideCarryOver(plan, diff, agentPaths)
        if (decision.kind !== 'carry_over') return
        carried += 1
        expect(decision.result).toBe(rec.result)
        expect(['pass', 'fail']).toContain(decision.result)
        expect(identityMismatch(rec, id)).toBeNull()
        expect(id.partial).toBe(false)
        expect(onDefaultBranch).toBe(false)
        expect(decision.changedFiles).not.toContain('agent/prompt.txt')
      }),
      { numRuns: 3000 }
    )
    // The inputs drawn do reach carry-overs.
    expect(carried).toBeGreaterThan(50)
  })
})
