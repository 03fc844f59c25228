/**
 * The SARIF logs of report/sarif.test.ts through the SARIF Multitool with the
 * SARIF and GitHub rules: nothing to say of them, and a broken one flagged.
 * In the slow half: it runs the Multitool (a .NET program), about 8 s.
 */
import { describe, expect, it } from '@jest/globals'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import { sarifMultitoolProblems } from '../__fixtures__/sarif-multitool.js'
import { hostileInput, policyInput, sarif } from '../__fixtures__/format-cases.js'

describe('the SARIF Multitool (SARIF and GitHub rules)', () => {
  it('finds nothing to say of the logs, and flags a broken one', () => {
    const broken = sarif(policyInput) as unknown as { runs: { results: Record<string, unknown>[] }[] }
    delete broken.runs[0].results[0].locations
    const problems = sarifMultitoolProblems([
      sarif(makeInput()),
      sarif(policyInput),
      sarif(hostileInput),
      sarif(makeInput({ findings: [] })),
      sarif(policyInput, 'agent profiles/support bot.yml'),
      broken
    ])
    expect(problems.slice(0, -1)).toEqual([[], [], [], [], []])
    expect(problems.at(-1)!.join('\n')).toMatch(
      /GH1015 \(error\): runs\[0\]\.results\[0\]: This 'result' object does not provide a 'locations' array/
    )
  })
})
