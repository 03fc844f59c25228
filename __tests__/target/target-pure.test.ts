import { describe, expect, it } from '@jest/globals'
import { chooseTarget, findRegistered } from '../../src/target/choose-target.js'
import { explainRegistrationFailure, inputOfField } from '../../src/target/explain-registration.js'
import { defaultTargetName, isPullRequestName, movedTargetName, sameHost } from '../../src/target/naming.js'
import { ServiceError } from '../../src/util/errors.js'
import { modelItem } from '../__fixtures__/service-bodies.js'

const model = modelItem

describe('naming', () => {
  it.each([
    [{ repository: 'octo/agent-app', prNumber: 7, ref: 'feature/x' }, 'agent-app-pr-7'],
    [{ repository: 'octo/agent-app', prNumber: null, ref: 'feature/new thing' }, 'agent-app-feature-new-thing'],
    [{ repository: 'octo/agent-app', prNumber: null, ref: '' }, 'agent-app'],
    [{ repository: '', prNumber: null, ref: 'main' }, 'agent-main']
  ])('defaultTargetName(%j) = %s', (ctx, name) => {
    expect(defaultTargetName(ctx)).toBe(name)
  })

  it('keeps a moved name within 200 characters and says where it moved', () => {
    expect(movedTargetName('app-pr-7', 'new.example.com')).toBe('app-pr-7 (moved to new.example.com)')
    const long = movedTargetName('x'.repeat(200), 'h.example.com')
    expect(long.length).toBe(200)
    expect(long.endsWith(' (moved to h.example.com)')).toBe(true)
  })

  it.each([
    ['app-pr-7', 7, true],
    ['app-pr-7 (moved to h:1)', 7, true],
    ['my-agent-PR-7-preview', 7, true],
    ['app-pr-70', 7, false],
    ['app-pr-17', 7, false],
    ['production-agent', 7, false]
  ])('isPullRequestName(%s, %d) = %s', (name, n, own) => {
    expect(isPullRequestName(name, n)).toBe(own)
  })

  it.each([
    ['pr-7.preview.example.com', 'https://pr-7.preview.example.com/chat', true],
    ['PR-7.preview.example.com', 'https://pr-7.preview.example.com/chat', true],
    ['pr-7.preview.example.com:443', 'https://pr-7.preview.example.com/chat', true],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080/chat', true],
    ['127.0.0.1:8081', 'http://127.0.0.1:8080/chat', false],
    ['pr-8.preview.example.com', 'https://pr-7.preview.example.com/chat', false]
  ])('sameHost(%s, %s) = %s', (host, url, same) => {
    expect(sameHost(host, url)).toBe(same)
  })
})

describe('chooseTarget', () => {
  const url = 'https://pr-7.example.com/chat'
  it.each([
    [
      'nothing of that name: register it',
      [model('m0', 'other', 'pr-7.example.com')],
      { kind: 'register', name: 'app-pr-7', movedFrom: null }
    ],
    [
      'same name, same host: reuse',
      [model('m1', 'app-pr-7', 'pr-7.example.com')],
      { kind: 'reuse', model: { model_id: 'm1' }, duplicates: 0, movedFrom: null }
    ],
    [
      'duplicates: the first at this host, counted',
      [
        model('m1', 'app-pr-7', 'old.example.com'),
        model('m2', 'app-pr-7', 'pr-7.example.com'),
        model('m3', 'app-pr-7', 'pr-7.example.com')
      ],
      { kind: 'reuse', model: { model_id: 'm2' }, duplicates: 1, movedFrom: null }
    ],
    [
      'moved: register under the moved name',
      [model('m1', 'app-pr-7', 'old.example.com')],
      { kind: 'register', name: 'app-pr-7 (moved to pr-7.example.com)', movedFrom: { model_id: 'm1' } }
    ],
    [
      'moved before: reuse the moved name',
      [model('m1', 'app-pr-7', 'old.example.com'), model('m4', 'app-pr-7 (moved to pr-7.example.com)', 'pr-7.example.com')],
      { kind: 'reuse', model: { model_id: 'm4' }, duplicates: 0, movedFrom: { model_id: 'm1' } }
    ]
  ])('%s', (_label, models, expected) => {
    expect(chooseTarget(models, 'app-pr-7', url)).toMatchObject(expected)
  })

  it('finds only a model the lost request created', () => {
    const models = [model('m1', 'app-pr-7', 'pr-7.example.com'), model('m2', 'app-pr-7', 'pr-7.example.com')]
    expect(findRegistered(models, 'app-pr-7', url, new Set(['m1']))?.model_id).toBe('m2')
    expect(findRegistered(models, 'app-pr-7', url, new Set(['m1', 'm2']))).toBeNull()
  })
})

describe('explainRegistrationFailure', () => {
  const url = 'https://pr-7.example.com/chat'
  const err = (status: number, code: string | undefined, extra: Record<string, unknown> = {}, message = 'probe failed: x') =>
    new ServiceError({ endpoint: 'POST /api/v1/model', status, code, message, extra })

  it.each([
    ['unreachable', 'endpoint_url', /deployed and up/],
    ['auth_failed', 'target_credential', /auth_type/],
    ['parse_error', 'endpoint_url', /answers JSON/],
    ['no_reply', 'response_field', /dot-path/],
    ['not_an_endpoint', 'endpoint_url', /accepts POST/]
  ])('422 probe failure %s names %s and says what to check', (category, input, check) => {
    const e = explainRegistrationFailure(err(422, 'probe_failed', { error_category: category }), url)
    expect(e?.input).toBe(input)
    expect(e?.message).toMatch(new RegExp(`probe of pr-7.example.com failed: ${category}`))
    expect(e?.message).toMatch(check)
    expect(e?.message).toMatch(/Nothing was registered/)
  })

  it.each([
    ['a category of no known kind', 'overloaded', /failed \(overloaded\)/],
    ['an inherited property name', 'constructor', /failed \(constructor\)/],
    ['no category', undefined, /failed \(no category\)/],
    ['a category that is not text', 7, /failed \(no category\)/]
  ])('422 probe failure with %s: the endpoint input, the category quoted, no hint', (_what, category, said) => {
    const e = explainRegistrationFailure(err(422, 'probe_failed', category === undefined ? {} : { error_category: category }), url)
    expect(e?.input).toBe('endpoint_url')
    expect(e?.message).toMatch(said)
    expect(e?.message).toMatch(/nothing was registered/)
  })

  it('400: the address was refused, and why', () => {
    const e = explainRegistrationFailure(
      err(400, 'endpoint_rejected', { field: 'config.endpoint_url' }, 'config.endpoint_url rejected: address 10.0.0.1 is private'),
      url
    )
    expect(e?.input).toBe('endpoint_url')
    expect(e?.message).toMatch(
      /refused the address pr-7\.example\.com: config\.endpoint_url rejected: address 10\.0\.0\.1 is private\. .*private, loopback, link-local and cloud-metadata/
    )
    expect(explainRegistrationFailure(err(400, 'endpoint_rejected', { field: 'oauth.token_url' }), url)?.input).toBe('oauth_token_url')
  })

  it('422 validation list: names the field', () => {
    const e = explainRegistrationFailure(
      err(422, 'validation_error', {
        issues: [{ loc: ['body', 'config', 'request_timeout'], msg: 'must be at most 180', type: 'too_big' }]
      }),
      url
    )
    expect([e?.input, e?.message]).toEqual([
      'request_timeout',
      'the service refused field config.request_timeout of the registration: must be at most 180'
    ])
  })

  it.each([
    ['config.endpoint_url', 'endpoint_url'],
    ['name', 'target_name'],
    ['oauth.client_id', 'oauth_client_id'],
    ['credential', 'target_credential'],
    ['something.else', 'endpoint_url']
  ])('inputOfField(%s) = %s', (field, input) => {
    expect(inputOfField(field)).toBe(input)
  })

  it('leaves the service its own failures (5xx, 401, a bug)', () => {
    expect(explainRegistrationFailure(err(503, undefined), url)).toBeNull()
    expect(explainRegistrationFailure(err(401, 'unauthorized'), url)).toBeNull()
    expect(explainRegistrationFailure(new TypeError('x'), url)).toBeNull()
  })
})
