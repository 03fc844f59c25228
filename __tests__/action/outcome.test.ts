import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

import { decidedFindingsCount, failedOutcome, type BlockingFinding, type EndOutcome, type StepOutcome } from '../../src/action/outcome.js'
import { actionOutputs, OUTPUT_NAMES } from '../../src/action/output-table.js'
import { REPORT_FORMATS } from '../../src/report/formats.js'

const action = parse(readFileSync('action.yml', 'utf8')) as { outputs: Record<string, unknown> }

const prepared = { modelId: 'mdl_1', target: null, profileVersion: 3 }

function step(end: EndOutcome, over: Partial<StepOutcome> = {}): StepOutcome {
  return { end, prepared, result: end.result, conclusion: { outcome: 'pass', line: 'Result: pass' }, ...over }
}

const assessed: EndOutcome = {
  kind: 'assessed',
  result: 'fail',
  runId: 'run_1',
  status: 'completed',
  serviceVerdict: null,
  findingsCount: 2,
  categoriesPlanned: ['a', 'b'],
  categoriesCompleted: ['a'],
  files: {
    report_path: '/t/r.json',
    sarif_path: '/t/r.sarif',
    junit_path: '/t/r.junit.xml',
    markdown_path: '/t/r.md',
    codequality_path: '/t/r.codequality.json'
  },
  baseline: null,
  acceptedCount: 0,
  assessmentsSpent: 1,
  commentUrl: null,
  bySeverity: null,
  agentName: 'mdl_1',
  blocking: []
}

describe("the step's outcome", () => {
  it("is every output action.yml declares, in action.yml's order", () => {
    expect([...OUTPUT_NAMES]).toEqual(Object.keys(action.outputs))
  })

  it("names each report format's file among its outputs", () => {
    for (const f of REPORT_FORMATS) expect(OUTPUT_NAMES).toContain(f.output)
  })

  it.each<[string, StepOutcome, Record<string, string>]>([
    [
      'assessed: every value of the run; a value the run did not give is set empty',
      step(assessed),
      {
        model_id: 'mdl_1',
        profile_version: '3',
        run_id: 'run_1',
        status: 'completed',
        service_verdict: '',
        verdict: '',
        result: 'fail',
        assessments_spent: '1',
        findings_count: '2',
        categories_planned: '["a","b"]',
        categories_completed: '["a"]',
        report_path: '/t/r.json',
        new_count: '',
        known_count: '',
        gone_count: '',
        accepted_count: '0',
        sarif_path: '/t/r.sarif',
        junit_path: '/t/r.junit.xml',
        markdown_path: '/t/r.md',
        codequality_path: '/t/r.codequality.json'
      }
    ],
    [
      'assessed with a baseline and a comment, cancelled after its result: result error',
      step({ ...assessed, baseline: { newCount: 1, knownCount: 2, goneCount: 0 }, commentUrl: 'https://c' }, { result: 'error' }),
      { result: 'error', new_count: '1', known_count: '2', gone_count: '0', comment_url: 'https://c' }
    ],
    [
      'carried over: the result, no assessment spent, its report',
      step({ kind: 'carried_over', result: 'pass', reportPath: '/t/c.json', assessmentsSpent: 0, commentUrl: null }, { prepared: null }),
      { result: 'pass', assessments_spent: '0', report_path: '/t/c.json' }
    ],
    [
      'skipped',
      step({ kind: 'skipped', result: 'skipped', reportPath: '/t/s.json', assessmentsSpent: 0 }, { prepared: null }),
      { result: 'skipped', assessments_spent: '0', report_path: '/t/s.json' }
    ],
    [
      'validated: the counts of the replays',
      step({ kind: 'validated', result: 'pass', resolvedCount: 2, stillBrokenCount: 0, notAttemptedCount: 1, reportPath: '/t/v.json' }),
      {
        model_id: 'mdl_1',
        profile_version: '3',
        result: 'pass',
        report_path: '/t/v.json',
        resolved_count: '2',
        still_broken_count: '0',
        not_attempted_count: '1'
      }
    ],
    [
      'not assessed in validate mode: the result only',
      step({ kind: 'not_assessed', result: 'error', assessmentsSpent: null }, { prepared: null }),
      { result: 'error' }
    ],
    ['failed at once', failedOutcome('gone'), { result: 'error' }]
  ])('%s', (_, outcome, expected) => {
    const outputs = Object.fromEntries(actionOutputs(outcome))
    if (outcome.end.kind === 'assessed' && outcome.result !== 'error') expect(outputs).toEqual(expected)
    else if (outcome.end.kind === 'assessed') expect(outputs).toMatchObject(expected)
    else expect(outputs).toEqual(expected)
  })
})

describe('findings_count counts what the result was decided on', () => {
  const blocker = (reproduced: boolean): BlockingFinding => ({
    findingId: reproduced ? 'f1' : null,
    severity: 'high',
    category: 'tool_misuse',
    description: 'd',
    baselineState: 'new',
    reproduced,
    seen: 'this run only'
  })

  it.each([
    ['the run found nothing and nothing is held', 0, [], 0],
    ['a held weakness this run did not reproduce counts beside the run’s findings', 0, [blocker(false)], 1],
    ['a blocker of this run is among the run’s findings already', 2, [blocker(true)], 2],
    ['both', 3, [blocker(true), blocker(false), blocker(false)], 5],
    ['findings not read: unknown, not zero', null, [blocker(false)], null]
  ] as const)('%s', (_, atOrAbove, blocking, expected) => {
    const count = decidedFindingsCount(atOrAbove, blocking)
    expect(count).toBe(expected)
    // new_count + known_count (the blockers) never exceeds it.
    if (count !== null) expect(blocking.length).toBeLessThanOrEqual(count)
  })
})
