/**
 * The rules as properties: a result is never better than its inputs allow.
 * decide() passes only when the run ended on its own, completed, fully covered
 * and read, with nothing expired, and no finding it counts as open at or above
 * the threshold is left unwaived; the service's fail becomes a pass only by the
 * rule the docs name (every open finding behind it is waived: accepted, or
 * known since the baseline with fail_on new). And the step built on a result
 * never passes what decide() did not pass, nor anything cancelled.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { decide, type DecideInput } from '../../src/decision/decide.js'
import { gateStepResult, validationStepResult } from '../../src/decision/step-result.js'
import { carriedStepResult, skippedStepResult } from '../../src/decision/carried-result.js'
import { countsAsOpen, type Waiver } from '../../src/decision/verdict.js'
import { atOrAbove, SEVERITIES, type Finding, type Severity } from '../../src/service/contract/index.js'
import { RECORDED_RESULTS } from '../../src/report/comment.js'
import { makeFinding } from '../__fixtures__/builders.js'

const CATEGORIES = ['prompt_injection', 'data_leakage', 'jailbreak']
const STATUSES = ['open', 'fixed', 'dismissed', 'FIXED_VERIFIED', 'reopened', 'OPEN']

const severity = fc.constantFrom<Severity>(...SEVERITIES)

const finding = (i: number): fc.Arbitrary<Finding> =>
  fc
    .record({ severity, status: fc.constantFrom(...STATUSES), category: fc.constantFrom(...CATEGORIES) })
    .map(({ severity: s, status, category }) => makeFinding(s, { finding_id: `f${i}`, status, category }))

const findings: fc.Arbitrary<Finding[]> = fc
  .integer({ min: 0, max: 6 })
  .chain((n) => (n === 0 ? fc.constant([]) : fc.tuple(...Array.from({ length: n }, (_, i) => finding(i)))))

/** Mostly `usual`, now and then `rare`: keeps passes common enough for the properties to bite. */
const mostly = <T>(usual: T, ...rare: T[]): fc.Arbitrary<T> =>
  fc.oneof({ arbitrary: fc.constant(usual), weight: 4 * rare.length }, { arbitrary: fc.constantFrom(...rare), weight: rare.length })

/** Any input decide() may see, biased towards the ones that could pass. */
const decideInput: fc.Arbitrary<DecideInput> = fc
  .record({
    status: mostly<string | null>('completed', 'failed', 'cancelled', 'running', 'queued', 'weird', null),
    verdict: fc.constantFrom('pass', 'fail', null, undefined),
    minSeverity: severity,
    planned: mostly<string[]>(CATEGORIES, [], ['jailbreak'], ['data_leakage', 'jailbreak']),
    missing: mostly<string[]>([], ['jailbreak']),
    ingestIncomplete: mostly<boolean | null>(false, true, null),
    findings: mostly<'drawn' | null>('drawn', null),
    drawnFindings: findings,
    coverageReadable: mostly(true, false),
    timedOut: mostly(false, true),
    aborted: mostly(false, true),
    abortedAfterRun: mostly(false, true),
    statusReadError: mostly<string | null>(null, 'HTTP 503'),
    waivedIds: fc.subarray(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'nope']),
    waiver: fc.constantFrom<Waiver>('accepted', 'known'),
    baselineUncovered: mostly<string[]>([], ['jailbreak']),
    expired: mostly<string[]>([], ['x (expired 2026-01-01)'])
  })
  .map((r) => ({
    status: r.status,
    verdict: r.verdict,
    minSeverity: r.minSeverity,
    categoriesPlanned: r.planned,
    categoriesCompleted: r.planned.filter((c) => !r.missing.includes(c)),
    ingestIncomplete: r.ingestIncomplete,
    findings: r.findings === null ? null : r.drawnFindings,
    coverageReadable: r.coverageReadable,
    timedOut: r.timedOut,
    aborted: r.aborted,
    abortedAfterRun: r.abortedAfterRun,
    statusReadError: r.statusReadError,
    waived: new Map(r.waivedIds.map((id) => [id, r.waiver] as const)),
    baselineUncovered: r.baselineUncovered,
    expiredAcceptances: r.expired
  }))

const openAtOrAbove = (f: Finding, min: Severity): boolean => atOrAbove(f.severity, min) && countsAsOpen(f)

describe('decide: a result is never better than its inputs allow', () => {
  it('the inputs drawn reach every result, and passes the waiver rule made', () => {
    const results = fc.sample(decideInput, { numRuns: 2000, seed: 7 }).map((input) => ({ input, result: decide(input).result }))
    for (const r of ['pass', 'fail', 'incomplete', 'error']) expect(results.filter((x) => x.result === r).length).toBeGreaterThan(20)
    expect(results.filter((x) => x.result === 'pass' && x.input.verdict === 'fail').length).toBeGreaterThan(5)
  })

  it('a pass only when the run ended on its own, completed, fully covered and read, with nothing expired', () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        if (decide(input).result !== 'pass') return
        expect(input.status).toBe('completed')
        expect(input.findings).not.toBeNull()
        expect(input.coverageReadable).toBe(true)
        expect(input.ingestIncomplete).toBe(false)
        expect(input.categoriesPlanned.length).toBeGreaterThan(0)
        expect(input.categoriesCompleted).toEqual(input.categoriesPlanned)
        expect(input.baselineUncovered).toEqual([])
        expect(input.expiredAcceptances).toEqual([])
        expect([input.timedOut, input.aborted, input.abortedAfterRun]).toEqual([false, false, false])
        expect(input.statusReadError).toBeNull()
      }),
      { numRuns: 2000 }
    )
  })

  it('a pass never leaves an open finding at or above the threshold unwaived, whatever the service said', () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        if (decide(input).result !== 'pass') return
        const unwaived = (input.findings ?? []).filter((f) => !input.waived?.has(f.finding_id))
        expect(unwaived.filter((f) => openAtOrAbove(f, input.minSeverity))).toEqual([])
      }),
      { numRuns: 2000 }
    )
  })

  it("the service's fail becomes a pass only when a waived open finding at or above the threshold stands behind it", () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        if (input.verdict !== 'fail' || decide(input).result !== 'pass') return
        const waivedOpen = (input.findings ?? []).filter(
          (f) => input.waived?.has(f.finding_id) === true && openAtOrAbove(f, input.minSeverity)
        )
        expect(waivedOpen.length).toBeGreaterThan(0)
      }),
      { numRuns: 2000 }
    )
  })

  it('without waivers, a service fail or an open finding at or above the threshold is never a pass', () => {
    fc.assert(
      fc.property(decideInput, (drawn) => {
        const input = { ...drawn, waived: new Map<string, Waiver>() }
        const implied = input.verdict === 'fail' || (input.findings ?? []).some((f) => openAtOrAbove(f, input.minSeverity))
        if (implied) expect(decide(input).result).not.toBe('pass')
      }),
      { numRuns: 2000 }
    )
  })

  it('a waiver only ever improves the result by the waiver rule: removing every waiver from a pass leaves a pass or a fail', () => {
    fc.assert(
      fc.property(decideInput, (input) => {
        if (decide(input).result !== 'pass') return
        expect(['pass', 'fail']).toContain(decide({ ...input, waived: new Map() }).result)
      }),
      { numRuns: 2000 }
    )
  })
})

describe('the step: a cancelled step never passes, and it passes only a pass', () => {
  const result = fc.constantFrom(...RECORDED_RESULTS)

  it('gateStepResult', () => {
    fc.assert(
      fc.property(result, fc.boolean(), fc.boolean(), fc.string(), (r, failOnIncomplete, cancelled, reason) => {
        const step = gateStepResult({ result: r, reason }, { failOnIncomplete, cancelled })
        if (cancelled) expect(step.outcome).toBe('fail')
        if (r !== 'pass') expect(step.outcome).not.toBe('pass')
        if (r === 'fail' || r === 'error') expect(step.outcome).toBe('fail')
      })
    )
  })

  it('carriedStepResult and skippedStepResult', () => {
    fc.assert(
      fc.property(result, fc.boolean(), fc.string(), (r, cancelled, reason) => {
        const step = carriedStepResult({ result: r, reason }, { cancelled })
        expect(step.outcome === 'pass').toBe(r === 'pass' && !cancelled)
        expect(skippedStepResult(reason, { cancelled }).outcome === 'pass').toBe(!cancelled)
      })
    )
  })

  it('validationStepResult', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.string(), (failed, cancelled, reason) => {
        expect(validationStepResult({ failed, reason }, { cancelled }).outcome === 'pass').toBe(!failed && !cancelled)
      })
    )
  })
})
