import { describe, expect, test } from '@jest/globals'
import { commentMarker } from '../../src/report/comment.js'
import { hasMarker, withMarker } from '../../src/github/sticky-comment.js'

describe('marker matching (the one matcher: hasMarker)', () => {
  test('a marker quoted inside another comment does not make it ours', () => {
    const mine = commentMarker('a')
    const other = commentMarker('b')
    expect(hasMarker(`${mine}\nreport quoting \`${other}\``, other)).toBe(false)
    expect(hasMarker(`${mine}\nbody`, mine)).toBe(true)
    expect(hasMarker(null, mine)).toBe(false)
    expect(withMarker(`text ${mine}`, mine).startsWith(`${mine}\n`)).toBe(true)
  })

  test.each([
    ['m_demo', 'm_dem'],
    ['m_dem', 'm_demo'],
    ['a', 'a b'],
    ['x'.repeat(300), 'x'.repeat(301)]
  ])('the marker of %j is not mistaken for that of %j', (mine, other) => {
    expect(hasMarker(`${commentMarker(mine)}\nreport`, commentMarker(other))).toBe(false)
    expect(hasMarker(`${commentMarker(mine)}\nreport`, commentMarker(mine))).toBe(true)
  })
})
