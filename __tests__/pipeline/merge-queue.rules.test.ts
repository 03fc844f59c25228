/**
 * What a merge-queue run says when it carries over or refuses: every pull
 * request named, every reason kept apart, and the way out of a refusal. The
 * decisions themselves are in merge-queue.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import type { AssessmentRecord } from '../../src/report/comment.js'
import { recordSubjectKey } from '../../src/report/comment.js'
import { decideMergeQueue, type MergeQueueContext, type QueuedPull } from '../../src/pipeline/merge-queue.js'
import type { AssessmentIdentity } from '../../src/pipeline/identity.js'

const A = 'a'.repeat(40)
const H = 'b'.repeat(40)
const identity: AssessmentIdentity = {
  subject: recordSubjectKey('model:m_shop'),
  config: null,
  host: null,
  partial: false,
  profileDigest: null,
  policyDigest: 'b2'.repeat(32)
}
const record = (over: Partial<AssessmentRecord> = {}): AssessmentRecord => ({
  result: 'pass',
  assessedSha: A,
  headSha: H,
  subject: identity.subject,
  config: null,
  host: null,
  profileDigest: null,
  policyDigest: identity.policyDigest,
  at: null,
  ...over
})
const pull = (number: number, over: Partial<QueuedPull> = {}): QueuedPull => ({ number, headSha: H, records: [record()], ...over })
const ctx = (over: Partial<MergeQueueContext>): MergeQueueContext => ({
  mode: 'carry_over',
  pulls: [pull(12)],
  identity,
  target: 'preview',
  queueSha: 'd'.repeat(40),
  ...over
})
const failed = (n: number): QueuedPull => pull(n, { records: [record({ result: 'fail' })] })

describe('decideMergeQueue: what the run says', () => {
  it.each<[string, Partial<MergeQueueContext>, { reason: RegExp; summary?: string }]>([
    [
      'the queue commit unknown',
      { mode: 'assess', queueSha: null },
      { reason: /nothing deploys the queue's commit to assess instead; merge_group is assess\. / }
    ],
    [
      'a preview refused: how to get it through',
      { pulls: [failed(12)] },
      {
        reason:
          /\. Let the pull request's own check succeed at its head first, or give model_id \(or an endpoint_url deployed for the queue\) to merge_group runs$/,
        summary: 'nothing to carry over from pull request #12'
      }
    ],
    [
      'no pull request named, no reason given',
      { pulls: [] },
      {
        reason: /; no result to carry over: the event names no pull request\. /,
        summary: 'nothing to carry over from the queued pull request'
      }
    ],
    [
      'two pull requests, both refused: each named, each reason',
      { pulls: [failed(12), failed(13)] },
      {
        reason: /not carried over: #12: its last result is fail; #13: its last result is fail\. /,
        summary: 'nothing to carry over from pull request #12, #13'
      }
    ]
  ])('%s', (_what, over, said) => {
    const d = decideMergeQueue(ctx(over))
    expect(d.kind).toBe('fail_closed')
    expect(d.reason).toMatch(said.reason)
    if (said.summary !== undefined) expect(d.kind === 'fail_closed' && d.summary).toBe(said.summary)
  })

  it('a carry-over of two pull requests names both', () => {
    const d = decideMergeQueue(ctx({ pulls: [pull(12), pull(13, { records: [record({ assessedSha: H })] })] }))
    expect(d).toMatchObject({
      kind: 'carry_over',
      reason: 'carried over: #12 passed at its head bbbbbbb (assessed at aaaaaaa); #13 passed at its head bbbbbbb'
    })
  })
})
