import { describe, expect, it } from '@jest/globals'
import { registrationBody, resolveTarget } from '../../src/target/resolve-target.js'
import { configDigest, targetNameWithDigest, type TargetConfigParts } from '../../src/target/naming.js'

/** The registered name of `config` under `name` (what agentIdentity gives as targetName). */
const configuredTargetName = (name: string, config: TargetConfigParts): string => targetNameWithDigest(name, configDigest(config))
import type { EndpointTarget } from '../../src/target/target-spec.js'
import type { ModelListItem, RegisterModelBody } from '../../src/service/contract/index.js'
import { Deadline } from '../../src/util/clock.js'
import { ConfigError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { modelItem } from '../__fixtures__/service-bodies.js'

const endpoint: EndpointTarget = {
  endpointUrl: 'https://pr-7.example.com/chat',
  name: null,
  environment: null,
  authType: 'none',
  credential: null,
  oauth: null,
  responseField: 'output.text',
  transport: 'http',
  requestTimeout: null
}
/** The name the fixture's endpoint is registered under: the configured name and the digest of its configuration. */
const APP = configuredTargetName('app-pr-7', endpoint)
const model = (model_id: string, name = APP, endpoint_host = 'pr-7.example.com'): ModelListItem => modelItem(model_id, name, endpoint_host)
const lost = () => new ServiceError({ endpoint: 'POST /api/v1/model', message: 'socket hang up', ambiguous: true, transient: true })

function deps(api: ReturnType<typeof fakeApi>) {
  const clock = fakeClock()
  return { api, clock, deadline: Deadline.after(clock, 60_000), log: recordingLog() }
}

describe('resolveTarget', () => {
  it('registers anew when the path changed at the same host: GET /model shows the host only, so the old path is never assessed', async () => {
    const moved = { ...endpoint, endpointUrl: 'https://pr-7.example.com/c2/api/chat' }
    let sent: RegisterModelBody | undefined
    const api = fakeApi({
      listModels: async () => ({ models: [model('m_c1')] }),
      registerModel: async (body) => {
        sent = body
        return { model_id: 'm_c2', connected: true }
      }
    })
    const r = await resolveTarget(deps(api), { kind: 'endpoint', endpoint: moved }, configuredTargetName('app-pr-7', moved))
    expect(r).toMatchObject({ modelId: 'm_c2', outcome: 'registered' })
    expect(sent?.config.endpoint_url).toBe('https://pr-7.example.com/c2/api/chat')
    expect(configuredTargetName('app-pr-7', moved)).not.toBe(APP)
    // Secrets stay out of the name: another credential or query value is the same target.
    const rotated: EndpointTarget = { ...endpoint, authType: 'bearer', credential: 'one-secret' }
    const other: EndpointTarget = { ...rotated, credential: 'other-secret' }
    expect(configuredTargetName('app-pr-7', other)).toBe(configuredTargetName('app-pr-7', rotated))
    const withQuery = (v: string) =>
      configuredTargetName('app-pr-7', { ...endpoint, endpointUrl: `${endpoint.endpointUrl}?x-vercel-protection-bypass=${v}` })
    expect(withQuery('aaaaaaaa')).toBe(withQuery('bbbbbbbb'))
    expect(withQuery('aaaaaaaa')).not.toContain('aaaaaaaa')
  })
  it('takes a model_id as given, with no call', async () => {
    const api = fakeApi({})
    expect(await resolveTarget(deps(api), { kind: 'model', modelId: 'm1' }, APP)).toMatchObject({ modelId: 'm1', outcome: 'given' })
    expect(api.calls).toEqual([])
  })

  it('recovers a lost registration from the list, registering once', async () => {
    const lists = [[model('m0', 'other')], [model('m0', 'other')], [model('m0', 'other'), model('m9')]]
    const api = fakeApi({
      listModels: async () => ({ models: lists.shift()! }),
      registerModel: async () => {
        throw lost()
      }
    })
    const d = deps(api)
    expect(await resolveTarget(d, { kind: 'endpoint', endpoint }, APP)).toMatchObject({ modelId: 'm9', outcome: 'registered' })
    expect(api.calls).toEqual(['listModels', 'registerModel', 'listModels', 'listModels'])
    expect(d.clock.sleeps).toEqual([1000, 2000])
  })

  it('fails without registering twice when the lost registration never shows', async () => {
    const api = fakeApi({
      listModels: async () => ({ models: [] }),
      registerModel: async () => {
        throw lost()
      }
    })
    const d = deps(api)
    const err = await resolveTarget(d, { kind: 'endpoint', endpoint }, APP).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ServiceError)
    expect((err as ServiceError).describe()).toMatch(/no model 'app-pr-7 cfg-[0-9a-f]{8}' appeared.*Not registering again/)
    expect(api.calls.filter((c) => c === 'registerModel')).toHaveLength(1)
    expect(d.clock.sleeps).toEqual([1000, 2000, 4000])
  })

  it('explains a probe failure without listing again', async () => {
    const api = fakeApi({
      listModels: async () => ({ models: [] }),
      registerModel: async () => {
        throw new ServiceError({
          endpoint: 'POST /api/v1/model',
          status: 422,
          code: 'probe_failed',
          message: 'probe failed',
          extra: { error_category: 'no_reply' }
        })
      }
    })
    const err = await resolveTarget(deps(api), { kind: 'endpoint', endpoint }, APP).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('response_field')
    expect(api.calls).toEqual(['listModels', 'registerModel'])
  })

  it('registers under the moved name when the model of that name is at another host', async () => {
    let sent: RegisterModelBody | null = null
    const api = fakeApi({
      listModels: async () => ({ models: [model('m1', APP, 'old.example.com')] }),
      registerModel: async (body) => {
        sent = body
        return { model_id: 'm2', connected: true }
      }
    })
    const d = deps(api)
    const r = await resolveTarget(d, { kind: 'endpoint', endpoint }, APP)
    expect(r).toMatchObject({
      modelId: 'm2',
      outcome: 'registered',
      name: `${APP} (moved to pr-7.example.com)`,
      movedFrom: { modelId: 'm1', endpointHost: 'old.example.com' }
    })
    expect(sent!.name).toBe(`${APP} (moved to pr-7.example.com)`)
    expect(d.log.lines.some((l) => l.level === 'warning' && l.line.includes('the agent moved'))).toBe(true)
  })
})

describe('registrationBody', () => {
  it.each([
    [
      endpoint,
      { name: 'n', config: { endpoint_url: endpoint.endpointUrl, response_field: 'output.text', transport: 'http' }, auth_type: 'none' }
    ],
    [
      {
        ...endpoint,
        environment: 'dev' as const,
        authType: 'oauth_client_credentials' as const,
        credential: 'secret',
        oauth: { token_url: 'https://t', client_id: 'c' },
        requestTimeout: 60
      },
      {
        name: 'n',
        config: { endpoint_url: endpoint.endpointUrl, response_field: 'output.text', transport: 'http', request_timeout: 60 },
        environment: 'dev',
        auth_type: 'oauth_client_credentials',
        credential: 'secret',
        oauth: { token_url: 'https://t', client_id: 'c' }
      }
    ]
  ])('%#', (e, body) => {
    expect(registrationBody(e, 'n')).toEqual(body)
  })
})
