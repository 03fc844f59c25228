/**
 * The write rule, case by case: which standing may write what. Every row that
 * allows a write is one the rule names (the default branch on push, schedule
 * or workflow_dispatch; a pull request's own preview found or registered by
 * endpoint_url; allow_shared_profile_sync for the profile only).
 */
import { describe, expect, it } from '@jest/globals'
import {
  profileWriteRefusal,
  WRITING_EVENTS,
  writeRefusal,
  writeStanding,
  type ServiceWrite,
  type WriteStanding
} from '../../src/github/write-rule.js'
import type { ResolvedTarget, TargetOutcome } from '../../src/target/target-spec.js'

const target = (outcome: TargetOutcome, name: string | null): ResolvedTarget => ({
  modelId: 'm1',
  name,
  outcome,
  endpointHost: null,
  movedFrom: null
})
const profile = (t: ResolvedTarget, allowShared = false): ServiceWrite => ({ kind: 'profile', target: t, allowShared })

const PR7: WriteStanding = { kind: 'pull_request', number: 7 }

describe('a pull request writes the profile of its own preview only', () => {
  it.each<[string, ResolvedTarget, boolean]>([
    ['its preview, reused by endpoint_url', target('reused', 'app-pr-7'), true],
    ['its preview, registered by endpoint_url', target('registered', 'pr-7'), true],
    // target_name given: a target the workflow names is shared, whatever its name says.
    ['a target given by target_name that holds its number', target('given', 'app-pr-7'), false],
    ['a target given by target_name', target('given', 'production'), false],
    ['a model given by model_id', target('given', null), false],
    ['a registered target with no name', target('registered', null), false],
    ['another pull request preview', target('reused', 'app-pr-70'), false],
    ['a shared target found by endpoint_url', target('reused', 'production'), false]
  ])('%s: allowed %s', (_name, t, allowed) => {
    expect(writeRefusal(PR7, profile(t)) === null).toBe(allowed)
  })

  it.each<[string, WriteStanding, string]>([
    // Without a number there is no pr-<n> to hold: not even the text of an absent one.
    ['a pull request with no number', { kind: 'pull_request', number: null }, 'app-pr-null'],
    ['a run that is no pull request', { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main' }, 'app-pr-undefined'],
    ['a run that is no pull request', { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main' }, 'app-pr-null']
  ])('%s owns no preview, whatever the name: %s', (_name, standing, name) => {
    expect(writeRefusal(standing, profile(target('registered', name)))).toMatch(/is shared$/)
  })

  it('a pull request with no number owns no preview', () => {
    expect(writeRefusal({ kind: 'pull_request', number: null }, profile(target('registered', 'pr-7')))).toBe(
      "this pull request may run a pull request's code, and target 'pr-7' (model m1) is shared"
    )
  })

  it('says what it may sync and why this target is not its own', () => {
    expect(writeRefusal(PR7, profile(target('given', 'app-pr-7')))).toBe(
      "pull request #7 may sync the profile of its own preview only (a target registered by endpoint_url whose name holds pr-7, as the default name does), and target 'app-pr-7' (model m1) is shared"
    )
  })

  it('a standing that is not a pull request owns no preview, even with a pr-<n> name', () => {
    const other: WriteStanding = { kind: 'other', eventName: 'pull_request_review', ref: 'refs/pull/7/merge' }
    expect(writeRefusal(other, profile(target('registered', 'app-pr-7')))).toBe(
      "this pull_request_review run on refs/pull/7/merge may run a pull request's code, and target 'app-pr-7' (model m1) is shared"
    )
  })
})

describe('profileWriteRefusal', () => {
  it('is null when the sync is allowed, a configuration error naming allow_shared_profile_sync when not', () => {
    expect(profileWriteRefusal(PR7, target('registered', 'app-pr-7'), false)).toBeNull()
    expect(profileWriteRefusal(PR7, target('given', 'production'), true)).toBeNull()
    expect(profileWriteRefusal(PR7, target('given', 'production'), false)?.input).toBe('allow_shared_profile_sync')
  })
})

describe('the baseline and dismissals', () => {
  it.each<[WriteStanding, string]>([
    [PR7, 'pull request #7'],
    [{ kind: 'pull_request', number: null }, 'this pull request'],
    [{ kind: 'other', eventName: 'push', ref: 'refs/heads/dev' }, 'this push run on refs/heads/dev'],
    [{ kind: 'other', eventName: '', ref: '' }, 'this unnamed run on an unknown ref']
  ])('are refused to %j, named as %s', (standing, run) => {
    expect(writeRefusal(standing, { kind: 'baseline' })).toBe(
      `${run} may run a pull request's code, and the baseline is recorded only from the default branch on push, schedule or workflow_dispatch`
    )
    expect(writeRefusal(standing, { kind: 'dismissals' })).toBe(
      `${run} may run a pull request's code, and acceptances are written to the service only from the default branch on push, schedule or workflow_dispatch`
    )
    // allow_shared_profile_sync widens the profile rule only.
    expect(writeRefusal(standing, profile(target('given', null), true))).toBeNull()
  })

  it('the default branch writes every kind, a shared target included', () => {
    const main: WriteStanding = { kind: 'default-branch', branch: 'main' }
    for (const w of [{ kind: 'baseline' }, { kind: 'dismissals' }, profile(target('given', 'production'))] as ServiceWrite[])
      expect(writeRefusal(main, w)).toBeNull()
  })
})

describe('writeStanding: only the default branch on a writing event stands on the default branch', () => {
  const repo = { repository: { default_branch: 'main' } }
  it('the writing events are exactly push, schedule and workflow_dispatch', () => {
    expect([...WRITING_EVENTS].sort()).toEqual(['push', 'schedule', 'workflow_dispatch'])
  })

  it.each<[string, unknown, Record<string, string>, WriteStanding['kind']]>([
    ['push', repo, { GITHUB_REF: 'refs/heads/main' }, 'default-branch'],
    ['push', repo, { GITHUB_REF: 'refs/heads/main2' }, 'other'],
    ['push', repo, { GITHUB_REF: 'refs/tags/main' }, 'other'],
    ['push', repo, { GITHUB_REF: 'main' }, 'other'],
    ['push', repo, {}, 'other'],
    ['push', {}, { GITHUB_REF: 'refs/heads/null' }, 'other'],
    ['push', { repository: {} }, { GITHUB_REF: 'refs/heads/undefined' }, 'other'],
    ['push', { repository: { default_branch: '' } }, { GITHUB_REF: 'refs/heads/' }, 'other'],
    ['push', { repository: { default_branch: 7 } }, { GITHUB_REF: 'refs/heads/7' }, 'other'],
    ['push', { repository: 'main' }, { GITHUB_REF: 'refs/heads/main' }, 'other'],
    ['merge_group', repo, { GITHUB_REF: 'refs/heads/main' }, 'other'],
    ['release', repo, { GITHUB_REF: 'refs/heads/main' }, 'other'],
    ['', repo, { GITHUB_REF: 'refs/heads/main' }, 'other'],
    ['pull_request_target', repo, { GITHUB_REF: 'refs/heads/main' }, 'pull_request']
  ])('%s %j %j: %s', (event, payload, env, kind) => {
    expect(writeStanding(event, payload, env).kind).toBe(kind)
  })

  it('a run on no ref stands nowhere, and says so', () => {
    expect(writeStanding('push', repo, {})).toEqual({ kind: 'other', eventName: 'push', ref: '' })
  })

  it('a pull request event reads its number from the payload (none when it holds none)', () => {
    const env = { GITHUB_REPOSITORY: 'octo/app' }
    expect(writeStanding('pull_request', { pull_request: { number: 9 } }, env)).toEqual({ kind: 'pull_request', number: 9 })
    expect(writeStanding('pull_request_target', { number: 0 }, env)).toEqual({ kind: 'pull_request', number: null })
    expect(writeStanding('pull_request', { number: 9 }, {})).toEqual({ kind: 'pull_request', number: null })
  })
})
