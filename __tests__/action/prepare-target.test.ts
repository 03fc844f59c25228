import { describe, expect, it } from '@jest/globals'
import { configDigest, targetNameWithDigest, type TargetConfigParts } from '../../src/target/naming.js'
import { agentOf } from '../../src/action/stages/plan-event.js'

/** The registered name of `config` under `name` (what agentIdentity gives as targetName). */
const configuredTargetName = (name: string, config: TargetConfigParts): string => targetNameWithDigest(name, configDigest(config))
import { prepareTarget, setupRequestTimeoutMs, type DeploymentContext } from '../../src/action/prepare-target.js'
import { envInputReader, readInputs } from '../../src/action/inputs/read-inputs.js'
import { runMain } from '../../src/action/main.js'
import type { ActionIO } from '../../src/action/io.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import { ConfigError, ServiceError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeModel } from '../__fixtures__/builders.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { checkoutWith } from '../__fixtures__/workspace.js'
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function fakeIO(env: Record<string, string>): ActionIO & { events: string[]; log: ReturnType<typeof recordingLog> } {
  const events: string[] = []
  const log = recordingLog()
  return {
    env,
    log,
    events,
    setSecret: (v) => events.push(`secret ${v}`),
    setOutput: (n, v) => events.push(`output ${n}=${v}`),
    saveState: () => undefined,
    getState: () => '',
    annotate: () => undefined,
    appendSummary: async () => undefined,
    setFailed: (m) => events.push(`failed ${m}`)
  }
}

/** The event file of a run: its payload names the default branch, as GitHub's do. */
function eventFile(payload: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'asas-event-')), 'event.json')
  writeFileSync(path, JSON.stringify(payload))
  return path
}
const ON_MAIN = eventFile({ repository: { full_name: 'octo/app', default_branch: 'main' } })

/** A push to the default branch: the one standing that may sync a shared target's profile. */
const base = {
  INPUT_API_KEY: 'asas_dev_full',
  INPUT_BASE_URL: 'https://asas.example.com',
  GITHUB_EVENT_NAME: 'push',
  GITHUB_EVENT_PATH: ON_MAIN,
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_REF_NAME: 'main'
}

async function prepare(env: Record<string, string>, api: ServiceApi, deployment: DeploymentContext | null = null) {
  const io = fakeIO(env)
  const inputs = readInputs(envInputReader(env))
  const result = await prepareTarget(
    { io, clock: fakeClock(), signal: new AbortController().signal, makeApi: () => api },
    inputs,
    agentOf(inputs, env, { prNumber: deployment?.prNumber ?? null, ref: deployment?.ref ?? null }),
    deployment
  ).catch((e: unknown) => e)
  return { io, result }
}

describe('prepareTarget', () => {
  it('calls nothing for a model_id without a profile file', async () => {
    const api = fakeApi({})
    const { result } = await prepare({ ...base, INPUT_MODEL_ID: 'm1' }, api)
    expect(result).toMatchObject({ target: { modelId: 'm1', outcome: 'given' }, report: { target: null, profileSync: null } })
    expect(api.calls).toEqual([])
  })

  it.each([
    ['../outside.yml', /outside the repository/],
    ['missing.yml', /no such file in the repository \(is actions\/checkout run before this step\?\)/],
    ['bad.yml', /bad\.yml: field purpos: |unknown field 'purpos'/]
  ])('refuses profile_file %s before any request', async (path, message) => {
    const api = fakeApi({})
    const ws = checkoutWith({ 'bad.yml': 'purpos: x\n' })
    const { result } = await prepare({ ...base, GITHUB_WORKSPACE: ws, INPUT_MODEL_ID: 'm1', INPUT_PROFILE_FILE: path }, api)
    expect(result).toBeInstanceOf(ConfigError)
    expect((result as ConfigError).input).toBe('profile_file')
    expect((result as ConfigError).message).toMatch(message)
    expect(api.calls).toEqual([])
  })

  it('never sends a file a symlink in the checkout leads to outside it', async () => {
    const secretDir = mkdtempSync(join(tmpdir(), 'asas-secret-'))
    writeFileSync(join(secretDir, 'runner-secret.yml'), 'purpose: a file of the runner\n')
    const ws = checkoutWith({})
    symlinkSync(join(secretDir, 'runner-secret.yml'), join(ws, 'p.yml'))
    const api = fakeApi({})
    const { result } = await prepare({ ...base, GITHUB_WORKSPACE: ws, INPUT_MODEL_ID: 'm1', INPUT_PROFILE_FILE: 'p.yml' }, api)
    expect(result).toBeInstanceOf(ConfigError)
    expect((result as ConfigError).input).toBe('profile_file')
    expect((result as ConfigError).message).toMatch(/^'p\.yml' leads \(through a symbolic link\) outside the repository/)
    expect(api.calls).toEqual([])
  })

  it.each([
    ['true', 'fails the step'],
    ['false', 'warns and assesses the profile the service holds']
  ])('a failed sync with fail_on_profile_error %s %s', async (flag) => {
    const api = fakeApi({
      getProfile: async () => {
        throw new ServiceError({ endpoint: 'GET /api/v1/model/m1/profile', status: 503, message: 'unavailable', transient: true })
      }
    })
    const ws = checkoutWith({ 'p.yml': 'purpose: x\n' })
    const { io, result } = await prepare(
      { ...base, GITHUB_WORKSPACE: ws, INPUT_MODEL_ID: 'm1', INPUT_PROFILE_FILE: 'p.yml', INPUT_FAIL_ON_PROFILE_ERROR: flag },
      api
    )
    if (flag === 'true') {
      expect(result).toBeInstanceOf(ServiceError)
    } else {
      expect(result).toMatchObject({
        report: { profileSync: { status: 'failed', version: null, error: expect.stringMatching(/HTTP 503/) } }
      })
      expect(io.log.lines.some((l) => l.level === 'warning' && l.line.includes('fail_on_profile_error is false'))).toBe(true)
    }
  })

  it.each([
    ['issue_comment', ON_MAIN],
    ['workflow_run', ON_MAIN],
    ['pull_request_target', eventFile({ number: 7, pull_request: { number: 7 }, repository: { default_branch: 'main' } })],
    ['push', eventFile({ repository: { default_branch: 'trunk' } })]
  ])(
    "never syncs a shared target's profile from %s: only the default branch on push, schedule or workflow_dispatch may",
    async (eventName, eventPath) => {
      const api = fakeApi({})
      const ws = checkoutWith({ 'p.yml': 'purpose: written by a pull request\n' })
      const { result } = await prepare(
        {
          ...base,
          GITHUB_EVENT_NAME: eventName,
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_WORKSPACE: ws,
          INPUT_MODEL_ID: 'm1',
          INPUT_PROFILE_FILE: 'p.yml'
        },
        api
      )
      expect(result).toBeInstanceOf(ConfigError)
      expect((result as ConfigError).input).toBe('allow_shared_profile_sync')
      expect((result as ConfigError).message).toMatch(/only from the default branch on push, schedule or workflow_dispatch/)
      expect(api.calls).toEqual([])
    }
  )

  it("syncs a shared target's profile from a push to the default branch", async () => {
    const api = fakeApi({
      getProfile: async () => {
        throw new ServiceError({ endpoint: 'GET /api/v1/model/m1/profile', status: 404, message: 'no profile' })
      },
      changeProfile: async () => ({ model_id: 'm1', profile_id: 'p1', version: 1 })
    })
    const ws = checkoutWith({ 'p.yml': 'purpose: x\n' })
    const { result } = await prepare({ ...base, GITHUB_WORKSPACE: ws, INPUT_MODEL_ID: 'm1', INPUT_PROFILE_FILE: 'p.yml' }, api)
    expect(result).toMatchObject({ report: { profileSync: { status: 'synced', created: true, version: 1 } } })
    expect(api.calls).toEqual(['getProfile', 'changeProfile'])
  })

  /** The configuration the deployment below registers (see configuredTargetName). */
  const DEPLOYED = {
    endpointUrl: 'https://app-git-feat.vercel.app/api/chat',
    responseField: 'output.text',
    transport: 'http',
    authType: 'none',
    requestTimeout: null,
    oauth: null
  }
  it.each([
    [{ prNumber: 7, ref: 'feat' }, 'app-pr-7', 'synced'],
    [{ prNumber: null, ref: 'feat' }, 'app-feat', 'refused']
  ])(
    "a deployment of a pull request's commit (%j) names its preview and syncs only that pull request's own: %s %s",
    async (deployment, name, outcome) => {
      const api = fakeApi({
        listModels: async () => ({
          models: [makeModel({ model_id: 'm7', name: configuredTargetName(name, DEPLOYED), endpoint_host: 'app-git-feat.vercel.app' })]
        }),
        getProfile: async () => {
          throw new ServiceError({ endpoint: 'GET /api/v1/model/m7/profile', status: 404, message: 'no profile' })
        },
        changeProfile: async () => ({ model_id: 'm7', profile_id: 'p1', version: 1 })
      })
      const { result } = await prepare(
        {
          ...base,
          GITHUB_EVENT_NAME: 'deployment_status',
          GITHUB_REF: 'refs/heads/feat',
          GITHUB_WORKSPACE: checkoutWith({ 'p.yml': 'purpose: x\n' }),
          INPUT_ENDPOINT_URL: 'https://app-git-feat.vercel.app/api/chat',
          INPUT_RESPONSE_FIELD: 'output.text',
          INPUT_PROFILE_FILE: 'p.yml'
        },
        api,
        deployment
      )
      if (outcome === 'synced') {
        expect(result).toMatchObject({
          target: { modelId: 'm7', name: configuredTargetName('app-pr-7', DEPLOYED) },
          report: { profileSync: { status: 'synced' } }
        })
      } else {
        expect(result).toBeInstanceOf(ConfigError)
        expect((result as ConfigError).input).toBe('allow_shared_profile_sync')
      }
    }
  )

  it('does not sync in validate mode', async () => {
    const api = fakeApi({})
    const { io, result } = await prepare({ ...base, INPUT_MODE: 'validate', INPUT_MODEL_ID: 'm1', INPUT_PROFILE_FILE: 'p.yml' }, api)
    expect(result).toMatchObject({ target: { modelId: 'm1' } })
    expect(io.log.lines.some((l) => l.line.includes('gate mode only'))).toBe(true)
    expect(api.calls).toEqual([])
  })

  it('gives the setup calls time for the live probe', () => {
    const inputs = (extra: Record<string, string>) =>
      readInputs(envInputReader({ ...base, INPUT_ENDPOINT_URL: 'https://x.example.com/chat', INPUT_RESPONSE_FIELD: 'r', ...extra }))
    expect(setupRequestTimeoutMs(inputs({}))).toBe(60_000)
    expect(setupRequestTimeoutMs(inputs({ INPUT_REQUEST_TIMEOUT: '180' }))).toBe(210_000)
  })
})

describe('runMain', () => {
  it('masks the target credential before anything else, even when an input is wrong', async () => {
    const io = fakeIO({
      ...base,
      INPUT_MODEL_ID: 'm1',
      INPUT_ENDPOINT_URL: 'https://x.example.com',
      INPUT_TARGET_CREDENTIAL: 'tgt-secret-123'
    })
    await runMain({ io, clock: fakeClock(), signal: new AbortController().signal, makeApi: () => fakeApi({}) })
    const masked = io.events.findIndex((e) => !e.startsWith('secret '))
    expect(io.events[0]).toBe('secret asas_dev_full')
    expect(io.events.slice(0, masked)).toContain('secret tgt-secret-123')
    expect(io.events.at(-1)).toMatch(/^failed Configuration error in input 'model_id': is set together with endpoint_url/)
    expect(io.events.filter((e) => !e.startsWith('secret')).join('\n')).not.toContain('tgt-secret-123')
  })
})
