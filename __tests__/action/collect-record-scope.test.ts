import { describe, expect, it } from '@jest/globals'
import { recordCurrent, withRecordScope } from '../../src/action/stages/collect-decision.js'
import { STATUSES_READ, type ListedStatus } from '../../src/github/commit-status.js'
import { pendingDescription } from '../../src/report/pending.js'

describe("withRecordScope: the categories a collected run must cover, the policy's and the sealed record's, whichever asks more", () => {
  it.each([
    ['both the full taxonomy', [], [], []],
    ['the policy the full taxonomy', [], ['jailbreak'], []],
    ['the record the full taxonomy', ['jailbreak'], [], []],
    ['the same list', ['jailbreak'], ['jailbreak'], ['jailbreak']],
    ['a record asking more', ['jailbreak'], ['jailbreak', 'data_leakage'], ['jailbreak', 'data_leakage']],
    ['a record asking less', ['jailbreak', 'data_leakage'], ['jailbreak'], ['jailbreak', 'data_leakage']],
    ['disjoint lists', ['jailbreak'], ['data_leakage'], ['jailbreak', 'data_leakage']]
  ])('%s', (_name, policy, record, want) => {
    const got = withRecordScope({ categories: policy, timeoutMs: 1 }, { categories: record })
    expect([...got.categories].sort()).toEqual([...want].sort())
    expect(got.timeoutMs).toBe(1)
  })
})

describe('recordCurrent: does a record name the head’s newest assessment, by this agent’s own statuses', () => {
  const q = { context: 'agent-security/m', owner: 'a1b2c3d4', login: 'github-actions[bot]', runId: 'run_2' }
  const pending = (run: string | null, over: Partial<ListedStatus> = {}): ListedStatus => ({
    context: q.context,
    owner: q.owner,
    creator: q.login,
    state: 'pending',
    description:
      run === null
        ? 'Queued: the model is busy; the collector triggers the run (result by 10:00 UTC at the latest)'
        : pendingDescription(run, '2026-12-06T10:00:00Z'),
    ...over
  })
  const final = (state: string): ListedStatus => ({ context: q.context, owner: q.owner, creator: q.login, state, description: 'done' })
  it.each([
    ['no status of ours at all (none was set)', [], 'current'],
    ['its own pending, then its final (a collector stopped before the comment)', [final('success'), pending('run_2')], 'current'],
    ['a later pending of another run', [final('failure'), pending('run_3'), final('success'), pending('run_2')], 'newer'],
    ['a later queued pending (no run yet)', [pending(null), pending('run_2')], 'newer'],
    [
      "a person's pending naming the record's run over ours of another",
      [pending('run_2', { creator: 'mallory' }), pending('run_3')],
      'newer'
    ],
    ["another agent's pending", [pending('run_3', { owner: 'ffffffff' }), pending('run_2')], 'current'],
    ['another context', [pending('run_3', { context: 'ci/other' }), pending('run_2')], 'current'],
    [
      'a full page of others: cannot tell',
      Array.from({ length: STATUSES_READ }, () => final('success')).map((s) => ({ ...s, context: 'ci/x' })),
      'unknown'
    ]
  ] as [string, ListedStatus[], string][])('%s', (_name, listed, want) => {
    expect(recordCurrent(listed, q)).toBe(want)
  })
})
