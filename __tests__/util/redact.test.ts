import { describe, expect, it } from '@jest/globals'
import {
  headerValueText,
  isCredentialName,
  looksLikeCredentialValue,
  makeScrubber,
  redactHeaders,
  redactUrl,
  SECRET_MASK,
  scrubSecrets,
  scrubSecretsDeep,
  secretWireForms
} from '../../src/util/redact.js'

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
    expect(redactHeaders(input)).toEqual({ Authorization: SECRET_MASK, 'X-Trace': SECRET_MASK, Accept: '*/*', 'x-api-key': SECRET_MASK })
    expect(input.Authorization).toBe('Bearer x')
  })

  // headers is described only as "object": values may be numbers, booleans, null or arrays of those.
  it.each([
    ['a number', 'Content-Length', 42, '42'],
    ['a boolean', 'X-Cache-Hit', false, 'false'],
    ['null', 'X-Empty', null, 'null'],
    ['an array', 'Accept', ['text/plain', 'application/json'], 'text/plain, application/json'],
    ['a mixed array', 'X-Mixed', [1, true, null, 's'], '1, true, null, s'],
    ['an empty array', 'X-None', [], ''],
    ['a credential-like name holding a number', 'X-Api-Key', 123456789, SECRET_MASK],
    ['a credential-like name holding an array', 'Set-Cookie', ['a=1', 'b=2'], SECRET_MASK],
    ['a credential-like name holding a boolean', 'X-Auth-Enabled', true, SECRET_MASK],
    ['a credential-like name holding null', 'Authorization', null, SECRET_MASK],
    ['an array with a credential value in it', 'X-Forwarded', ['for=1', 'Bearer abc.def'], SECRET_MASK]
  ] as const)('a value that is %s is shown as text: %s', (_what, name, value, expected) => {
    expect(redactHeaders({ [name]: value })).toEqual({ [name]: expected })
  })
})

describe('headerValueText', () => {
  it.each([
    ['text', 'text'],
    [0, '0'],
    [true, 'true'],
    [null, 'null'],
    [['a', 2, false, null], 'a, 2, false, null'],
    [10n, '10'],
    [() => 'secret source', '[function]']
  ] as const)('%j -> %j', (value, expected) => {
    expect(headerValueText(value)).toBe(expected)
  })
})

describe('redactUrl', () => {
  it.each([
    ['https://user:pass@host.example/p', 'https://***@host.example/p'],
    ['https://token@host.example/p', 'https://***@host.example/p'],
    ['https://host.example/p?api_key=abc&lang=en', 'https://host.example/p?api_key=***&lang=en'],
    ['https://host.example/p?lang=en&access%5Ftoken=abc#x', 'https://host.example/p?lang=en&access%5Ftoken=***#x'],
    ['https://host.example/cb#id_token=abc&state=1', 'https://host.example/cb#id_token=***&state=1'],
    ['https://host.example/p?q=a@b', 'https://host.example/p?q=a@b'],
    ['not a url ?password=1', 'not a url ?password=***'],
    ['https://host.example/plain', 'https://host.example/plain']
  ])('%p', (url, expected) => {
    expect(redactUrl(url)).toBe(expected)
  })
})

describe('scrubSecrets', () => {
  it.each([
    ['every occurrence', 'k=SECRET1 and SECRET1', ['SECRET1'], 'k=*** and ***'],
    ['the JSON-escaped form', '{"a":"pa\\"ss"}', ['pa"ss'], '{"a":"***"}'],
    ['the JSON-escaped form with an escaped slash', '{"a":"a\\/b\\"c"}', ['a/b"c'], '{"a":"***"}'],
    ['the XML-escaped form', '<a v="x&amp;y&lt;z&quot;"/>', ['x&y<z"'], '<a v="***"/>'],
    ['longest first when secrets overlap', 'abcdef', ['abc', 'abcdef'], '***'],
    ['blank secrets ignored', 'a b', ['', '  '], 'a b'],
    ['nothing to do', 'text', ['zzz'], 'text']
  ])('%s', (_name, text, secrets, expected) => {
    expect(scrubSecrets(text, secrets)).toBe(expected)
  })

  it('scrubSecretsDeep scrubs every string of a JSON-like value, keys too', () => {
    expect(scrubSecretsDeep({ SECRET1: ['SECRET1', 1, { a: 'k=SECRET1' }] }, ['SECRET1'])).toEqual({ '***': ['***', 1, { a: 'k=***' }] })
  })

  it("masks with a token apart from the service's own '[redacted]' (proof withheld)", () => {
    expect(SECRET_MASK).not.toBe('[redacted]')
    expect(scrubSecrets('[redacted] SECRET1', ['SECRET1'])).toBe('[redacted] ***')
  })

  it('makeScrubber agrees with scrubSecrets, also for long shared strings', () => {
    const long = `${'x'.repeat(10_000)}SECRET${'y'.repeat(10)}`
    const scrub = makeScrubber(['SECRET'])
    expect(scrub(long)).toBe(scrubSecrets(long, ['SECRET']))
    expect(scrub(long)).toBe(scrubSecrets(long, ['SECRET']))
    expect(makeScrubber([])('SECRET')).toBe('SECRET')
  })
})

describe('secretWireForms', () => {
  const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64')

  it('HTTP Basic: the text as given, the password alone, base64 (padded, unpadded, url) and the URL- and JSON-encoded forms', () => {
    const cred = 'demo:pa ss"/wörd+1'
    const forms = secretWireForms(cred)
    expect(forms[0]).toBe(cred)
    expect(forms).toEqual(
      expect.arrayContaining([
        'pa ss"/wörd+1',
        b64(cred),
        b64(cred).replace(/=+$/, ''),
        encodeURIComponent(b64(cred)),
        Buffer.from(cred, 'utf8').toString('base64url'),
        Buffer.from(cred, 'latin1').toString('base64'),
        encodeURIComponent(cred),
        encodeURIComponent('pa ss"/wörd+1'),
        encodeURIComponent('pa ss"/wörd+1').replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
        new URLSearchParams({ p: 'pa ss"/wörd+1' }).toString().slice(2),
        'pa ss\\"/wörd+1'
      ])
    )
  })

  it('an OAuth client secret: base64 of client_id:client_secret, form-encoded or not', () => {
    const forms = secretWireForms('s3cret value', { clientId: 'my client' })
    expect(forms).toEqual(expect.arrayContaining([b64('my client:s3cret value'), b64('my+client:s3cret+value')]))
  })

  it.each([
    ['a password shorter than 5 characters alone', 'someone:pw', 'pw'],
    ['a blank secret', '   ', undefined],
    ['a secret shorter than 5 characters', 'abcd', undefined]
  ])('leaves out %s', (_name, secret, left) => {
    const forms = secretWireForms(secret)
    if (left === undefined) expect(forms).toEqual([])
    else expect(forms).not.toContain(left)
    for (const f of forms) expect(f.length).toBeGreaterThanOrEqual(5)
  })

  it('scrubs an echoed Authorization header, a decoded password and a reset link', () => {
    const cred = 'demo:s3cr3t pass'
    const text = `Authorization: Basic ${b64(cred)}\ndecoded ${cred}; link ?p=${encodeURIComponent('s3cr3t pass')} or ?p=s3cr3t+pass`
    expect(scrubSecrets(text, secretWireForms(cred))).toBe('Authorization: Basic ***\ndecoded ***; link ?p=*** or ?p=***')
  })
})
