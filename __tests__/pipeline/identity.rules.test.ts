/**
 * Which records speak for an agent (recordsOfAgent): its own subject, its own
 * configuration unless the identity is partial, the newest of each
 * configuration, newest first. An older record never stands in for a newer
 * one: an old pass must not hide a later fail.
 */
import { describe, expect, it } from '@jest/globals'
import { agentIdentity, identityMismatch, recordsOfAgent, type AssessmentIdentity } from '../../src/pipeline/identity.js'
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

describe('agentIdentity', () => {
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
    [{ host: 'other' }, {}, 'it assessed the target at another host'],
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
