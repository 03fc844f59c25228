import { describe, expect, it } from '@jest/globals'
import type { RunListItem } from '../../src/service/contract/index.js'
import { claimRun, CLOCK_SKEW_MS, plansWhatWasAsked, type FullTaxonomy, type TriggerIntent } from '../../src/gate/run-ownership.js'

const T0 = Date.parse('2026-11-21T12:00:00Z')
const FULL = ['prompt_injection', 'jailbreak', 'excessive_agency']
const run = (id: string, planned: string[], startedAt = T0 + 100): RunListItem => ({
  run_id: id,
  status: 'running',
  started_at: new Date(startedAt).toISOString(),
  findings_count: 0,
  ingest_incomplete: false,
  categories_planned: planned,
  completed_at: null
})
const intent = (categories: string[], baseline: string[] | null = ['run_old']): TriggerIntent => ({
  modelId: 'm',
  categories,
  baseline,
  sentAt: T0
})
const old = run('run_old', ['jailbreak'], T0 - 60_000)

describe('plansWhatWasAsked', () => {
  it.each<[string, string[], string[], FullTaxonomy, boolean | null]>([
    ['same keys, other order', ['b', 'a'], ['a', 'b'], null, true],
    ['a key fewer', ['a'], ['a', 'b'], null, false],
    ['a key more', ['a', 'b', 'c'], ['a', 'b'], null, false],
    ['other keys', ['c'], ['a'], FULL, false],
    ['full taxonomy asked, the security list planned', [...FULL].reverse(), [], FULL, true],
    ['full taxonomy asked, a focused run', ['jailbreak'], [], FULL, false],
    ['full taxonomy asked, nothing planned', [], [], FULL, false],
    ['full taxonomy asked, an empty category list', [], [], [], false],
    ['full taxonomy asked, evaluation workspace (every run is full)', ['x', 'y'], [], 'evaluation', true],
    ['full taxonomy asked, category list unreadable: unsure', FULL, [], null, null]
  ])('%s', (_what, planned, asked, full, expected) => {
    expect(plansWhatWasAsked(planned, asked, full)).toBe(expected)
  })
})

describe('claimRun', () => {
  it('nothing new since the trigger: none', () => {
    expect(claimRun(intent(['jailbreak']), [old])).toEqual({ kind: 'none' })
  })

  it('a run older than the request (beyond the skew) that the baseline missed is not new', () => {
    expect(claimRun(intent(['jailbreak']), [run('run_x', ['jailbreak'], T0 - CLOCK_SKEW_MS - 1), old])).toEqual({ kind: 'none' })
  })

  it('the one new run, planning what was asked: ours', () => {
    const mine = run('run_mine', ['jailbreak'])
    expect(claimRun(intent(['jailbreak']), [mine, old])).toEqual({ kind: 'ours', run: mine })
  })

  it('the one new run of the full taxonomy, confirmed by the category list: ours', () => {
    const mine = run('run_mine', FULL)
    expect(claimRun(intent([]), [mine, old], { fullTaxonomy: FULL })).toMatchObject({ kind: 'ours' })
  })

  it("another gate's run planning other categories: not taken, saying what it plans", () => {
    const c = claimRun(intent(['jailbreak']), [run('run_a', ['prompt_injection']), old])
    expect(c.kind).toBe('unprovable')
    if (c.kind !== 'unprovable') return
    expect(c.seen.map((r) => r.run_id)).toEqual(['run_a'])
    expect(c.why).toMatch(
      /run run_a of model m appeared, but it plans categories prompt_injection where this step asked for categories jailbreak/
    )
  })

  it('two new runs planning what was asked: another trigger like ours ran at the same time, neither is taken', () => {
    const c = claimRun(intent(['jailbreak']), [run('run_a', ['jailbreak']), run('run_b', ['jailbreak'], T0 + 50), old])
    expect(c).toMatchObject({
      kind: 'unprovable',
      why: expect.stringMatching(/2 runs of model m planning categories jailbreak appeared since our request \(run_a, run_b\)/)
    })
  })

  it("one new run planning what was asked beside another gate's run planning something else: ours, the other left alone", () => {
    const mine = run('run_mine', ['jailbreak'], T0 + 300)
    expect(claimRun(intent(['jailbreak']), [mine, run('run_a', ['prompt_injection'], T0 + 10), old])).toEqual({ kind: 'ours', run: mine })
  })

  it('without a baseline a new run cannot be told from an earlier one: not taken', () => {
    const c = claimRun(intent(['jailbreak'], null), [run('run_a', ['jailbreak'])])
    expect(c).toMatchObject({ kind: 'unprovable', why: expect.stringMatching(/could not be listed before the trigger/) })
  })

  it('full taxonomy asked but the category list unreadable: not taken (fail closed when unsure)', () => {
    const c = claimRun(intent([]), [run('run_a', FULL)], { fullTaxonomy: null })
    expect(c).toMatchObject({ kind: 'unprovable', why: expect.stringMatching(/category list could not be read/) })
  })

  it('runs seen running while waiting for another assessment are never ours', () => {
    expect(claimRun(intent(['jailbreak']), [run('run_a', ['jailbreak'])], { foreign: new Set(['run_a']) })).toEqual({ kind: 'none' })
  })
})
