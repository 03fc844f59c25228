import { describe, expect, it } from '@jest/globals'
import {
  isCredentialName,
  looksLikeCredentialValue,
  makeScrubber,
  redactHeaders,
  redactUrl,
  REDACTED_VALUE,
  scrubSecrets
} from '../../src/redact-headers.js'

describe('isCredentialName', () => {
  it.each([
    'Authorization',
    'proxy-authorization',
    'Cookie',
    'SET-COOKIE',
    'x-api-key',
    'X-Auth-Token',
    'api_key',
    'apikey',
    'X-Amz-Security-Token',
    'client_secret',
    'password',
    'X-Session-Id',
    'sessionid',
    'X-CSRF-Token',
    'X-Hub-Signature-256',
    'Private-Token',
    ' Authorization '
  ])('%p is a credential', (name) => {
    expect(isCredentialName(name)).toBe(true)
  })

  it.each(['Content-Type', 'Accept', 'User-Agent', 'X-Request-Id', 'Host', 'Content-Length', 'lang'])('%p is not', (name) => {
    expect(isCredentialName(name)).toBe(false)
  })
})

describe('looksLikeCredentialValue', () => {
  it.each([
    ['Bearer abc.def', true],
    ['basic dXNlcjpwYXNz', true],
    ['Token 123', true],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', true],
    ['application/json', false],
    ['Bearer', false],
    ['text about bearer tokens', false]
  ])('%p -> %p', (value, expected) => {
    expect(looksLikeCredentialValue(value)).toBe(expected)
  })
})

describe('redactHeaders', () => {
  it('redacts by name and by value, keeps the rest, and does not change its input', () => {
    const input = { Authorization: 'Bearer x', 'X-Trace': 'Bearer y', Accept: '*/*', 'x-api-key': 'k' }
    expect(redactHeaders(input)).toEqual({ Authorization: REDACTED_VALUE, 'X-Trace': REDACTED_VALUE, Accept: '*/*', 'x-api-key': REDACTED_VALUE })
    expect(input.Authorization).toBe('Bearer x')
  })
})

describe('redactUrl', () => {
  it.each([
    ['https://user:pass@host.example/p', 'https://[redacted]@host.example/p'],
    ['https://token@host.example/p', 'https://[redacted]@host.example/p'],
    ['https://host.example/p?api_key=abc&lang=en', 'https://host.example/p?api_key=[redacted]&lang=en'],
    ['https://host.example/p?lang=en&access%5Ftoken=abc#x', 'https://host.example/p?lang=en&access%5Ftoken=[redacted]#x'],
    ['https://host.example/cb#id_token=abc&state=1', 'https://host.example/cb#id_token=[redacted]&state=1'],
    ['https://host.example/p?q=a@b', 'https://host.example/p?q=a@b'],
    ['not a url ?password=1', 'not a url ?password=[redacted]'],
    ['https://host.example/plain', 'https://host.example/plain']
  ])('%p', (url, expected) => {
    expect(redactUrl(url)).toBe(expected)
  })
})

describe('scrubSecrets', () => {
  it.each([
    ['every occurrence', 'k=SECRET1 and SECRET1', ['SECRET1'], 'k=[redacted] and [redacted]'],
    ['the JSON-escaped form', '{"a":"pa\\"ss"}', ['pa"ss'], '{"a":"[redacted]"}'],
    ['longest first when secrets overlap', 'abcdef', ['abc', 'abcdef'], '[redacted]'],
    ['blank secrets ignored', 'a b', ['', '  '], 'a b'],
    ['nothing to do', 'text', ['zzz'], 'text']
  ])('%s', (_name, text, secrets, expected) => {
    expect(scrubSecrets(text, secrets)).toBe(expected)
  })

  it('makeScrubber agrees with scrubSecrets, also for long shared strings', () => {
    const long = `${'x'.repeat(10_000)}SECRET${'y'.repeat(10)}`
    const scrub = makeScrubber(['SECRET'])
    expect(scrub(long)).toBe(scrubSecrets(long, ['SECRET']))
    expect(scrub(long)).toBe(scrubSecrets(long, ['SECRET']))
    expect(makeScrubber([])('SECRET')).toBe('SECRET')
  })
})
