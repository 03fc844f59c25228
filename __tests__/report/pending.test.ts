/** The pending record of a detached run: read only in its exact shape, under its marker, on the second line. */
import { describe, expect, it } from '@jest/globals'
import { decodeRecordKey, recordSubjectKey } from '../../src/report/comment.js'
import { pendingMarker, readPendingRecord, recordMinuteMs, renderAssessingComment, type PendingRecord } from '../../src/report/pending.js'
import { pendingMac, pendingSealed, type SealedFields } from '../../src/report/pending-seal.js'

const MARKER = '<!-- asas-gate:model=m_1 -->'
const SHA = 'a'.repeat(40)
const line = (run: string, commit = SHA, at = '2026-11-21T12:00Z') => `<!-- asas-gate:pending=1;run=${run};commit=${commit};at=${at} -->`
const v1 = (runId: string | null, at: string | null): PendingRecord => ({
  runId,
  commit: SHA,
  at,
  categories: [],
  deadline: null,
  mac: null
})
const MAC = 'c'.repeat(64)

describe('readPendingRecord', () => {
  it.each<[string, string, ReturnType<typeof readPendingRecord>]>([
    ['a version 1 run (no MAC: read, to be refused)', `${MARKER}\n${line('run_1')}\nbody`, v1('run_1', '2026-11-21T12:00Z')],
    ['queued', `${MARKER}\r\n${line('-', SHA, '-')}\r\n`, v1(null, null)],
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
    const p: PendingRecord = {
      runId: 'run_9',
      commit: 'b'.repeat(64),
      at: null,
      categories: ['a_b', 'c'],
      deadline: '2026-11-21T12:45Z',
      mac: MAC
    }
    expect(readPendingRecord(`${MARKER}\n${pendingMarker(p)}`, MARKER)).toEqual(p)
    expect(readPendingRecord(`${MARKER}\n${pendingMarker({ ...p, categories: [] })}`, MARKER)).toEqual({ ...p, categories: [] })
    expect(() => pendingMarker({ ...p, mac: null })).toThrow(/not sealed/)
    expect(() => pendingMarker({ ...p, categories: ['x -->'] })).toThrow(/category/)
    expect(() => pendingMarker({ ...p, runId: 'run 9' })).toThrow(/runId/)
    expect(() => pendingMarker({ ...p, runId: '-' })).toThrow(/runId/)
    expect(() => pendingMarker({ ...p, commit: 'abc' })).toThrow(/commit/)
  })

  it('the assessing comment holds its record and says the status stays pending', () => {
    const body = renderAssessingComment({
      marker: MARKER,
      pending: { ...v1('run_1', null), mac: MAC },
      subject: 'm_1',
      context: 'agent-security/m_1',
      deadline: '2026-11-21T12:45:00.000Z',
      runUrl: null,
      budgetLine: 'Assessments spent by this step: 1 (assessed run run_1 of aaaaaaa).'
    })
    expect(readPendingRecord(body, MARKER)).toEqual({ ...v1('run_1', null), mac: MAC })
    expect(body).toContain('Until then the status is pending and the merge waits')
    expect(body).toContain('2026-11-21 12:45 UTC')
    // The status context as a code span, not escaped backticks shown as text.
    expect(body).toContain('sets the commit status `agent-security/m_1` after the run ends')
    expect(body).not.toContain('\\`')
  })
})

describe('recordMinuteMs', () => {
  it.each([
    ['2026-12-06T05:25Z', Date.parse('2026-12-06T05:25:00Z')],
    ['2026-02-28T23:59Z', Date.parse('2026-02-28T23:59:00Z')],
    [null, null],
    // The pattern holds, the calendar does not: no deadline of the record's own (the collector's clock and timeout bound it).
    ['2026-13-45T99:99Z', null]
  ])('%s reads as %s', (minute, ms) => {
    expect(recordMinuteMs(minute)).toBe(ms)
  })
})

describe('the seal of a pending record', () => {
  const fields = {
    model: 'm_1',
    pull: 7,
    runId: 'run_1',
    commit: SHA,
    at: '2026-11-21T12:00Z',
    categories: ['b', 'a'],
    deadline: '2026-11-21T12:45Z'
  }
  const key = 'sk_live_0123456789abcdef'

  it('holds for the fields it was made over, with the key it was made with', () => {
    const mac = pendingMac(key, fields)
    expect(mac).toMatch(/^[0-9a-f]{64}$/)
    expect(pendingSealed(key, fields, mac)).toBe(true)
    // The categories are one set, whatever their order.
    expect(pendingSealed(key, { ...fields, categories: ['a', 'b'] }, mac)).toBe(true)
  })

  it.each<[string, Partial<SealedFields>]>([
    ["another run (an older passing run, another pull request's)", { runId: 'run_0' }],
    ['another commit', { commit: 'b'.repeat(40) }],
    ['another model', { model: 'm_2' }],
    ["another pull request's comment (a record copied there)", { pull: 8 }],
    ['another trigger time', { at: '2026-11-21T11:00Z' }],
    ['fewer categories', { categories: ['a'] }],
    ['a later deadline', { deadline: '2026-11-21T23:45Z' }],
    ['queued instead of a run', { runId: null }]
  ])('fails for %s', (_what, change) => {
    const mac = pendingMac(key, fields)
    expect(pendingSealed(key, { ...fields, ...change }, mac)).toBe(false)
  })

  it('fails with another key, without a MAC, or without a key; and never writes the key or the derived key', () => {
    const mac = pendingMac(key, fields)
    expect(pendingSealed('sk_live_other', fields, mac)).toBe(false)
    expect(pendingSealed(key, fields, null)).toBe(false)
    expect(pendingSealed('', fields, mac)).toBe(false)
    expect(() => pendingMac('', fields)).toThrow(/api_key/)
    expect(mac).not.toContain(key)
    expect(mac).not.toContain(Buffer.from(key).toString('hex'))
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
