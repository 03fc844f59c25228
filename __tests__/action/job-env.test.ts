/**
 * The decisions of src/action/job-env.ts that are code: the job environment
 * the action refuses to run under, and that it reads no input action.yml
 * does not declare (the runner sets every declared input over the job's
 * environment, so an earlier step's INPUT_<name> cannot reach a declared one).
 * Through the bundle: __tests__/e2e/job-env-e2e.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { readInputs } from '../../src/action/inputs/read-inputs.js'
import { apiKeyElsewhere, REFUSED_JOB_ENV, refusedJobEnv } from '../../src/action/job-env.js'

const root = new URL('../../', import.meta.url).pathname
const declared = new Set(Object.keys((parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { inputs: object }).inputs))

describe('refusedJobEnv', () => {
  it('refuses NODE_TLS_REJECT_UNAUTHORIZED=0 in one line that names it and says nothing was sent', () => {
    const line = refusedJobEnv({ NODE_TLS_REJECT_UNAUTHORIZED: '0' })
    expect(line).toMatch(
      /^NODE_TLS_REJECT_UNAUTHORIZED=0 turns off TLS certificate checks: whoever answers for the service would get the api_key/
    )
    expect(line).toMatch(/\$GITHUB_ENV.*NODE_EXTRA_CA_CERTS\)\. Nothing was sent\.$/)
    expect(line).not.toMatch(/\n/)
  })

  it.each([['1'], [''], [' 0'], ['00'], ['false']])(
    'lets NODE_TLS_REJECT_UNAUTHORIZED=%j be (Node checks certificates unless it is exactly 0)',
    (value) => {
      expect(refusedJobEnv({ NODE_TLS_REJECT_UNAUTHORIZED: value })).toBeNull()
    }
  )

  it('lets an environment without it be', () => {
    expect(refusedJobEnv({ HTTPS_PROXY: 'http://proxy.example:3128', NODE_EXTRA_CA_CERTS: '/etc/ca.pem' })).toBeNull()
  })

  it('names one variable per row', () => {
    expect(REFUSED_JOB_ENV.map((r) => [r.name, r.value])).toEqual([['NODE_TLS_REJECT_UNAUTHORIZED', '0']])
  })
})

describe('the api_key under another name of the job environment (an earlier step could seal state with it)', () => {
  const KEY = 'asas_key_job_env_0123456789abcdef'

  it('refuses ASG_KEY=<the key> in one line naming the variable, never the value', () => {
    const line = refusedJobEnv({ INPUT_API_KEY: KEY, ASG_KEY: KEY, PATH: '/usr/bin' })
    expect(line).toMatch(/^Configuration error: the api_key's value is also in the job's environment as ASG_KEY: /)
    expect(line).toMatch(
      /in its with: \(api_key: \$\{\{ secrets\.… \}\}\), and remove ASG_KEY from the job's or workflow's env:\. Nothing was sent\.$/
    )
    expect(line).not.toContain(KEY)
    expect(line).not.toMatch(/\n/)
  })

  it.each<[string, string]>([
    ['the key as is', KEY],
    ['the key with the white space an input loses', `  ${KEY}\n`],
    ['a header holding it', `Bearer ${KEY}`],
    ['JSON holding it', JSON.stringify({ service: { key: KEY } })],
    ['its base64 (a Basic header)', Buffer.from(KEY).toString('base64')]
  ])('finds %s', (_what, value) => {
    expect(apiKeyElsewhere({ INPUT_API_KEY: KEY, SOME_NAME: value })).toEqual(['SOME_NAME'])
  })

  it('names every such variable, sorted, an undeclared INPUT_* among them', () => {
    const env = { INPUT_API_KEY: KEY, Z_KEY: KEY, INPUT_ASG_KEY: KEY, A_KEY: `x${KEY}` }
    expect(apiKeyElsewhere(env)).toEqual(['A_KEY', 'INPUT_ASG_KEY', 'Z_KEY'])
    expect(refusedJobEnv(env)).toMatch(/ as A_KEY, INPUT_ASG_KEY, Z_KEY: /)
  })

  it.each<[string, NodeJS.ProcessEnv]>([
    ['the key in INPUT_API_KEY alone (the step’s with:)', { INPUT_API_KEY: KEY, OTHER: 'asas_key_job_env_0123456789abcdeX' }],
    ['no key at all (nothing can be sealed)', { INPUT_API_KEY: '', EMPTY: '', BLANK: '  ' }],
    ['no INPUT_API_KEY', { ASG_KEY: KEY }],
    ['a part of the key', { INPUT_API_KEY: KEY, PART: KEY.slice(0, -1) }]
  ])('lets %s be', (_what, env) => {
    expect(apiKeyElsewhere(env)).toEqual([])
    expect(refusedJobEnv(env)).toBeNull()
  })

  it('a key too short to be a secret: only a value equal to it is refused, not every value holding its letters', () => {
    expect(apiKeyElsewhere({ INPUT_API_KEY: 'k1', K: 'k1', PATH: '/k1/bin' })).toEqual(['K'])
  })
})

describe('the action reads only inputs action.yml declares', () => {
  it.each<[string, Record<string, string>]>([
    ['model_id', { model_id: 'm', api_key: 'asas_key_0123456789abcdef', base_url: 'https://asas.example' }],
    [
      'endpoint_url with oauth',
      {
        endpoint_url: 'https://agent.example/chat',
        response_field: 'output.text',
        auth_type: 'oauth_client_credentials',
        target_credential: 'secret-0123456789',
        oauth_token_url: 'https://auth.example/token',
        oauth_client_id: 'client',
        api_key: 'asas_key_0123456789abcdef',
        base_url: 'https://asas.example'
      }
    ],
    ['validate mode', { mode: 'validate', model_id: 'm', api_key: 'asas_key_0123456789abcdef', base_url: 'https://asas.example' }]
  ])('readInputs (%s) asks for declared names only', (_what, values) => {
    const asked = new Set<string>()
    readInputs((name) => {
      asked.add(name)
      return values[name] ?? ''
    })
    expect(asked.size).toBeGreaterThan(20)
    expect([...asked].filter((n) => !declared.has(n))).toEqual([])
  })

  it('every input named in a direct read of src/action/ is declared', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) =>
        statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : []
      )
    const named = files(join(root, 'src/action')).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/envInputReader\([^)]*\)\('([a-z_]+)'\)/g)].map((m) => m[1])
    )
    expect(named).toEqual(expect.arrayContaining(['api_key', 'github_token', 'model_id', 'target_credential', 'endpoint_url']))
    expect(named.filter((n) => !declared.has(n))).toEqual([])
  })
})
