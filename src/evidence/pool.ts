/**
 * Evidence pooled across runs of one agent: a stochastic agent shows a
 * weakness in some runs and not in others, so the runs of a window are one
 * body of evidence. Pure.
 *
 * A fingerprint seen in any run of the window is present until the service
 * says otherwise: its newest observation decides whether it is closed (fixed,
 * dismissed, FIXED_VERIFIED); within one run an open observation beats a
 * closed one (fail closed).
 */
import { isClosedFindingStatus, type Finding, type Severity } from '../service/contract/index.js'
import { fingerprint } from '../baseline/fingerprint.js'

/** What one run of the window showed, read again from the service. */
export interface RunEvidence {
  runId: string
  /** ISO time the run completed ('' when the service gave none). */
  completedAt: string
  categoriesCompleted: readonly string[]
  findings: readonly ObservedFinding[]
}

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
  /** The service closed it (fixed, dismissed, FIXED_VERIFIED) in the newest run that saw it. */
  closed: boolean
}

export interface EvidencePool {
  /** The runs pooled, newest first. */
  runIds: string[]
  /** Categories the newest run completed: what the window speaks for. */
  categoriesCompleted: string[]
  /** By fingerprint, in the order first met (newest run first). */
  findings: Map<string, PooledFinding>
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

/** The runs (newest first) as one body of evidence. A run named twice counts once. */
export function poolEvidence(runs: readonly RunEvidence[]): EvidencePool {
  const findings = new Map<string, PooledFinding>()
  const runIds: string[] = []
  for (const run of runs) {
    if (runIds.includes(run.runId)) continue
    runIds.push(run.runId)
    for (const o of run.findings) {
      const p = findings.get(o.fingerprint)
      if (p === undefined) {
        findings.set(o.fingerprint, { ...pick(o), seenIn: [run.runId], closed: isClosedFindingStatus(o.status) })
        continue
      }
      const sameRun = p.seenIn.at(-1) === run.runId
      if (!sameRun) p.seenIn.push(run.runId)
      // The newest run that saw it decides; within it, open wins.
      if (sameRun && !isClosedFindingStatus(o.status)) p.closed = false
    }
  }
  return { runIds, categoriesCompleted: [...new Set(runs[0]?.categoriesCompleted ?? [])], findings }
}

function pick(o: ObservedFinding): Omit<PooledFinding, 'seenIn' | 'closed'> {
  return { fingerprint: o.fingerprint, category: o.category, severity: o.severity, lens: o.lens, description: o.description }
}

/** The fingerprints of the pool that are still open (seen, and not closed by the service since). */
export function openFingerprints(pool: EvidencePool | null): Set<string> {
  const open = new Set<string>()
  for (const p of pool?.findings.values() ?? []) if (!p.closed) open.add(p.fingerprint)
  return open
}

/** Whether a run holds a finding the service has not closed: what a holder is read for. */
export function holdsOpenFinding(run: RunEvidence): boolean {
  return run.findings.some((o) => !isClosedFindingStatus(o.status))
}
