/**
 * The soak: at least 100 seeded gate runs through the emulator's
 * fault mode at a 20% fault rate on every /api/v1 endpoint, every fault kind,
 * each ending with the result of the same configuration without faults, with
 * exactly one run triggered per gate and no request storm.
 *
 *   npm test          runs it with SOAK_RUNS=100 (the default here)
 *   npm run soak      runs it with SOAK_RUNS=300
 *   node build/scripts/soak.js --runs 300 --rate 0.2 --seed 1   (after npm run build:tools)
 * SOAK_SEED and SOAK_CONCURRENCY override the seed and the number of lanes;
 * SOAK_PAIRS the number of pairs of gates of one model run at once (12 here,
 * 60 with npm run soak).
 */
import { describe, expect, it } from '@jest/globals'
import { FAULT_KINDS } from '../../src/emulator/faults.js'
import { formatFigures, requestBound, runSoak, SOAK_CONFIGS, stats, type SoakReport } from '../__fixtures__/soak-harness.js'

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got '${raw}'`)
  return n
}

const RUNS = intFromEnv('SOAK_RUNS', 100)
const SEED = intFromEnv('SOAK_SEED', 1)
// A lane runs one gate at a time and a gate mostly waits on its poll schedule: 25 lanes take 100 gates in four rounds.
const CONCURRENCY = intFromEnv('SOAK_CONCURRENCY', 25)
const PAIRS = intFromEnv('SOAK_PAIRS', 12)
/** Generous: the soak takes well under a minute for 100 runs; this only stops a hang. */
const TEST_TIMEOUT_MS = 120_000 + (RUNS + PAIRS) * 2_000

describe('soak: gate runs through the fault mode', () => {
  let report: SoakReport

  it(
    `${RUNS} faulted gate runs end as without faults, one run each, no request storm`,
    async () => {
      report = await runSoak({ runs: RUNS, pairs: PAIRS, seed: SEED, concurrency: CONCURRENCY, rate: 0.2 })
      process.stdout.write(`\nSoak figures\n${formatFigures(report)}\n`)
      const f = report.figures

      // The baseline is what the configurations are meant to give.
      for (const c of SOAK_CONFIGS)
        expect({ config: c.name, results: [...new Set(report.baseline[c.name]?.results)] }).toEqual({
          config: c.name,
          results: [c.expected]
        })
      expect(report.records.filter((r) => r.faulted)).toHaveLength(RUNS)

      // Per gate: the fault-free result, exactly one run (the one it used), requests within the bound.
      expect(report.problems).toEqual([])
      expect(f.mismatches).toBe(0)
      expect(f.duplicates).toBe(0)
      expect(f.wrongRun).toBe(0)
      expect(f.orphanRuns).toBe(0)
      expect(f.overBound).toBe(0)
      expect(f.requests.max).toBeLessThanOrEqual(f.bound)
      for (const r of report.records) {
        expect(r.runsCreated).toEqual([r.runId])
      }
    },
    TEST_TIMEOUT_MS
  )

  it(`${PAIRS} pairs of gates of one model at once under faults: no wrong result, no foreign run adopted, no run orphaned or cancelled`, () => {
    expect(report).toBeDefined()
    const p = report.pairFigures
    expect(report.pairs).toHaveLength(PAIRS)
    expect(p.gates).toBe(2 * PAIRS)
    expect(p.wrongResults).toBe(0)
    expect(p.adoptedForeign).toBe(0)
    expect(p.orphanRuns).toBe(0)
    expect(p.cancelledRuns).toBe(0)
    // Failing closed is allowed, but it is the exception, not the rule.
    expect(p.failedClosed).toBeLessThanOrEqual(Math.ceil(p.gates / 4))
    // Both gates of a pair did meet faults.
    expect(p.faultedRequests).toBeGreaterThan(PAIRS)
  })

  it('exercised the fault mode: about the asked rate, every kind, a lost trigger answer recovered', () => {
    expect(report).toBeDefined()
    const f = report.figures
    // Chance alone could miss these on a handful of runs; the default (100) is far from it.
    if (RUNS < 50) return
    const observed = f.faultedRequests / f.totalRequests
    // A burst429 counts its follow-up 429s too, so the observed share is a bit above the rate.
    expect(observed).toBeGreaterThan(0.12)
    expect(observed).toBeLessThan(0.35)
    for (const k of FAULT_KINDS) expect({ kind: k, seen: f.faultsByKind[k] > 0 }).toEqual({ kind: k, seen: true })
    expect(f.gatesWithFaults).toBeGreaterThan(RUNS / 2)
    expect(f.recoveredTriggers).toBeGreaterThan(0)
  })
})

describe('soak figures', () => {
  it.each([
    [[], { median: 0, p95: 0, max: 0 }],
    [[7], { median: 7, p95: 7, max: 7 }],
    [[9, 7], { median: 8, p95: 9, max: 9 }],
    [[3, 1, 2], { median: 2, p95: 3, max: 3 }],
    [Array.from({ length: 100 }, (_, i) => 100 - i), { median: 50.5, p95: 95, max: 100 }]
  ])('stats of %j', (values, expected) => {
    expect(stats(values)).toEqual(expected)
  })

  it('the request bound grows with the fault-free median', () => {
    expect([7, 10].map(requestBound)).toEqual([33, 42])
  })
})
