import { describe, expect, it } from '@jest/globals'
import { withRecordScope } from '../../src/action/stages/collect-decision.js'

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
