/**
 * The carry-over's rules, case by case: it carries only the recorded verdict
 * of the same full assessment, says why it assesses, and what changed since.
 */
import { describe, expect, it } from '@jest/globals'
import { decideCarryOver, planCarryOver, type CarryOverContext } from '../../src/pipeline/carry-over.js'
import type { AssessmentIdentity } from '../../src/pipeline/identity.js'
import type { AssessmentRecord, RecordedResult } from '../../src/report/comment.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const identity: AssessmentIdentity = {
  subject: 'model%3Am',
  config: null,
  host: null,
  partial: false,
  profileDigest: null,
  policyDigest: null
}
const record = (result: RecordedResult): AssessmentRecord => ({
  result,
  assessedSha: A,
  headSha: A,
  subject: 'model%3Am',
  config: null,
  host: null,
  profileDigest: null,
  policyDigest: null,
  at: null
})
const ctx = (over: Partial<CarryOverContext> = {}): CarryOverContext => ({
  agentPaths: ['agent/**'],
  onDefaultBranch: false,
  headSha: B,
  identity,
  record: record('pass'),
  ...over
})

describe('planCarryOver', () => {
  it('a partial identity (a preview this event has no deployment of) always assesses', () => {
    expect(planCarryOver(ctx({ identity: { ...identity, partial: true } }))).toEqual({
      kind: 'assess',
      reason: "the target's configuration is not known on this event"
    })
  })

  it.each<RecordedResult>(['incomplete', 'error'])('a recorded %s is assessed again', (result) => {
    expect(planCarryOver(ctx({ record: record(result) }))).toEqual({
      kind: 'assess',
      reason: `the last assessment (at aaaaaaa) ended ${result}, not a verdict to carry over`
    })
  })
})

describe('decideCarryOver', () => {
  const compare = (result: RecordedResult) => ({ kind: 'compare' as const, base: A, head: B, record: record(result), identity })

  it.each<RecordedResult>(['incomplete', 'error'])('a comparison of a recorded %s assesses, whatever changed', (result) => {
    expect(decideCarryOver(compare(result), { kind: 'files', files: [] }, ['agent/**'])).toEqual({
      kind: 'assess',
      reason: `the last assessment (at aaaaaaa) ended ${result}, not a verdict to carry over`
    })
  })

  it.each<[string[], string]>([
    [[], 'carried over: fail as assessed at aaaaaaa (the same commit)'],
    [['README.md'], 'carried over: fail as assessed at aaaaaaa (1 file changed since, none under agent_paths: README.md)'],
    [
      ['README.md', 'docs/x.md'],
      'carried over: fail as assessed at aaaaaaa (2 files changed since, none under agent_paths: README.md, docs/x.md)'
    ]
  ])('carries the recorded verdict and says what changed since: %j', (files, reason) => {
    const got = decideCarryOver(compare('fail'), { kind: 'files', files }, ['agent/**'])
    expect(got).toMatchObject({ kind: 'carry_over', result: 'fail', assessedSha: A, changedFiles: files, reason })
    expect(got.kind === 'carry_over' && got.record.headSha).toBe(B)
  })

  it('carries nothing on the same commit but the recorded verdict', () => {
    expect(planCarryOver(ctx({ headSha: A }))).toMatchObject({
      kind: 'carry_over',
      result: 'pass',
      reason: 'carried over: pass as assessed at aaaaaaa (the same commit)'
    })
  })
})
