import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

import { REPORT_FORMATS } from '../../src/report/formats.js'

const action = parse(readFileSync('action.yml', 'utf8')) as { outputs: Record<string, unknown> }

describe('report formats', () => {
  it("declares every registered format's output in action.yml, and every *_path output is a registered format", () => {
    const registered = REPORT_FORMATS.map((f) => f.output).sort()
    const declared = Object.keys(action.outputs)
      .filter((name) => name.endsWith('_path'))
      .sort()
    expect(registered).toEqual(declared)
  })

  it('gives each format its own output and file extension', () => {
    expect(new Set(REPORT_FORMATS.map((f) => f.output)).size).toBe(REPORT_FORMATS.length)
    expect(new Set(REPORT_FORMATS.map((f) => f.extension)).size).toBe(REPORT_FORMATS.length)
  })
})
