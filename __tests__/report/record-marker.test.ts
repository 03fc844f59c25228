/**
 * The assessment record of the sticky comment: written under the marker and
 * state lines, read back exactly; a forged, quoted, malformed or inconsistent
 * record reads as no record.
 */
import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { buildReport } from '../../src/report/build-report.js'
import {
  commentMarker,
  previousResult,
  readAssessmentRecord,
  recordMarker,
  recordSubjectKey,
  renderComment,
  withRecord,
  type AssessmentRecord
} from '../../src/report/comment.js'
import { checkMarkdown } from '../__fixtures__/hostile-strings.js'
import { makeInput } from '../__fixtures__/report-fixtures.js'

const A = 'a'.repeat(40)
const H = 'b'.repeat(40)
const DIGEST = 'c'.repeat(64)

const record = (over: Partial<AssessmentRecord> = {}): AssessmentRecord => ({
  result: 'fail',
  assessedSha: A,
  headSha: H,
  subject: recordSubjectKey('target:agent-pr-7'),
  config: '0123abcd',
  host: recordSubjectKey('agent-pr-7.vercel.app'),
  profileDigest: DIGEST,
  policyDigest: null,
  at: '2026-11-21T14:03Z',
  ...over
})

const header = (state = `<!-- asas-gate:result=fail;sha=${A.slice(0, 12)};at=2026-11-21T14:03Z -->`): string =>
  `${commentMarker('m_demo')}\n${state}\n`

describe('recordMarker / readAssessmentRecord', () => {
  test('round trip through a rendered comment, under the marker and the state line', () => {
    const rec = record()
    const out = renderComment(buildReport(makeInput({ commit: { sha: A, at: '2026-11-21T14:03:27Z' } })), { record: rec })
    const lines = out.split('\n')
    expect(lines[0]).toBe(commentMarker('m_demo'))
    expect(lines[2]).toBe(recordMarker(rec))
    expect(readAssessmentRecord(out)).toEqual(rec)
    expect(previousResult(out)).toEqual({ result: 'fail', sha: A.slice(0, 12), at: '2026-11-21T14:03Z' })
    expect(checkMarkdown(out, { allowLinks: ['https://github.com/acme/shop/actions/runs/42'] })).toEqual([])
  })

  test('the record fits within the comment limit', () => {
    const out = renderComment(buildReport(makeInput({ commit: { sha: A, at: null } })), { record: record({ at: null }), limit: 3000 })
    expect(out.length).toBeLessThanOrEqual(3000)
    expect(readAssessmentRecord(out)).not.toBeNull()
  })

  test('the exact line', () => {
    expect(recordMarker(record())).toBe(
      `<!-- asas-gate:record=2;result=fail;assessed=${A};head=${H};subject=target%3Aagent%2Dpr%2D7;config=0123abcd;host=agent%2Dpr%2D7%2Evercel%2Eapp;profile=${DIGEST};policy=-;at=2026-11-21T14:03Z -->`
    )
  })

  test('a long or hostile subject is encoded (no comment end, no line break) and stays distinct', () => {
    const hostile = 'target:x --> <script>\n@team'
    expect(recordSubjectKey(hostile)).toMatch(/^[A-Za-z0-9_%]+$/)
    expect(recordSubjectKey('x'.repeat(1000))).toMatch(/^\.sha256\.[0-9a-f]{64}$/)
    expect(recordSubjectKey('model:a')).not.toBe(recordSubjectKey('model:a '))
    const body = `${header()}${recordMarker(record({ subject: recordSubjectKey(hostile) }))}\n\nreport`
    expect(readAssessmentRecord(body)?.subject).toBe(recordSubjectKey(hostile))
  })

  test('writing a record that cannot hold its values is a bug, not a silent record', () => {
    expect(() => recordMarker(record({ assessedSha: 'abc1234' }))).toThrow(/assessedSha/)
    expect(() => recordMarker(record({ subject: 'model:m' }))).toThrow(/subject/)
    expect(() => recordMarker(record({ profileDigest: 'xyz' }))).toThrow(/profileDigest/)
  })

  const ok = `${header()}${recordMarker(record())}\n\nreport`
  const forged: [string, string][] = [
    ['no model marker on the first line', ok.replace(commentMarker('m_demo'), 'hello')],
    ['a record quoted further down', `${header()}\nreport\n${recordMarker(record())}`],
    ['a record on the second line (no state line)', `${commentMarker('m_demo')}\n${recordMarker(record())}\n`],
    [
      'the state line says pass, the record fail',
      `${header(`<!-- asas-gate:result=pass;sha=${A.slice(0, 12)};at=- -->`)}${recordMarker(record())}\n`
    ],
    ['the state line names another commit', `${header('<!-- asas-gate:result=fail;sha=0123456789ab;at=- -->')}${recordMarker(record())}\n`],
    ['short assessed sha', ok.replace(`assessed=${A}`, 'assessed=aaaaaaa')],
    ['upper-case sha', ok.replace(`head=${H}`, `head=${H.toUpperCase()}`)],
    ['unknown result', ok.replace('record=2;result=fail', 'record=2;result=ok')],
    ['unknown version', ok.replace('record=2;', 'record=3;')],
    [
      'the earlier version, which named no configuration or host',
      ok.replace('record=2;', 'record=1;').replace(/;config=[^;]*;host=[^;]*/, '')
    ],
    ['a long config', ok.replace('config=0123abcd', 'config=0123abcdef')],
    ['extra field', ok.replace(';at=', ';x=1;at=')],
    ['trailing text', ok.replace(' -->\n\nreport', ' --> @x\n\nreport')],
    ['a subject with a dash', ok.replace('subject=target%3Aagent%2Dpr%2D7', 'subject=target-agent')],
    ['a host with a dash', ok.replace('host=agent%2Dpr%2D7%2Evercel%2Eapp', 'host=agent-pr-7.vercel.app')],
    ['a short digest', ok.replace(`profile=${DIGEST}`, 'profile=abc')]
  ]
  test.each(forged)('reads as no record: %s', (_name, body) => {
    expect(readAssessmentRecord(body)).toBeNull()
  })

  test('the state line may name the head the result was carried to', () => {
    const body = `${header(`<!-- asas-gate:result=fail;sha=${H.slice(0, 12)};at=- -->`)}${recordMarker(record())}\n`
    expect(readAssessmentRecord(body)).toEqual(record())
  })

  test('CRLF line ends read the same', () => {
    expect(readAssessmentRecord(ok.replace(/\n/g, '\r\n'))).toEqual(record())
  })

  test('nothing else than the exact shape comes through', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const body = `${header()}<!-- asas-gate:record=1;result=pass${a} -->${b}\n`
        const got = readAssessmentRecord(body)
        if (got !== null) expect(recordMarker(got)).toBe(body.split('\n')[2])
      })
    )
  })
})

describe('withRecord', () => {
  test('puts the record under the state line', () => {
    const body = `${header()}\nreport`
    expect(withRecord(body, record())).toBe(`${header()}${recordMarker(record())}\n\nreport`)
  })

  test('a body without the marker and state lines is left as it is (it records nothing)', () => {
    expect(withRecord('report', record())).toBe('report')
    expect(withRecord(`${commentMarker('m')}\nreport\nmore`, record())).toBe(`${commentMarker('m')}\nreport\nmore`)
  })
})
