import { describe, expect, test } from '@jest/globals'

describe('marker matching', () => {
  test('a marker quoted inside another comment does not make it ours', async () => {
    const { hasMarker, withMarker } = await import('../../src/github/sticky-comment.js')
    const mine = '<!-- asas-gate:model=a -->'
    const other = '<!-- asas-gate:model=b -->'
    expect(hasMarker(`${mine}\nreport quoting \`${other}\``, other)).toBe(false)
    expect(hasMarker(`${mine}\nbody`, mine)).toBe(true)
    expect(hasMarker(null, mine)).toBe(false)
    expect(withMarker(`text ${mine}`, mine).startsWith(`${mine}\n`)).toBe(true)
  })
})
