/**
 * Evidence pooled across runs of one agent: a stochastic agent shows a
 * weakness in some runs and not in others, so the runs of a window are one
 * body of evidence. Pure.
 *
 * A fingerprint seen in any run of the window is present until the service
 * says otherwise: its newest observation (runs ordered by the completion time
 * the service gives, never a record's own time) decides whether it is closed,
 * and only a close the service validated (FIXED_VERIFIED) or a dismissal
 * closes it: a plain `fixed` is a claim, not a fact. Within one run an open
 * observation beats a closed one (fail closed). The service's status is the
 * service's fact whoever recorded the run that saw it: a run a pull request's
 * own records name closes a weakness the service closed, as main's do.
 */
import { type Finding, type Severity } from '../service/contract/index.js'
import { fingerprint } from './fingerprint.js'

/** What one run of the window showed, read again from the service. */
export interface RunEvidence {
  runId: string
  /** ISO time the run completed ('' when the service gave none). */
  completedAt: string
  categoriesCompleted: readonly string[]
  findings: readonly ObservedFinding[]
  /**
   * Who observed it, said by whoever read it (required: an absent provenance
   * would have to be guessed, and the guess that lets through is the wrong
   * one). Only the default branch's own
   * observations make a weakness known on main (knownOnMain); every other
   * provenance only adds observations, which can only block. It never decides
   * whether the service's close of a finding counts (the service's fact, one
   * rule for all).
   */
  provenance: Provenance
  /** A run of the agent judged now (no change under agent_paths since; without agent_paths, the same commit); default true. */
  sameAgent?: boolean
  /**
   * Read because it held a finding (a holder; a run of the service's list):
   * it counts among the runs that saw a weakness but says nothing of how
   * often the weakness lands, so it is left out of the rate a confirmation
   * assumes of each weakness it saw (a sample chosen for its sightings would
   * make that rate high); of a weakness it did not see it is a miss.
   */
  selected?: boolean
}

/**
 * Where an observation comes from: the default branch's own records (and the
 * holders they name as observed), a run of this pull request's own lineage, a
 * run of the service's list of the model's runs (whoever ran it), a run a
 * collector finished.
 */
export type Provenance = 'default-branch' | 'own-lineage' | 'service-list' | 'collector'

export interface ObservedFinding {
  fingerprint: string
  category: string
  severity: Severity
  lens: string
  description: string
  status: string
}

export interface PooledFinding {
  fingerprint: string
  category: string
  severity: Severity
  lens: string
  /** The newest observation's text (display only). */
  description: string
  /** Runs of the window that saw it, newest first. */
  seenIn: string[]
  /** The service closed it (validated as FIXED_VERIFIED, or dismissed) in the newest run that saw it, whoever recorded that run. */
  closed: boolean
  /** A run of the agent judged now saw it (false: only runs of an earlier agent did, so it is presumed until confirmed). */
  seenBySameAgent: boolean
  /**
   * The default branch's own runs, pooled alone, hold it open: one of them
   * saw it and the newest of them that did left it open (what knownOnMain
   * asks); absent: false.
   */
  openOnMain?: boolean
}

export interface EvidencePool {
  /** The runs pooled, newest first. */
  runIds: string[]
  /** Categories the newest run completed: what the window speaks for. */
  categoriesCompleted: string[]
  /** By fingerprint, in the order first met (newest run first). */
  findings: Map<string, PooledFinding>
  /** Runs pooled that are of the agent judged now (load-evidence.ts marks them); absent: not counted (none assumed). */
  sameAgentRuns?: number
  /** Runs pooled because they held a finding (RunEvidence.selected); absent: none. */
  selected?: string[]
}

/** A run's findings as evidence (fingerprints computed as everywhere else). */
export function observedFindings(findings: readonly Finding[], runId: string): ObservedFinding[] {
  return findings.map((f) => ({
    fingerprint: fingerprint(f, runId),
    category: f.category,
    severity: f.severity,
    lens: f.lens,
    description: f.description.length > 300 ? `${f.description.slice(0, 299)}…` : f.description,
    status: f.status
  }))
}

/** Whether a finding's status closes a weakness: validated fixed (FIXED_VERIFIED) or dismissed; a plain `fixed` does not. */
export function closesWeakness(status: string): boolean {
  return status === 'FIXED_VERIFIED' || status === 'dismissed'
}

/** The runs newest first by the completion time the service gave (a run without one last); ties keep the order given. */
export function byCompletion(runs: readonly RunEvidence[]): RunEvidence[] {
  const t = (r: RunEvidence): number => {
    const ms = Date.parse(r.completedAt)
    return Number.isFinite(ms) ? ms : -Infinity
  }
  return runs
    .map((r, i) => ({ r, i }))
    .sort((a, b) => t(b.r) - t(a.r) || a.i - b.i)
    .map((x) => x.r)
}

/**
 * The runs as one body of evidence, ordered by the service's completion
 * times. A run named twice counts once.
 */
export function poolEvidence(given: readonly RunEvidence[]): EvidencePool {
  const runs = byCompletion(given)
  const findings = new Map<string, PooledFinding>()
  const runIds: string[] = []
  let sameAgentRuns = 0
  const selected: string[] = []
  const mainSeen = new Map<string, { runId: string; closed: boolean }>()
  for (const run of runs) {
    if (runIds.includes(run.runId)) continue
    runIds.push(run.runId)
    if (run.selected === true) selected.push(run.runId)
    const same = run.sameAgent !== false
    const main = run.provenance === 'default-branch'
    if (same) sameAgentRuns++
    for (const o of run.findings) {
      const closes = closesWeakness(o.status)
      if (main) onMain(mainSeen, o.fingerprint, run.runId, closes)
      const p = findings.get(o.fingerprint)
      if (p === undefined) {
        findings.set(o.fingerprint, { ...pick(o), seenIn: [run.runId], closed: closes, seenBySameAgent: same })
        continue
      }
      p.seenBySameAgent ||= same
      const sameRun = p.seenIn.at(-1) === run.runId
      if (!sameRun) p.seenIn.push(run.runId)
      // The newest run that saw it decides; within it, open wins.
      if (sameRun && !closes) p.closed = false
    }
  }
  for (const [fp, m] of mainSeen) {
    const p = findings.get(fp)
    if (p !== undefined) p.openOnMain = !m.closed
  }
  return { runIds, categoriesCompleted: [...new Set(runs[0]?.categoriesCompleted ?? [])], findings, sameAgentRuns, selected }
}

/** The default branch's own observations of `fp`, pooled as poolEvidence pools all (newest run decides; within it, open wins). */
function onMain(seen: Map<string, { runId: string; closed: boolean }>, fp: string, runId: string, closes: boolean): void {
  const m = seen.get(fp)
  if (m === undefined) seen.set(fp, { runId, closed: closes })
  else if (m.runId === runId && !closes) m.closed = false
}

function pick(o: ObservedFinding): Omit<PooledFinding, 'seenIn' | 'closed' | 'seenBySameAgent' | 'openOnMain'> {
  return { fingerprint: o.fingerprint, category: o.category, severity: o.severity, lens: o.lens, description: o.description }
}

/**
 * THE rule of what is known on main, for every place that asks (the baseline
 * fail_on new diffs against, judgeEvidence's knownIds, the policy's waiver of
 * what this run did not reproduce): a fingerprint still open that the
 * default branch's own runs, pooled alone, hold open. A run of a pull request's lineage, of
 * the service's list, or a collector's can only add what is presumed present
 * (it blocks); it never makes a weakness known, so it never lets one through.
 */
export function knownOnMain(pool: EvidencePool | null): Set<string> {
  const known = new Set<string>()
  for (const p of pool?.findings.values() ?? []) if (!p.closed && p.openOnMain === true) known.add(p.fingerprint)
  return known
}

/** The fingerprints of the pool that are still open (seen, and not closed by the service since). */
export function openFingerprints(pool: EvidencePool | null): Set<string> {
  const open = new Set<string>()
  for (const p of pool?.findings.values() ?? []) if (!p.closed) open.add(p.fingerprint)
  return open
}

/** Whether a run holds a finding the service has not closed: what a holder is read for. */
export function holdsOpenFinding(run: RunEvidence): boolean {
  return run.findings.some((o) => !closesWeakness(o.status))
}
