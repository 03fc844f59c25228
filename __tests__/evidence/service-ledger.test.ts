/**
 * The service's list of the model's runs as the default branch's evidence of
 * last resort: which listed runs are read when no record of the default
 * branch is listed, and what lies beyond the list's reach (said, not a gap).
 */
import { describe, expect, it } from '@jest/globals'
import { cleanListedRuns, ledgerNote, ledgerRunsToRead } from '../../src/evidence/service-ledger.js'
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
    const got = ledgerRunsToRead(list([run]), BOUNDS)
    expect(got.toRead).toEqual(read ? ['a'] : [])
    expect(got.unread).toEqual([])
  })

  it('keeps the newest first and names each once', () => {
    expect(ledgerRunsToRead(list([withFindings('c'), withFindings('b'), withFindings('c'), withFindings('a')]), BOUNDS).toRead).toEqual([
      'c',
      'b',
      'a'
    ])
  })

  it('reads every run of the page holding findings: newer ones must not push out an older weakness', () => {
    const runs = Array.from({ length: 100 }, (_, i) => withFindings(`r${String(i)}`))
    const got = ledgerRunsToRead(list(runs), BOUNDS)
    expect(got.toRead).toHaveLength(100)
    expect(got.toRead[99]).toBe('r99')
    expect(got.unread).toEqual([])
  })

  it('a model with more runs than the page: said while the oldest listed is still within the age bound', () => {
    const clean = Array.from({ length: 3 }, (_, i) => makeRunListItem({ run_id: `clean${i}`, completed_at: day(25 - i) }))
    const within = ledgerRunsToRead(list(clean, 250), BOUNDS)
    expect(within.toRead).toEqual([])
    expect(within.unread).toEqual([
      'the model has 250 completed runs and the service lists only the newest 3, all within the last 30 days, so older ones could not be read'
    ])
    const oldLast = [...clean, makeRunListItem({ run_id: 'old', completed_at: '2026-09-01T00:00:00Z' })]
    expect(ledgerRunsToRead(list(oldLast, 250), BOUNDS).unread).toEqual([])
    const undated = [...clean, makeRunListItem({ run_id: 'undated', completed_at: null })]
    expect(ledgerRunsToRead(list(undated, 250), BOUNDS).unread).toHaveLength(1)
    expect(ledgerRunsToRead(list([], 5), BOUNDS).unread).toHaveLength(1)
    expect(ledgerRunsToRead(list(clean, 3), BOUNDS).unread).toEqual([])
  })

  it('the note says why the list was read and what follows', () => {
    expect(ledgerNote(1, 'No record of main is listed')).toBe(
      "No record of main is listed: the model's 1 most recent completed run holding findings was read from the service instead; what it saw and the service has not closed is presumed present until a confirmation shows it gone."
    )
    expect(ledgerNote(3, 'W')).toMatch(/^W: the model's 3 most recent completed runs holding findings were read .* what they saw/)
  })
})

describe('cleanListedRuns: the runs that hold no finding, as evidence without a read', () => {
  it('completed runs within the age bound with no finding and a full ingest, each once, missing every weakness', () => {
    const runs = [
      makeRunListItem({ run_id: 'clean', completed_at: day(25), categories_planned: ['jailbreak'] }),
      withFindings('found'),
      makeRunListItem({ run_id: 'clean', completed_at: day(25) }),
      makeRunListItem({ run_id: 'partial', findings_count: 0, ingest_incomplete: true }),
      makeRunListItem({ run_id: 'old', completed_at: '2026-09-01T00:00:00Z' }),
      makeRunListItem({ run_id: 'errored', status: 'error' }),
      makeRunListItem({ run_id: 'undated', completed_at: null, categories_planned: ['excessive_agency'] })
    ]
    expect(cleanListedRuns(list(runs), BOUNDS)).toEqual([
      {
        runId: 'clean',
        completedAt: day(25),
        categoriesCompleted: ['jailbreak'],
        findings: [],
        sameAgent: false,
        provenance: 'service-list'
      },
      {
        runId: 'undated',
        completedAt: '',
        categoriesCompleted: ['excessive_agency'],
        findings: [],
        sameAgent: false,
        provenance: 'service-list'
      }
    ])
  })
})
