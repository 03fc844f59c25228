/**
 * This run's findings read against the windows of evidence. Pure.
 *
 * - The agent's window: earlier runs of this same agent (on the default
 *   branch, main's recorded runs). Its open findings are present whether or
 *   not this run reproduced them: a weakness that lands one time in three is
 *   real, so one that this run missed still counts against the gate.
 * - The base window: the default branch's recorded runs. Under fail_on new a
 *   finding is known when any run of it saw the fingerprint (open), new only
 *   when none did; one this run did not reproduce is "not reproduced in this
 *   run", never "gone", until the service closes it or no run of the window
 *   sees it.
 * A changed agent (a pull request) has no agent window of main: it is judged
 * on its own runs, so a pull request that removes a weakness is not blocked
 * by main's evidence of it.
 */
import { atOrAbove, SEVERITIES, type Severity } from '../service/contract/index.js'
import { knownOnMain, type EvidencePool, type PooledFinding } from './pool.js'
import { THIS_RUN_ONLY, type EvidenceScope, type SeenRate } from './seen-rate.js'

export interface EvidenceWindows {
  /** Earlier runs of this agent and whose they are; null: this run is its agent's only evidence. */
  agent: { pool: EvidencePool; scope: EvidenceScope } | null
  /** The base branch's window (what fail_on new compares with); null: no trusted window. */
  base: EvidencePool | null
  /**
   * The base window is this agent's lineage too: what it saw and the service
   * has not closed is presumed present for this run (a pull request is held to
   * main's weaknesses until a confirmation shows them gone). False (the
   * default, evidence_runs 1): the base window only says what is known.
   */
  lineage?: boolean
}

export interface RunFindingRef {
  findingId: string
  fingerprint: string
}

export interface NotReproduced {
  fingerprint: string
  category: string
  severity: Severity
  lens: string
  description: string
  rate: SeenRate
  /** Seen by an earlier run of this agent's lineage and still open: it counts against the gate as if seen now. */
  present: boolean
  /** Present, but seen only by runs of an earlier agent (it may have changed since): a confirmation can show it gone. */
  presumed: boolean
  /** The runs that saw it, newest first. */
  seenIn: string[]
  /**
   * The rate without the runs read for their sightings that saw it (holders
   * and the service list's runs): what a confirmation assumes. Absent: `rate`.
   */
  sample?: SeenRate
}

export interface EvidenceReading {
  /** Whether any window was read (false: every rate is "this run only" for want of others). */
  windowed: boolean
  /** finding_id -> how often it was seen. */
  rateById: Map<string, SeenRate>
  /** finding_ids whose fingerprint the base window holds open (known under fail_on new). */
  knownIds: Set<string>
  /** Open findings of a window this run did not find, most severe first. */
  notReproduced: NotReproduced[]
  /** Findings of a window the service closed since (fixed, dismissed) that this run did not find. */
  closedSince: PooledFinding[]
}

export function judgeEvidence(findings: readonly RunFindingRef[], windows: EvidenceWindows): EvidenceReading {
  const { agent, base } = windows
  const rateById = new Map<string, SeenRate>()
  const knownIds = new Set<string>()
  const found = new Set(findings.map((f) => f.fingerprint))
  const known = knownOnMain(base)
  for (const f of findings) {
    rateById.set(f.findingId, rateOfFound(f.fingerprint, windows))
    if (known.has(f.fingerprint)) knownIds.add(f.findingId)
  }
  const notReproduced: NotReproduced[] = []
  const closedSince: PooledFinding[] = []
  const listed = new Set<string>()
  const sources: [EvidencePool | null, boolean, SeenRate['scope'], number][] = [
    [agent?.pool ?? null, true, agent?.scope ?? 'agent', 1],
    [base, windows.lineage === true, 'main', 0]
  ]
  for (const [pool, present, scope, thisRun] of sources) {
    for (const p of pool?.findings.values() ?? []) {
      if (found.has(p.fingerprint) || listed.has(p.fingerprint)) continue
      listed.add(p.fingerprint)
      const presence = presenceOf(p)
      if (presence === 'closed') {
        closedSince.push(p)
        continue
      }
      const rate: SeenRate = { seen: p.seenIn.length, of: (pool?.runIds.length ?? 0) + thisRun, scope }
      notReproduced.push({ ...strip(p), rate, sample: sampleRate(p, pool, rate), present, presumed: present && presence === 'presumed' })
    }
  }
  return { windowed: agent !== null || base !== null, rateById, knownIds, notReproduced: bySeverity(notReproduced), closedSince }
}

/**
 * THE rule of what is present, for every feature that asks: a weakness the
 * lineage saw is closed only when the service closed it (validated, or
 * dismissed: see closesWeakness); else it is present when a run of the agent
 * judged now saw it, and presumed (present until a confirmation shows it
 * gone) when only runs of an earlier agent did.
 */
export function presenceOf(p: Pick<PooledFinding, 'closed' | 'seenBySameAgent'>): 'closed' | 'present' | 'presumed' {
  if (p.closed) return 'closed'
  return p.seenBySameAgent ? 'present' : 'presumed'
}

/**
 * `rate` without the runs read because they held a finding
 * (EvidencePool.selected) that saw this one: a selected run that did not see
 * it is a miss like any other (it was read for another weakness), so m is
 * never below what counting every run gives.
 */
function sampleRate(p: PooledFinding, pool: EvidencePool | null, rate: SeenRate): SeenRate {
  const selected = new Set(pool?.selected ?? [])
  const left = p.seenIn.filter((id) => selected.has(id)).length
  return left === 0 ? rate : { ...rate, seen: rate.seen - left, of: rate.of - left }
}

/** The rate of a finding this run found: among this agent's runs (this one counted), else main's, else this run only. */
function rateOfFound(fp: string, { agent, base }: EvidenceWindows): SeenRate {
  if (agent !== null && agent.pool.runIds.length > 0) {
    const earlier = agent.pool.findings.get(fp)?.seenIn.length ?? 0
    return { seen: earlier + 1, of: agent.pool.runIds.length + 1, scope: agent.scope }
  }
  const b = base?.findings.get(fp)
  if (base !== null && b !== undefined) return { seen: b.seenIn.length, of: base.runIds.length, scope: 'main' }
  return THIS_RUN_ONLY
}

function strip(p: PooledFinding): Omit<NotReproduced, 'rate' | 'sample' | 'present' | 'presumed'> {
  return {
    fingerprint: p.fingerprint,
    category: p.category,
    severity: p.severity,
    lens: p.lens,
    description: p.description,
    seenIn: [...p.seenIn]
  }
}

function bySeverity(items: NotReproduced[]): NotReproduced[] {
  return items.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || b.rate.seen - a.rate.seen)
}

/**
 * The findings this run did not reproduce that still fail the gate: present
 * for this agent (an earlier run of it saw them, the service has not closed
 * them), at or above min_severity, and not accepted.
 */
export function unreproducedBlocking(
  reading: EvidenceReading | null,
  minSeverity: Severity,
  accepted: (n: NotReproduced) => boolean
): NotReproduced[] {
  return (reading?.notReproduced ?? []).filter((n) => n.present && atOrAbove(n.severity, minSeverity) && !accepted(n))
}
