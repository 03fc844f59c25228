/**
 * The step-result rules that keep a bad result from passing the step, one
 * row per input: fail_on_incomplete false bends an incomplete result only
 * (never a fail or an error), and a cancelled step never passes.
 */
import { describe, expect, it } from '@jest/globals'
import { gateStepResult, overviewStepResult, validationStepResult } from '../../src/decision/step-result.js'
import type { GateResult } from '../../src/decision/decide.js'

const RESULTS: GateResult[] = ['pass', 'fail', 'incomplete', 'error']

describe('gateStepResult', () => {
  it.each<[GateResult, boolean, boolean, 'pass' | 'warn' | 'fail']>(
    RESULTS.flatMap((result) =>
      [true, false].flatMap((failOnIncomplete) =>
        [false, true].map((cancelled): [GateResult, boolean, boolean, 'pass' | 'warn' | 'fail'] => [
          result,
          failOnIncomplete,
          cancelled,
          cancelled ? 'fail' : result === 'pass' ? 'pass' : result === 'incomplete' && !failOnIncomplete ? 'warn' : 'fail'
        ])
      )
    )
  )('%s with fail_on_incomplete %s, cancelled %s: the step outcome is %s', (result, failOnIncomplete, cancelled, outcome) => {
    expect(gateStepResult({ result, reason: 'r', incompleteWhy: 'coverage' }, { failOnIncomplete, cancelled }).outcome).toBe(outcome)
  })

  it.each<GateResult>(['fail', 'error'])('fail_on_incomplete false does not soften a %s: the line says the result only', (result) => {
    expect(gateStepResult({ result, reason: 'r' }, { failOnIncomplete: false, cancelled: false })).toEqual({
      outcome: 'fail',
      line: `Result: ${result}: r`
    })
  })

  it('a cancelled step names the result it read and ends in error', () => {
    expect(gateStepResult({ result: 'pass', reason: 'all good' }, { failOnIncomplete: true, cancelled: true })).toEqual({
      outcome: 'fail',
      resultOutput: 'error',
      line: 'Result: error: the step was cancelled before it finished (the assessment read pass: all good)'
    })
  })

  it('a cancelled step whose result is already an error keeps its own line', () => {
    expect(gateStepResult({ result: 'error', reason: 'boom' }, { failOnIncomplete: false, cancelled: true })).toEqual({
      outcome: 'fail',
      line: 'Result: error: boom'
    })
  })

  it('a pass line is the result and its reason', () => {
    expect(gateStepResult({ result: 'pass', reason: 'ok' }, { failOnIncomplete: false, cancelled: false })).toEqual({
      outcome: 'pass',
      line: 'Result: pass: ok'
    })
  })
})

describe('validationStepResult', () => {
  it.each([
    [false, false, 'pass', undefined],
    [true, false, 'fail', undefined],
    [false, true, 'fail', 'error'],
    [true, true, 'fail', undefined]
  ])('failed %s, cancelled %s: %s', (failed, cancelled, outcome, resultOutput) => {
    const step = validationStepResult({ failed, reason: 'r' }, { cancelled })
    expect(step.outcome).toBe(outcome)
    expect(step.resultOutput).toBe(resultOutput)
  })
})

describe('overviewStepResult: only a clear page passes, and a cancelled step never does', () => {
  it.each<['clear' | 'attention' | 'incomplete', boolean, 'pass' | 'fail', 'error' | undefined, string]>([
    ['clear', false, 'pass', undefined, 'Overview: h'],
    ['attention', false, 'fail', undefined, 'Overview: h'],
    ['incomplete', false, 'fail', undefined, 'Overview: h'],
    ['clear', true, 'fail', 'error', 'Overview: error: the step was cancelled before it finished'],
    ['attention', true, 'fail', 'error', 'Overview: error: the step was cancelled before it finished'],
    ['incomplete', true, 'fail', 'error', 'Overview: error: the step was cancelled before it finished']
  ])('a page %s, cancelled %s: %s', (status, cancelled, outcome, resultOutput, line) => {
    expect(overviewStepResult({ status, headline: 'h' }, { cancelled })).toEqual({
      outcome,
      line,
      ...(resultOutput ? { resultOutput } : {})
    })
  })
})
