import { describe, expect, it } from '@jest/globals'
import { decide, computeVerdict, type DecideInput, type GateResult } from '../src/decide.js'
import { finding } from './support/findings.js'

const planned = ['a', 'b', 'c']
const base: DecideInput = {
  status: 'completed',
  verdict: 'pass',
  minSeverity: 'high',
  categoriesPlanned: planned,
  categoriesCompleted: planned,
  ingestIncomplete: false,
  findings: [],
  coverageReadable: true
}

const cases: Array<[string, Partial<DecideInput>, GateResult, RegExp]> = [
  ['clean completed run', {}, 'pass', /no open findings at or above high; all 3 planned categories covered/],
  ['service verdict fail', { verdict: 'fail', findings: [finding('high')] }, 'fail', /1 open finding at or above high \(1 high\)/],
  ['fail with findings unreadable', { verdict: 'fail', findings: null }, 'fail', /verdict is fail at high/],
  ['fail wins over incomplete coverage', { verdict: 'fail', status: 'cancelled', categoriesCompleted: ['a'], findings: [finding('critical')] }, 'fail', /critical/],
  ['cancelled run without failures', { status: 'cancelled', categoriesCompleted: ['a'] }, 'incomplete', /1 of 3 categories reached, run cancelled, missing b, c/],
  ['errored run', { status: 'error' }, 'incomplete', /run error/],
  ['completed but a planned category missing', { categoriesCompleted: ['a', 'b'] }, 'incomplete', /missing c/],
  ['ingest incomplete', { ingestIncomplete: true }, 'incomplete', /ingest incomplete/],
  ['ingest unknown', { ingestIncomplete: null }, 'incomplete', /could not be read/],
  ['no categories planned', { categoriesPlanned: [], categoriesCompleted: [] }, 'incomplete', /planned no categories/],
  ['verdict missing, findings unreadable', { verdict: null, findings: null }, 'error', /cannot be trusted/],
  ['verdict missing, computed fail', { verdict: undefined, findings: [finding('critical')] }, 'fail', /1 critical/],
  ['verdict missing, computed pass', { verdict: null, findings: [finding('medium'), finding('high', 'dismissed')] }, 'pass', /no open findings/],
  ['service pass contradicted by findings', { verdict: 'pass', findings: [finding('high')] }, 'fail', /1 open finding/],
  ['still running', { status: 'running', verdict: null }, 'error', /had not ended/],
  ['timed out while running', { status: 'running', verdict: null, timedOut: true }, 'error', /timeout_minutes ran out/],
  ['timed out, cancelled, nothing failing', { status: 'cancelled', timedOut: true, categoriesCompleted: ['a'] }, 'error', /coverage incomplete.*timeout_minutes ran out/],
  ['aborted while running', { status: 'running', verdict: null, aborted: true }, 'error', /step was cancelled/],
  ['status unreadable', { status: null }, 'error', /could not be read/],
  ['findings unreadable (409 after terminal) with a pass verdict', { findings: null }, 'error', /findings could not be read/],
  ['coverage unreadable with a pass verdict', { coverageReadable: false }, 'error', /coverage could not be read/],
  ['coverage unreadable but the verdict is fail', { coverageReadable: false, verdict: 'fail', findings: [finding('high')] }, 'fail', /1 open finding/]
]

describe('decide', () => {
  it.each(cases)('%s -> %s', (_name, patch, result, reason) => {
    const d = decide({ ...base, ...patch })
    expect(d.result).toBe(result)
    expect(d.reason).toMatch(reason)
  })

  it('never passes an untrusted result', () => {
    const untrusted: Array<Partial<DecideInput>> = cases.filter(([, , r]) => r !== 'pass').map(([, p]) => p)
    for (const patch of untrusted) expect(decide({ ...base, ...patch }).result).not.toBe('pass')
  })

  it('says when the verdict was computed locally', () => {
    const d = decide({ ...base, verdict: null, findings: [finding('low')] })
    expect(d).toMatchObject({ verdict: 'pass', verdictComputed: true })
    expect(d.notes.join(' ')).toMatch(/computed from the findings/)
    expect(decide(base).verdictComputed).toBe(false)
  })

  it('counts findings at or above the threshold, and open ones apart', () => {
    const d = decide({ ...base, verdict: 'fail', findings: [finding('critical'), finding('high', 'fixed'), finding('low')] })
    expect(d.findingsAtOrAbove).toBe(2)
    expect(d.openAtOrAbove).toBe(1)
  })

  it.each([
    ['low', [finding('low')], 'fail'],
    ['medium', [finding('low')], 'pass'],
    ['critical', [finding('high')], 'pass'],
    ['critical', [finding('critical', 'FIXED_VERIFIED')], 'pass'],
    ['low', [finding('critical', 'dismissed'), finding('low', 'open')], 'fail']
  ] as const)('computeVerdict at %s', (min, findings, expected) => {
    expect(computeVerdict(findings, min)).toBe(expected)
  })
})
