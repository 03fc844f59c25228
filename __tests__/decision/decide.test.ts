import { describe, expect, it } from '@jest/globals'
import type { CoverageResponse, CoverageRow, Severity } from '../../src/service/contract/index.js'
import { decide, type DecideInput, type GateResult } from '../../src/decision/decide.js'
import { computeVerdict } from '../../src/decision/verdict.js'
import { makeFinding } from '../__fixtures__/builders.js'

const planned = ['a', 'b', 'c']
const base: DecideInput = {
  status: 'completed',
  verdict: 'pass',
  minSeverity: 'high',
  categoriesPlanned: planned,
  categoriesCompleted: planned,
  ingestIncomplete: false,
  findings: [],
  coverageReadable: true
}

function row(category: string, worst: Severity | null = null, succeeded = worst ? 1 : 0): CoverageRow {
  return { category, attacks_blocked: 3, attacks_succeeded: succeeded, owasp: 'LLM01:2025', atlas: 'AML.T0051', worst_severity: worst }
}
/** A coverage read consistent with `base`: one clean row per planned category. */
function cov(rows: CoverageRow[] = planned.map((c) => row(c)), over: Partial<CoverageResponse> = {}): CoverageResponse {
  return { run_id: 'r', run_status: 'completed', categories: rows, ...over }
}

const cases: [string, Partial<DecideInput>, GateResult, RegExp][] = [
  ['clean completed run', {}, 'pass', /no open findings at or above high; all 3 planned categories covered/],
  ['service verdict fail', { verdict: 'fail', findings: [makeFinding('high')] }, 'fail', /1 open finding at or above high \(1 high\)/],
  ['fail with findings unreadable', { verdict: 'fail', findings: null }, 'fail', /verdict is fail at high/],
  [
    'fail wins over incomplete coverage',
    { verdict: 'fail', status: 'cancelled', categoriesCompleted: ['a'], findings: [makeFinding('critical')] },
    'fail',
    /critical/
  ],
  [
    'cancelled run without failures',
    { status: 'cancelled', categoriesCompleted: ['a'] },
    'incomplete',
    /1 of 3 categories reached, run cancelled, missing b, c/
  ],
  ['errored run', { status: 'error' }, 'incomplete', /run error/],
  ['completed but a planned category missing', { categoriesCompleted: ['a', 'b'] }, 'incomplete', /missing c/],
  ['ingest incomplete', { ingestIncomplete: true }, 'incomplete', /ingest incomplete/],
  ['ingest unknown', { ingestIncomplete: null }, 'incomplete', /could not be read/],
  ['no categories planned', { categoriesPlanned: [], categoriesCompleted: [] }, 'incomplete', /planned no categories/],
  ['verdict missing, findings unreadable', { verdict: null, findings: null }, 'error', /cannot be trusted/],
  ['verdict missing, computed fail', { verdict: undefined, findings: [makeFinding('critical')] }, 'fail', /1 critical/],
  [
    'verdict missing, computed pass',
    { verdict: null, findings: [makeFinding('medium'), makeFinding('high', { status: 'dismissed' })] },
    'pass',
    /no open findings/
  ],
  ['service pass contradicted by findings', { verdict: 'pass', findings: [makeFinding('high')] }, 'fail', /1 open finding/],
  ['still running', { status: 'running', verdict: null }, 'error', /had not ended/],
  ['timed out while running', { status: 'running', verdict: null, timedOut: true }, 'error', /timeout_minutes ran out/],
  [
    'timed out, cancelled, nothing failing',
    { status: 'cancelled', timedOut: true, categoriesCompleted: ['a'] },
    'error',
    /^timeout_minutes ran out and the run was cancelled; coverage incomplete: 1 of 3/
  ],
  ['aborted while running', { status: 'running', verdict: null, aborted: true }, 'error', /step was cancelled/],
  ['status unreadable', { status: null }, 'error', /could not be read/],
  [
    'status unreadable, with the read failure',
    { status: null, statusReadError: 'GET /api/v1/run/r HTTP 401 unauthorized: revoked' },
    'error',
    /^the run status could not be read: GET \/api\/v1\/run\/r HTTP 401 unauthorized: revoked$/
  ],
  [
    'status no longer readable while running',
    { status: 'running', verdict: null, statusReadError: 'GET /api/v1/run/r HTTP 404 not_found: gone' },
    'error',
    /could no longer be read while the run was still running: GET .* 404 not_found: gone; 3 of 3/
  ],
  [
    'status no longer readable, run cancelled by the step',
    { status: 'cancelled', categoriesCompleted: ['a'], statusReadError: 'x' },
    'error',
    /^the run status could no longer be read, so the run was cancelled: x; coverage incomplete/
  ],
  [
    'timed out after an open high finding: error, and the finding said',
    { verdict: 'fail', status: 'cancelled', timedOut: true, categoriesCompleted: ['a'], findings: [makeFinding('high')] },
    'error',
    /^timeout_minutes ran out and the run was cancelled; 1 open finding at or above high \(1 high\) in what it reached$/
  ],
  [
    'aborted after an open critical finding: error',
    { verdict: 'fail', status: 'cancelled', aborted: true, categoriesCompleted: ['a'], findings: [makeFinding('critical')] },
    'error',
    /step was cancelled.*1 critical\) in what it reached/
  ],
  ['findings unreadable (409 after terminal) with a pass verdict', { findings: null }, 'error', /findings could not be read/],
  ['coverage unreadable with a pass verdict', { coverageReadable: false }, 'error', /coverage could not be read/],
  [
    'coverage unreadable but the verdict is fail',
    { coverageReadable: false, verdict: 'fail', findings: [makeFinding('high')] },
    'fail',
    /1 open finding/
  ],
  ['coverage given as null (unreadable) with a pass verdict', { coverage: null }, 'error', /coverage could not be read/],

  // Run statuses the description does not name: never terminal, never pass.
  [
    'unknown run status "queued"',
    { status: 'queued', verdict: null },
    'error',
    /had not ended: its status is "queued", not a terminal status; 3 of 3/
  ],
  ['unknown run status with a pass verdict', { status: 'pending', verdict: 'pass' }, 'error', /not a terminal status/],
  ['status in another case ("COMPLETED")', { status: 'COMPLETED' }, 'error', /"COMPLETED", not a terminal status/],
  [
    'timed out while "queued"',
    { status: 'queued', verdict: null, timedOut: true },
    'error',
    /timeout_minutes ran out while the run was still "queued" \(not a terminal status\)/
  ],

  // Finding statuses the description does not name.
  [
    'no verdict: an unknown status at or above the threshold counts as open',
    { verdict: null, findings: [makeFinding('high', { status: 'reopened' })] },
    'fail',
    /1 open finding at or above high \(1 high\)/
  ],
  [
    'no verdict: an unknown status below the threshold does not',
    { verdict: null, findings: [makeFinding('low', { status: 'reopened' })] },
    'pass',
    /no open findings/
  ],
  [
    'service pass over an unknown status is not trusted (only fixed, dismissed, FIXED_VERIFIED close)',
    { verdict: 'pass', findings: [makeFinding('critical', { status: 'in_review' })] },
    'fail',
    /1 open finding at or above high \(1 critical\)/
  ],
  [
    'service fail with only unknown statuses',
    { verdict: 'fail', findings: [makeFinding('high', { status: 'triaged' })] },
    'fail',
    /1 open finding at or above high \(1 high\)/
  ],

  // Coverage against the run and the findings.
  ['coverage consistent with the run and the findings', { coverage: cov() }, 'pass', /all 3 planned categories covered/],
  ['coverage without run_id', { coverage: cov(undefined, { run_id: undefined }) }, 'pass', /all 3 planned categories covered/],
  ['a completed category has no coverage row', { coverage: cov([row('a'), row('b')]) }, 'incomplete', /no coverage row for c/],
  ['two completed categories have no coverage row', { coverage: cov([row('a')]) }, 'incomplete', /no coverage row for b, c/],
  [
    'coverage run_status cancelled while the run status is completed',
    { coverage: cov(undefined, { run_status: 'cancelled' }) },
    'incomplete',
    /coverage reports run_status cancelled while the run status is completed/
  ],
  [
    'coverage run_status running while the run status is completed',
    { coverage: cov(undefined, { run_status: 'running' }) },
    'incomplete',
    /run_status running/
  ],
  ['coverage run_status unknown: a note only', { coverage: cov(undefined, { run_status: 'finalizing' }) }, 'pass', /all 3 planned/],
  [
    'coverage reports a high finding the findings list does not hold',
    { coverage: cov([row('a', 'high'), row('b'), row('c')]) },
    'error',
    /^coverage reports a high finding in a that the findings list does not hold; the result cannot be trusted$/
  ],
  [
    'coverage reports a critical finding, the list holds only a low one there',
    { coverage: cov([row('a'), row('b', 'critical'), row('c')]), findings: [makeFinding('low', { status: 'open', category: 'b' })] },
    'error',
    /critical finding in b/
  ],
  [
    'coverage high finding held by a fixed finding of the category',
    { coverage: cov([row('a', 'high'), row('b'), row('c')]), findings: [makeFinding('high', { status: 'fixed', category: 'a' })] },
    'pass',
    /no open findings/
  ],
  [
    'coverage high finding held, but in another category only',
    { coverage: cov([row('a', 'high'), row('b'), row('c')]), findings: [makeFinding('high', { status: 'fixed', category: 'b' })] },
    'error',
    /high finding in a/
  ],
  [
    'coverage reports a low finding below the threshold: not checked',
    { coverage: cov([row('a', 'low'), row('b'), row('c')]) },
    'pass',
    /no open findings/
  ],
  [
    'coverage row of a category not planned, with a missing finding: a note only',
    { coverage: cov([...planned.map((c) => row(c)), row('z', 'critical')]) },
    'pass',
    /no open findings/
  ],
  [
    'coverage contradiction on a cancelled run',
    { status: 'cancelled', categoriesCompleted: ['a'], coverage: cov([row('a', 'high')], { run_status: 'cancelled' }) },
    'error',
    /high finding in a/
  ],
  [
    'a fail stands over a coverage contradiction',
    {
      verdict: 'fail',
      findings: [makeFinding('critical', { status: 'open', category: 'b' })],
      coverage: cov([row('a', 'high'), row('b', 'critical'), row('c')])
    },
    'fail',
    /1 open finding at or above high \(1 critical\)/
  ]
]

describe('decide', () => {
  it.each(cases)('%s -> %s', (_name, patch, result, reason) => {
    const d = decide({ ...base, ...patch })
    expect(d.result).toBe(result)
    expect(d.reason).toMatch(reason)
  })

  it('never passes an untrusted result', () => {
    const untrusted: Partial<DecideInput>[] = cases.filter(([, , r]) => r !== 'pass').map(([, p]) => p)
    for (const patch of untrusted) expect(decide({ ...base, ...patch }).result).not.toBe('pass')
  })

  it('says when the verdict was computed locally', () => {
    const d = decide({ ...base, verdict: null, findings: [makeFinding('low')] })
    expect(d).toMatchObject({ verdict: 'pass', verdictComputed: true })
    expect(d.notes.join(' ')).toMatch(/computed from the findings/)
    expect(decide(base).verdictComputed).toBe(false)
  })

  it('counts findings at or above the threshold, and open ones apart', () => {
    const d = decide({
      ...base,
      verdict: 'fail',
      findings: [makeFinding('critical'), makeFinding('high', { status: 'fixed' }), makeFinding('low')]
    })
    expect(d.findingsAtOrAbove).toBe(2)
    expect(d.openAtOrAbove).toBe(1)
  })

  it('notes the unknown finding statuses and how they counted', () => {
    const computed = decide({ ...base, verdict: null, findings: [makeFinding('high', { status: 'reopened' })] })
    expect(computed.notes.join(' ')).toMatch(
      /1 finding at or above high has a status this action does not know: "f_\d+" \("reopened"\); counted as open \(fail closed\)/
    )
    expect(computed.openAtOrAbove).toBe(1)
    // A service pass beside a status that does not close the finding is not trusted (fail closed).
    const serviceSays = decide({ ...base, verdict: 'pass', findings: [makeFinding('high', { status: 'in_review' })] })
    expect(serviceSays.notes.join(' ')).toMatch(/"in_review"\); counted as open \(fail closed\)/)
    expect(serviceSays.openAtOrAbove).toBe(1)
    expect(serviceSays.result).toBe('fail')
  })

  it.each(['OPEN', 'open ', 'reopened', 'in_review', ''])('a service pass beside a high finding in status %j fails closed', (status) => {
    const d = decide({ ...base, verdict: 'pass', findings: [makeFinding('high', { status })] })
    expect(d.result).toBe('fail')
  })

  it.each(['fixed', 'dismissed', 'FIXED_VERIFIED'])('a service pass beside a high finding in the closed status %s stands', (status) => {
    expect(decide({ ...base, verdict: 'pass', findings: [makeFinding('high', { status })] }).result).toBe('pass')
  })

  it('notes coverage facts that are not failures', () => {
    const unplanned = decide({ ...base, coverage: cov([...planned.map((c) => row(c)), row('z', 'critical')]) })
    expect(unplanned.notes.join(' ')).toMatch(
      /critical finding in z, a category the run did not plan, that the findings list does not hold/
    )
    const unknown = decide({ ...base, coverage: cov(undefined, { run_status: 'finalizing' }) })
    expect(unknown.notes.join(' ')).toMatch(/run_status "finalizing", a status this action does not know/)
    const disagree = decide({ ...base, coverage: cov(undefined, { run_status: 'error' }) })
    expect(disagree.notes.join(' ')).toMatch(/The run status \(completed\) and the coverage \(run_status error\) disagree/)
    const failAnyway = decide({
      ...base,
      verdict: 'fail',
      findings: [makeFinding('high', { status: 'open', category: 'b' })],
      coverage: cov([row('a', 'high'), row('b', 'high'), row('c')])
    })
    expect(failAnyway.notes.join(' ')).toMatch(/Also: coverage reports a high finding in a/)
  })

  it.each([
    ['low', [makeFinding('low')], 'fail'],
    ['medium', [makeFinding('low')], 'pass'],
    ['critical', [makeFinding('high')], 'pass'],
    ['critical', [makeFinding('critical', { status: 'FIXED_VERIFIED' })], 'pass'],
    ['low', [makeFinding('critical', { status: 'dismissed' }), makeFinding('low', { status: 'open' })], 'fail'],
    ['high', [makeFinding('high', { status: 'reopened' })], 'fail'],
    ['high', [makeFinding('critical', { status: 'OPEN' })], 'fail'],
    ['high', [makeFinding('medium', { status: 'reopened' })], 'pass'],
    [
      'high',
      [
        makeFinding('high', { status: 'fixed' }),
        makeFinding('high', { status: 'dismissed' }),
        makeFinding('high', { status: 'FIXED_VERIFIED' })
      ],
      'pass'
    ]
  ] as const)('computeVerdict at %s', (min, findings, expected) => {
    expect(computeVerdict(findings, min)).toBe(expected)
  })
})
