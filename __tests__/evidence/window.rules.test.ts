/**
 * The bounds of the window, one row per rule: the age bound holds its last
 * millisecond, and only the newest `limit` records' commits are compared.
 */
import { describe, expect, it } from '@jest/globals'
import { commitsToCompare, withinAge } from '../../src/evidence/window.js'

const DAY = 86_400_000
const now = Date.parse('2026-11-26T00:00:00Z')

describe('withinAge: no run older than maxAgeDays counts', () => {
  it.each<[string, number, boolean]>([
    ['exactly maxAgeDays old: within', now - 30 * DAY, true],
    ['a millisecond older: not', now - 30 * DAY - 1, false],
    ['a millisecond younger: within', now - 30 * DAY + 1, true]
  ])('%s', (_name, t, want) => {
    expect(withinAge(new Date(t).toISOString(), { runs: 5, maxAgeDays: 30, now })).toBe(want)
  })
})

describe('commitsToCompare: the distinct commits of the newest `limit` records', () => {
  const rec = (commit: string | null) => ({
    runId: `r-${String(commit)}`,
    commit,
    createdAt: '',
    key: '',
    ref: 'refs/heads/main',
    holders: [],
    sameAgentHolders: []
  })
  it.each<[string, (string | null)[], number, string[]]>([
    ['only the newest `limit` records are looked at', ['c3', 'c2', 'c1'], 2, ['c3', 'c2']],
    ['a limit of one: the newest commit', ['c3', 'c2', 'c1'], 1, ['c3']],
    ['a commit repeated counts once within the limit', ['c3', 'c3', 'c2', 'c1'], 3, ['c3', 'c2']],
    ['a record without a commit ends the list', ['c3', null, 'c2'], 3, ['c3']]
  ])('%s', (_name, commits, limit, want) => {
    expect(commitsToCompare(commits.map(rec), limit)).toEqual(want)
  })
})
