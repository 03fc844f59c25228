/**
 * The rules of records at their edges, one row per rule: what a key must
 * hold to be read (a run id, a commit or `none`, at most MAX_HOLDERS
 * holders), what a key is written with (the prefix, a commit only when a key
 * can carry it, the holders up to GitHub's length to the character), and how
 * listed entries become records: newest first, one per run and ref, a pull
 * request's own only on its ref, and a newer entry of a pull request naming
 * main's run never hides main's record.
 */
import { describe, expect, it } from '@jest/globals'
import {
  defaultBranchRecords,
  evidenceKey,
  evidenceKeyPrefix,
  MAX_CACHE_KEY_LENGTH,
  MAX_HOLDERS,
  parseEvidenceKey,
  recordHolders,
  recordsOnRef
} from '../../src/evidence/records.js'

const A = 'model:m'
const SHA = 'a'.repeat(40)
const MAIN = 'refs/heads/main'
const PR = 'refs/pull/3/merge'

describe('evidenceKeyPrefix: the namespace of every record', () => {
  it('is the versioned name and 16 hex of the agent digest', () => {
    expect(evidenceKeyPrefix(A)).toMatch(/^asas-gate-evidence-v2-[0-9a-f]{16}-$/)
  })
})

describe('parseEvidenceKey: what a key must hold to be read', () => {
  it.each<[string, string, { runId: string; commit: string | null } | null]>([
    ['commit and run', `${SHA}-run_1`, { runId: 'run_1', commit: SHA }],
    ['none and run', 'none-run_1', { runId: 'run_1', commit: null }],
    ['no dash: neither commit nor run can be told', 'abcdefghij', null],
    ['an empty commit', '-run_1', null],
    ['a run id no key can carry, beside a good commit', `${SHA}-run/1`, null],
    ['a commit too short, beside a good run id', 'abc-run_1', null],
    ['a commit with a character no commit holds', 'x.abcdefg-run_1', null],
    ['a commit too long', `${'a'.repeat(65)}-run_1`, null]
  ])('%s', (_name, rest, want) => {
    const got = parseEvidenceKey(`${evidenceKeyPrefix(A)}${rest}`, A)
    expect(got === null ? null : { runId: got.runId, commit: got.commit }).toEqual(want)
  })

  it(`reads at most ${MAX_HOLDERS} holders of a key written by hand`, () => {
    const holders = ['h1', 'h2!', 'h3', 'h4', 'h5', 'h6!']
    const got = parseEvidenceKey(`${evidenceKeyPrefix(A)}none-run_1~${holders.join('~')}`, A)
    expect(got?.holders).toEqual(['h1', 'h2', 'h3', 'h4', 'h5'])
    expect(got?.sameAgentHolders).toEqual(['h2'])
  })
})

describe('evidenceKey: what a key is written with', () => {
  it.each<[string, string]>([
    ['a slash', 'run/1'],
    ['a space', 'run 1'],
    ['the holder separator', 'run~1'],
    ['201 characters', 'r'.repeat(201)],
    ['nothing', '']
  ])('a run id holding %s is not recorded', (_name, runId) => {
    expect(evidenceKey(A, runId, SHA)).toBeNull()
  })

  it.each<[string, string, boolean]>([
    ['a commit of 7', 'abcdefg', true],
    ['a commit of 64', 'f'.repeat(64), true],
    ['a commit of 65', 'f'.repeat(65), false],
    ['a commit with a dot', 'x.abcdefg', false],
    ['a commit with a slash at its end', 'abcdefg/', false]
  ])('%s: carried %s', (_name, commit, carried) => {
    const key = evidenceKey(A, 'run_1', commit)
    expect(key).toBe(`${evidenceKeyPrefix(A)}${carried ? commit : 'none'}-run_1`)
  })

  it(`names at most ${MAX_HOLDERS} holders in the key itself`, () => {
    const key = evidenceKey(A, 'run_1', SHA, ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7'])!
    expect(key.endsWith('-run_1~h1~h2~h3~h4~h5')).toBe(true)
  })

  it("fills GitHub's key length to the character, never beyond", () => {
    const runId = 'r'.repeat(200)
    const first = 'a'.repeat(200)
    const base = `${evidenceKeyPrefix(A)}none-${runId}~${first}`
    const fits = 'b'.repeat(MAX_CACHE_KEY_LENGTH - base.length - 1)
    const exact = evidenceKey(A, runId, null, [first, fits])!
    expect(exact).toBe(`${base}~${fits}`)
    expect(exact).toHaveLength(MAX_CACHE_KEY_LENGTH)
    expect(evidenceKey(A, runId, null, [first, `${fits}b`])).toBe(base)
  })
})

describe('recordHolders: each run named once', () => {
  it('a run id holding the mark character is still named once', () => {
    const n = (fingerprint: string) => ({ present: true, presumed: true, fingerprint, seenIn: ['r!1'] })
    expect(recordHolders([n('a'), n('b')])).toEqual(['r!1'])
  })

  // Two weaknesses the same run saw name it once, however it is marked: it does not take two of the MAX_HOLDERS places.
  it.each<[string, string, string[], string]>([
    ["only the service's list saw it: once, presumed", 's9', ['s9'], '?s9'],
    ["the agent's own run saw it: once, marked", 'r9', [], 'r9!'],
    ["an id holding the presume character, the agent's own run: once", 'r?9', [], 'r?9!'],
    ["an id holding the presume character, only the service's list: once", 's?9', ['s?9'], '?s?9']
  ])('%s', (_name, id, unobserved, want) => {
    const n = (fingerprint: string) => ({ present: true, presumed: false, fingerprint, seenIn: [id] })
    expect(recordHolders([n('a'), n('b'), n('c')], new Set(), new Set(unobserved))).toEqual([want])
  })
})

describe('listed entries as records', () => {
  const entry = (runId: string, ref: string, createdAt: string, holders: string[] = []) => ({
    key: evidenceKey(A, runId, SHA, holders)!,
    ref,
    createdAt
  })

  it('newest first whatever the order listed; ties keep the order listed', () => {
    const listed = [
      entry('r1', MAIN, '2026-11-20T00:00:00Z'),
      entry('t1', MAIN, '2026-11-21T00:00:00Z'),
      entry('r2', MAIN, '2026-11-22T00:00:00Z'),
      entry('t2', MAIN, '2026-11-21T00:00:00Z'),
      entry('r3', MAIN, '2026-11-24T00:00:00Z'),
      entry('t3', MAIN, '2026-11-21T00:00:00Z')
    ]
    expect(defaultBranchRecords(listed, A, 'main').records.map((r) => r.runId)).toEqual(['r3', 'r2', 't1', 't2', 't3', 'r1'])
  })

  it('a run saved twice on one ref is one record, the newest entry', () => {
    const listed = [entry('r1', MAIN, '2026-11-20T00:00:00Z'), entry('r1', MAIN, '2026-11-22T00:00:00Z', ['h9'])]
    const got = defaultBranchRecords(listed, A, 'main')
    expect(got.records.map((r) => [r.runId, r.holders])).toEqual([['r1', ['h9']]])
    expect(got.refused).toBe(0)
  })

  it("a pull request's newer entry naming main's run never hides main's record", () => {
    const listed = [entry('r1', MAIN, '2026-11-20T00:00:00Z'), entry('r1', PR, '2026-11-25T00:00:00Z', ['h9'])]
    const got = defaultBranchRecords(listed, A, 'main')
    expect(got.records.map((r) => [r.runId, r.ref, r.holders])).toEqual([['r1', MAIN, []]])
    expect(got.refused).toBe(1)
  })

  it("a pull request's own records: only those listed on its ref", () => {
    const listed = [
      entry('m1', MAIN, '2026-11-20T00:00:00Z'),
      entry('p1', PR, '2026-11-21T00:00:00Z'),
      entry('o1', 'refs/pull/4/merge', '2026-11-22T00:00:00Z')
    ]
    expect(recordsOnRef(listed, A, PR).map((r) => r.runId)).toEqual(['p1'])
  })
})
