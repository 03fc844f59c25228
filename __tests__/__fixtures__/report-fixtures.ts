/**
 * The report input for tests; the resources in it come from builders.ts
 * (one builder per resource).
 */
import type { ReportInput } from '../../src/report/report-model.js'
import { makeCoverage, makeFinding, makeModel, makeRun, makeRunListItem } from './builders.js'

/** A completed failing run with two findings at or above high and one below. */
export function makeInput(over: Partial<ReportInput> = {}): ReportInput {
  return {
    modelId: 'm_demo',
    model: makeModel(),
    minSeverity: 'high',
    result: 'fail',
    reason: '2 open findings at or above high (1 critical, 1 high)',
    verdict: 'fail',
    verdictComputed: false,
    run: makeRun(),
    runListItem: makeRunListItem(),
    coverage: makeCoverage(),
    findings: [makeFinding('high'), makeFinding('medium'), makeFinding('critical')],
    elapsedMs: 192_000,
    notes: [],
    runUrl: 'https://github.com/acme/shop/actions/runs/42',
    secrets: [],
    policy: null,
    ...over
  }
}
