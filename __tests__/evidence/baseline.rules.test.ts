/**
 * The rules of a run's baseline (what the default branch records), one row
 * per rule: no finding the service closed is in it (fixed, dismissed,
 * FIXED_VERIFIED), one entry per fingerprint and per category, descriptions
 * clipped; and a stored baseline is read back only when it follows the schema.
 */
import { describe, expect, it } from '@jest/globals'
import { baselineFinding, buildBaseline, parseBaseline, type Baseline } from '../../src/evidence/baseline.js'
import { fingerprint } from '../../src/evidence/fingerprint.js'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const finding = (status: string, over: Partial<Finding> = {}): Finding =>
  makeFinding('high', { category: 'a', description: `a weakness (${status})`, attacks: [], status, ...over })
const build = (findings: Finding[], categoriesCompleted: string[] = ['a']) =>
  buildBaseline({ modelId: 'm', runId: 'run_1', createdAt: '2026-11-20T00:00:00Z', commit: 'abc', categoriesCompleted, findings })

describe('buildBaseline: only findings that still count, once each', () => {
  it.each<[string, string, boolean]>([
    ['an open finding is kept', 'open', true],
    ['a reopened finding is kept', 'reopened', true],
    ['a plain fixed is a claim, not a close: kept (closesWeakness)', 'fixed', true],
    ['a dismissed finding is left out', 'dismissed', false],
    ['a verified fix is left out', 'FIXED_VERIFIED', false]
  ])('%s', (_rule, status, kept) => {
    const b = build([finding(status)])
    expect(b.findings.length).toBe(kept ? 1 : 0)
  })

  it('keeps one entry per fingerprint and one per category completed, and names the run', () => {
    const twice = finding('open', { description: 'the same weakness' })
    const b = build([twice, { ...twice, finding_id: 'other' }, finding('open', { category: 'b' })], ['a', 'b', 'a'])
    expect(b).toEqual({
      schema_version: 1,
      model_id: 'm',
      run_id: 'run_1',
      created_at: '2026-11-20T00:00:00Z',
      commit: 'abc',
      categories_completed: ['a', 'b'],
      findings: [baselineFinding(twice, 'run_1'), baselineFinding(finding('open', { category: 'b' }), 'run_1')]
    })
  })
})

describe('baselineFinding: what a person needs to recognise it', () => {
  it.each<[string, number, string]>([
    ['300 characters: kept whole', 300, 'x'.repeat(300)],
    ['301 characters: 299 and an ellipsis', 301, `${'x'.repeat(299)}…`],
    ['short: kept whole', 5, 'xxxxx']
  ])('a description of %s', (_rule, length, description) => {
    const f = makeFinding('critical', { category: 'c', lens: 'safety', description: 'x'.repeat(length), attacks: [] })
    expect(baselineFinding(f, 'run_1')).toEqual({
      fingerprint: fingerprint(f, 'run_1'),
      category: 'c',
      severity: 'critical',
      lens: 'safety',
      description
    })
  })
})

describe('parseBaseline: a stored baseline is read back only when it follows the schema', () => {
  const good: Baseline = build([finding('open')])
  const withFingerprint = (fp: string) => JSON.stringify({ ...good, findings: [{ ...good.findings[0], fingerprint: fp }] })
  it.each<[string, string, string | null]>([
    ['the baseline as written', JSON.stringify(good), null],
    ['not JSON', 'nope', 'the stored baseline is not JSON'],
    ['a fingerprint of 31 characters', withFingerprint('a'.repeat(31)), 'Invalid string: must match pattern /^[0-9a-f]{32}$/'],
    ['a fingerprint of 33 characters', withFingerprint('a'.repeat(33)), 'Invalid string: must match pattern /^[0-9a-f]{32}$/'],
    ['a fingerprint with a prefix', withFingerprint(`x${'a'.repeat(32)}`), 'Invalid string: must match pattern /^[0-9a-f]{32}$/'],
    ['a fingerprint of capitals', withFingerprint('A'.repeat(32)), 'Invalid string: must match pattern /^[0-9a-f]{32}$/']
  ])('%s', (_rule, text, problem) => {
    const r = parseBaseline(text)
    if (problem === null) expect(r).toEqual({ baseline: good })
    else
      expect(r).toEqual({
        error: problem.startsWith('Invalid') ? `the stored baseline does not follow schema version 1: ${problem}` : problem
      })
  })
})
