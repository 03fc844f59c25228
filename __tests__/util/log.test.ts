import { describe, expect, it } from '@jest/globals'
import { singleLineLog } from '../../src/util/log.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

describe('singleLineLog', () => {
  it.each([
    ['run_1\n::add-mask::x', 'run_1 ::add-mask::x'],
    ['a\r\n::error::pwned\rb', 'a ::error::pwned b'],
    ['tab\there\u2028sep\u0085nel', 'tab here sep nel'],
    ['plain line', 'plain line']
  ])('keeps %j on one line', (input, expected) => {
    const rec = recordingLog()
    const log = singleLineLog(rec)
    log.info(input)
    log.warning(input)
    log.debug(input)
    expect(rec.lines.map((l) => l.line)).toEqual([expected, expected, expected])
    for (const l of rec.lines) expect(l.line).not.toMatch(/[\r\n]/)
  })
})
