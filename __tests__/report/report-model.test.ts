import { describe, expect, it } from '@jest/globals'
import { buildReport } from '../../src/report/build-report.js'
import { describeCounts, formatElapsed } from '../../src/report/describe.js'
import { isRedactedFinding } from '../../src/report/build-findings.js'
import { REDACTION_REASON } from '../../src/report/report-model.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'
import {
  coverageRow,
  makeAttack,
  makeCoverage,
  makeFinding,
  makeRun,
  makeRunListItem,
  makeStep,
  PLANNED,
  redactedFinding,
  TARGET_TOKEN
} from '../__fixtures__/builders.js'

describe('buildReport: findings', () => {
  const findings = [
    makeFinding('low', { finding_id: 'l1' }),
    makeFinding('high', { finding_id: 'h1', status: 'dismissed' }),
    makeFinding('medium', { finding_id: 'm1' }),
    makeFinding('high', { finding_id: 'h2' }),
    makeFinding('critical', { finding_id: 'c1', status: 'fixed' }),
    redactedFinding('high', { finding_id: 'h3' }),
    makeFinding('critical', { finding_id: 'c2' })
  ]
  const report = buildReport(makeInput({ minSeverity: 'high', findings }))

  it('orders every finding most severe first, open before others, else in the service order', () => {
    expect(report.findings.map((f) => f.findingId)).toEqual(['c2', 'c1', 'h2', 'h3', 'h1', 'm1', 'l1'])
  })

  it('groups the findings at or above the threshold by severity, most severe first', () => {
    expect(report.groups.map((g) => [g.severity, g.findings.map((f) => f.findingId)])).toEqual([
      ['critical', ['c2', 'c1']],
      ['high', ['h2', 'h3', 'h1']]
    ])
    expect(report.below.map((f) => f.findingId)).toEqual(['m1', 'l1'])
  })

  it('counts per severity, open, at or above, below, redacted and by standing', () => {
    expect(report.counts).toEqual({
      total: 7,
      bySeverity: { critical: 2, high: 3, medium: 1, low: 1 },
      openBySeverity: { critical: 1, high: 2, medium: 1, low: 1 },
      atOrAbove: 5,
      openAtOrAbove: 3,
      belowThreshold: 2,
      belowBySeverity: { critical: 0, high: 0, medium: 1, low: 1 },
      redacted: 1,
      redactedAtOrAbove: 1,
      byStanding: {
        blocking: { critical: 1, high: 2, medium: 0, low: 0 },
        known: { critical: 0, high: 0, medium: 0, low: 0 },
        accepted: { critical: 0, high: 0, medium: 0, low: 0 },
        closed: { critical: 1, high: 1, medium: 0, low: 0 },
        below: { critical: 0, high: 0, medium: 1, low: 1 }
      },
      bySteadiness: { steady: 0, flaky: 0 }
    })
    expect(report.findings.map((f) => [f.findingId, f.standing])).toEqual([
      ['c2', 'blocking'],
      ['c1', 'closed'],
      ['h2', 'blocking'],
      ['h3', 'blocking'],
      ['h1', 'closed'],
      ['m1', 'below'],
      ['l1', 'below']
    ])
    expect(report.redactionReason).toBe(REDACTION_REASON)
  })

  it.each([
    ['critical', 2, 5],
    ['high', 5, 2],
    ['medium', 6, 1],
    ['low', 7, 0]
  ] as const)('at min_severity %s: %i at or above, %i below', (minSeverity, above, below) => {
    const r = buildReport(makeInput({ minSeverity, findings }))
    expect(r.counts?.atOrAbove).toBe(above)
    expect(r.counts?.belowThreshold).toBe(below)
    expect(r.groups.flatMap((g) => g.findings)).toHaveLength(above)
  })

  it('unreadable findings give no counts, no groups and no redaction reason', () => {
    const r = buildReport(makeInput({ findings: null }))
    expect(r.findingsReadable).toBe(false)
    expect(r.counts).toBeNull()
    expect(r.groups).toEqual([])
    expect(r.redactionReason).toBeNull()
  })

  it('no redacted finding, no redaction reason', () => {
    expect(buildReport(makeInput()).redactionReason).toBeNull()
  })

  it.each([
    ['redacted text and no attacks', { description: '[redacted]', expected_behavior: '[redacted]', attacks: [] }, true],
    ['only the expected behaviour redacted', { expected_behavior: '[redacted]', attacks: [] }, true],
    ['text present', { attacks: [] }, false],
    ['redacted text but attacks present', { description: '[redacted]', expected_behavior: '[redacted]' }, false]
  ])('isRedactedFinding: %s', (_name, over, expected) => {
    expect(isRedactedFinding(makeFinding('high', over))).toBe(expected)
  })
})

describe('buildReport: coverage rows', () => {
  it('one row per planned category in plan order, unreached ones marked, probed extras after', () => {
    const r = buildReport(
      makeInput({
        run: makeRun({ categories_planned: ['a', 'b', 'c', 'a'], categories_completed: ['a'] }),
        coverage: makeCoverage([
          coverageRow('x'),
          coverageRow('b', { attacks_blocked: 3, attacks_succeeded: 0, worst_severity: null }),
          coverageRow('a')
        ])
      })
    )
    expect(r.coverageRows.map((row) => [row.category, row.planned, row.state])).toEqual([
      ['a', true, 'completed'],
      ['b', true, 'partial'],
      ['c', true, 'not reached'],
      ['x', false, 'partial']
    ])
    expect(r.coverageRows[1]).toMatchObject({ blocked: 3, succeeded: 0, worstSeverity: null, owasp: 'LLM01' })
    expect(r.coverageRows[2]).toMatchObject({ blocked: null, succeeded: null, owasp: null, atlas: null })
    expect(r.coverageCompleted).toBe(1)
    expect(r.coverageNotReached).toBe(1)
  })

  it('a category with a row but no attacks and not completed is not reached', () => {
    const r = buildReport(
      makeInput({
        run: makeRun({ categories_planned: ['a'], categories_completed: [] }),
        coverage: makeCoverage([coverageRow('a', { attacks_blocked: 0, attacks_succeeded: 0 })])
      })
    )
    expect(r.coverageRows[0]?.state).toBe('not reached')
  })

  it('unreadable coverage keeps the planned rows, without counts', () => {
    const r = buildReport(makeInput({ coverage: null }))
    expect(r.coverageReadable).toBe(false)
    expect(r.coverageRows.map((row) => [row.state, row.blocked])).toEqual([
      ['completed', null],
      ['completed', null],
      ['completed', null]
    ])
  })

  it('without the run status, the plan comes from the list item and completion is unknown', () => {
    const r = buildReport(
      makeInput({
        run: null,
        runListItem: makeRunListItem({ run_id: 'run_9', categories_planned: ['a', 'b'] }),
        coverage: makeCoverage([coverageRow('a')])
      })
    )
    expect(r.runId).toBe('run_9')
    expect(r.categoriesCompleted).toBeNull()
    expect(r.coverageRows.map((row) => row.state)).toEqual(['probed', 'not reached'])
  })

  it.each([
    ['left out', { run_id: undefined, model_id: undefined, started_at: undefined, completed_at: undefined }],
    ['null', { run_id: null, model_id: null, started_at: null, completed_at: null }]
  ] as const)('a run status with run_id, started_at and completed_at %s takes them from the list item', (_how, patch) => {
    const r = buildReport(makeInput({ run: makeRun(patch), runListItem: makeRunListItem({ run_id: 'run_9' }) }))
    expect([r.runId, r.startedAt, r.completedAt, r.runStatus]).toEqual([
      'run_9',
      '2026-11-21T00:00:00Z',
      '2026-11-21T00:03:12Z',
      'completed'
    ])
    const bare = buildReport(makeInput({ run: makeRun(patch), runListItem: null }))
    expect([bare.runId, bare.startedAt, bare.completedAt]).toEqual([null, null, null])
    expect(bare.categoriesPlanned).toEqual([...PLANNED])
  })

  it('statuses the description does not name are kept as text, secrets scrubbed', () => {
    const secret = 'sk_live_status_0123'
    const r = buildReport(
      makeInput({
        run: makeRun({ status: 'queued' }),
        findings: [makeFinding('high', { status: `reopened ${secret}`, attacks: [makeAttack({ last_replay_status: 'replaying' })] })],
        secrets: [secret]
      })
    )
    expect(r.runStatus).toBe('queued')
    expect(r.findings[0]?.status).toBe('reopened ***')
    expect(r.findings[0]?.attacks[0]?.lastReplayStatus).toBe('replaying')
  })

  it('a run that never started has no plan and no rows', () => {
    const r = buildReport(makeInput({ run: null, runListItem: null, coverage: null, findings: null, result: 'error' }))
    expect(r.runId).toBeNull()
    expect(r.runStatus).toBeNull()
    expect(r.categoriesPlanned).toBeNull()
    expect(r.coverageRows).toEqual([])
  })
})

describe('buildReport: credentials', () => {
  const step = makeStep({
    url: `https://bot:hunter2@agent.example.test/chat?api_key=${TARGET_TOKEN}&lang=en`,
    headers: {
      Authorization: 'Bearer abc',
      'Proxy-Authorization': 'Basic xyz',
      Cookie: 'sid=1',
      'Set-Cookie': 'sid=2',
      'X-Api-Key': 'k',
      'X-Auth-Token': 't',
      'X-Client-Secret': 's',
      'X-Session-Id': 'sess',
      'X-Password': 'p',
      'X-Forwarded-Authorization': 'Bearer q',
      'X-Custom': 'Bearer hidden-in-another-header',
      'Content-Type': 'application/json',
      Accept: 'text/plain'
    }
  })
  const r = buildReport(makeInput({ findings: [makeFinding('high', { attacks: [makeAttack({ replay_script: [step] })] })] }))
  const headers = r.findings[0]?.attacks[0]?.steps[0]?.headers ?? {}

  it('replaces credential-looking header values, keeps the others', () => {
    for (const name of Object.keys(headers)) {
      if (name === 'Content-Type' || name === 'Accept') continue
      expect([name, headers[name]]).toEqual([name, '***'])
    }
    expect(headers['Content-Type']).toBe('application/json')
    expect(headers.Accept).toBe('text/plain')
  })

  it('shows header values that are not strings as text, and still redacts credential-like names', () => {
    const mixed = makeStep({
      headers: {
        'Content-Length': 42,
        'X-Cache': false,
        'X-Empty': null,
        Vary: ['Accept', 'Origin'],
        'X-Api-Key': 12345678,
        Cookie: ['a=1', 'b=2']
      }
    })
    const m = buildReport(makeInput({ findings: [makeFinding('high', { attacks: [makeAttack({ replay_script: [mixed] })] })] }))
    expect(m.findings[0]?.attacks[0]?.steps[0]?.headers).toEqual({
      'Content-Length': '42',
      'X-Cache': 'false',
      'X-Empty': 'null',
      Vary: 'Accept, Origin',
      'X-Api-Key': '***',
      Cookie: '***'
    })
  })

  it('redacts user-info and credential parameters of the replay URL', () => {
    expect(r.findings[0]?.attacks[0]?.steps[0]?.url).toBe('https://***@agent.example.test/chat?api_key=***&lang=en')
  })

  it('scrubs the given secrets from every value', () => {
    const secret = 'sk_live_0123456789'
    const hostile = makeFinding('high', {
      description: `leaked ${secret} here`,
      attacks: [makeAttack({ replay_script: [makeStep({ response: `key=${secret}`, headers: { 'X-Echo': secret } })] })]
    })
    const s = buildReport(makeInput({ findings: [hostile], notes: [`note ${secret}`], reason: `reason ${secret}`, secrets: [secret, ''] }))
    expect(JSON.stringify(s)).not.toContain(secret)
    expect(s.findings[0]?.description).toBe('leaked *** here')
    expect(s.notes[0]).toBe('note ***')
  })
})

describe('small helpers', () => {
  it.each([
    [null, null],
    [-1, null],
    [850, '850 ms'],
    [12_000, '12 s'],
    [192_000, '3 min 12 s'],
    [3_725_000, '1 h 2 min']
  ])('formatElapsed(%p) = %p', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text)
  })

  it.each([
    [{ critical: 0, high: 0, medium: 0, low: 0 }, 'none'],
    [{ critical: 1, high: 0, medium: 2500, low: 0 }, '1 critical, 2,500 medium']
  ])('describeCounts %#', (counts, text) => {
    expect(describeCounts(counts)).toBe(text)
  })
})
