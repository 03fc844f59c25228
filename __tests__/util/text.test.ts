/** The shared text helpers: one of each (src/util/text.ts). */
import { describe, expect, it } from '@jest/globals'
import { formatDuration, isRecord, nonEmpty, oneLine, plural, stripUnsafeChars, terminalSafeJson } from '../../src/util/text.js'

describe('stripUnsafeChars: the one rule of what a terminal or a log shows', () => {
  it.each([
    ['a colour', 'x\u001b[1;31mred\u001b[0my', 'x red y'],
    ['clear screen, home, reset, alternate screen', '\u001b[2J\u001b[H\u001bc\u001b[?1049hz', ' z'],
    ['an OSC 8 link ended by BEL', 'see \u001b]8;;https://evil.example/\u0007docs\u001b]8;;\u0007.', 'see  docs .'],
    ['an OSC 8 link ended by ST', '\u001b]8;id=1;https://e.example/\u001b\\click\u001b]8;;\u001b\\', ' click '],
    ['a window title', '\u001b]0;pwned\u0007t', ' t'],
    ['DCS, APC and PM strings', 'a\u001bP1$r0m\u001b\\b\u001b_x\u001b\\c\u001b^y\u001b\\d', 'a b c d'],
    ['8-bit CSI, OSC and DCS', 'a\u009b2Jb\u009d8;;https://e.example/\u009cc\u0090q\u009cd', 'a b c d'],
    ['an unterminated OSC: its introducer goes, the text stays', 'a\u001b]8;;https://e.example/ never', 'a 8;;https://e.example/ never'],
    ['a two-character escape', 'a\u001b7b\u001b(Bc', 'a b c'],
    ['BEL, backspace, CR, tab, DEL, NUL', 'a\u0007b\bc\rd\te\u007ff\u0000', 'a b c d e f '],
    ['C1 controls', 'a\u0085b\u009fc', 'a b c'],
    ['bidi marks, overrides and isolates', 'a\u202eb\u2066c\u2069d\u200fe\u061cf', 'a b c d e f'],
    ['zero-width and separators', 'a\u200bb\u2060c\ufeffd\u2028e', 'a b c d e'],
    ['indentation kept', '  HIGH   x', '  HIGH   x']
  ])('%s', (_name, input, expected) => {
    expect(stripUnsafeChars(input)).toBe(expected)
  })

  it('is idempotent', () => {
    for (const s of ['\u001b]8;;u\u0007x', 'a\u001b[31m\u202eb', '\u009b\u009b2J'])
      expect(stripUnsafeChars(stripUnsafeChars(s))).toBe(stripUnsafeChars(s))
  })
})

describe('terminalSafeJson', () => {
  it('escapes what JSON.stringify leaves raw (C1, bidi, zero-width, separators), keeps its line breaks and the data', () => {
    const value = { a: 'x\u009b2J\u202ey\u200b\u2028z\u061c', b: ['\u001b[31m\n'] }
    const json = terminalSafeJson(JSON.stringify(value, null, 2))
    expect(json).toContain('"x\\u009b2J\\u202ey\\u200b\\u2028z\\u061c"')
    expect(json.split('\n').length).toBe(JSON.stringify(value, null, 2).split('\n').length)
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/.test(json)).toBe(false)
    expect(JSON.parse(json)).toEqual(value)
  })
})

describe('oneLine', () => {
  it.each([
    ['a\nb\r\nc', 'a b c'],
    ['tab\there', 'tab here'],
    ['\u001b[31mred\u001b[0m', 'red'],
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
    [999.4, '999 ms'],
    [999.5, '1 s'],
    [999.6, '1 s'],
    [45_000, '45 s'],
    [59_499, '59 s'],
    [59_500, '1 min 0 s'],
    [60_000, '1 min 0 s'],
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
