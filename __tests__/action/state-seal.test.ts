/**
 * The state the post step may act on (src/action/saved-state.ts): the main step
 * saves every key the post step reads, then a seal (a nonce and its HMAC,
 * keyed by the api_key and bound to the job); the post step reads nothing
 * without a seal that verifies, and the main step reads back only what it
 * saved. In-process with a recording store standing in for GITHUB_STATE and
 * the job's STATE_* environment; the bundle is held by
 * __tests__/e2e/job-env-e2e.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import {
  abandonedTrigger,
  cancelRequested,
  openState,
  runLeftRunning,
  savedState,
  saveOwedStatus,
  saveRunSettled,
  saveRunStarted,
  saveTriggerIntent,
  sealOf,
  startedRun,
  STATE_KEYS,
  stepBinding,
  usingState,
  type StateStore
} from '../../src/action/saved-state.js'
import { runPost } from '../../src/action/post-step.js'
import { runMainAction } from '../../src/action/main-entry.js'
import { runPostAction } from '../../src/action/post-entry.js'
import { startGitHubStandin } from '../__fixtures__/github-standin.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO, logged, mainState } from '../__fixtures__/fake-io.js'

const KEY = 'asas_key_state_seal_0123456789'
const JOB = { GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'gate' }
const binding = { key: KEY, job: '42/1/gate' }

/** A store that records each save in order and answers `forged` for every key it was not given (the job's environment). */
function recordingStore(forged = 'forged-by-an-earlier-step'): StateStore & { saves: [string, string][]; map: Map<string, string> } {
  const map = new Map<string, string>()
  const saves: [string, string][] = []
  return {
    saves,
    map,
    saveState: (name, value) => {
      saves.push([name, value])
      map.set(name, value)
    },
    getState: (name) => map.get(name) ?? forged
  }
}

describe('stepBinding', () => {
  it('is the api_key input (trimmed) and the run, attempt and job the runner sets', () => {
    expect(stepBinding({ INPUT_API_KEY: `  ${KEY}\n`, ...JOB })).toEqual(binding)
  })

  it('reads what is missing as empty', () => {
    expect(stepBinding({})).toEqual({ key: '', job: '//' })
  })
})

describe('sealOf', () => {
  const seal = sealOf(binding, 'nonce-1')

  it('is the nonce and an HMAC-SHA256 of it (base64url)', () => {
    expect(seal).toMatch(/^nonce-1\.[\w-]{43}$/)
    expect(sealOf(binding, 'nonce-1')).toBe(seal)
  })

  it.each([
    ['another nonce', binding, 'nonce-2'],
    ['another key', { ...binding, key: `${KEY}x` }, 'nonce-1'],
    ['another job (a re-run attempt)', { ...binding, job: '42/2/gate' }, 'nonce-1']
  ])('differs for %s', (_what, other, nonce) => {
    expect(sealOf(other, nonce)?.split('.')[1]).not.toBe(seal?.split('.')[1])
  })

  it('is null without a key or a nonce: nothing can be sealed', () => {
    expect(sealOf({ ...binding, key: '' }, 'nonce-1')).toBeNull()
    expect(sealOf(binding, '')).toBeNull()
  })
})

describe('openState: the main step, first thing', () => {
  it('saves every key the post step reads, empty, and the seal last', () => {
    const store = recordingStore()
    openState(store, binding, 'nonce-1')
    expect(store.saves).toEqual([...STATE_KEYS.map((k) => [k, '']), ['seal', sealOf(binding, 'nonce-1')]])
    expect(STATE_KEYS).toEqual(['run_id', 'run_settled', 'trigger_intent', 'cancel_requested', 'owed_status'])
  })

  it('saves an empty seal when there is no api_key (the post step will do nothing)', () => {
    const store = recordingStore()
    openState(store, { ...binding, key: '' }, 'nonce-1')
    expect(store.saves.at(-1)).toEqual(['seal', ''])
  })

  it('reads back only what this step saved, never the STATE_* of the job environment', () => {
    const store = recordingStore()
    const own = openState(store, binding, 'nonce-1')
    expect(own.getState('run_id')).toBe('')
    expect(own.getState('isPost')).toBe('')
    own.saveState('run_id', 'run_7')
    expect(own.getState('run_id')).toBe('run_7')
    expect(store.map.get('run_id')).toBe('run_7')
  })
})

describe('savedState: the post step reads only a sealed state', () => {
  it('reads the main step’s values when its seal verifies', () => {
    const store = recordingStore()
    openState(store, binding, 'nonce-1').saveState('run_id', 'run_7')
    const state = savedState(store, binding)
    expect(state?.getState('run_id')).toBe('run_7')
    state?.saveState('owed_status', '')
    expect(store.saves.at(-1)).toEqual(['owed_status', ''])
  })

  it.each([
    ['no seal (the main step died before saving)', ''],
    ['a seal without a nonce', `.${sealOf(binding, 'n')?.split('.')[1] ?? ''}`],
    ['a nonce without a MAC', 'nonce-1'],
    ['a forged MAC', 'nonce-1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a MAC one character longer', `${sealOf(binding, 'nonce-1') ?? ''}A`],
    ['a seal of another key', sealOf({ ...binding, key: 'asas_key_an_earlier_step_knows_01' }, 'nonce-1') ?? ''],
    ['a seal of another attempt of the job', sealOf({ ...binding, job: '42/2/gate' }, 'nonce-1') ?? '']
  ])('is null for %s', (_what, seal) => {
    const store = recordingStore()
    store.map.set('seal', seal)
    store.map.set('run_id', 'run_of_someone_else')
    expect(savedState(store, binding)).toBeNull()
  })

  it('is null without an api_key, whatever the seal', () => {
    const store = recordingStore()
    openState(store, binding, 'nonce-1')
    expect(savedState(store, { ...binding, key: '' })).toBeNull()
  })

  it('refuses to read a key the main step does not save before its seal (a bug)', () => {
    const store = recordingStore()
    openState(store, binding, 'nonce-1')
    expect(() => savedState(store, binding)?.getState('isPost')).toThrow(
      "state key 'isPost' is not one the main step saves before its seal"
    )
  })
})

describe('what the post step reads of the sealed state', () => {
  const intent = { modelId: 'm', categories: ['jailbreak'], baseline: null, sentAt: 1_700_000_000_000 }
  const sealed = (entries: Record<string, string>): StateStore => {
    const store = recordingStore('')
    const own = openState(store, binding, 'nonce-1')
    for (const [k, v] of Object.entries(entries)) own.saveState(k, v)
    const state = savedState(store, binding)
    if (state === null) throw new Error('the seal must verify')
    return state
  }

  it('reads back a saved trigger intent whole, with a baseline or without', () => {
    const s = sealed({})
    saveTriggerIntent(s, intent)
    expect(abandonedTrigger(s)).toEqual(intent)
    saveTriggerIntent(s, { ...intent, baseline: ['fp1', 'fp2'] })
    expect(abandonedTrigger(s)?.baseline).toEqual(['fp1', 'fp2'])
  })

  it.each<[string, Record<string, string>]>([
    ['nothing saved', {}],
    ['a run id known (no trigger abandoned)', { run_id: 'run_1', trigger_intent: JSON.stringify(intent) }],
    ['not JSON', { trigger_intent: '{"modelId":' }],
    ['JSON null', { trigger_intent: 'null' }],
    ['an array', { trigger_intent: '[]' }],
    ['no model', { trigger_intent: JSON.stringify({ ...intent, modelId: 7 }) }],
    ['no time sent', { trigger_intent: JSON.stringify({ ...intent, sentAt: '1700000000000' }) }],
    ['categories that are no list', { trigger_intent: JSON.stringify({ ...intent, categories: 'jailbreak' }) }],
    ['a category that is no text', { trigger_intent: JSON.stringify({ ...intent, categories: ['jailbreak', 7] }) }],
    ['a baseline that is no list', { trigger_intent: JSON.stringify({ ...intent, baseline: 'fp1' }) }],
    ['a baseline entry that is no text', { trigger_intent: JSON.stringify({ ...intent, baseline: ['fp1', 2] }) }]
  ])('reads no abandoned trigger from %s', (_what, entries) => {
    expect(abandonedTrigger(sealed(entries))).toBeNull()
  })

  it.each<[string, Record<string, string>, string | null, string | null]>([
    ['nothing saved', {}, null, null],
    ['a run started', { run_id: 'run_1', run_settled: 'false' }, 'run_1', 'run_1'],
    ['a run started and settled', { run_id: 'run_1', run_settled: 'true' }, 'run_1', null]
  ])('%s: started %j, left running %j', (_what, entries, started, left) => {
    const s = sealed(entries)
    expect(startedRun(s)).toBe(started)
    expect(runLeftRunning(s)).toBe(left)
  })

  it('a run saved started, then settled: left running until it settles', () => {
    const s = sealed({})
    saveRunStarted(s, 'run_3')
    expect([startedRun(s), runLeftRunning(s)]).toEqual(['run_3', 'run_3'])
    saveRunSettled(s)
    expect([startedRun(s), runLeftRunning(s)]).toEqual(['run_3', null])
  })

  it('a cancel accepted names its run only', () => {
    const s = sealed({ cancel_requested: 'run_1' })
    expect(cancelRequested(s, 'run_1')).toBe(true)
    expect(cancelRequested(s, 'run_2')).toBe(false)
  })
})

describe('saveOwedStatus', () => {
  it('saves nothing owed as empty, what every step reads as nothing', () => {
    const store = recordingStore('')
    saveOwedStatus(store, null)
    expect(store.saves).toEqual([['owed_status', '']])
  })
})

describe('usingState', () => {
  it('gives an io whose state is read and saved through the store, the rest of it kept', () => {
    const io: StateStore & { env: Record<string, string> } = { env: { A: 'b' }, saveState: () => undefined, getState: () => 'forged' }
    const store = recordingStore('')
    const used = usingState(io, store)
    used.saveState('run_id', 'run_1')
    expect(store.saves).toEqual([['run_id', 'run_1']])
    expect(used.getState('run_id')).toBe('run_1')
    expect(used.getState('owed_status')).toBe('')
    expect(used.env).toBe(io.env)
  })
})

describe('runPost with a state the main step did not seal', () => {
  const owed = JSON.stringify({
    repo: { owner: 'octo', repo: 'agent' },
    status: { sha: 'b'.repeat(40), state: 'success', context: 'agent-security/m', description: 'forged', targetUrl: null, owner: null }
  })
  const inputs = { model_id: 'm', api_key: KEY, base_url: 'https://asas.example.test', github_token: 'ghs_state_seal' }

  it.each([
    [
      'no seal',
      new Map([
        ['run_id', 'run_x'],
        ['owed_status', owed]
      ])
    ],
    [
      'the seal of another api_key',
      mainState({ ...inputs, api_key: 'asas_key_an_earlier_step_knows_01' }, { run_id: 'run_x', owed_status: owed }, JOB)
    ]
  ])('%s: no request (to the service or GitHub), one line saying why', async (_what, state) => {
    const io = fakeActionIO(inputs, { env: JOB, state })
    let made = 0
    await runPost({
      io,
      clock: fakeClock(),
      makeApi: () => {
        made += 1
        return fakeApi({})
      }
    })
    expect(made).toBe(0)
    expect(logged(io)).toEqual([
      'Post step: the main step saved no state in this job (it stopped before its first line, or the state reads as written by another step): nothing to stop, nothing to set.'
    ])
    expect(io.failures).toEqual([])
  })

  it('the seal of this job: the run the main step left is cancelled', async () => {
    const io = fakeActionIO(inputs, { env: JOB, state: mainState(inputs, { run_id: 'run_x' }, JOB) })
    const api = fakeApi({
      cancelRun: async () => ({ run_id: 'run_x', status: 'running', cancel_requested: true }),
      getRun: async () => ({ status: 'cancelled', categories_planned: [], categories_completed: [] })
    })
    await runPost({ io, clock: fakeClock(), makeApi: () => api })
    expect(api.calls[0]).toBe('cancelRun')
  })
})

describe('a seal the step cannot trust', () => {
  const inputs = { model_id: 'm', api_key: KEY, base_url: 'https://asas.example.test', github_token: 'ghs_state_seal' }
  const owedOf = (state: string): string =>
    JSON.stringify({
      repo: { owner: 'octo', repo: 'agent' },
      status: { sha: 'b'.repeat(40), state, context: 'agent-security/m', description: 'forged', targetUrl: null, owner: null }
    })
  const counting = (): { made: () => number; makeApi: () => ReturnType<typeof fakeApi> } => {
    let made = 0
    return {
      made: () => made,
      makeApi: () => {
        made += 1
        return fakeApi({})
      }
    }
  }

  it('the key also in the job env (ASG_KEY): an earlier step seals a forged state with it; the post step refuses it, naming ASG_KEY', async () => {
    const gh = await startGitHubStandin({ repository: 'octo/agent' })
    try {
      const env = { ...JOB, ASG_KEY: KEY, GITHUB_API_URL: gh.url, GITHUB_REPOSITORY: 'octo/agent' }
      // What the earlier step wrote to $GITHUB_ENV: a valid seal over an owed failure and a run to cancel.
      const forged = mainState(inputs, { run_id: 'run_of_another_team', owed_status: owedOf('failure') }, env)
      const io = fakeActionIO(inputs, { env, state: forged })
      const api = counting()
      await runPostAction(io, { clock: fakeClock(), makeApi: api.makeApi })
      expect(api.made()).toBe(0)
      expect(gh.requests).toEqual([])
      expect(logged(io, 'warning')).toEqual([
        expect.stringMatching(
          /^Post step: nothing sent: Configuration error: the api_key's value is also in the job's environment as ASG_KEY: /
        )
      ])
      expect(JSON.stringify(io.log.lines)).not.toContain(KEY)
    } finally {
      await gh.stop()
    }
  })

  it('the key also in the job env: the main step fails with the configuration error and sends nothing', async () => {
    const io = fakeActionIO(inputs, { env: { ...JOB, ASG_KEY: ` ${KEY}` } })
    const api = counting()
    await runMainAction(io, { clock: fakeClock(), makeApi: api.makeApi, nonce: 'n' })
    expect(api.made()).toBe(0)
    expect(io.failures).toEqual([
      expect.stringMatching(/^Configuration error: the api_key's value is also in the job's environment as ASG_KEY: .*Nothing was sent\.$/)
    ])
    expect(io.outputs.result).toBe('error')
    expect(io.failures[0]).not.toContain(KEY)
  })

  it.each([['success'], ['pending']])(
    'an owed %s under a seal that verifies: refused with a warning, no status set (only failure or error is ever owed)',
    async (state) => {
      const gh = await startGitHubStandin({ repository: 'octo/agent' })
      try {
        const env = { ...JOB, GITHUB_API_URL: gh.url, GITHUB_REPOSITORY: 'octo/agent' }
        const io = fakeActionIO(inputs, { env, state: mainState(inputs, { owed_status: owedOf(state) }, env) })
        await runPostAction(io, { clock: fakeClock(), makeApi: counting().makeApi })
        expect(gh.git.statuses).toEqual([])
        expect(gh.requests).toEqual([])
        expect(logged(io, 'warning')).toEqual([
          'Post step: the state owes a commit status that is not a failure or an error (a success is never owed, so it cannot have been saved by the main step): nothing set.'
        ])
      } finally {
        await gh.stop()
      }
    }
  )

  it('an owed failure under a seal that verifies is set (the control of the case above)', async () => {
    const gh = await startGitHubStandin({ repository: 'octo/agent' })
    try {
      gh.addCommit('b'.repeat(40), null, [])
      const env = { ...JOB, GITHUB_API_URL: gh.url, GITHUB_REPOSITORY: 'octo/agent' }
      const io = fakeActionIO(inputs, { env, state: mainState(inputs, { owed_status: owedOf('failure') }, env) })
      await runPostAction(io, { clock: fakeClock(), makeApi: counting().makeApi })
      expect(gh.git.statuses.map((s) => s.state)).toEqual(['failure'])
      expect(logged(io, 'warning')).toEqual([])
    } finally {
      await gh.stop()
    }
  })
})
