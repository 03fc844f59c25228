/**
 * The reasons outsideCode gives for code from outside this repository, one
 * row per part of the reason: which fork (or that it no longer exists), every
 * branch that was asked, and a branch name cut to 60 characters.
 */
import { describe, expect, it } from '@jest/globals'
import { outsideCode, type CodeEvidence } from '../../src/pipeline/code-origin.js'

const SHA = 'b'.repeat(40)
const LONG = 'x'.repeat(100)
const commit = (asked: string[], forkPull: { number: number; headRepo: string | null } | null): CodeEvidence => ({
  kind: 'commit',
  sha: SHA,
  asked,
  heldBy: null,
  forkPull
})

describe('outsideCode: the reason names what was found', () => {
  it.each<[string, CodeEvidence, string]>([
    [
      "a deployed head of a deleted fork's pull request",
      commit(['feat'], { number: 3, headRepo: null }),
      "the deployed commit bbbbbbb is the head of pull request #3 from a fork that no longer exists, and on no branch of this repository (not on 'feat')"
    ],
    [
      'a deployed commit on neither branch asked',
      commit(['feat', 'main'], null),
      "the deployed commit bbbbbbb is on no branch of this repository (not on 'feat' or 'main')"
    ],
    [
      'a branch name longer than 60 characters',
      commit([LONG], null),
      `the deployed commit bbbbbbb is on no branch of this repository (not on '${'x'.repeat(60)}')`
    ],
    [
      'a pull request from a deleted fork',
      { kind: 'head', of: 'pull request #7', headRepo: null, repository: 'octo/agent' },
      'the head of pull request #7 is in a fork that no longer exists, not in octo/agent'
    ]
  ])('%s', (_name, evidence, reason) => {
    expect(outsideCode(evidence)).toBe(reason)
  })
})
