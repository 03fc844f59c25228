import * as yaml from 'yaml'
import { describe, expect, it } from '@jest/globals'
import { parseProfileFile } from '../../src/profile/profile-file.js'
import { MAX_SYNC_ATTEMPTS, syncProfile } from '../../src/profile/sync-profile.js'
import type { ChangeProfileBody, ConfirmProfileBody, ProfileResponse } from '../../src/service/contract/index.js'
import { Deadline } from '../../src/util/clock.js'
import { ConfigError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'

const file = parseProfileFile(yaml, 'p.yml', 'purpose: Support\nforbidden_topics: [a]\nconfirm:\n  answers: [industry]\n')
const read = (version: number): ProfileResponse => ({
  model_id: 'm',
  profile_id: 'prf_1',
  name: '[UNTRUSTED:t]n[/UNTRUSTED:t]',
  version,
  safety_notice: '',
  answers: {
    purpose: { value: '[UNTRUSTED:t]Old[/UNTRUSTED:t]', source: 'discovered' },
    industry: { value: '[UNTRUSTED:t]retail[/UNTRUSTED:t]', source: 'discovered' }
  },
  lists: { forbidden_topics: [{ value: '[UNTRUSTED:t]a[/UNTRUSTED:t]', source: 'discovered' }] },
  dismissals: []
})
const http = (status: number, code?: string, extra: Record<string, unknown> = {}) =>
  new ServiceError({ endpoint: 'X', status, code, message: `HTTP ${status}`, extra })

function deps(api: ReturnType<typeof fakeApi>) {
  const clock = fakeClock()
  return { api, clock, deadline: Deadline.after(clock, 60_000), log: recordingLog() }
}

describe('syncProfile', () => {
  it('changes only what differs, with the version just read, then confirms with the version the change answered', async () => {
    const changes: ChangeProfileBody[] = []
    const confirms: ConfirmProfileBody[] = []
    const api = fakeApi({
      getProfile: async () => read(4),
      changeProfile: async (_m, body) => {
        changes.push(body)
        return { model_id: 'm', profile_id: 'prf_1', version: 5 }
      },
      confirmProfile: async (_m, body) => {
        confirms.push(body)
        return { model_id: 'm', profile_id: 'prf_1', version: 6 }
      }
    })
    const r = await syncProfile(deps(api), 'm', 'p.yml', file)
    expect(changes).toEqual([{ changes: { purpose: 'Support' }, version: 4, profile_id: 'prf_1' }])
    expect(confirms).toEqual([{ version: 5, profile_id: 'prf_1', answers: ['industry'], items: {} }])
    expect(r).toEqual({
      created: false,
      changed: ['purpose changed'],
      confirmed: { answers: ['industry'], items: {} },
      version: 6,
      profileId: 'prf_1',
      attempts: 1
    })
  })

  it('creates a missing profile (404) without version and profile_id', async () => {
    const changes: ChangeProfileBody[] = []
    const api = fakeApi({
      getProfile: async () => {
        throw http(404, 'not_found')
      },
      changeProfile: async (_m, body) => {
        changes.push(body)
        return { model_id: 'm', profile_id: 'prf_2', version: 1 }
      },
      confirmProfile: async () => ({ model_id: 'm', profile_id: 'prf_2', version: 2 })
    })
    const r = await syncProfile(deps(api), 'm', 'p.yml', file)
    expect(changes).toEqual([{ changes: { purpose: 'Support', forbidden_topics: ['a'] } }])
    expect(r.created).toBe(true)
  })

  it(`gives up after ${MAX_SYNC_ATTEMPTS} stale versions in a row, reading again before each attempt`, async () => {
    let version = 1
    const api = fakeApi({
      getProfile: async () => read(version++),
      changeProfile: async () => {
        throw http(409, 'stale_version')
      }
    })
    const err = await syncProfile(deps(api), 'm', 'p.yml', file).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ServiceError)
    expect((err as ServiceError).describe()).toMatch(/kept changing under 3 read-diff-write attempts.*re-run/)
    expect(api.calls).toEqual(['getProfile', 'changeProfile', 'getProfile', 'changeProfile', 'getProfile', 'changeProfile'])
  })

  it('names the field of a refused change, in the file', async () => {
    const api = fakeApi({
      getProfile: async () => read(1),
      changeProfile: async () => {
        throw http(422, 'validation_error', { issues: [{ loc: ['body', 'changes', 'purpose'], msg: 'too long', type: 'too_long' }] })
      }
    })
    const err = await syncProfile(deps(api), 'm', 'p.yml', file).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).message).toBe('p.yml: field purpose: the service refused the change: too long')
  })

  it('says the key must read the profile when the read is forbidden', async () => {
    const api = fakeApi({
      getProfile: async () => {
        throw http(403, 'insufficient_scope')
      }
    })
    const err = (await syncProfile(deps(api), 'm', 'p.yml', file).catch((e: unknown) => e)) as ServiceError
    expect(err.describe()).toMatch(/must be allowed to read the profile/)
  })
})
