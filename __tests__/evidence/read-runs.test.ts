/**
 * A recorded run read again before it is evidence (readRunEvidence), one row
 * per rule of whose run it is: a run GET /run names no model (absent or
 * empty) is placed only by the model's most recent completed runs, asked for
 * once, as such (status completed, the list's largest page).
 */
import { describe, expect, it } from '@jest/globals'
import { RUN_LIST_PAGE, readRunEvidence, runReads, type RunReader } from '../../src/evidence/read-runs.js'
import type { RunStatusResponse } from '../../src/service/contract/index.js'
import { makeRun, makeRunListItem } from '../__fixtures__/builders.js'

function reader(run: Partial<RunStatusResponse>, listed: string[]) {
  const listQueries: unknown[] = []
  const api: RunReader = {
    getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, completed_at: '2026-11-25T00:00:00Z', ...run })),
    listFindings: () => Promise.resolve({ findings: [], count: 0 }),
    listRuns: (_model: string, query?: unknown) => {
      listQueries.push(query)
      const runs = listed.map((id) => makeRunListItem({ run_id: id, status: 'completed' }))
      return Promise.resolve({ runs, total: runs.length, returned: runs.length })
    }
  }
  return { api, listQueries }
}

describe('readRunEvidence: whose run it is', () => {
  it.each<[string, Partial<RunStatusResponse>, string[], 'read' | RegExp]>([
    ['named by GET /run as the model', { model_id: 'm' }, [], 'read'],
    ['named by GET /run as another model', { model_id: 'other' }, ['r1'], /a run of another model \(other\)/],
    ['an empty model name, among the listed runs: placed by the list', { model_id: '' }, ['r1'], 'read'],
    ['an empty model name, not listed: unplaced', { model_id: '' }, ['r2'], /not among the 100 most recent completed runs/],
    ['no model name, among the listed runs', { model_id: undefined }, ['r1'], 'read']
  ])('%s', async (_name, run, listed, want) => {
    const { api } = reader(run, listed)
    const got = await readRunEvidence(runReads(api, 'm'), 'r1', 'default-branch')
    if (want === 'read') expect(got).toMatchObject({ run: { runId: 'r1' } })
    else expect('problem' in got ? got.problem : '').toMatch(want)
  })

  it("asks for the model's completed runs, the list's largest page, once for every run it reads", async () => {
    const { api, listQueries } = reader({ model_id: undefined }, ['r1', 'r2'])
    const reads = runReads(api, 'm')
    await readRunEvidence(reads, 'r1', 'default-branch')
    await readRunEvidence(reads, 'r2', 'default-branch')
    expect(listQueries).toEqual([{ status: 'completed', limit: RUN_LIST_PAGE }])
    expect(RUN_LIST_PAGE).toBe(100)
  })
})

describe('readRunEvidence: what a run read is, and what it cost', () => {
  it.each<[string, Partial<RunStatusResponse>, string[], unknown]>([
    [
      'a run not completed is no evidence, and says its status',
      { model_id: 'm', status: 'running' },
      [],
      { problem: 'run r1 is running, not completed' }
    ],
    [
      'a run the list cannot place says so, as unplaced',
      { model_id: '' },
      ['r2'],
      { problem: expect.stringContaining('not among the 100 most recent') as unknown, unplaced: true }
    ],
    [
      'a run of another model is no evidence, and not unplaced',
      { model_id: 'other' },
      [],
      { problem: 'run r1 is a run of another model (other)' }
    ],
    [
      'its completion time as the service gave it',
      { model_id: 'm', completed_at: '2026-11-25T00:00:00Z' },
      [],
      { run: expect.objectContaining({ completedAt: '2026-11-25T00:00:00Z', provenance: 'own-lineage' }) as unknown }
    ],
    [
      'no completion time given: empty (it sorts last)',
      { model_id: 'm', completed_at: null },
      [],
      { run: expect.objectContaining({ completedAt: '' }) as unknown }
    ]
  ])('%s', async (_name, run, listed, want) => {
    const { api } = reader(run, listed)
    expect(await readRunEvidence(runReads(api, 'm'), 'r1', 'own-lineage')).toEqual(want)
  })

  it.each<[string, Partial<RunStatusResponse>, string[], number]>([
    ['named by GET /run: the run and its findings', { model_id: 'm' }, [], 4],
    ['placed by the list: the list once, then the run and its findings each', { model_id: undefined }, ['r1', 'r2'], 5],
    ['not completed: the run only', { model_id: 'm', status: 'running' }, [], 2]
  ])('counts every request of two runs read: %s', async (_name, run, listed, requests) => {
    const { api } = reader(run, listed)
    const reads = runReads(api, 'm')
    await readRunEvidence(reads, 'r1', 'default-branch')
    await readRunEvidence(reads, 'r2', 'default-branch')
    expect(reads.requests).toBe(requests)
  })
})
