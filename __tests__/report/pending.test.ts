/** The pending record of a detached run: read only in its exact shape, under its marker, on the second line. */
import { describe, expect, it } from '@jest/globals'
import { decodeRecordKey, recordSubjectKey } from '../../src/report/comment.js'
import { pendingMarker, readPendingRecord, renderAssessingComment } from '../../src/report/pending.js'

const MARKER = '<!-- asas-gate:model=m_1 -->'
const SHA = 'a'.repeat(40)
const line = (run: string, commit = SHA, at = '2026-11-21T12:00Z') => `<!-- asas-gate:pending=1;run=${run};commit=${commit};at=${at} -->`

describe('readPendingRecord', () => {
  it.each<[string, string, ReturnType<typeof readPendingRecord>]>([
    ['a run', `${MARKER}\n${line('run_1')}\nbody`, { runId: 'run_1', commit: SHA, at: '2026-11-21T12:00Z' }],
    ['queued', `${MARKER}\r\n${line('-', SHA, '-')}\r\n`, { runId: null, commit: SHA, at: null }],
    ['another marker', `<!-- asas-gate:model=m_2 -->\n${line('run_1')}`, null],
    ['not the second line', `${MARKER}\n\n${line('run_1')}`, null],
    ['quoted in a body', `> ${MARKER}\n${line('run_1')}`, null],
    ['a short commit', `${MARKER}\n${line('run_1', 'abc1234')}`, null],
    ['a run id that could break out', `${MARKER}\n${line('run_1 -->')}`, null],
    ['extra fields', `${MARKER}\n<!-- asas-gate:pending=1;run=r;commit=${SHA};at=-;policy=x -->`, null],
    ['no body', '', null]
  ])('%s', (_what, body, want) => {
    expect(readPendingRecord(body, MARKER)).toEqual(want)
  })

  it('round-trips what pendingMarker writes, and refuses to write what it cannot read back', () => {
    const p = { runId: 'run_9', commit: 'b'.repeat(64), at: null }
    expect(readPendingRecord(`${MARKER}\n${pendingMarker(p)}`, MARKER)).toEqual(p)
    expect(() => pendingMarker({ ...p, runId: 'run 9' })).toThrow(/runId/)
    expect(() => pendingMarker({ ...p, runId: '-' })).toThrow(/runId/)
    expect(() => pendingMarker({ ...p, commit: 'abc' })).toThrow(/commit/)
  })

  it('the assessing comment holds its record and says the status stays pending', () => {
    const body = renderAssessingComment({
      marker: MARKER,
      pending: { runId: 'run_1', commit: SHA, at: null },
      subject: 'm_1',
      context: 'agent-security/m_1',
      deadline: '2026-11-21T12:45:00.000Z',
      runUrl: null,
      budgetLine: 'Assessments spent by this step: 1 (assessed run run_1 of aaaaaaa).'
    })
    expect(readPendingRecord(body, MARKER)).toEqual({ runId: 'run_1', commit: SHA, at: null })
    expect(body).toContain('Until then the status is pending and the merge waits')
    expect(body).toContain('2026-11-21 12:45 UTC')
  })
})

describe('decodeRecordKey', () => {
  it.each(['agent-app-x1y2-team.vercel.app', '127.0.0.1:8443', '[::1]:3000', 'ünï.example'])('reads back %s', (host) => {
    expect(decodeRecordKey(recordSubjectKey(host))).toBe(host)
  })
  it('a hashed key (too long to hold) reads as a long name', () => {
    expect(decodeRecordKey(recordSubjectKey('h'.repeat(700)))).toBe('(a long name)')
  })
})
