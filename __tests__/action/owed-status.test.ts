/**
 * The commit status the main step owes the post step (state.ts): what it
 * saves reads back whole; state that does not read as a final status owed
 * (hand-edited, truncated, pending, another shape) reads as none, so the post
 * step never sets a state nobody decided.
 */
import { describe, expect, it } from '@jest/globals'
import {
  OWED_STATES,
  owedStatus,
  saveOwedStatus,
  unreadableOwedStatus,
  type OwedStatus,
  type StateStore
} from '../../src/action/saved-state.js'

function store(): StateStore & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return { map, saveState: (n, v) => void map.set(n, v), getState: (n) => map.get(n) ?? '' }
}

const OWED: OwedStatus = {
  repo: { owner: 'octo', repo: 'agent' },
  status: {
    sha: 'b'.repeat(40),
    state: 'error',
    context: 'agent-security/m',
    description: 'error: the step was cancelled',
    targetUrl: 'https://github.com/octo/agent/actions/runs/7',
    owner: 'agent 6dfbc538'
  }
}

describe('owedStatus', () => {
  it('reads back what was saved, and nothing once it is cleared', () => {
    const s = store()
    expect(owedStatus(s)).toBeNull()
    saveOwedStatus(s, OWED)
    expect(owedStatus(s)).toEqual(OWED)
    saveOwedStatus(s, { ...OWED, status: { ...OWED.status, state: 'failure', targetUrl: null, owner: null } })
    expect(owedStatus(s)?.status).toMatchObject({ state: 'failure', targetUrl: null, owner: null })
    saveOwedStatus(s, null)
    expect(owedStatus(s)).toBeNull()
  })

  const { status } = OWED
  it.each([
    ['not JSON', '{"repo":'],
    ['JSON null', 'null'],
    ['an array', '[]'],
    ['no repo', JSON.stringify({ status })],
    ['no status', JSON.stringify({ repo: OWED.repo })],
    ['pending: not a final state', JSON.stringify({ ...OWED, status: { ...status, state: 'pending' } })],
    ['success: never owed (the post step never passes a commit)', JSON.stringify({ ...OWED, status: { ...status, state: 'success' } })],
    ['a state GitHub does not have', JSON.stringify({ ...OWED, status: { ...status, state: 'success!' } })],
    ['an empty sha', JSON.stringify({ ...OWED, status: { ...status, sha: '' } })],
    ['an empty context', JSON.stringify({ ...OWED, status: { ...status, context: '' } })],
    ['a description that is no text', JSON.stringify({ ...OWED, status: { ...status, description: 7 } })],
    ['a target URL that is no text', JSON.stringify({ ...OWED, status: { ...status, targetUrl: 7 } })],
    ['an owner that is no text', JSON.stringify({ ...OWED, status: { ...status, owner: {} } })],
    ['a repository without owner', JSON.stringify({ ...OWED, repo: { repo: 'agent' } })],
    ['a repository without name', JSON.stringify({ ...OWED, repo: { owner: 'octo', repo: '' } })]
  ])('%s reads as nothing owed', (_name, raw) => {
    const s = store()
    s.map.set('owed_status', raw)
    expect(owedStatus(s)).toBeNull()
    expect(unreadableOwedStatus(s)).toBe(true)
  })

  it('only failure and error are ever owed; nothing saved and a status that reads are not unreadable', () => {
    expect(OWED_STATES).toEqual(['failure', 'error'])
    const s = store()
    expect(unreadableOwedStatus(s)).toBe(false)
    saveOwedStatus(s, OWED)
    expect(unreadableOwedStatus(s)).toBe(false)
  })
})
