import { describe, expect, it } from '@jest/globals'
import { defaultBranchOf, isDefaultBranchRef } from '../../src/github/event-target.js'

describe('the default branch, as the event payload names it', () => {
  it.each<[unknown, string | null]>([
    [{ repository: { default_branch: 'main' } }, 'main'],
    [{ repository: { default_branch: 'trunk' } }, 'trunk'],
    [{ repository: { default_branch: '' } }, null],
    [{ repository: { default_branch: 7 } }, null],
    [{ repository: 'main' }, null],
    [{}, null],
    [null, null],
    ['{"repository":{"default_branch":"main"}}', null]
  ])('%j names %j', (payload, branch) => {
    expect(defaultBranchOf(payload)).toBe(branch)
  })

  it.each<[unknown, string, boolean]>([
    [{ repository: { default_branch: 'main' } }, 'refs/heads/main', true],
    [{ repository: { default_branch: 'main' } }, 'refs/heads/main-2', false],
    [{ repository: { default_branch: 'main' } }, 'main', false],
    [{ repository: { default_branch: 'main' } }, 'refs/tags/main', false],
    [{ repository: { default_branch: 'main' } }, 'refs/pull/7/merge', false],
    // A payload that names no default branch never makes a ref the default one.
    [{}, 'refs/heads/main', false],
    [{ repository: { default_branch: '' } }, 'refs/heads/', false]
  ])('%j: %s is the default branch: %s', (payload, ref, expected) => {
    expect(isDefaultBranchRef(payload, ref)).toBe(expected)
  })
})
