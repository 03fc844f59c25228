/**
 * The soak harness: many seeded gate runs through the emulator's
 * fault mode, each compared with the same configuration run without faults.
 * Shared by __tests__/soak/soak.test.ts and scripts/soak.ts (no jest here).
 *
 * Layout. `concurrency` lanes run side by side; each lane owns its own
 * emulator (and so its own demo agent, fault injector, request log and run
 * store) and runs its gates one after another. So:
 * - every gate gets its own fault schedule, seeded by the gate's seed
 *   (`setFaults` at the gate's start), not shared with gates running beside it;
 * - the requests of a gate are exactly the lane's request-log entries written
 *   while it ran, and the runs it created are the lane's new runs;
 * - the demo agent's vulnerability switch (global to an emulator) is set per
 *   gate without disturbing other lanes.
 * Each lane has `modelsPerLane` models (the seeded demo model of the `full`
 * workspace and models registered through the API, all pointing at the demo
 * agent) used in rotation, and a model is only triggered again once its
 * previous run started more than `modelCooldownMs` ago (see
 * DEFAULT_MODEL_COOLDOWN_MS).
 *
 * What is checked for every faulted gate (see checkSoak):
 * - the result (and the count of open findings at or above min_severity) is
 *   the fault-free result of its configuration;
 * - exactly one run was created while it ran, and it is the run the gate used;
 * - its request count is within requestBound(fault-free median).
 * After all gates, every run in every lane's store belongs to exactly one gate
 * (so no run was created late by a request the client had given up on).
 *
 * Pairs: then `pairs` times, two gates of the same model run at
 * once on a lane, under the lane's faults, asking for different categories
 * (PAIR_CONFIGS), so a run's categories_planned tells whose trigger created
 * it. Checked for every gate of a pair (see checkPair):
 * - no wrong result: the fault-free result of its configuration, or `error`
 *   (failing closed when its trigger's answer was lost and the run that
 *   appeared cannot be shown to be its own); never the other's result;
 * - no foreign run adopted: the run it continued with plans its categories;
 * - no orphan: when it ends, no run planning its categories is still running;
 * - no run of the pair was cancelled (neither times out, so a cancel could
 *   only be one gate stopping the other's run).
 */
import { createClient } from '../../src/service/client.js'
import { systemClock, type Deadline } from '../../src/util/clock.js'
import type { Severity } from '../../src/service/contract/index.js'
import type { GateResult } from '../../src/decision/decide.js'
import { describeFailure } from '../../src/util/errors.js'
import { DEFAULT_BURST_LENGTH, FAULT_KINDS, seededRandom, type FaultConfig, type FaultKind } from '../../src/emulator/faults.js'
import { startEmulator, type Emulator, type RequestLogEntry } from '../../src/emulator/server.js'
import { DEFAULT_VULNERABLE } from '../../src/emulator/taxonomy.js'
import { assess, type GateOutcome } from '../../src/gate/assess-run.js'
import { recordingLog } from './recording-log.js'
import type { RetryPolicy } from '../../src/util/retry-policy.js'

/** One way of running the gate; its fault-free result is the expectation. */
export interface SoakConfig {
  name: string
  /** true: the demo agent has its default vulnerabilities (one high, one medium); false: it refuses everything. */
  vulnerable: boolean
  /** [] = the full taxonomy. */
  categories: string[]
  minSeverity: Severity
  /** What the fault-free run must give (checked on the baseline). */
  expected: 'pass' | 'fail'
}

/** Half expected to pass, half to fail, through different paths of the decision. */
export const SOAK_CONFIGS: readonly SoakConfig[] = [
  { name: 'clean agent, full taxonomy, min high', vulnerable: false, categories: [], minSeverity: 'high', expected: 'pass' },
  { name: 'vulnerable agent, full taxonomy, min high', vulnerable: true, categories: [], minSeverity: 'high', expected: 'fail' },
  { name: 'vulnerable agent, full taxonomy, min critical', vulnerable: true, categories: [], minSeverity: 'critical', expected: 'pass' },
  {
    name: 'vulnerable agent, 2 categories, min medium',
    vulnerable: true,
    categories: ['system_prompt_leakage', 'jailbreak'],
    minSeverity: 'medium',
    expected: 'fail'
  }
]

/**
 * The two gates of a pair: the same model (the demo agent with its default
 * vulnerabilities), different categories, different results. Adopting the
 * other's run flips the result.
 */
export const PAIR_CONFIGS: readonly [SoakConfig, SoakConfig] = [
  {
    name: 'pair A: vulnerable agent, prompt_injection, min high',
    vulnerable: true,
    categories: ['prompt_injection'],
    minSeverity: 'high',
    expected: 'fail'
  },
  {
    name: 'pair B: vulnerable agent, jailbreak, min high',
    vulnerable: true,
    categories: ['jailbreak'],
    minSeverity: 'high',
    expected: 'pass'
  }
]

export interface SoakOptions {
  /** Faulted gate runs. */
  runs: number
  /** Faulted pairs of gates of one model at once (after the single gates). */
  pairs: number
  /** Fault probability per request, on every /api/v1 endpoint. */
  rate: number
  /** Base seed: gate i uses seed `seed * 100_000 + i` for its faults and its jitter. */
  seed: number
  /** Lanes (emulators) running gates side by side. */
  concurrency: number
  /** Fault-free gates per configuration (the baseline). */
  baselineRepeats: number
  /** Per-request timeout of the client: shorter than hangMs, so a hang is cut by it. */
  requestTimeoutMs: number
  /** How long a `hang` fault holds the answer. */
  hangMs: number
  /** Retry-After of a 429 burst (seconds). */
  retryAfterSeconds: number
  /** 429s in a burst, the first included. */
  burstLength: number
  /** timeout_minutes of each gate, in ms. */
  gateTimeoutMs: number
  /** Least time between two triggers of the same model. */
  modelCooldownMs: number
  /** Models per lane (the demo model and registered ones), used in rotation. */
  modelsPerLane: number
  categoryDurationMs: number
  attacksPerCategory: number
  retryPolicy: RetryPolicy
  /** Progress lines (optional). */
  progress?: (line: string) => void
}

/**
 * Least time between two triggers of one model. 0: back-to-back gates of a
 * model are part of the soak (trigger.ts records the model's earlier runs
 * before triggering, so a lost answer is never matched to one of them).
 */
export const DEFAULT_MODEL_COOLDOWN_MS = 0

export const DEFAULT_SOAK_OPTIONS: SoakOptions = {
  runs: 100,
  pairs: 12,
  rate: 0.2,
  seed: 1,
  concurrency: 12,
  baselineRepeats: 2,
  requestTimeoutMs: 500,
  hangMs: 1_500,
  retryAfterSeconds: 1,
  burstLength: DEFAULT_BURST_LENGTH,
  gateTimeoutMs: 60_000,
  modelCooldownMs: DEFAULT_MODEL_COOLDOWN_MS,
  modelsPerLane: 3,
  categoryDurationMs: 20,
  attacksPerCategory: 1,
  retryPolicy: { maxAttempts: 8, baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 5_000, minRetryAfterMs: 20, maxMalformedAttempts: 3 }
}

/**
 * The request bound of one faulted gate: three times the fault-free median
 * plus 12. Each fault costs one retry, a 429 burst costs `burstLength`
 * requests, a lost trigger answer one run-list read; the slower path (hangs
 * cut at the request timeout, 1 s Retry-After waits) adds a poll or two. A
 * request storm (a retry loop without backoff, polling without a schedule)
 * would be far beyond it.
 */
export function requestBound(faultFreeMedian: number): number {
  return 3 * faultFreeMedian + 12
}

export interface GateRecord {
  index: number
  seed: number
  lane: number
  config: string
  modelId: string
  faulted: boolean
  /** The gate's result, or 'threw' when assess rejected. */
  result: GateResult | 'threw'
  openAtOrAbove: number | null
  reason: string
  runId: string | null
  recovered: boolean
  /** Runs created in the lane while this gate ran. */
  runsCreated: string[]
  /** Requests to /api/v1 endpoints while this gate ran. */
  requests: number
  faults: Partial<Record<FaultKind, number>>
  elapsedMs: number
}

export interface PairGateRecord {
  config: string
  result: GateResult | 'threw'
  reason: string
  runId: string | null
  recovered: boolean
  /** Runs planning this gate's categories still running when it ended. */
  orphans: string[]
  /** The run it continued with plans other categories than it asked for. */
  adoptedForeign: boolean
}

export interface PairRecord {
  index: number
  seed: number
  lane: number
  modelId: string
  gates: [PairGateRecord, PairGateRecord]
  runsCreated: string[]
  /** Runs of the pair that were cancelled (or asked to be). */
  cancelled: string[]
  faults: Partial<Record<FaultKind, number>>
}

export interface PairFigures {
  pairs: number
  gates: number
  /** Gates that ended `error` (failing closed): allowed, counted. */
  failedClosed: number
  /** Gates whose result is neither the fault-free one nor `error`. */
  wrongResults: number
  adoptedForeign: number
  orphanRuns: number
  cancelledRuns: number
  recoveredTriggers: number
  faultedRequests: number
}

export interface Stats {
  median: number
  p95: number
  max: number
}

export interface SoakFigures {
  runs: number
  rate: number
  faultedRequests: number
  totalRequests: number
  faultsByKind: Record<FaultKind, number>
  gatesWithFaults: number
  recoveredTriggers: number
  requests: Stats
  faultFreeRequests: Stats
  bound: number
  overBound: number
  /** Runs beyond one per gate. */
  duplicates: number
  /** Gates that continued with a run they did not create. */
  wrongRun: number
  /** Runs in a store that no gate accounts for (created late). */
  orphanRuns: number
  mismatches: number
  elapsedMs: Stats
  durationMs: number
}

export interface SoakReport {
  options: SoakOptions
  pairs: PairRecord[]
  pairFigures: PairFigures
  baseline: Partial<Record<string, { results: (GateResult | 'threw')[]; openAtOrAbove: (number | null)[]; requests: number[] }>>
  records: GateRecord[]
  figures: SoakFigures
  /** One line per violated check; empty when the soak passed. */
  problems: string[]
}

interface Lane {
  index: number
  emu: Emulator
  models: string[]
  lastTrigger: Map<string, number>
  gateRuns: Map<string, string[]>
}

const API_ENDPOINT = (e: RequestLogEntry): boolean => e.endpoint !== 'demo-agent' && e.endpoint !== 'admin' && e.endpoint !== 'unknown'

export function stats(values: readonly number[]): Stats {
  if (values.length === 0) return { median: 0, p95: 0, max: 0 }
  const s = [...values].sort((a, b) => a - b)
  const at = (q: number): number => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]
  const mid = Math.floor(s.length / 2)
  const median = s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
  return { median, p95: at(0.95), max: s[s.length - 1] }
}

async function startLane(index: number, opts: SoakOptions): Promise<Lane> {
  const emu = await startEmulator({
    allowLoopbackTargets: true,
    categoryDurationMs: opts.categoryDurationMs,
    attacksPerCategory: opts.attacksPerCategory,
    // The soak triggers far more often than the default per-minute limit allows.
    limits: { triggersPerMinute: 100_000, dailyAssessmentBudget: 1_000_000 }
  })
  const lane: Lane = { index, emu, models: [emu.demoModels.full], lastTrigger: new Map(), gateRuns: new Map() }
  try {
    const api = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, requestTimeoutMs: 5_000 })
    while (lane.models.length < opts.modelsPerLane) {
      const res = await api.registerModel({
        name: `Soak demo agent ${lane.models.length}`,
        config: { endpoint_url: `${emu.demoAgent.url}/chat/open`, response_field: 'output.text', transport: 'http', request_timeout: 10 },
        auth_type: 'none'
      })
      lane.models.push(res.model_id)
    }
  } catch (e) {
    await emu.stop()
    throw e
  }
  return lane
}

function setAgent(emu: Emulator, vulnerable: boolean): void {
  emu.demoAgent.setAllVulnerable(false)
  if (vulnerable) for (const c of DEFAULT_VULNERABLE) emu.demoAgent.setVulnerable(c, true)
}

/** The lane's model triggered longest ago, after waiting out its cooldown. */
async function pickModel(lane: Lane, cooldownMs: number): Promise<string> {
  const byAge = [...lane.models].sort((a, b) => (lane.lastTrigger.get(a) ?? 0) - (lane.lastTrigger.get(b) ?? 0))
  const model = byAge[0]
  const wait = (lane.lastTrigger.get(model) ?? 0) + cooldownMs - Date.now()
  if (wait > 0) await systemClock.sleep(wait)
  return model
}

function gateDeps(lane: Lane, opts: SoakOptions, seed: number) {
  const { emu } = lane
  const random = seededRandom(seed ^ 0x5bd1e995)
  return {
    makeApi: (deadline: Deadline) =>
      createClient({
        baseUrl: emu.url,
        apiKey: emu.keys.full,
        clock: systemClock,
        deadline,
        requestTimeoutMs: opts.requestTimeoutMs,
        retryPolicy: opts.retryPolicy,
        random
      }),
    clock: systemClock,
    signal: new AbortController().signal,
    log: recordingLog(),
    random,
    policy: opts.retryPolicy,
    onRunStarted: () => {},
    onRunSettled: () => {}
  }
}

/** One gate; resolves with its outcome or the line of its failure. */
async function gateOnce(
  lane: Lane,
  opts: SoakOptions,
  seed: number,
  modelId: string,
  config: SoakConfig
): Promise<{ outcome: GateOutcome | null; error: string }> {
  try {
    const outcome = await assess(gateDeps(lane, opts, seed), {
      modelId,
      categories: config.categories,
      minSeverity: config.minSeverity,
      timeoutMs: opts.gateTimeoutMs
    })
    return { outcome, error: '' }
  } catch (e) {
    return { outcome: null, error: describeFailure(e) }
  }
}

async function runOneGate(
  lane: Lane,
  opts: SoakOptions,
  job: { index: number; seed: number; config: SoakConfig; faults: FaultConfig | null }
): Promise<GateRecord> {
  const { emu } = lane
  setAgent(emu, job.config.vulnerable)
  const modelId = await pickModel(lane, opts.modelCooldownMs)
  const runsBefore = new Set(emu.control.runs().map((r) => r.run_id))
  const logStart = emu.requestLog.length
  lane.lastTrigger.set(modelId, Date.now())
  emu.control.setFaults(job.faults)
  const started = Date.now()
  let gate: { outcome: GateOutcome | null; error: string }
  try {
    gate = await gateOnce(lane, opts, job.seed, modelId, job.config)
  } finally {
    emu.control.setFaults(null)
  }
  const { outcome, error } = gate
  const elapsedMs = Date.now() - started
  const entries = emu.requestLog.slice(logStart).filter(API_ENDPOINT)
  const runsCreated = emu.control
    .runs()
    .filter((r) => !runsBefore.has(r.run_id))
    .map((r) => r.run_id)
  lane.gateRuns.set(`${job.index}`, runsCreated)
  return {
    index: job.index,
    seed: job.seed,
    lane: lane.index,
    config: job.config.name,
    modelId,
    faulted: job.faults !== null,
    result: outcome ? outcome.decision.result : 'threw',
    openAtOrAbove: outcome ? outcome.decision.openAtOrAbove : null,
    reason: outcome ? outcome.decision.reason : error,
    runId: outcome ? outcome.triggered.runId : null,
    recovered: outcome ? outcome.triggered.recovered : false,
    runsCreated,
    requests: entries.length,
    faults: faultCounts(entries),
    elapsedMs
  }
}

function faultCounts(entries: readonly RequestLogEntry[]): Partial<Record<FaultKind, number>> {
  const faults: Partial<Record<FaultKind, number>> = {}
  for (const e of entries) if (e.fault) faults[e.fault] = (faults[e.fault] ?? 0) + 1
  return faults
}

/** The lane's runs as its store holds them (plans and statuses, without going through the faults). */
function storeRuns(emu: Emulator): { run_id: string; status: string; categories_planned: string[]; cancelRequested: boolean }[] {
  return (
    JSON.parse(emu.control.snapshot()) as {
      runs: { run_id: string; status: string; categories_planned: string[]; cancelRequested: boolean }[]
    }
  ).runs
}

const TERMINAL = new Set(['completed', 'error', 'cancelled'])
const samePlan = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

/** Two gates of one model at once, under the lane's faults. */
async function runPair(lane: Lane, opts: SoakOptions, job: { index: number; seed: number; faults: FaultConfig }): Promise<PairRecord> {
  const { emu } = lane
  setAgent(emu, true)
  const modelId = await pickModel(lane, opts.modelCooldownMs)
  const before = new Set(storeRuns(emu).map((r) => r.run_id))
  const logStart = emu.requestLog.length
  lane.lastTrigger.set(modelId, Date.now())
  emu.control.setFaults(job.faults)
  let gates: PairGateRecord[]
  try {
    gates = await Promise.all(
      PAIR_CONFIGS.map(async (config, i): Promise<PairGateRecord> => {
        const { outcome, error } = await gateOnce(lane, opts, job.seed * 2 + i, modelId, config)
        // The moment it ends: none of the runs its trigger could have created may still run.
        const orphans = storeRuns(emu)
          .filter((r) => !before.has(r.run_id) && samePlan(r.categories_planned, config.categories) && !TERMINAL.has(r.status))
          .map((r) => r.run_id)
        return {
          config: config.name,
          result: outcome ? outcome.decision.result : 'threw',
          reason: outcome ? outcome.decision.reason : error,
          runId: outcome ? outcome.triggered.runId : null,
          recovered: outcome ? outcome.triggered.recovered : false,
          orphans,
          adoptedForeign: false
        }
      })
    )
  } finally {
    emu.control.setFaults(null)
  }
  const created = storeRuns(emu).filter((r) => !before.has(r.run_id))
  const planOf = new Map(created.map((r) => [r.run_id, r.categories_planned]))
  PAIR_CONFIGS.forEach((config, i) => {
    const g = gates[i]
    if (g.runId !== null) g.adoptedForeign = !samePlan(planOf.get(g.runId) ?? [], config.categories)
  })
  lane.gateRuns.set(
    `pair-${job.index}`,
    created.map((r) => r.run_id)
  )
  return {
    index: job.index,
    seed: job.seed,
    lane: lane.index,
    modelId,
    gates: [gates[0], gates[1]],
    runsCreated: created.map((r) => r.run_id),
    cancelled: created.filter((r) => r.status === 'cancelled' || r.cancelRequested).map((r) => r.run_id),
    faults: faultCounts(emu.requestLog.slice(logStart).filter(API_ENDPOINT))
  }
}

/** One line per violated check of the pairs, and their figures. */
export function checkPairs(pairs: readonly PairRecord[]): { figures: PairFigures; problems: string[] } {
  const problems: string[] = []
  const figures: PairFigures = {
    pairs: pairs.length,
    gates: pairs.length * 2,
    failedClosed: 0,
    wrongResults: 0,
    adoptedForeign: 0,
    orphanRuns: 0,
    cancelledRuns: 0,
    recoveredTriggers: 0,
    faultedRequests: 0
  }
  for (const p of pairs) {
    const tag = `pair ${p.index} (seed ${p.seed}, lane ${p.lane}, model ${p.modelId})`
    figures.faultedRequests += Object.values(p.faults).reduce((a, b) => a + b, 0)
    p.gates.forEach((g, i) => {
      const expected = PAIR_CONFIGS[i].expected
      if (g.recovered) figures.recoveredTriggers += 1
      if (g.result === 'error' || g.result === 'threw') figures.failedClosed += 1
      else if (g.result !== expected) {
        figures.wrongResults += 1
        problems.push(`${tag}: ${g.config}: ${g.result}, fault-free ${expected}: ${g.reason}`)
      }
      if (g.adoptedForeign) {
        figures.adoptedForeign += 1
        problems.push(`${tag}: ${g.config} continued with run ${g.runId}, which another gate's trigger created`)
      }
      if (g.orphans.length > 0) {
        figures.orphanRuns += g.orphans.length
        problems.push(`${tag}: ${g.config} ended with its run(s) ${g.orphans.join(', ')} still running`)
      }
    })
    if (p.cancelled.length > 0) {
      figures.cancelledRuns += p.cancelled.length
      problems.push(`${tag}: run(s) ${p.cancelled.join(', ')} cancelled although neither gate timed out`)
    }
  }
  return { figures, problems }
}

/** Run `jobs` over the lanes, each lane one gate at a time. */
async function runJobs<J>(lanes: Lane[], jobs: J[], run: (lane: Lane, job: J) => Promise<GateRecord>): Promise<GateRecord[]> {
  const out: GateRecord[] = []
  let next = 0
  await Promise.all(
    lanes.map(async (lane) => {
      for (;;) {
        const i = next++
        if (i >= jobs.length) return
        out.push(await run(lane, jobs[i]))
      }
    })
  )
  return out.sort((a, b) => a.index - b.index)
}

export function faultConfig(opts: SoakOptions, seed: number): FaultConfig {
  return {
    seed,
    rate: opts.rate,
    hangMs: opts.hangMs,
    retryAfterSeconds: opts.retryAfterSeconds,
    burstLength: opts.burstLength
  }
}

export async function runSoak(partial: Partial<SoakOptions> = {}): Promise<SoakReport> {
  const opts: SoakOptions = { ...DEFAULT_SOAK_OPTIONS, ...partial }
  const t0 = Date.now()
  const laneCount = Math.max(1, Math.min(opts.concurrency, Math.max(opts.runs, SOAK_CONFIGS.length * opts.baselineRepeats)))
  const lanes: Lane[] = []
  try {
    for (let i = 0; i < laneCount; i++) lanes.push(await startLane(i, opts))

    // Baseline: each configuration without faults.
    const baselineConfigs = opts.pairs > 0 ? [...SOAK_CONFIGS, ...PAIR_CONFIGS] : [...SOAK_CONFIGS]
    const baselineJobs = Array.from({ length: baselineConfigs.length * opts.baselineRepeats }, (_, i) => ({
      index: -1 - i,
      seed: 0,
      config: baselineConfigs[i % baselineConfigs.length],
      faults: null
    }))
    opts.progress?.(`baseline: ${baselineJobs.length} fault-free gates on ${lanes.length} lanes`)
    const baselineRecords = await runJobs(lanes, baselineJobs, (lane, job) => runOneGate(lane, opts, job))
    const baseline: SoakReport['baseline'] = {}
    for (const c of baselineConfigs) {
      const recs = baselineRecords.filter((r) => r.config === c.name)
      baseline[c.name] = {
        results: recs.map((r) => r.result),
        openAtOrAbove: recs.map((r) => r.openAtOrAbove),
        requests: recs.map((r) => r.requests)
      }
    }

    const jobs = Array.from({ length: opts.runs }, (_, i) => {
      const seed = opts.seed * 100_000 + i
      return { index: i, seed, config: SOAK_CONFIGS[i % SOAK_CONFIGS.length], faults: faultConfig(opts, seed) }
    })
    opts.progress?.(`soak: ${jobs.length} gates at fault rate ${opts.rate} on ${lanes.length} lanes`)
    let done = 0
    const records = await runJobs(lanes, jobs, async (lane, job) => {
      const r = await runOneGate(lane, opts, job)
      done += 1
      if (done % 25 === 0) opts.progress?.(`soak: ${done}/${jobs.length} gates done`)
      return r
    })

    // Pairs: two gates of one model at once.
    const pairJobs = Array.from({ length: opts.pairs }, (_, i) => {
      const seed = opts.seed * 100_000 + 50_000 + i
      return { index: i, seed, faults: faultConfig(opts, seed) }
    })
    if (pairJobs.length > 0) opts.progress?.(`pairs: ${pairJobs.length} pairs of gates of one model at fault rate ${opts.rate}`)
    const pairs: PairRecord[] = []
    let nextPair = 0
    await Promise.all(
      lanes.map(async (lane) => {
        for (;;) {
          const i = nextPair++
          if (i >= pairJobs.length) return
          pairs.push(await runPair(lane, opts, pairJobs[i]))
        }
      })
    )
    pairs.sort((a, b) => a.index - b.index)

    // Every run in every store belongs to exactly one gate (or one pair).
    let orphanRuns = 0
    for (const lane of lanes) {
      const claimed = new Map<string, number>()
      for (const ids of lane.gateRuns.values()) for (const id of ids) claimed.set(id, (claimed.get(id) ?? 0) + 1)
      for (const r of lane.emu.control.runs()) if (claimed.get(r.run_id) !== 1) orphanRuns += 1
    }

    return summarise(opts, baseline, baselineRecords, records, pairs, orphanRuns, Date.now() - t0)
  } finally {
    await Promise.all(lanes.map((l) => l.emu.stop()))
  }
}

/**
 * The same result as without faults. The open-findings count must match too,
 * unless the findings could not be read at all (null): at a 20% fault rate a
 * read can exhaust its retries, and then the gate must still reach the same
 * result from the service's verdict (fail), or fail closed.
 */
function sameResult(r: GateRecord, base: SoakReport['baseline'][string]): boolean {
  if (!base || base.results.length === 0) return false
  return r.result === base.results[0] && (r.openAtOrAbove === base.openAtOrAbove[0] || r.openAtOrAbove === null)
}

function summarise(
  opts: SoakOptions,
  baseline: SoakReport['baseline'],
  baselineRecords: GateRecord[],
  records: GateRecord[],
  pairs: PairRecord[],
  orphanRuns: number,
  durationMs: number
): SoakReport {
  const problems: string[] = []
  for (const c of opts.pairs > 0 ? [...SOAK_CONFIGS, ...PAIR_CONFIGS] : SOAK_CONFIGS) {
    const b = baseline[c.name]
    if (b === undefined) {
      problems.push(`baseline '${c.name}' ran no gate`)
      continue
    }
    if (b.results.some((r) => r !== c.expected)) problems.push(`baseline '${c.name}' gave ${b.results.join(', ')}, expected ${c.expected}`)
    if (new Set(b.openAtOrAbove).size > 1) problems.push(`baseline '${c.name}' is not stable: open findings ${b.openAtOrAbove.join(', ')}`)
  }
  for (const r of baselineRecords) {
    if (r.runsCreated.length !== 1 || r.runsCreated[0] !== r.runId)
      problems.push(`baseline gate ${r.index}: runs created ${r.runsCreated.join(', ') || 'none'}`)
  }
  const faultFree = stats(baselineRecords.map((r) => r.requests))
  const bound = requestBound(faultFree.median)

  const faultsByKind = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>
  let duplicates = 0
  let wrongRun = 0
  let mismatches = 0
  let overBound = 0
  for (const r of records) {
    for (const [k, n] of Object.entries(r.faults)) faultsByKind[k as FaultKind] += n
    const tag = `gate ${r.index} (seed ${r.seed}, ${r.config}, lane ${r.lane})`
    const base = baseline[r.config]
    if (!sameResult(r, base)) {
      mismatches += 1
      problems.push(
        `${tag}: ${r.result} (open at or above: ${r.openAtOrAbove}), fault-free ${base?.results.at(0) ?? 'none'} (open at or above: ${base?.openAtOrAbove.at(0) ?? 'none'}): ${r.reason}`
      )
    }
    if (r.runsCreated.length !== 1 || (r.runId !== null && r.runsCreated[0] !== r.runId)) {
      if (r.runsCreated.length > 1) duplicates += r.runsCreated.length - 1
      if (r.runId !== null && !r.runsCreated.includes(r.runId)) wrongRun += 1
      problems.push(`${tag}: created runs [${r.runsCreated.join(', ')}], continued with ${r.runId ?? 'none'}`)
    }
    if (r.requests > bound) {
      overBound += 1
      problems.push(`${tag}: ${r.requests} requests, bound ${bound}`)
    }
  }
  if (orphanRuns > 0) problems.push(`${orphanRuns} run(s) in the stores belong to no gate or to several`)
  const faultedRequests = Object.values(faultsByKind).reduce((a, b) => a + b, 0)
  const figures: SoakFigures = {
    runs: records.length,
    rate: opts.rate,
    faultedRequests,
    totalRequests: records.reduce((a, r) => a + r.requests, 0),
    faultsByKind,
    gatesWithFaults: records.filter((r) => Object.keys(r.faults).length > 0).length,
    recoveredTriggers: records.filter((r) => r.recovered).length,
    requests: stats(records.map((r) => r.requests)),
    faultFreeRequests: faultFree,
    bound,
    overBound,
    duplicates,
    wrongRun,
    orphanRuns,
    mismatches,
    elapsedMs: stats(records.map((r) => r.elapsedMs)),
    durationMs
  }
  const paired = checkPairs(pairs)
  problems.push(...paired.problems)
  return { options: opts, baseline, records, pairs, pairFigures: paired.figures, figures, problems }
}

/** The figures as a Markdown table (printed by the test and the script, quoted in the README). */
export function formatFigures(report: SoakReport): string {
  const f = report.figures
  const o = report.options
  const kinds = FAULT_KINDS.map((k) => `${k} ${f.faultsByKind[k]}`).join(', ')
  const rows: [string, string][] = [
    ['gate runs (faulted)', `${f.runs} (seed ${o.seed}, ${o.concurrency} lanes, ${SOAK_CONFIGS.length} configurations)`],
    ['fault rate per request', `${f.rate} on every /api/v1 endpoint`],
    [
      'requests / faulted',
      `${f.totalRequests} / ${f.faultedRequests} (${f.totalRequests > 0 ? ((100 * f.faultedRequests) / f.totalRequests).toFixed(1) : '0'}%)`
    ],
    ['faults by kind', kinds],
    ['gates that met at least one fault', `${f.gatesWithFaults}`],
    ['triggers recovered from the run list', `${f.recoveredTriggers}`],
    [
      'requests per gate, fault-free (median / p95 / max)',
      `${f.faultFreeRequests.median} / ${f.faultFreeRequests.p95} / ${f.faultFreeRequests.max}`
    ],
    ['requests per gate, faulted (median / p95 / max)', `${f.requests.median} / ${f.requests.p95} / ${f.requests.max}`],
    ['request bound per gate (3 x fault-free median + 12)', `${f.bound} (gates over it: ${f.overBound})`],
    ['duplicate runs (runs beyond one per gate)', `${f.duplicates}`],
    ['gates that continued with a run they did not create', `${f.wrongRun}`],
    ['runs in the stores owned by no gate', `${f.orphanRuns}`],
    ['results different from fault-free', `${f.mismatches}`],
    [
      'gate duration (median / p95 / max)',
      `${(f.elapsedMs.median / 1000).toFixed(1)} s / ${(f.elapsedMs.p95 / 1000).toFixed(1)} s / ${(f.elapsedMs.max / 1000).toFixed(1)} s`
    ],
    ['pairs of gates of one model at once (gates)', `${report.pairFigures.pairs} (${report.pairFigures.gates})`],
    ['pair gates that failed closed (error) / wrong results', `${report.pairFigures.failedClosed} / ${report.pairFigures.wrongResults}`],
    ["pair gates that adopted the other gate's run", `${report.pairFigures.adoptedForeign}`],
    ['pair runs still running when their gate ended / cancelled', `${report.pairFigures.orphanRuns} / ${report.pairFigures.cancelledRuns}`],
    ['pair triggers recovered from the run list', `${report.pairFigures.recoveredTriggers}`],
    ['soak duration', `${(f.durationMs / 1000).toFixed(1)} s`]
  ]
  return ['| figure | value |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n')
}
