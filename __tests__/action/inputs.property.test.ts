/**
 * Property-based: any value of any input either reads cleanly or is refused
 * with one ConfigError line that names the input and never echoes the key.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { ConfigError } from '../../src/util/errors.js'
import { parseBaseUrl, parseCategories, readInputs } from '../../src/action/inputs/read-inputs.js'

const INPUTS = [
  'model_id',
  'api_key',
  'base_url',
  'min_severity',
  'categories',
  'fail_on_incomplete',
  'timeout_minutes',
  'comment',
  'mode',
  'issue',
  'max_runs'
] as const
const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    '',
    ' ',
    '\n',
    '0',
    '-1',
    'NaN',
    'Infinity',
    '1e309',
    'true',
    'HIGH',
    '::set-output name=x::y',
    '\u202e',
    'http://127.0.0.1',
    'https://x',
    '${{ github.token }}'
  ),
  fc.webUrl()
)

describe('input parsing properties', () => {
  it('reads or refuses any combination of values, with one line that names the input', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...INPUTS), hostile), fc.string({ minLength: 8 }), (values, key) => {
        const secret = `KEY-${key}`
        // The dictionary holds some of the inputs, not all.
        const given: Partial<Record<string, string>> = values
        const get = (n: string) => (n === 'api_key' ? (given.api_key ?? secret) : (given[n] ?? '')).trim()
        try {
          const inputs = readInputs(get)
          expect(inputs.timeoutMs).toBeGreaterThan(0)
          expect(['critical', 'high', 'medium', 'low']).toContain(inputs.minSeverity)
          expect(inputs.baseUrl).toMatch(/^https?:\/\//)
          expect(inputs.modelId).not.toBe('')
        } catch (e) {
          expect(e).toBeInstanceOf(ConfigError)
          const err = e as ConfigError
          expect(INPUTS as readonly string[]).toContain(err.input)
          expect(err.message).not.toMatch(/[\r\n]/)
          if (secret.trim().length >= 8) expect(err.message).not.toContain(secret.trim())
        }
      }),
      { numRuns: 2000 }
    )
  })

  it('never lets a base_url through that is neither https nor loopback http', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'ws'] }), fc.string()), (raw) => {
        try {
          const url = new URL(parseBaseUrl(raw))
          expect(
            url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.')
          ).toBe(true)
          expect(url.username + url.password + url.search + url.hash).toBe('')
        } catch (e) {
          expect(e).toBeInstanceOf(ConfigError)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it('parses category lists into distinct, trimmed, non-empty keys', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z_]{1,12}$/)), fc.constantFrom(',', '\n', ', ', ' ,\n'), (keys, sep) => {
        const parsed = parseCategories(keys.join(sep))
        expect(parsed).toEqual([...new Set(keys)])
      })
    )
  })
})
