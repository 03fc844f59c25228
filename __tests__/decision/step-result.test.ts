/**
 * Whether the step passes, for the gate and validate mode: fail_on_incomplete
 * and "a cancelled job never passes", in one table each.
 */
import { describe, expect, it } from '@jest/globals'
import { gateStepResult, validationStepResult } from '../../src/decision/step-result.js'
import { validationResult } from '../../src/decision/validation-result.js'
import type { GateResult } from '../../src/decision/decide.js'

describe('the gate step', () => {
  it.each<[GateResult, boolean, boolean, string, string | undefined]>([
    ['pass', true, false, 'pass', undefined],
    ['fail', true, false, 'fail', undefined],
    ['error', true, false, 'fail', undefined],
    ['incomplete', true, false, 'fail', undefined],
    ['incomplete', false, false, 'warn', undefined],
    ['pass', true, true, 'fail', 'error'],
    ['incomplete', false, true, 'fail', 'error'],
    ['fail', true, true, 'fail', 'error'],
    ['error', true, true, 'fail', undefined]
  ])('%s, fail_on_incomplete %s, cancelled %s: %s', (result, failOnIncomplete, cancelled, outcome, resultOutput) => {
    const step = gateStepResult({ result, reason: 'why', incompleteWhy: 'coverage' }, { failOnIncomplete, cancelled })
    expect(step.outcome).toBe(outcome)
    expect(step.resultOutput).toBe(resultOutput)
    expect(step.line).toMatch(
      cancelled && result !== 'error' ? /^Result: error: the step was cancelled/ : new RegExp(`^Result: ${result}: why`)
    )
  })

  it('says why an incomplete result does not fail the step', () => {
    expect(
      gateStepResult({ result: 'incomplete', reason: 'r', incompleteWhy: 'coverage' }, { failOnIncomplete: false, cancelled: false }).line
    ).toBe('Result: incomplete: r (fail_on_incomplete is false: not failing the step)')
  })

  it('an incomplete that does not say why is taken as missing evidence: fail_on_incomplete false does not wave it', () => {
    const step = gateStepResult({ result: 'incomplete', reason: 'r' }, { failOnIncomplete: false, cancelled: false })
    expect(step.outcome).toBe('fail')
    expect(step.line).toBe('Result: incomplete: r (fail_on_incomplete waves incomplete coverage only, not missing evidence)')
  })
})

describe('the validate step', () => {
  const counts = { total: 2, resolved: 1, stillBroken: 0, notEligible: 0, notAttempted: 1, runsListed: 1, runsScanned: 1 }

  it.each([
    [{ stillBroken: 1 }, true, true],
    [{ stillBroken: 1 }, false, true],
    [{}, true, true],
    [{}, false, false],
    [{ notAttempted: 0 }, true, false]
  ])('%j, fail_on_incomplete %s: failed %s', (over, failOnIncomplete, failed) => {
    expect(validationResult({ ...counts, ...over }, { model: 'm', failOnIncomplete }).failed).toBe(failed)
  })

  it('a cancelled step never passes; a failed one keeps its reason', () => {
    expect(validationStepResult({ failed: false, reason: 'ok' }, { cancelled: true })).toEqual({
      outcome: 'fail',
      resultOutput: 'error',
      line: 'Validation: error: the step was cancelled before it finished'
    })
    expect(validationStepResult({ failed: true, reason: 'broken' }, { cancelled: true })).toEqual({
      outcome: 'fail',
      line: 'Validation: broken'
    })
    expect(validationStepResult({ failed: false, reason: 'ok' }, { cancelled: false })).toEqual({ outcome: 'pass', line: 'Validation: ok' })
  })
})
