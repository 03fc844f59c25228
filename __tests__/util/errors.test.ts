/** The error classes: one kind per class, never changed once thrown (wrapped instead). */
import { describe, expect, it } from '@jest/globals'
import {
  AbortedError,
  ConfigError,
  DeadlineExceededError,
  describeFailure,
  failureKind,
  GitHubError,
  MalformedResponseError,
  RemoteError,
  ServiceError
} from '../../src/util/errors.js'

describe('failureKind: the class is the kind', () => {
  it.each<[string, Error, string]>([
    ['config', new ConfigError('min_severity', 'bad'), 'config'],
    ['service', new ServiceError({ endpoint: 'GET /api/v1/model', message: 'x' }), 'service'],
    ['malformed', new MalformedResponseError({ endpoint: 'GET /api/v1/model', message: 'x', fieldPath: 'a' }), 'service'],
    ['deadline', new DeadlineExceededError('GET /api/v1/run/r', 'ran out'), 'service'],
    ['github', new GitHubError({ endpoint: 'GET /user', message: 'x' }), 'service'],
    ['aborted', new AbortedError(), 'aborted'],
    ['bug', new TypeError('boom'), 'bug']
  ])('%s', (_name, err, kind) => {
    expect(failureKind(err)).toBe(kind)
  })

  it('keeps GitHub failures apart from the service', () => {
    const gh = new GitHubError({ endpoint: 'GET /user', status: 403, message: 'Forbidden' })
    expect(gh).toBeInstanceOf(RemoteError)
    expect(gh).not.toBeInstanceOf(ServiceError)
    expect(describeFailure(gh)).toBe('GET /user HTTP 403: Forbidden')
  })
})

describe('withDetail: wrap, never mutate', () => {
  const base = new ServiceError({
    endpoint: 'POST /api/v1/run',
    status: 503,
    code: 'down',
    message: 'later',
    transient: true,
    ambiguous: true,
    retryAfterMs: 2000
  })

  it('returns a new error of the same class with the detail and the first as its cause', () => {
    const wrapped = base.withDetail({ attempts: 3, retried: ['HTTP 503, waited 1.0 s', 'HTTP 503, waited 2.0 s'], hint: 'try later' })
    expect(wrapped).not.toBe(base)
    expect(wrapped).toBeInstanceOf(ServiceError)
    expect(wrapped.cause).toBe(base)
    expect(wrapped).toMatchObject({
      endpoint: 'POST /api/v1/run',
      status: 503,
      code: 'down',
      transient: true,
      ambiguous: true,
      retryAfterMs: 2000,
      attempts: 3,
      hint: 'try later'
    })
    expect(wrapped.describe()).toBe(
      'POST /api/v1/run HTTP 503 down: later (after 3 attempts: HTTP 503, waited 1.0 s; HTTP 503, waited 2.0 s). try later'
    )
    expect(base.attempts).toBe(1)
    expect(base.hint).toBeUndefined()
    expect(base.describe()).toBe('POST /api/v1/run HTTP 503 down: later')
  })

  it.each<[string, RemoteError]>([
    ['MalformedResponseError', new MalformedResponseError({ endpoint: 'GET /x', message: 'bad', fieldPath: 'a.b' })],
    ['DeadlineExceededError', new DeadlineExceededError('GET /x', 'ran out')],
    ['GitHubError', new GitHubError({ endpoint: 'GET /user', message: 'no' })]
  ])('%s stays its own class', (_name, err) => {
    const wrapped = err.withDetail({ hint: 'h' })
    expect(wrapped.constructor).toBe(err.constructor)
    expect(wrapped.hint).toBe('h')
    expect(wrapped.cause).toBe(err)
    if (wrapped instanceof MalformedResponseError) expect(wrapped.fieldPath).toBe('a.b')
  })

  it('a retried list given is copied, so later pushes do not reach the error', () => {
    const retried = ['one']
    const wrapped = base.withDetail({ attempts: 2, retried })
    retried.push('two')
    expect(wrapped.retried).toEqual(['one'])
  })
})
