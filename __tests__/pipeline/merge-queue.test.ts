import { describe, expect, test } from '@jest/globals'
import type { AssessmentRecord } from '../../src/report/comment.js'
import { decideMergeQueue, type MergeQueueContext, type QueuedPull } from '../../src/pipeline/merge-queue.js'
import { recordSubjectKey } from '../../src/report/comment.js'
import type { AssessmentIdentity } from '../../src/pipeline/identity.js'

const A = 'a'.repeat(40)
const H = 'b'.repeat(40)
const Q = 'd'.repeat(40)
const identity: AssessmentIdentity = {
  subject: recordSubjectKey('model:m_shop'),
  config: null,
  host: null,
  partial: false,
  profileDigest: 'a1'.repeat(32),
  policyDigest: 'b2'.repeat(32)
}
const record = (over: Partial<AssessmentRecord> = {}): AssessmentRecord => ({
  result: 'pass',
  assessedSha: A,
  headSha: H,
  subject: identity.subject,
  config: identity.config,
  host: identity.host,
  profileDigest: identity.profileDigest,
  policyDigest: identity.policyDigest,
  at: null,
  ...over
})
const pull = (over: Partial<QueuedPull> = {}): QueuedPull => ({ number: 12, headSha: H, records: [record()], ...over })
const ctx = (over: Partial<MergeQueueContext> = {}): MergeQueueContext => ({
  mode: 'carry_over',
  pulls: [pull()],
  identity,
  target: 'model',
  queueSha: Q,
  ...over
})

describe('decideMergeQueue', () => {
  test('carry_over: the pull request passed at its head (carried there from its assessment)', () => {
    expect(decideMergeQueue(ctx())).toEqual({
      kind: 'carry_over',
      result: 'pass',
      pulls: [{ number: 12, headSha: H, assessedSha: A }],
      reason: 'carried over: #12 passed at its head bbbbbbb (assessed at aaaaaaa)'
    })
  })

  test('carry_over: assessed at the head itself', () => {
    const d = decideMergeQueue(ctx({ pulls: [pull({ records: [record({ assessedSha: H })] })] }))
    expect(d.kind === 'carry_over' && d.reason).toBe('carried over: #12 passed at its head bbbbbbb')
  })

  test('several pull requests: all must have passed', () => {
    const two = [pull(), pull({ number: 13, records: [record({ result: 'fail' })] })]
    expect(decideMergeQueue(ctx({ pulls: two }))).toEqual({
      kind: 'assess',
      reason: "not carried over: #13: its last result is fail: assessing the queue's commit ddddddd"
    })
    const both = [pull(), pull({ number: 13 })]
    expect(decideMergeQueue(ctx({ pulls: both })).kind).toBe('carry_over')
  })

  const notCarried: [string, Partial<QueuedPull>, RegExp][] = [
    ['head unknown', { headSha: null }, /#12: its head commit could not be read/],
    ['no record', { records: [] }, /#12: no assessment of it is recorded by this action/],
    ['failed', { records: [record({ result: 'fail' })] }, /its last result is fail/],
    ['incomplete', { records: [record({ result: 'incomplete' })] }, /its last result is incomplete/],
    ['a pass of an older head', { headSha: 'e'.repeat(40) }, /its recorded result stands for bbbbbbb, not its head eeeeeee/],
    ['another model', { records: [record({ subject: recordSubjectKey('model:m_other') })] }, /another model or target/],
    ['another profile', { records: [record({ profileDigest: 'c3'.repeat(32) })] }, /profile file changed/],
    ['other verdict inputs', { records: [record({ policyDigest: null })] }, /decide the verdict/]
  ]
  test.each(notCarried)('not carried over (%s): assess with model_id, saying why', (_name, over, reason) => {
    const d = decideMergeQueue(ctx({ pulls: [pull(over)] }))
    expect(d.kind).toBe('assess')
    expect(d.reason).toMatch(reason)
  })

  test.each(notCarried)('not carried over (%s): fail closed with a preview target', (_name, over, reason) => {
    const d = decideMergeQueue(ctx({ pulls: [pull(over)], target: 'preview' }))
    expect(d.kind).toBe('fail_closed')
    expect(d.reason).toMatch(reason)
    expect(d.reason).toMatch(/is empty \(the target is a preview\), and nothing deploys the queue's commit ddddddd to assess instead/)
  })

  test("a preview's queue knows the name only: every configuration recorded under it must have passed at the head", () => {
    const preview = { ...identity, subject: recordSubjectKey('target:agent-pr-12'), partial: true }
    const rec = (config: string, result: 'pass' | 'fail') => record({ subject: preview.subject, config, host: 'h', result })
    const queue = (records: AssessmentRecord[]) =>
      decideMergeQueue(ctx({ identity: preview, target: 'preview', pulls: [pull({ records })] }))
    expect(queue([rec('0000aaaa', 'pass'), rec('0000bbbb', 'pass')]).kind).toBe('carry_over')
    const d = queue([rec('0000aaaa', 'pass'), rec('0000bbbb', 'fail')])
    expect(d.kind).toBe('fail_closed')
    expect(d.reason).toMatch(/#12: its last result is fail/)
  })

  test('the event names no pull request: its reason is given', () => {
    const d = decideMergeQueue(ctx({ pulls: [], eventReason: 'merge_group.head_ref is not of the form x' }))
    expect(d).toEqual({
      kind: 'assess',
      reason: "no result to carry over: merge_group.head_ref is not of the form x: assessing the queue's commit ddddddd"
    })
  })

  test('assess mode assesses even a passing pull request (model or endpoint), and fails closed for a preview', () => {
    expect(decideMergeQueue(ctx({ mode: 'assess' }))).toEqual({
      kind: 'assess',
      reason: "merge_group is assess: assessing the queue's commit ddddddd"
    })
    expect(decideMergeQueue(ctx({ mode: 'assess', target: 'endpoint' })).kind).toBe('assess')
    expect(decideMergeQueue(ctx({ mode: 'assess', target: 'preview' })).kind).toBe('fail_closed')
  })
})
