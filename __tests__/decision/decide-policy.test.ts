/** decide() with the baseline and the accepted risks (waived findings, uncovered categories, expired entries). */
import { describe, expect, it } from '@jest/globals'
import { decide, type DecideInput, type GateResult } from '../../src/decision/decide.js'
import { applyPolicy } from '../../src/decision/apply-policy.js'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import * as YAML from 'yaml'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const planned = ['a', 'b', 'c']
const fnd = (category: string, severity: Finding['severity'] = 'high', status: Finding['status'] = 'open'): Finding => ({
  ...makeFinding(severity, { status: status, category: category, description: 'd', expected_behavior: 'e', attacks: [] }),
  description: `${category} weakness`
})
const KNOWN_A = fnd('a')
const KNOWN_B = fnd('b', 'critical')
const NEW_C = fnd('c')
const baseline = buildBaseline({
  modelId: 'm',
  runId: 'run_base',
  createdAt: '',
  commit: null,
  categoriesCompleted: planned,
  findings: [fnd('a'), fnd('b', 'critical')]
})
const accept = (category: string, expires = '2027-01-31') =>
  parseAcceptedFile(
    YAML,
    `accepted:\n  - category: ${category}\n    reason_code: accepted_risk\n    explanation: x\n    owner: o\n    severity_at_most: any\n    expires: ${expires}\n`,
    'a.yml',
    '2026-11-23'
  )

interface Case {
  findings: Finding[]
  failOn: 'any' | 'new'
  withBaseline?: boolean
  accepted?: ReturnType<typeof accept>
  verdict?: 'pass' | 'fail' | null
  completed?: string[]
  today?: string
}

function run(c: Case): ReturnType<typeof decide> {
  const completed = c.completed ?? planned
  const policy = applyPolicy({
    findings: c.findings,
    runId: 'run_now',
    categoriesCompleted: completed,
    baseline: c.withBaseline === false ? null : baseline,
    accepted: c.accepted ?? [],
    failOn: c.failOn,
    today: c.today ?? '2026-11-23'
  })
  const input: DecideInput = {
    status: 'completed',
    verdict:
      c.verdict === undefined
        ? c.findings.some((f) => f.status === 'open' && ['critical', 'high'].includes(f.severity))
          ? 'fail'
          : 'pass'
        : c.verdict,
    minSeverity: 'high',
    categoriesPlanned: planned,
    categoriesCompleted: completed,
    ingestIncomplete: false,
    findings: c.findings,
    coverageReadable: true,
    waived: policy.waived,
    baselineUncovered: policy.diff.uncovered,
    expiredAcceptances: (c.accepted ?? [])
      .filter((e) => e.expires < (c.today ?? '2026-11-23'))
      .map((e) => `accepted[${e.index}] ${e.category} expired on ${e.expires}`)
  }
  return decide(input)
}

describe('decide with a baseline and accepted risks', () => {
  const cases: [string, Case, GateResult, RegExp][] = [
    [
      'fail_on any: known findings fail',
      { findings: [KNOWN_A, KNOWN_B], failOn: 'any' },
      'fail',
      /2 open findings at or above high \(1 critical, 1 high\)/
    ],
    [
      'fail_on new: only known findings pass',
      { findings: [KNOWN_A, KNOWN_B], failOn: 'new' },
      'pass',
      /no open findings at or above high that block/
    ],
    [
      'fail_on new: a new finding fails on it alone',
      { findings: [KNOWN_A, KNOWN_B, NEW_C], failOn: 'new' },
      'fail',
      /^1 open finding at or above high \(1 high\)$/
    ],
    ['fail_on new without a baseline: as any', { findings: [KNOWN_A], failOn: 'new', withBaseline: false }, 'fail', /1 open finding/],
    ['accepted: does not fail, whatever fail_on', { findings: [NEW_C], failOn: 'any', accepted: accept('c') }, 'pass', /that block/],
    ['accepted and known together pass', { findings: [KNOWN_A, NEW_C], failOn: 'new', accepted: accept('c') }, 'pass', /that block/],
    [
      'an acceptance of another category does not help',
      { findings: [NEW_C], failOn: 'new', accepted: accept('a') },
      'fail',
      /1 open finding/
    ],
    [
      'expired acceptance: fails naming it, and accepts nothing',
      { findings: [NEW_C], failOn: 'new', accepted: accept('c', '2026-11-01'), today: '2026-11-23' },
      'fail',
      /1 open finding/
    ],
    [
      'expired acceptance with nothing else open: fails naming it',
      { findings: [], failOn: 'new', accepted: accept('c', '2026-11-01') },
      'fail',
      /expired acceptance \(renew or remove\): accepted\[1\] c expired on 2026-11-01/
    ],
    [
      'a category the baseline covered and this run did not: incomplete',
      { findings: [KNOWN_A], failOn: 'new', completed: ['a', 'b'] },
      'incomplete',
      /the baseline covered c, this run did not/
    ],
    ['below the threshold new findings never fail', { findings: [fnd('c', 'medium')], failOn: 'new' }, 'pass', /no open findings/]
  ]
  it.each(cases)('%s', (_name, c, result, reason) => {
    const d = run(c)
    expect(d.result).toBe(result)
    expect(d.reason).toMatch(reason)
  })

  it('says why a service fail does not block', () => {
    const d = run({ findings: [KNOWN_A, NEW_C], failOn: 'new', accepted: accept('c') })
    expect(d.notes.join('\n')).toMatch(
      /The service's verdict is fail at high on findings that do not block here: 1 known since the baseline \(fail_on: new\) and 1 accepted/
    )
    expect(d.findingsAtOrAbove).toBe(2)
    expect(d.openAtOrAbove).toBe(0)
  })

  it('keeps a service fail that no waived finding explains (fail closed)', () => {
    const d = run({ findings: [fnd('c', 'high', 'weird_status')], failOn: 'new', verdict: 'fail', accepted: accept('a') })
    expect(d.result).toBe('fail')
  })
})
