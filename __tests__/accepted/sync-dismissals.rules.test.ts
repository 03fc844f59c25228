/**
 * The rules of syncDismissals, against a client that records what it is
 * asked: only where the write rule lets the run write, only an accepted
 * finding whose status is exactly `open`, with the entry's reason code and an
 * explanation that names the owner and the expiry (at most 4,000 characters);
 * proof withheld (403) is a note, any other failure a warning, and neither
 * stops the rest.
 */
import { describe, expect, it } from '@jest/globals'
import type { AcceptedEntry } from '../../src/accepted/accepted-file.js'
import { syncDismissals } from '../../src/accepted/sync-dismissals.js'
import type { WriteStanding } from '../../src/github/write-rule.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import type { Finding } from '../../src/service/contract/index.js'
import { ServiceError } from '../../src/util/errors.js'
import { makeFinding } from '../__fixtures__/builders.js'

const MAIN: WriteStanding = { kind: 'default-branch', branch: 'main' }
const entry = (over: Partial<AcceptedEntry> = {}): AcceptedEntry => ({
  index: 1,
  line: 3,
  category: 'jailbreak',
  fingerprint: null,
  severityAtMost: null,
  descriptionPattern: null,
  matchesDescription: null,
  reasonCode: 'false_positive',
  explanation: 'Not a leak.',
  owner: '@acme/ai',
  expires: '2027-01-31',
  ...over
})
const finding = (id: string, status = 'open'): Finding => makeFinding('high', { finding_id: id, category: 'jailbreak', status })

/** A client whose closeFinding records each call and answers with `fail(id)` thrown when it gives an error. */
function recorder(fail: (id: string) => Error | null = () => null) {
  const calls: [string, unknown][] = []
  let made = 0
  const api = (): ServiceApi => {
    made += 1
    return {
      closeFinding: async (id: string, body: unknown) => {
        calls.push([id, body])
        const err = fail(id)
        if (err !== null) throw err
        return finding(id, 'dismissed')
      }
    } as unknown as ServiceApi
  }
  return { api, calls, made: () => made }
}

describe('what is written', () => {
  it('each accepted finding whose status is open, with the reason code and an explanation naming the owner and expiry', async () => {
    const e = entry()
    const findings = [finding('f1'), finding('f2', 'dismissed'), finding('f3', 'OPEN'), finding('f4', 'fixed'), finding('f5')]
    const acceptedBy = new Map(['f1', 'f2', 'f3', 'f4'].map((id) => [id, e]))
    const r = recorder()
    const out = await syncDismissals(MAIN, r.api, findings, acceptedBy)
    expect(r.calls).toEqual([
      [
        'f1',
        {
          status: 'dismissed',
          reason_code: 'false_positive',
          explanation: 'Not a leak. (accepted risk, owner @acme/ai, expires 2027-01-31)'
        }
      ]
    ])
    expect(out).toEqual({ dismissed: 1, notes: ['Dismissed 1 accepted finding on the service (sync_dismissals).'] })
  })

  it('an explanation is cut to the 4,000 characters the service takes', async () => {
    const r = recorder()
    await syncDismissals(MAIN, r.api, [finding('f1')], new Map([['f1', entry({ explanation: 'x'.repeat(3990) })]]))
    const body = r.calls[0][1] as { explanation: string }
    expect(body.explanation.length).toBe(4000)
    expect(body.explanation === `${'x'.repeat(3990)} (accepted`).toBe(true)
  })

  it('nothing accepted: nothing written, nothing said', async () => {
    const r = recorder()
    expect(await syncDismissals(MAIN, r.api, [finding('f1')], new Map())).toEqual({ dismissed: 0, notes: [] })
    expect(r.calls).toEqual([])
  })

  it('two dismissed are counted', async () => {
    const r = recorder()
    const out = await syncDismissals(
      MAIN,
      r.api,
      [finding('f1'), finding('f2')],
      new Map([
        ['f1', entry()],
        ['f2', entry()]
      ])
    )
    expect(out).toEqual({ dismissed: 2, notes: ['Dismissed 2 accepted findings on the service (sync_dismissals).'] })
  })
})

describe('where nothing may be written', () => {
  it('a pull request makes no client and writes nothing, and says why', async () => {
    const r = recorder()
    const out = await syncDismissals({ kind: 'pull_request', number: 7 }, r.api, [finding('f1')], new Map([['f1', entry()]]))
    expect(r.made()).toBe(0)
    expect(out.dismissed).toBe(0)
    expect(out.notes).toEqual([expect.stringMatching(/^sync_dismissals is on, but .+: nothing dismissed\.$/)])
  })
})

describe('a failure to write is said, and the others are still written', () => {
  const err = (status: number | undefined) => new ServiceError({ endpoint: 'PATCH /api/v1/finding/f1', message: 'no', status })

  it.each<[string, Error, RegExp]>([
    [
      'proof withheld (403)',
      err(403),
      /^Finding f1 was not dismissed on the service: the plan withholds proof \(403\); it stays accepted here\.$/
    ],
    ['another status', err(500), /^Warning: finding f1 could not be dismissed on the service: .*PATCH \/api\/v1\/finding\/f1/],
    ['no status', err(undefined), /^Warning: finding f1 could not be dismissed on the service: /],
    [
      'a 403 that is no service error',
      Object.assign(new Error('forbidden'), { status: 403 }),
      /^Warning: finding f1 could not be dismissed/
    ]
  ])('%s', async (_name, thrown, note) => {
    const r = recorder((id) => (id === 'f1' ? thrown : null))
    const out = await syncDismissals(
      MAIN,
      r.api,
      [finding('f1'), finding('f2')],
      new Map([
        ['f1', entry()],
        ['f2', entry()]
      ])
    )
    expect(r.calls.map(([id]) => id)).toEqual(['f1', 'f2'])
    expect(out.dismissed).toBe(1)
    expect(out.notes).toEqual([expect.stringMatching(note), 'Dismissed 1 accepted finding on the service (sync_dismissals).'])
  })
})
