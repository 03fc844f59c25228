/** The shared text helpers: one of each (src/util/text.ts). */
import { describe, expect, it } from '@jest/globals'
import { formatDuration, isRecord, nonEmpty, oneLine, plural } from '../../src/util/text.js'

describe('oneLine', () => {
  it.each([
    ['a\nb\r\nc', 'a b c'],
    ['tab\there', 'tab here'],
    ['\u001b[31mred\u001b[0m', '[31mred [0m'],
    ['  spaced   out  ', 'spaced out'],
    ['line\u2028sep', 'line sep'],
    ['bidi\u202eevil\u202c', 'bidi evil'],
    ['zero\u200bwidth\ufeff', 'zero width'],
    ['::error::x\n::warning::y', '::error::x ::warning::y']
  ])('oneLine(%j) = %j', (input, expected) => {
    expect(oneLine(input)).toBe(expected)
  })

  it('clips to the maximum with an ellipsis', () => {
    expect(oneLine('abcdef', 5)).toBe('ab...')
    expect(oneLine('abcde', 5)).toBe('abcde')
    expect(oneLine('x'.repeat(600))).toHaveLength(500)
  })
})

describe('plural', () => {
  it.each([
    [0, 'finding', undefined, '0 findings'],
    [1, 'finding', undefined, '1 finding'],
    [2, 'category', 'categories', '2 categories'],
    [2345, 'finding', undefined, '2,345 findings']
  ])('plural(%p, %p, %p) = %p', (n, one, many, expected) => {
    expect(plural(n, one, many)).toBe(expected)
  })
})

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [-5, '0 s'],
    [Number.NaN, '0 s'],
    [850, '850 ms'],
    [999.6, '1 s'],
    [45_000, '45 s'],
    [59_499, '59 s'],
    [65_000, '1 min 5 s'],
    [3_599_000, '59 min 59 s'],
    [3_600_000, '1 h 0 min'],
    [7_380_000, '2 h 3 min']
  ])('formatDuration(%p) = %p', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected)
  })
})

describe('isRecord', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [null, false],
    [[], false],
    ['x', false],
    [1, false]
  ])('isRecord(%j) = %p', (value, expected) => {
    expect(isRecord(value)).toBe(expected)
  })
})

describe('nonEmpty', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    [' ', ' '],
    ['/tmp', '/tmp']
  ])('nonEmpty(%j) = %j', (value, expected) => {
    expect(nonEmpty(value)).toBe(expected)
  })
})
