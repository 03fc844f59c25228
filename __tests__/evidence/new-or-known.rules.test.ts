/**
 * The rules of the baseline diff that `fail_on: new` waives by, one row per
 * rule: a finding is `known` only when the baseline holds its fingerprint
 * (a known finding is waived, so every other one is `new`), each finding's
 * state and fingerprint are kept by its id, and a baseline finding is gone
 * only in a category this run completed.
 */
import { describe, expect, it } from '@jest/globals'
import { buildBaseline } from '../../src/evidence/baseline.js'
import { diffAgainstBaseline, fingerprintsOf } from '../../src/evidence/new-or-known.js'
import { fingerprint } from '../../src/evidence/fingerprint.js'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const leak = makeFinding('critical', { finding_id: 'f_leak', category: 'a', description: 'leaked its system prompt', attacks: [] })
const shell = makeFinding('high', { finding_id: 'f_shell', category: 'b', description: 'ran a shell command', attacks: [] })
const baselineOf = (findings: Finding[], completed = ['a', 'b']) =>
  buildBaseline({ modelId: 'm', runId: 'run_base', createdAt: '', commit: null, categoriesCompleted: completed, findings })

describe('diffAgainstBaseline: a finding is known only when the baseline holds its fingerprint', () => {
  it.each<[string, Finding[], ReturnType<typeof baselineOf> | null, Record<string, string>]>([
    ['no baseline: every finding is new', [leak, shell], null, { f_leak: 'new', f_shell: 'new' }],
    ['an empty baseline: every finding is new', [leak, shell], baselineOf([]), { f_leak: 'new', f_shell: 'new' }],
    ['the baseline holds one: that one known, the other new', [leak, shell], baselineOf([leak]), { f_leak: 'known', f_shell: 'new' }],
    ['the baseline holds both: both known', [leak, shell], baselineOf([shell, leak]), { f_leak: 'known', f_shell: 'known' }],
    ['the same weakness at another severity is new', [{ ...leak, severity: 'high' }], baselineOf([leak]), { f_leak: 'new' }]
  ])('%s', (_rule, findings, baseline, states) => {
    const d = diffAgainstBaseline(findings, 'run_now', baseline, ['a', 'b'])
    expect(Object.fromEntries(d.stateById)).toEqual(states)
    expect(d.knownIds).toEqual(Object.keys(states).filter((id) => states[id] === 'known'))
    expect(d.newIds).toEqual(Object.keys(states).filter((id) => states[id] === 'new'))
  })

  it("keeps each finding's fingerprint by its id, computed against this run", () => {
    const d = diffAgainstBaseline([leak, shell], 'run_now', null, [])
    expect(Object.fromEntries(d.fingerprintById)).toEqual({ f_leak: fingerprint(leak, 'run_now'), f_shell: fingerprint(shell, 'run_now') })
    expect(d.fingerprintById).toEqual(fingerprintsOf([leak, shell], 'run_now'))
  })

  it.each<[string, string[], string[], string[]]>([
    ['a category completed again: the finding not found is gone', ['a', 'b'], ['b'], []],
    ['a category not completed this time: not gone, uncovered', ['a'], [], ['b']],
    ['nothing completed: nothing gone, all uncovered', [], [], ['a', 'b']]
  ])('%s', (_rule, completed, gone, uncovered) => {
    const d = diffAgainstBaseline([leak], 'run_now', baselineOf([leak, shell]), completed)
    expect(d.gone.map((g) => g.category)).toEqual(gone)
    expect(d.uncovered).toEqual(uncovered)
  })

  it('with no baseline nothing is gone and nothing uncovered, whatever this run completed', () => {
    const d = diffAgainstBaseline([leak], 'run_now', null, ['a', 'b'])
    expect(d.gone).toEqual([])
    expect(d.uncovered).toEqual([])
  })
})
