/**
 * The one write rule: shared targets, dismissals and the baseline only from
 * the default branch on push, schedule or workflow_dispatch; a pull request
 * writes the profile of its own preview only.
 */
import { describe, expect, it } from '@jest/globals'
import { profileWriteRefusal, writeRefusal, writeStanding, type WriteStanding } from '../../src/github/write-rule.js'
import type { ResolvedTarget, TargetOutcome } from '../../src/target/target-spec.js'
import { readEventPayload } from '../../src/github/publish.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const REPO = { full_name: 'octo/app', default_branch: 'main' }
const onMain = { GITHUB_REF: 'refs/heads/main', GITHUB_REPOSITORY: 'octo/app' }

describe('writeStanding', () => {
  it.each<[string, unknown, Record<string, string>, WriteStanding]>([
    ['push', { repository: REPO }, onMain, { kind: 'default-branch', branch: 'main' }],
    ['schedule', { repository: REPO }, onMain, { kind: 'default-branch', branch: 'main' }],
    ['workflow_dispatch', { repository: REPO }, onMain, { kind: 'default-branch', branch: 'main' }],
    // On the default branch's ref, but they may check out a pull request's code.
    [
      'issue_comment',
      { repository: REPO, issue: { number: 7, pull_request: {} } },
      onMain,
      { kind: 'other', eventName: 'issue_comment', ref: 'refs/heads/main' }
    ],
    ['workflow_run', { repository: REPO }, onMain, { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main' }],
    ['repository_dispatch', { repository: REPO }, onMain, { kind: 'other', eventName: 'repository_dispatch', ref: 'refs/heads/main' }],
    ['pull_request_target', { repository: REPO, number: 7, pull_request: { number: 7 } }, onMain, { kind: 'pull_request', number: 7 }],
    [
      'pull_request',
      { number: 7, pull_request: { number: 7 } },
      { GITHUB_REF: 'refs/pull/7/merge', GITHUB_REPOSITORY: 'octo/app' },
      { kind: 'pull_request', number: 7 }
    ],
    ['pull_request', {}, { GITHUB_REPOSITORY: 'octo/app' }, { kind: 'pull_request', number: null }],
    // Another branch, or the default branch unknown.
    ['push', { repository: REPO }, { GITHUB_REF: 'refs/heads/feature' }, { kind: 'other', eventName: 'push', ref: 'refs/heads/feature' }],
    ['push', {}, onMain, { kind: 'other', eventName: 'push', ref: 'refs/heads/main' }],
    ['push', null, onMain, { kind: 'other', eventName: 'push', ref: 'refs/heads/main' }]
  ])('%s %j %j', (event, payload, env, expected) => {
    expect(writeStanding(event, payload, env)).toEqual(expected)
  })
})

function target(outcome: TargetOutcome, name: string | null): ResolvedTarget {
  return { modelId: 'm1', name, outcome, endpointHost: null, movedFrom: null }
}

const MAIN: WriteStanding = { kind: 'default-branch', branch: 'main' }
const PR7: WriteStanding = { kind: 'pull_request', number: 7 }
const COMMENT: WriteStanding = { kind: 'other', eventName: 'issue_comment', ref: 'refs/heads/main' }
const RUN: WriteStanding = { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main' }
const BRANCH: WriteStanding = { kind: 'other', eventName: 'push', ref: 'refs/heads/feature' }

describe('writeRefusal', () => {
  it.each<[string, WriteStanding, ResolvedTarget, boolean]>([
    ['the default branch syncs a model_id', MAIN, target('given', null), true],
    ['the default branch syncs a shared name', MAIN, target('reused', 'production'), true],
    ['a PR syncs its own preview', PR7, target('reused', 'app-pr-7'), true],
    ['a PR syncs its moved preview', PR7, target('registered', 'app-pr-7 (moved to h)'), true],
    ['a PR may not sync a model_id', PR7, target('given', null), false],
    ['a PR may not sync another PR or a shared name', PR7, target('reused', 'app-pr-8'), false],
    ['a PR may not sync production by endpoint', PR7, target('reused', 'production'), false],
    ['a PR without a number owns no preview', { kind: 'pull_request', number: null }, target('reused', 'app-pr-7'), false],
    ['issue_comment may not sync a model_id', COMMENT, target('given', null), false],
    ['issue_comment owns no preview, whatever its name', COMMENT, target('reused', 'app-pr-7'), false],
    ['workflow_run may not sync a model_id', RUN, target('given', null), false],
    ['a push to another branch may not sync a shared name', BRANCH, target('reused', 'production'), false]
  ])('%s', (_label, standing, t, allowed) => {
    expect(writeRefusal(standing, { kind: 'profile', target: t, allowShared: false }) === null).toBe(allowed)
    // The workflow may widen the profile rule, and only it.
    expect(writeRefusal(standing, { kind: 'profile', target: t, allowShared: true })).toBeNull()
  })

  it.each([PR7, COMMENT, RUN, BRANCH])('writes no baseline and no dismissals from %j', (standing) => {
    expect(writeRefusal(standing, { kind: 'baseline' })).toMatch(/only from the default branch on push, schedule or workflow_dispatch/)
    expect(writeRefusal(standing, { kind: 'dismissals' })).toMatch(/only from the default branch on push, schedule or workflow_dispatch/)
  })

  it.each<[string, WriteStanding, string, boolean]>([
    ['a pull request on its own ref', PR7, 'refs/pull/7/merge', true],
    ['a pull_request_target run (on the base branch ref)', PR7, 'refs/heads/main', false],
    ["another pull request's ref", PR7, 'refs/pull/8/merge', false],
    ['an issue_comment run', COMMENT, 'refs/pull/7/merge', false],
    ['another branch', BRANCH, 'refs/heads/feature', false]
  ])("records a run's own evidence from %s: %s", (_what, standing, ref, allowed) => {
    expect(writeRefusal(standing, { kind: 'own-record', ref }) === null).toBe(allowed)
  })

  it('writes the baseline and dismissals from the default branch', () => {
    expect(writeRefusal(MAIN, { kind: 'baseline' })).toBeNull()
    expect(writeRefusal(MAIN, { kind: 'dismissals' })).toBeNull()
  })

  it('refuses a profile sync as a configuration error naming the input that widens it', () => {
    const pr = profileWriteRefusal(PR7, target('given', null), false)
    expect(pr?.input).toBe('allow_shared_profile_sync')
    expect(pr?.message).toMatch(
      /^pull request #7 may sync the profile of its own preview only .* and model m1 \(given by model_id\) is shared/
    )
    const comment = profileWriteRefusal(COMMENT, target('reused', 'production'), false)
    expect(comment?.message).toMatch(
      /^this issue_comment run on refs\/heads\/main may run a pull request's code, and target 'production' \(model m1\) is shared: shared targets, dismissals and the baseline are written only from the default branch on push, schedule or workflow_dispatch\./
    )
  })
})

describe('the event payload', () => {
  const fileOf = (text: string): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'asas-event-')), 'event.json')
    writeFileSync(path, text)
    return path
  }
  it('is read with its nesting bounded: a payload deeper than any real one reads as none, and writes nothing', async () => {
    const deep = `{"repository": {"default_branch": "main"}, "x": ${'['.repeat(400_000)}${']'.repeat(400_000)}}`
    const payload = await readEventPayload(fileOf(deep))
    expect(payload).toBeNull()
    expect(writeStanding('push', payload, onMain)).toEqual({ kind: 'other', eventName: 'push', ref: 'refs/heads/main' })
  })
  it('reads a real payload', async () => {
    const payload = await readEventPayload(fileOf(JSON.stringify({ repository: REPO, head_commit: { author: { name: 'a' } } })))
    expect(writeStanding('push', payload, onMain)).toEqual({ kind: 'default-branch', branch: 'main' })
  })
})
