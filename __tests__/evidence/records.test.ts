/** Records name runs only, and only the default branch's are trusted to make a verdict laxer. */
import { describe, expect, it } from '@jest/globals'
import {
  defaultBranchRecords,
  evidenceKey,
  evidenceKeyPrefix,
  MAX_CACHE_KEY_LENGTH,
  MAX_HOLDERS,
  parseEvidenceKey,
  recordHolders,
  tiedToDefaultBranch
} from '../../src/evidence/records.js'
import { commitsToCompare, holdersToRead, recordsToRead, sameAgentRecords, withinAge } from '../../src/evidence/window.js'

const A = 'model:m'
const SHA = 'a'.repeat(40)

describe('evidence keys', () => {
  it.each<[string, string | null, { runId: string; commit: string | null } | null]>([
    ['run_1', SHA, { runId: 'run_1', commit: SHA }],
    ['run-with-dashes', null, { runId: 'run-with-dashes', commit: null }],
    ['run/with/slash', SHA, null]
  ])('run %s at %s round-trips through its key', (runId, commit, want) => {
    const key = evidenceKey(A, runId, commit)
    expect(key === null ? null : parseEvidenceKey(key, A)).toEqual(
      want === null ? null : { ...want, holders: [], sameAgentHolders: [], presumedHolders: [] }
    )
  })

  it.each<[string, string[], string[]]>([
    ['holders round-trip in order', ['run-3', 'run_1'], ['run-3', 'run_1']],
    ['a repeated holder, or the run itself, is named once or not at all', ['run_1', 'run_1', 'run_9'], ['run_1']],
    ['a holder no key can carry is left out', ['run/x', 'run_2'], ['run_2']],
    [`at most ${MAX_HOLDERS}`, ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], ['h1', 'h2', 'h3', 'h4', 'h5']]
  ])('%s', (_n, holders, want) => {
    const key = evidenceKey(A, 'run_9', SHA, holders)!
    expect(parseEvidenceKey(key, A)).toEqual({ runId: 'run_9', commit: SHA, holders: want, sameAgentHolders: [], presumedHolders: [] })
  })

  it("keeps within GitHub's key length and has no comma, whatever the run ids", () => {
    const long = (c: string) => c.repeat(200)
    const key = evidenceKey(A, long('r'), 'f'.repeat(64), ['a', 'b', 'c', 'd', 'e'].map(long))!
    expect(key.length).toBeLessThanOrEqual(MAX_CACHE_KEY_LENGTH)
    expect(key).not.toContain(',')
    expect(parseEvidenceKey(key, A)?.holders).toEqual([long('a')])
  })

  it('a key naming a holder no key can carry is not read', () => {
    expect(parseEvidenceKey(`${evidenceKey(A, 'run_1', SHA)!}~run/x`, A)).toBeNull()
  })

  it('the holders of a record: the newest run that saw each finding still open and not reproduced, most severe first', () => {
    const n = (present: boolean, ...seenIn: string[]) => ({ present, presumed: false, fingerprint: seenIn.join(), seenIn })
    expect(recordHolders([n(true, 'r7', 'r2'), n(false, 'r8'), n(true, 'r7'), n(true, 'r3'), n(true)])).toEqual(['r7!', 'r3!'])
    expect(recordHolders(Array.from({ length: 7 }, (_, i) => n(true, `r${i}`)))).toHaveLength(MAX_HOLDERS)
  })

  it("marks a holder of this run's own agent, leaves a presumed one unmarked, and names none a confirmation showed gone", () => {
    const n = (presumed: boolean, fingerprint: string, ...seenIn: string[]) => ({ present: true, presumed, fingerprint, seenIn })
    expect(recordHolders([n(false, 'a', 'r7'), n(true, 'b', 'r3'), n(true, 'c', 'r4')], new Set(['c']))).toEqual(['r7!', 'r3'])
    const key = evidenceKey(A, 'run_9', SHA, ['r7!', 'r3'])!
    expect(key.endsWith('~r7!~r3')).toBe(true)
    expect(parseEvidenceKey(key, A)).toEqual({
      runId: 'run_9',
      commit: SHA,
      holders: ['r7', 'r3'],
      sameAgentHolders: ['r7'],
      presumedHolders: []
    })
  })

  it("names a weakness only a run of the service's list saw with the presumed mark, never as the recording branch's own", () => {
    const n = (fingerprint: string, ...seenIn: string[]) => ({ present: true, presumed: true, fingerprint, seenIn })
    const listed = new Set(['pr_run', 'branch_run'])
    // Seen by a listed run only: kept, marked presumed-only; seen by a listed run and an own run: the own run holds it.
    expect(recordHolders([n('a', 'pr_run'), n('b', 'branch_run', 'main_r3')], new Set(), listed)).toEqual(['?pr_run', 'main_r3'])
    expect(recordHolders([n('a', 'pr_run')])).toEqual(['pr_run'])
    // Even a listed run of this agent is never marked as this agent's own (`!`): the list cannot say whose it is.
    expect(recordHolders([{ ...n('a', 'pr_run'), presumed: false }], new Set(), listed)).toEqual(['?pr_run'])
  })

  it('a presumed-only holder round-trips through its key, apart from the holders the recording branch observed', () => {
    const key = evidenceKey(A, 'run_9', SHA, ['?pr_run', 'r7!', 'r3', '?run_9', '??x', '?r2!'])!
    expect(key.endsWith('~?pr_run~r7!~r3~?r2!')).toBe(true)
    expect(parseEvidenceKey(key, A)).toEqual({
      runId: 'run_9',
      commit: SHA,
      holders: ['pr_run', 'r7', 'r3', 'r2'],
      sameAgentHolders: ['r7'],
      presumedHolders: ['pr_run', 'r2']
    })
  })

  it("one agent's prefix never starts another's, and another agent's key is not read", () => {
    expect(evidenceKeyPrefix('model:m').startsWith(evidenceKeyPrefix('model:m2'))).toBe(false)
    expect(evidenceKeyPrefix('model:m2').startsWith(evidenceKeyPrefix('model:m'))).toBe(false)
    expect(parseEvidenceKey(evidenceKey('model:other', 'run_1', SHA)!, A)).toBeNull()
  })
})

describe('tiedToDefaultBranch: the one rule for a record that can make a verdict laxer', () => {
  it.each<[string, string | null, boolean]>([
    ['refs/heads/main', 'main', true],
    ['refs/pull/3/merge', 'main', false],
    ['refs/heads/release', 'main', false],
    ['main', 'main', false],
    ['refs/heads/main', null, false],
    // No default branch named is none, even beside a branch named "null" or an entry on the bare prefix.
    ['refs/heads/null', null, false],
    ['refs/heads/', '', false]
  ])('an entry on %s with default branch %s: %s', (ref, branch, want) => {
    expect(tiedToDefaultBranch({ ref }, branch)).toBe(want)
  })

  it('keeps the default branch records, newest first, one per run, and counts the refused', () => {
    const listed = [
      { key: evidenceKey(A, 'r1', SHA)!, ref: 'refs/heads/main', createdAt: '2026-11-20T00:00:00Z' },
      { key: evidenceKey(A, 'r_pr', SHA)!, ref: 'refs/pull/3/merge', createdAt: '2026-11-26T00:00:00Z' },
      { key: evidenceKey(A, 'r2', SHA)!, ref: 'refs/heads/main', createdAt: '2026-11-22T00:00:00Z' },
      { key: 'someone-elses-cache', ref: 'refs/heads/main', createdAt: '2026-11-23T00:00:00Z' }
    ]
    const got = defaultBranchRecords(listed, A, 'main')
    expect(got.records.map((r) => r.runId)).toEqual(['r2', 'r1'])
    expect(got.refused).toBe(1)
  })
})

describe('the window', () => {
  const now = Date.parse('2026-11-26T00:00:00Z')
  const rec = (runId: string, commit: string | null, day: number) => ({
    runId,
    commit,
    createdAt: `2026-11-${String(day).padStart(2, '0')}T00:00:00Z`,
    key: '',
    ref: 'refs/heads/main',
    holders: [] as string[],
    sameAgentHolders: [] as string[]
  })
  it.each<[string, boolean]>([
    ['2026-11-01T00:00:00Z', true],
    ['2026-10-01T00:00:00Z', false],
    ['', false]
  ])('%s within 30 days: %s', (iso, want) => {
    expect(withinAge(iso, { runs: 5, maxAgeDays: 30, now })).toBe(want)
  })

  it('reads the newest K within the age bound', () => {
    const records = [rec('r4', 'c', 25), rec('r3', 'c', 24), rec('r2', 'c', 23), rec('old', 'c', 1)]
    expect(recordsToRead(records, 2, { runs: 2, maxAgeDays: 30, now }).map((r) => r.runId)).toEqual(['r4', 'r3'])
    expect(recordsToRead(records, 9, { runs: 9, maxAgeDays: 10, now }).map((r) => r.runId)).toEqual(['r4', 'r3', 'r2'])
  })

  it.each<[string, Record<string, boolean>, string[]]>([
    ['no change since any: all', { c3: false, c2: false }, ['r3', 'r2', 'r1']],
    ['the agent changed after c2: the runs since', { c3: false, c2: true }, ['r3']],
    ['a commit not compared counts as changed', { c3: false }, ['r3']]
  ])('same agent: %s', (_n, changed, want) => {
    const records = [rec('r3', 'c3', 25), rec('r2', 'c2', 24), rec('r1', 'c2', 23), rec('r0', null, 22)]
    expect(sameAgentRecords(records, new Map(Object.entries(changed))).map((r) => r.runId)).toEqual(want)
    expect(commitsToCompare(records, 4)).toEqual(['c3', 'c2'])
  })

  it.each<[string, string[][], string[], number, string[]]>([
    ['the holders of every record, newest record first, once each', [['h1'], ['h2', 'h1']], [], 5, ['h1', 'h2']],
    ['a holder among the runs read is not read twice', [['r2', 'h1']], ['r2'], 5, ['h1']],
    ['at most the limit', [['h1', 'h2'], ['h3']], [], 2, ['h1', 'h2']]
  ])('holders to read: %s', (_n, holders, read, limit, want) => {
    const records = holders.map((h, i) => ({ ...rec(`r${3 - i}`, 'c', 25 - i), holders: h }))
    expect(holdersToRead(records, read, limit)).toEqual(want)
  })
})
