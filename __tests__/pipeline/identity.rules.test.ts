/**
 * Which records speak for an agent (recordsOfAgent): its own subject, its own
 * configuration unless the identity is partial, the newest of each
 * configuration, newest first. An older record never stands in for a newer
 * one: an old pass must not hide a later fail.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from '@jest/globals'
import {
  agentIdentity,
  assessmentIdentityOf,
  identityMismatch,
  policyDigest,
  recordsOfAgent,
  type AgentTarget,
  type AssessmentIdentity
} from '../../src/pipeline/identity.js'
import type { AssessmentRecord } from '../../src/report/comment.js'

const rec = (over: Partial<AssessmentRecord>): { record: AssessmentRecord; id: string } => {
  const record: AssessmentRecord = {
    result: 'pass',
    assessedSha: 'a'.repeat(40),
    headSha: 'a'.repeat(40),
    subject: 'target%3Ax',
    config: '0a0a0a0a',
    host: 'h',
    profileDigest: null,
    policyDigest: null,
    at: null,
    ...over
  }
  return { record, id: `${record.result}@${record.at ?? '-'}/${record.config ?? '-'}` }
}
const full: AssessmentIdentity = {
  subject: 'target%3Ax',
  config: '0a0a0a0a',
  host: 'h',
  partial: false,
  profileDigest: null,
  policyDigest: null
}
const ids = (found: ReturnType<typeof rec>[], identity = full): string[] => recordsOfAgent(found, identity).map((f) => f.id)

describe('recordsOfAgent', () => {
  it('the newest record of the configuration wins, whatever order the comments are in', () => {
    const old = rec({ result: 'pass', at: '2026-11-20T10:00Z' })
    const newer = rec({ result: 'fail', at: '2026-11-21T10:00Z' })
    expect(ids([old, newer])).toEqual(['fail@2026-11-21T10:00Z/0a0a0a0a'])
    expect(ids([newer, old])).toEqual(['fail@2026-11-21T10:00Z/0a0a0a0a'])
  })

  it('a record without a time loses to one with; of equal times the later in the list wins', () => {
    expect(ids([rec({ result: 'fail', at: '2026-11-20T10:00Z' }), rec({ result: 'pass', at: null })])).toEqual([
      'fail@2026-11-20T10:00Z/0a0a0a0a'
    ])
    expect(ids([rec({ result: 'pass', at: null }), rec({ result: 'fail', at: '2026-11-20T10:00Z' })])).toEqual([
      'fail@2026-11-20T10:00Z/0a0a0a0a'
    ])
    expect(ids([rec({ result: 'pass', at: 'T1' }), rec({ result: 'fail', at: 'T1' })])).toEqual(['fail@T1/0a0a0a0a'])
  })

  it('another subject, and (unless partial) another configuration, never speak for the agent', () => {
    const found = [rec({ subject: 'target%3Ay' }), rec({ config: '1b1b1b1b' }), rec({ result: 'fail' })]
    expect(ids(found)).toEqual(['fail@-/0a0a0a0a'])
  })

  it('a partial identity takes the newest of every configuration under the name, newest first', () => {
    const found = [
      rec({ config: '1b1b1b1b', result: 'pass', at: '2026-11-20T10:00Z' }),
      rec({ config: '0a0a0a0a', result: 'fail', at: '2026-11-22T10:00Z' }),
      rec({ config: '1b1b1b1b', result: 'fail', at: '2026-11-21T10:00Z' }),
      rec({ config: null, result: 'pass', at: null }),
      rec({ subject: 'target%3Ay', at: '2026-11-23T10:00Z' })
    ]
    expect(ids(found, { ...full, config: null, host: null, partial: true })).toEqual([
      'fail@2026-11-22T10:00Z/0a0a0a0a',
      'fail@2026-11-21T10:00Z/1b1b1b1b',
      'pass@-/-'
    ])
  })
})

describe('recordsOfAgent lists newest first, whatever order the comments are in', () => {
  const at = (config: string, time: string | null) => rec({ config, at: time })
  const [c20, c21, c22, cNone] = [at('1b1b1b1b', 'T20'), at('2c2c2c2c', 'T21'), at('3d3d3d3d', 'T22'), at('4e4e4e4e', null)]
  const partial = { ...full, config: null, host: null, partial: true }
  it.each<[string, ReturnType<typeof rec>[], string[]]>([
    ['newest first already', [c22, c21, c20], ['T22', 'T21', 'T20']],
    ['oldest first', [c20, c21, c22], ['T22', 'T21', 'T20']],
    ['mixed', [c21, c20, c22], ['T22', 'T21', 'T20']],
    ['a record without a time comes last (first in the comments)', [cNone, c20, c21], ['T21', 'T20', '-']],
    ['a record without a time comes last (in the middle)', [c20, cNone, c21], ['T21', 'T20', '-']]
  ])('%s', (_what, found, times) => {
    expect(recordsOfAgent(found, partial).map((f) => f.record.at ?? '-')).toEqual(times)
  })

  it('records of the same time keep the order of the comments', () => {
    const [a, b] = [at('1b1b1b1b', 'T20'), at('2c2c2c2c', 'T20')]
    expect(recordsOfAgent([a, b], partial)).toEqual([a, b])
    expect(recordsOfAgent([b, a], partial)).toEqual([b, a])
    const [x, y] = [at('1b1b1b1b', null), at('2c2c2c2c', null)]
    expect(recordsOfAgent([x, y], partial)).toEqual([x, y])
    expect(recordsOfAgent([y, x], partial)).toEqual([y, x])
  })
})

describe('agentIdentity: the keys of each kind of agent', () => {
  const ctx = { repository: 'octo/app', prNumber: 1, ref: 'feat', site: null }
  const endpoint = (name: string | null): AgentTarget => ({
    kind: 'endpoint',
    endpoint: {
      endpointUrl: 'https://a.example.test/api',
      name,
      environment: null,
      authType: 'none',
      credential: null,
      oauth: null,
      responseField: 'reply',
      transport: 'http',
      requestTimeout: null
    }
  })
  /** A status's owner as statuses already set name it: the first 8 hex of sha256 of `<kind>:<name>;config=<digest or ->`. */
  const owner = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 8)
  it.each<[string, AgentTarget, { kind: string; statusName: string; statusOwner: string; key: string; config: string | null }]>([
    [
      'a preview of no deployment, unnamed',
      { kind: 'preview', name: null },
      {
        kind: 'target',
        statusName: 'preview',
        statusOwner: owner('target:preview;config=-'),
        key: 'target%3Aapp%2Dpr%2D1;config=-;host=-',
        config: null
      }
    ],
    [
      'a preview of no deployment, named',
      { kind: 'preview', name: 'bot' },
      { kind: 'target', statusName: 'bot', statusOwner: owner('target:bot;config=-'), key: 'target%3Abot;config=-;host=-', config: null }
    ],
    [
      'an endpoint, unnamed',
      endpoint(null),
      {
        kind: 'target',
        statusName: 'preview cfg-dc50eb20',
        statusOwner: owner('target:preview;config=dc50eb20'),
        key: 'target%3Aapp%2Dpr%2D1;config=dc50eb20;host=a%2Eexample%2Etest',
        config: 'dc50eb20'
      }
    ],
    [
      'an endpoint, named',
      endpoint('bot'),
      {
        kind: 'target',
        statusName: 'bot',
        statusOwner: owner('target:bot;config=dc50eb20'),
        key: 'target%3Abot;config=dc50eb20;host=a%2Eexample%2Etest',
        config: 'dc50eb20'
      }
    ]
  ])('%s', (_what, target, expected) => {
    expect(agentIdentity(target, ctx)).toMatchObject(expected)
  })

  it('says which kind of agent it is', () => {
    const ctx = { repository: 'octo/app', prNumber: 1, ref: 'feat', site: null }
    expect(agentIdentity({ kind: 'model', modelId: 'm' }, ctx)).toEqual({
      kind: 'model',
      display: 'm',
      subject: 'model%3Am',
      config: null,
      host: null,
      targetName: null,
      commentKey: 'm',
      statusName: 'm',
      statusOwner: '6dfbc538',
      key: 'model%3Am'
    })
    expect(agentIdentity({ kind: 'preview', name: null }, ctx)).toMatchObject({
      kind: 'target',
      display: 'app-pr-1',
      statusName: 'preview'
    })
  })
})

describe('identityMismatch says why a record is not of this assessment', () => {
  const D1 = '1'.repeat(64)
  const D2 = '2'.repeat(64)
  it.each<[Partial<AssessmentRecord>, Partial<AssessmentIdentity>, string | null]>([
    [{}, {}, null],
    [{ subject: 'target%3Ay' }, {}, 'it assessed another model or target'],
    [
      { config: '1b1b1b1b' },
      {},
      'it assessed another configuration of the target (endpoint path or query, reply field, transport, auth or project)'
    ],
    // The host is not part of the agent: a preview redeployed elsewhere is the same agent (movedFrom says where).
    [{ host: 'other' }, {}, null],
    [
      { host: 'other', config: '1b1b1b1b' },
      {},
      'it assessed another configuration of the target (endpoint path or query, reply field, transport, auth or project)'
    ],
    [{ config: '1b1b1b1b', host: 'other' }, { partial: true }, null],
    [{ profileDigest: null }, { profileDigest: D1 }, 'it was assessed without a profile_file, and this run has one'],
    [{ profileDigest: D1 }, { profileDigest: null }, 'it was assessed with a profile_file, and this run has none'],
    [{ profileDigest: D1 }, { profileDigest: D2 }, 'the profile file changed since'],
    [
      { policyDigest: D1 },
      { policyDigest: D2 },
      'the inputs that decide the verdict (min_severity, categories, fail_on, accepted risks, ...) differ'
    ]
  ])('record %j, identity %j: %s', (r, id, why) => {
    expect(identityMismatch(rec(r).record, { ...full, ...id })).toBe(why)
  })
})

describe('assessmentIdentityOf: only a preview this event has no deployment of is a partial identity', () => {
  const ctx = { repository: 'octo/app', prNumber: 1, ref: 'feat', site: null }
  const digests = { profileDigest: null, policyDigest: 'd'.repeat(64) }
  it.each<[string, AgentTarget, Partial<AssessmentIdentity>]>([
    ['a model', { kind: 'model', modelId: 'm' }, { subject: 'model%3Am', config: null, host: null, partial: false }],
    ['a preview of no deployment', { kind: 'preview', name: null }, { config: null, host: null, partial: true }],
    [
      'an endpoint (its host encoded as a record holds it)',
      {
        kind: 'endpoint',
        endpoint: {
          endpointUrl: 'https://Pr-1.Example.test/api',
          name: null,
          environment: null,
          authType: 'none',
          credential: null,
          oauth: null,
          responseField: 'reply',
          transport: 'http',
          requestTimeout: null
        }
      },
      { config: 'dc50eb20', host: 'pr%2D1%2Eexample%2Etest', partial: false }
    ]
  ])('%s', (_what, target, expected) => {
    expect(assessmentIdentityOf(agentIdentity(target, ctx), digests)).toEqual(expect.objectContaining({ ...expected, ...digests }))
  })
})

describe('policyDigest', () => {
  it('digests the inputs sorted by name, as recorded digests were: the same inputs keep carrying over after an update', () => {
    const text = JSON.stringify([
      ['a', '1'],
      ['b', '2']
    ])
    expect(policyDigest({ b: '2', a: '1' })).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
  })
})
