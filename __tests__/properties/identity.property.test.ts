/**
 * "The same assessment", as properties: two different models or targets never
 * share a key, a key never depends on anything but the subject, and a record
 * is of the same assessment exactly when subject, profile and verdict inputs
 * are all equal. And the carry-over built on it carries only a verdict, and
 * only the one recorded: never a pass for what was not one.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  identityMismatch,
  policyDigest,
  subjectKey,
  subjectName,
  textDigest,
  type AssessedSubject,
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
const subject: fc.Arbitrary<AssessedSubject> = fc.oneof(
  name.map((modelId) => ({ kind: 'model' as const, modelId })),
  name.map((n) => ({ kind: 'target' as const, name: n }))
)

describe('subjectKey', () => {
  it('two different subjects never share a key', () => {
    fc.assert(
      fc.property(subject, subject, (a, b) => {
        fc.pre(a.kind !== b.kind || subjectName(a) !== subjectName(b))
        expect(subjectKey(a)).not.toBe(subjectKey(b))
      }),
      { numRuns: 3000 }
    )
  })

  it('a model and a target of the same name have different keys', () => {
    fc.assert(
      fc.property(name, (n) => {
        expect(subjectKey({ kind: 'model', modelId: n })).not.toBe(subjectKey({ kind: 'target', name: n }))
      })
    )
  })

  it('the same subject always has the same key', () => {
    fc.assert(
      fc.property(subject, (s) => {
        expect(subjectKey(s)).toBe(subjectKey(structuredClone(s)))
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
const identity: fc.Arbitrary<AssessmentIdentity> = fc.record({
  subject: fc.constantFrom('model%3Am1', 'target%3Ax'),
  profileDigest: digest,
  policyDigest: digest
})
const sha = fc.constantFrom('a'.repeat(40), 'b'.repeat(40))
const record: fc.Arbitrary<AssessmentRecord> = fc.record({
  result: fc.constantFrom(...RECORDED_RESULTS),
  assessedSha: sha,
  headSha: sha,
  subject: fc.constantFrom('model%3Am1', 'target%3Ax'),
  profileDigest: digest,
  policyDigest: digest,
  at: fc.constant(null)
})

describe('identityMismatch and the carry-over', () => {
  it('a record is of the same assessment exactly when subject, profile and policy are equal', () => {
    fc.assert(
      fc.property(record, identity, (rec, id) => {
        const same = rec.subject === id.subject && rec.profileDigest === id.profileDigest && rec.policyDigest === id.policyDigest
        expect(identityMismatch(rec, id) === null).toBe(same)
      }),
      { numRuns: 1000 }
    )
  })

  it('carries over only the recorded verdict of the same assessment, never turning anything into a pass', () => {
    const changed = fc.oneof(
      fc.constant({ kind: 'everything' as const, reason: 'too many' }),
      fc.subarray(['README.md', 'agent/prompt.txt', 'src/x.ts']).map((files) => ({ kind: 'files' as const, files }))
    )
    let carried = 0
    fc.assert(
      fc.property(record, identity, sha, fc.boolean(), changed, (rec, id, headSha, onDefaultBranch, diff) => {
        const agentPaths = ['agent/**']
        const plan = planCarryOver({ agentPaths, onDefaultBranch, headSha, identity: id, record: rec })
        const decision = decideCarryOver(plan, diff, agentPaths)
        if (decision.kind !== 'carry_over') return
        carried += 1
        expect(decision.result).toBe(rec.result)
        expect(['pass', 'fail']).toContain(decision.result)
        expect(identityMismatch(rec, id)).toBeNull()
        expect(onDefaultBranch).toBe(false)
        expect(decision.changedFiles).not.toContain('agent/prompt.txt')
      }),
      { numRuns: 2000 }
    )
    // The inputs drawn do reach carry-overs.
    expect(carried).toBeGreaterThan(20)
  })
})
