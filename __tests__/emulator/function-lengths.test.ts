/**
 * No function of the emulator is longer than 80 lines (a reader follows one
 * concern per function), measured by scripts/function-lengths.ts with the
 * compiler's parser.
 */
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { functionLengths, functionLengthsOf } from '../../scripts/function-lengths.js'
import { PROJECT_ROOT } from '../__fixtures__/action-runner.js'

const MAX_LINES = 80

describe('function lengths', () => {
  it('measures every kind of function from its first line to its last, nested ones inside their parent too', () => {
    const text = [
      'export function outer(a: number): number {', // 1
      '  const inner = (b: number): number => {', // 2
      '    return b + 1', // 3
      '  }', // 4
      '  return inner(a)', // 5
      '}', // 6
      'class C {', // 7
      '  constructor(readonly x: number) {}', // 8
      '  get y(): number {', // 9
      '    return this.x', // 10
      '  }', // 11
      '  m(): void {', // 12
      '    [1].forEach(function (n) {', // 13
      '      void n', // 14
      '    })', // 15
      '  }', // 16
      '}', // 17
      'declare function overload(a: string): void' // 18: no body, not a function to read
    ].join('\n')
    expect(functionLengthsOf('x.ts', text).map((f) => [f.name, f.line, f.lines])).toEqual([
      ['outer', 1, 6],
      ['inner', 2, 3],
      ['constructor', 8, 1],
      ['y', 9, 3],
      ['m', 12, 5],
      ['(callback of [1].forEach)', 13, 3]
    ])
  })

  it(`src/emulator has no function over ${MAX_LINES} lines`, () => {
    const all = functionLengths([join(PROJECT_ROOT, 'src', 'emulator')])
    expect(all.length).toBeGreaterThan(100)
    expect(all.filter((f) => f.lines > MAX_LINES).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([])
  })
})
