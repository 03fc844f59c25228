/**
 * The collector's own step result (collect-decision.ts collectorResult): the
 * worst status it set, and its step fails unless every incomplete it set was
 * waved by that record's own step (coverage only, fail_on_incomplete false).
 */
import { describe, expect, it } from '@jest/globals'
import { collectorResult, type Look } from '../../src/action/stages/collect-decision.js'

const look = (what: Look['what'], result: Look['result'], waved?: boolean): Look => ({
  pull: 7,
  commit: 'a'.repeat(40),
  runId: 'run_1',
  what,
  result,
  ...(waved === undefined ? {} : { waved })
})

describe('collectorResult', () => {
  it.each<[string, string, 'pass' | 'warn' | 'fail', Look[]]>([
    ['nothing to do', 'pass', 'pass', []],
    ['a run still going', 'pending', 'pass', [look('running', null)]],
    ['one pass', 'pass', 'pass', [look('decided', 'pass')]],
    ['an incomplete its step waved (coverage)', 'incomplete', 'warn', [look('decided', 'incomplete', true)]],
    ['a pass and a waved incomplete', 'incomplete', 'warn', [look('decided', 'pass'), look('decided', 'incomplete', true)]],
    ['an incomplete its step did not wave (an evidence gap)', 'incomplete', 'fail', [look('decided', 'incomplete', false)]],
    ['an incomplete that does not say', 'incomplete', 'fail', [look('decided', 'incomplete')]],
    ['one waved, one not', 'incomplete', 'fail', [look('decided', 'incomplete', true), look('decided', 'incomplete', false)]],
    ['a waved incomplete whose comment could not be written', 'error', 'fail', [look('failed', 'incomplete', true)]],
    ['a fail beside a waved incomplete', 'fail', 'fail', [look('decided', 'fail'), look('decided', 'incomplete', true)]],
    ['a refused record', 'error', 'fail', [look('refused', 'error')]]
  ])('%s: result %s, step %s', (_name, result, outcome, looks) => {
    const r = collectorResult(looks)
    expect(r.result).toBe(result)
    expect(r.step.outcome).toBe(outcome)
  })
})
