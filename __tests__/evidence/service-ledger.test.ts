/**
 * The service's list of the model's runs as the evidence of last resort: which
 * listed runs are read when no record of the default branch is listed, and
 * what is a gap (never a pass full evidence would not give).
 */
import { describe, expect, it } from '@jest/globals'
import { ledgerCoverage, ledgerNote, ledgerRunsToRead } from '../../src/evidence/service-ledger.js'
import type { RunList, RunListItem } from '../../src/service/contract/index.js'
import { makeRunListItem } from '../__fixtures__/builders.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const BOUNDS = { runs: 5, maxAgeDays: 30, now: NOW }
const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T00:00:00Z`
const withFindings = (run_id: string, over: Partial<RunListItem> = {}) =>
  makeRunListItem({ run_id, findings_count: 2, completed_at: day(25), ...over })
const list = (runs: RunListItem[], total = runs.length): RunList => ({ runs, total, returned: runs.length })

describe('ledgerRunsToRead: which listed runs may hold a weakness', () => {
  it.each<[string, RunListItem, boolean]>([
    ['completed within the age bound, with findings', withFindings('a'), true],
    ['no findings and a full ingest: nothing to read', withFindings('a', { findings_count: 0 }), false],
    [
      'no findings counted but an incomplete ingest: the count proves nothing',
      withFindings('a', { findings_count: 0, ingest_incomplete: true }),
      true
    ],
    ['completed before the age bound', withFindings('a', { completed_at: '2026-10-20T00:00:00Z' }), false],
    ['completed on the day the bound starts', withFindings('a', { completed_at: '2026-10-27T12:00:00Z' }), true],
    ['no completion time: not aged out', withFindings('a', { completed_at: null }), true],
    ['an unreadable completion time: not aged out', withFindings('a', { completed_at: 'yesterday' }), true],
    ['a run listed as running (the filter not honoured)', withFindings('a', { status: 'running' }), false],
    ['an errored run', withFindings('a', { status: 'error' }), false]
  ])('%s', (_, run, read) => {
    const got = ledgerRunsToRead(list([run]), new Set(), 10, BOUNDS)
    expect(got.toRead).toEqual(read ? ['a'] : [])
    expect(got.gaps).toEqual([])
  })

  it('leaves out runs already read, keeps the newest first, and names each once', () => {
    const got = ledgerRunsToRead(
      list([withFindings('c'), withFindings('b'), withFindings('c'), withFindings('a')]),
      new Set(['b']),
      10,
      BOUNDS
    )
    expect(got.toRead).toEqual(['c', 'a'])
  })

  it('reads at most `limit` runs and says how many more hold findings: a gap, never silence', () => {
    const runs = ['f', 'e', 'd', 'c', 'b', 'a'].map((id) => withFindings(id))
    const got = ledgerRunsToRead(list(runs), new Set(), 4, BOUNDS)
    expect(got.toRead).toEqual(['f', 'e', 'd', 'c'])
    expect(got.gaps).toEqual([
      '2 more completed runs of the model within the last 30 days hold findings the gate did not read (it reads at most 4), so what they saw cannot be ruled out'
    ])
    expect(ledgerRunsToRead(list(runs), new Set(), 5, BOUNDS).gaps[0]).toMatch(/^1 more completed run of .* holds findings .* what it saw/)
  })

  it('a model with more runs than the page: a gap while the oldest listed is still within the age bound', () => {
    const clean = Array.from({ length: 3 }, (_, i) => makeRunListItem({ run_id: `clean${i}`, completed_at: day(25 - i) }))
    const within = ledgerRunsToRead(list(clean, 250), new Set(), 10, BOUNDS)
    expect(within.toRead).toEqual([])
    expect(within.gaps).toEqual([
      'the model has 250 completed runs and the service listed only the newest 3, still within the last 30 days, so a weakness an older one saw cannot be ruled out'
    ])
    const oldLast = [...clean, makeRunListItem({ run_id: 'old', completed_at: '2026-09-01T00:00:00Z' })]
    expect(ledgerRunsToRead(list(oldLast, 250), new Set(), 10, BOUNDS).gaps).toEqual([])
    const undated = [...clean, makeRunListItem({ run_id: 'undated', completed_at: null })]
    expect(ledgerRunsToRead(list(undated, 250), new Set(), 10, BOUNDS).gaps).toHaveLength(1)
    expect(ledgerRunsToRead(list([], 5), new Set(), 10, BOUNDS).gaps).toHaveLength(1)
    expect(ledgerRunsToRead(list(clean, 3), new Set(), 10, BOUNDS).gaps).toEqual([])
  })

  it('the note says why the list was read and what follows', () => {
    expect(ledgerNote(1, 'No record of main is listed')).toBe(
      "No record of main is listed: the model's 1 most recent completed run holding findings was read from the service instead; what it saw and the service has not closed is presumed present until a confirmation shows it gone."
    )
    expect(ledgerNote(3, 'W')).toMatch(/^W: the model's 3 most recent completed runs holding findings were read .* what they saw/)
  })
})

describe("ledgerCoverage: what the model's recent runs covered, for want of a record to say it", () => {
  it('every category a completed run within the age bound planned, first met first', () => {
    const runs = [
      makeRunListItem({ run_id: 'focused', categories_planned: ['jailbreak'], completed_at: day(25) }),
      makeRunListItem({ run_id: 'full', categories_planned: ['prompt_injection', 'jailbreak', 'data_leakage'], completed_at: day(24) }),
      makeRunListItem({ run_id: 'old', categories_planned: ['excessive_agency'], completed_at: '2026-09-01T00:00:00Z' }),
      makeRunListItem({ run_id: 'errored', status: 'error', categories_planned: ['misinformation'], completed_at: day(25) }),
      makeRunListItem({ run_id: 'undated', categories_planned: ['unbounded_consumption'], completed_at: null })
    ]
    expect(ledgerCoverage(list(runs), BOUNDS)).toEqual(['jailbreak', 'prompt_injection', 'data_leakage', 'unbounded_consumption'])
    expect(ledgerCoverage(list([]), BOUNDS)).toEqual([])
  })
})
