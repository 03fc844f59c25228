import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import {
  envInputReader,
  INPUT_DEFAULTS,
  parseBaseUrl,
  parseCategories,
  queryValues,
  readInputs
} from '../../src/action/inputs/read-inputs.js'
import { readPipelineEvent } from '../../src/pipeline/event.js'
import { ConfigError } from '../../src/util/errors.js'

const valid: Record<string, string> = {
  model_id: 'mdl_1',
  api_key: 'asas_dev_full',
  base_url: 'https://asas.example.com'
}
const reader = (values: Record<string, string>) => (name: string) => values[name] ?? ''

function configErrorOf(values: Record<string, string>): ConfigError {
  try {
    readInputs(reader(values))
  } catch (e) {
    if (e instanceof ConfigError) return e
    throw e
  }
  throw new Error('expected a ConfigError')
}

describe('readInputs', () => {
  it('applies the defaults', () => {
    expect(readInputs(reader(valid))).toEqual({
      mode: 'gate',
      modelId: 'mdl_1',
      target: { kind: 'model', modelId: 'mdl_1' },
      profile: null,
      minSeverity: 'high',
      categories: [],
      apiKey: 'asas_dev_full',
      baseUrl: 'https://asas.example.com',
      failOnIncomplete: true,
      timeoutMs: 3_600_000,
      githubToken: '',
      comment: 'update',
      issue: 'off',
      maxRuns: 20,
      failOn: 'any',
      baselineRunId: '',
      evidenceRuns: 5,
      evidenceMaxAgeDays: 30,
      confidence: 0.95,
      confirmationRunsMax: 30,
      runsPerChange: 1,
      acceptedRisksFile: '.github/agent-security-accepted.yml',
      syncDismissals: false,
      sarifMinSeverity: 'low',
      sarifLocation: '',
      agentPaths: [],
      mergeGroup: 'carry_over',
      commitStatus: 'auto',
      endpointPath: '',
      allowOutsideCodeSecrets: false,
      wait: 'attached'
    })
  })

  it.each([
    [{ fail_on: 'new' }, { failOn: 'new' }],
    [{ fail_on: 'NEW' }, { failOn: 'new' }],
    [{ accepted_risks_file: 'off' }, { acceptedRisksFile: '' }],
    [{ accepted_risks_file: './sec/accepted.yml' }, { acceptedRisksFile: 'sec/accepted.yml' }],
    [{ baseline_run_id: 'run_123' }, { baselineRunId: 'run_123' }],
    [{ sync_dismissals: 'true' }, { syncDismissals: true }],
    [
      { sarif_min_severity: 'high', sarif_location: 'agent/profile.yml' },
      { sarifMinSeverity: 'high', sarifLocation: 'agent/profile.yml' }
    ],
    [{ sarif_location: './agent profiles/support bot.yml' }, { sarifLocation: 'agent profiles/support bot.yml' }],
    [{ sarif_location: '.github/workflows/a@b.yml' }, { sarifLocation: '.github/workflows/a@b.yml' }],
    [{ sarif_location: 'docs/..notes/x..y.md' }, { sarifLocation: 'docs/..notes/x..y.md' }]
  ])('reads the baseline and report inputs %j', (raw, expected) => {
    expect(readInputs(reader({ ...valid, ...raw }))).toMatchObject(expected)
  })

  it.each([
    ['fail_on', { fail_on: 'known' }, /not one of any, new/],
    ['baseline_run_id', { baseline_run_id: 'a/b' }, /not a run id/],
    ['accepted_risks_file', { accepted_risks_file: '../outside.yml' }, /inside the repository/],
    ['accepted_risks_file', { accepted_risks_file: '/etc/passwd' }, /inside the repository/],
    ['sarif_location', { sarif_location: 'a/../../b' }, /inside the repository/],
    ...[
      '../outside.yml',
      '/etc/passwd',
      './/etc/passwd',
      'file:///etc/passwd',
      'https://evil.example/x.yml',
      'C:/Windows/win.ini',
      'a\\..\\..\\b',
      '\\\\server\\share\\x.yml',
      '%2e%2e/outside.yml',
      'a/%2E%2E%2Fb',
      '%252e%252e/x',
      'a/\uFF0E\uFF0E/\uFF0E\uFF0E/b',
      '\uFF0Fetc/passwd',
      'a\u0000b'
    ].map((sarif_location) => ['sarif_location', { sarif_location }, /sarif_location|inside the repository/] as const),
    ['sarif_min_severity', { sarif_min_severity: 'severe' }, /not one of/],
    ['sync_dismissals', { sync_dismissals: 'yes' }, /not a boolean/],
    ['allow_outside_code_secrets', { allow_outside_code_secrets: 'forks' }, /not a boolean/],
    ['model_id', { model_id: '' }, /required/],
    ['model_id', { model_id: 'a/b' }, /not a model id/],
    ['api_key', { api_key: '' }, /forks/],
    ['api_key', { api_key: 'k' }, /is shorter than 5 characters: not a service key/],
    ['api_key', { api_key: 'asas' }, /is shorter than 5 characters/],
    ['api_key', { api_key: 'asas_kéy_0123' }, /non-ASCII character: a service key is visible ASCII only/],
    ['api_key', { api_key: 'asas key 0123' }, /a space/],
    ['api_key', { api_key: 'asas_key\u00a0123' }, /visible ASCII only/],
    ['base_url', { base_url: '' }, /required/],
    ['base_url', { base_url: 'not a url' }, /not a URL/],
    ['base_url', { base_url: 'http://asas.example.com' }, /loopback/],
    ['base_url', { base_url: 'ftp://asas.example.com' }, /scheme/],
    ['base_url', { base_url: 'https://u:p@asas.example.com' }, /credentials/],
    ['base_url', { base_url: 'https://asas.example.com/?x=1' }, /query/],
    [
      'base_url',
      { base_url: 'https://asas.example.com/api/v1/run' },
      /goes past \/api\/v1: give only the part before it, e.g. https:\/\/asas.example.com/
    ],
    ['min_severity', { min_severity: 'urgent' }, /critical, high, medium, low/],
    ['timeout_minutes', { timeout_minutes: '0' }, /greater than 0/],
    ['timeout_minutes', { timeout_minutes: '-5' }, /positive number/],
    ['timeout_minutes', { timeout_minutes: 'soon' }, /positive number/],
    ['timeout_minutes', { timeout_minutes: '1e3' }, /positive number/],
    ['timeout_minutes', { timeout_minutes: '1000' }, /at most 360/],
    ['timeout_minutes', { timeout_minutes: '0.0000001' }, /at least 1 second/],
    ['fail_on_incomplete', { fail_on_incomplete: 'yes' }, /true or false/],
    ['comment', { comment: 'sometimes' }, /update, new, off/],
    ['mode', { mode: 'scan' }, /gate, validate/],
    ['issue', { issue: 'create' }, /off, update/],
    ['max_runs', { max_runs: '0' }, /1 to 100/],
    ['max_runs', { max_runs: '2.5' }, /1 to 100/],
    ['evidence_runs', { evidence_runs: '0' }, /1 to 20/],
    ['evidence_runs', { evidence_runs: '21' }, /1 to 20/],
    ['evidence_max_age_days', { evidence_max_age_days: 'a month' }, /1 to 365/],
    ['confidence', { confidence: '95%' }, /from 0.5 to 0.999/],
    ['confidence', { confidence: '0.4' }, /from 0.5 to 0.999/],
    ['confidence', { confidence: '1' }, /from 0.5 to 0.999/],
    ['confirmation_runs_max', { confirmation_runs_max: '51' }, /0 to 50/],
    ['confirmation_runs_max', { confirmation_runs_max: '-1' }, /0 to 50/],
    ['categories', { categories: 'prompt_injection, bad key!' }, /not a category key/],
    ['categories', { categories: 'prompt_injection;jailbreak' }, /separate keys with commas or newlines/]
  ])('rejects a bad %s with one line naming it', (input, patch, message) => {
    const err = configErrorOf({ ...valid, ...patch })
    expect(err.input).toBe(input)
    expect(err.message).toMatch(message)
    expect(err.message).not.toMatch(/\n/)
  })

  it.each([
    ['0.99', '0', 0.99, 0],
    ['.9', '50', 0.9, 50],
    ['0.999', '', 0.999, 30]
  ])('takes confidence %s and confirmation_runs_max %s', (confidence, max, c, m) => {
    const got = readInputs(reader({ ...valid, confidence, confirmation_runs_max: max }))
    expect([got.confidence, got.confirmationRunsMax]).toEqual([c, m])
  })

  it.each([
    ['1', 1],
    ['3', 3],
    ['5', 5],
    ['', 1]
  ])('takes runs_per_change %s', (raw, n) => {
    expect(readInputs(reader({ ...valid, runs_per_change: raw })).runsPerChange).toBe(n)
  })

  it.each(['0', '6', '2.5', 'three'])('refuses runs_per_change %s with one line, naming the input', (raw) => {
    const err = configErrorOf({ ...valid, runs_per_change: raw })
    expect(err.input).toBe('runs_per_change')
    expect(err.message).toMatch(/1 to 5/)
    expect(err.message).not.toMatch(/\n/)
  })

  it('never echoes the api key in an error', () => {
    const err = configErrorOf({ ...valid, api_key: 'sekrit-key-123', min_severity: 'nope' })
    expect(err.message).not.toContain('sekrit')
  })

  it.each([
    ['0.5', 30_000],
    ['1.25', 75_000],
    ['.5', 30_000],
    ['0.0167', 1_002],
    ['360', 21_600_000]
  ])('takes decimal timeout_minutes %s', (raw, ms) => {
    expect(readInputs(reader({ ...valid, timeout_minutes: raw })).timeoutMs).toBe(ms)
  })

  it.each([
    ['TRUE', true],
    ['False', false],
    ['', true]
  ])('reads fail_on_incomplete %j', (raw, expected) => {
    expect(readInputs(reader({ ...valid, fail_on_incomplete: raw })).failOnIncomplete).toBe(expected)
  })

  it.each([
    ['detached', 'gate', 'detached'],
    ['ATTACHED', 'collect', 'attached'],
    ['', 'collect', 'attached']
  ])('reads wait %j with mode %j', (wait, mode, expected) => {
    const inputs = readInputs(reader({ ...valid, wait, mode }))
    expect([inputs.wait, inputs.mode]).toEqual([expected, mode])
  })

  it.each<[Record<string, string>, string, RegExp]>([
    [{ wait: 'later' }, 'wait', /'later' is not one of attached, detached/],
    [{ wait: 'detached', mode: 'validate' }, 'wait', /'detached' works in gate mode only/],
    [
      { wait: 'detached', model_id: '', endpoint_url: 'https://agent.example.com/chat', response_field: 'output.text' },
      'wait',
      /'detached' needs model_id/
    ],
    [
      { mode: 'collect', model_id: '', endpoint_url: 'https://agent.example.com/chat', response_field: 'output.text' },
      'mode',
      /'collect' needs model_id/
    ],
    [{ wait: 'detached', commit_status: 'off' }, 'commit_status', /is off, and with wait 'detached' the commit status/]
  ])('refuses %j, naming %s', (over, input, message) => {
    const err = configErrorOf({ ...valid, ...over })
    expect(err.input).toBe(input)
    expect(err.message).toMatch(message)
  })

  it('reads INPUT_* variables as the runner sets them', () => {
    const get = envInputReader({ INPUT_MODEL_ID: '  m  ', INPUT_MIN_SEVERITY: 'LOW' })
    expect(get('model_id')).toBe('m')
    expect(get('min_severity')).toBe('LOW')
    expect(get('api_key')).toBe('')
  })

  it('keeps the defaults of action.yml and of the code equal', () => {
    const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
      inputs: Partial<Record<string, { default?: string; required?: boolean }>>
      runs: { using: string }
    }
    expect(action.runs.using).toBe('node24')
    for (const [name, value] of Object.entries(INPUT_DEFAULTS)) {
      expect([name, action.inputs[name]?.default]).toEqual([name, value])
    }
    expect(action.inputs.model_id?.required).toBe(false)
    expect(action.inputs.api_key?.required).toBe(true)
    expect(action.inputs.base_url?.required).toBe(true)
  })
})

describe('readInputs: the target by endpoint_url', () => {
  const endpoint = {
    api_key: 'asas_dev_full',
    base_url: 'https://asas.example.com',
    endpoint_url: 'https://pr-7.preview.example.com/chat',
    response_field: 'output.text'
  }

  it('reads the registration inputs with their defaults', () => {
    const inputs = readInputs(reader({ ...endpoint, auth_type: 'bearer', target_credential: 'tok-12345', request_timeout: '60' }))
    expect(inputs.modelId).toBe('')
    expect(inputs.target).toEqual({
      kind: 'endpoint',
      endpoint: {
        endpointUrl: 'https://pr-7.preview.example.com/chat',
        name: null,
        environment: null,
        authType: 'bearer',
        credential: 'tok-12345',
        oauth: null,
        responseField: 'output.text',
        transport: 'http',
        requestTimeout: 60
      }
    })
  })

  it('reads the oauth inputs and the profile switches', () => {
    const inputs = readInputs(
      reader({
        ...endpoint,
        auth_type: 'oauth_client_credentials',
        target_credential: 'client-secret',
        oauth_token_url: 'https://id.example.com/token',
        oauth_client_id: 'gate',
        oauth_scope: 'chat',
        profile_file: '.github/agent-profile.yml',
        allow_shared_profile_sync: 'true'
      })
    )
    expect(inputs.target.kind === 'endpoint' && inputs.target.endpoint.oauth).toEqual({
      token_url: 'https://id.example.com/token',
      client_id: 'gate',
      scope: 'chat'
    })
    expect(inputs.profile).toEqual({ path: '.github/agent-profile.yml', failOnError: true, allowShared: true })
  })

  it.each([
    ['model_id', { model_id: 'mdl_1' }, /is set together with endpoint_url: give one of the two/],
    ['model_id', { endpoint_url: '' }, /is required unless endpoint_url is set: give one of the two/],
    ['endpoint_url', { endpoint_url: 'not a url' }, /not a URL/],
    ['endpoint_url', { endpoint_url: 'ftp://x.example.com' }, /scheme/],
    ['endpoint_url', { endpoint_url: 'https://u:p@x.example.com/chat' }, /target_credential/],
    ['response_field', { response_field: '' }, /dot-path/],
    ['target_credential', { auth_type: 'bearer' }, /required when auth_type is bearer/],
    ['target_credential', { target_credential: 'secret-1' }, /auth_type is none/],
    ['target_credential', { auth_type: 'api_key', target_credential: 'abc' }, /shorter than 5/],
    ['target_credential', { auth_type: 'bearer', target_credential: 'tok-123\nextra' }, /control character/],
    ['oauth_token_url', { auth_type: 'oauth_client_credentials', target_credential: 'secret-1' }, /required/],
    ['oauth_scope', { oauth_scope: 'x' }, /only used when auth_type is oauth_client_credentials/],
    ['auth_type', { auth_type: 'digest' }, /none, bearer, api_key, basic, oauth_client_credentials/],
    ['environment', { environment: 'qa' }, /prod, staging, dev/],
    ['transport', { transport: 'grpc' }, /http, websocket/],
    ['request_timeout', { request_timeout: '181' }, /at most 180/],
    ['target_name', { target_name: 'x'.repeat(201) }, /1 to 200/],
    ['fail_on_profile_error', { fail_on_profile_error: 'maybe' }, /true or false/]
  ])('%s: %j', (input, override, message) => {
    const e = configErrorOf({ ...endpoint, ...override })
    expect(e.input).toBe(input)
    expect(e.message).toMatch(message)
  })

  it('names the registration inputs given with model_id', () => {
    const e = configErrorOf({ ...valid, response_field: 'output.text', target_name: 'x' })
    expect([e.input, e.message]).toEqual(['target_name', expect.stringMatching(/only used with endpoint_url.*target_name, response_field/)])
  })
})

describe('readInputs: the pipeline inputs and the target a pipeline event offers', () => {
  const SHA = 'a'.repeat(40)
  const deployment = readPipelineEvent(
    'repository_dispatch',
    { action: 'vercel.deployment.ready', client_payload: { url: 'agent-abc123.vercel.app', git: { sha: SHA, ref: 'feat' } } },
    {}
  )
  const queue = readPipelineEvent(
    'merge_group',
    { merge_group: { head_sha: SHA, head_ref: `refs/heads/gh-readonly-queue/main/pr-7-${SHA}` } },
    {}
  )
  const noTarget = { api_key: 'asas_dev_full', base_url: 'https://asas.example.com', response_field: 'output.text' }

  it('reads agent_paths, merge_group, commit_status and endpoint_path', () => {
    const inputs = readInputs(
      reader({
        ...valid,
        agent_paths: 'agent/**\n# a comment\n\nprompts/*.md',
        merge_group: 'ASSESS',
        commit_status: 'always',
        endpoint_path: '/api/chat?x=1'
      })
    )
    expect(inputs).toMatchObject({
      agentPaths: ['agent/**', 'prompts/*.md'],
      mergeGroup: 'assess',
      commitStatus: 'always',
      endpointPath: '/api/chat?x=1'
    })
  })

  it.each([
    ['agent_paths', { agent_paths: '!docs/**' }, /only negated/],
    ['merge_group', { merge_group: 'skip' }, /carry_over, assess/],
    ['commit_status', { commit_status: 'yes' }, /auto, always, off/],
    ['endpoint_path', { endpoint_path: 'api/chat' }, /must start with a single \//],
    ['endpoint_path', { endpoint_path: '//evil.example/chat' }, /must start with a single \//],
    ['endpoint_path', { endpoint_path: '/api chat?x-vercel-protection-bypass=s3cret' }, /holds a space/]
  ])('%s: %j', (input, override, message) => {
    const e = configErrorOf({ ...valid, ...override })
    expect([e.input, e.message]).toEqual([input, expect.stringMatching(message)])
    expect(e.message).not.toContain('s3cret')
  })

  it("takes a ready deployment's URL, with endpoint_path in place of its path, when model_id and endpoint_url are empty", () => {
    const inputs = readInputs(reader({ ...noTarget, endpoint_path: '/api/chat?x-vercel-protection-bypass=s3cret0123' }), deployment)
    expect(inputs.target).toMatchObject({
      kind: 'endpoint',
      endpoint: {
        endpointUrl: 'https://agent-abc123.vercel.app/api/chat?x-vercel-protection-bypass=s3cret0123',
        responseField: 'output.text'
      }
    })
  })

  it('endpoint_url and model_id still win over the event', () => {
    expect(readInputs(reader(valid), deployment).target).toEqual({ kind: 'model', modelId: 'mdl_1' })
  })

  it('a merge queue with neither input has a preview target: no deployment of its commit', () => {
    expect(readInputs(reader({ ...noTarget, target_name: 'shop-pr-7' }), queue).target).toEqual({
      kind: 'preview',
      reason: "nothing deploys the merge queue's commit",
      name: 'shop-pr-7'
    })
    expect(() => readInputs(reader({ ...noTarget, mode: 'validate' }), queue)).toThrow(/is required in validate mode: nothing deploys/)
  })

  it('the query values of a URL: as given and decoded', () => {
    expect(queryValues('/chat?a=x%2By&b=&c=plain#frag')).toEqual(['x%2By', 'x+y', 'plain'])
    expect(queryValues('/chat')).toEqual([])
  })
})

describe('parseCategories', () => {
  it.each([
    ['', []],
    ['a,b', ['a', 'b']],
    ['a\nb, c\r\n\n,d', ['a', 'b', 'c', 'd']],
    [' a , a ,b ', ['a', 'b']]
  ])('%j', (raw, expected) => {
    expect(parseCategories(raw)).toEqual(expected)
  })
})

describe('parseBaseUrl', () => {
  it.each([
    ['https://asas.example.com/', 'https://asas.example.com'],
    ['https://asas.example.com/api/v1', 'https://asas.example.com'],
    ['https://asas.example.com/prefix/api/v1/', 'https://asas.example.com/prefix'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://[::1]:3000', 'http://[::1]:3000']
  ])('%s -> %s', (raw, expected) => {
    expect(parseBaseUrl(raw)).toBe(expected)
  })
})
