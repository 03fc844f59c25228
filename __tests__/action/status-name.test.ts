/**
 * The commit status context must be the same on every pull request, or branch
 * protection cannot require it: a model's id, a target_name given, else
 * `preview` (never the per-PR preview's own name, which holds the PR number).
 */
import { describe, expect, it } from '@jest/globals'
import { statusName } from '../../src/action/stages/commit-status.js'
import type { ActionInputs } from '../../src/action/inputs.js'
import type { AssessedSubject } from '../../src/pipeline/identity.js'

const withTarget = (target: unknown): ActionInputs => ({ target }) as unknown as ActionInputs

describe('statusName', () => {
  it.each<[string, ActionInputs, AssessedSubject, string]>([
    ['a model', withTarget({ kind: 'model', modelId: 'm_shop' }), { kind: 'model', modelId: 'm_shop' }, 'm_shop'],
    ['a per-PR preview', withTarget({ kind: 'endpoint', endpoint: { name: null } }), { kind: 'target', name: 'agent-app-pr-7' }, 'preview'],
    ['another PR of it', withTarget({ kind: 'endpoint', endpoint: { name: null } }), { kind: 'target', name: 'agent-app-pr-8' }, 'preview'],
    [
      'a target_name',
      withTarget({ kind: 'endpoint', endpoint: { name: 'staging-bot' } }),
      { kind: 'target', name: 'staging-bot' },
      'staging-bot'
    ],
    [
      'a queue without deployment',
      withTarget({ kind: 'preview', reason: 'r', name: null }),
      { kind: 'target', name: 'agent-app-pr-7' },
      'preview'
    ]
  ])('%s', (_what, inputs, subject, expected) => {
    expect(statusName(inputs, subject)).toBe(expected)
  })
})
