/**
 * The gate's shared types, a leaf: what a step gives the gate (GateDeps,
 * GateArgs), how one run was left (RunEnd) and one run triggered, waited for
 * and read (RunOnce). assess-run, confirmation and runs_per_change all read
 * them from here, so none imports another for its types.
 */
import type { Clock, Deadline } from '../util/clock.js'
import type { RunStatusResponse, Severity } from '../service/contract/index.js'
import type { Log } from '../util/log.js'
import type { RetryPolicy } from '../util/retry-policy.js'
import type { ServiceApi } from '../service/service-api.js'
import type { TriggerIntent } from './run-ownership.js'
import type { PolicyChoices } from '../decision/apply-policy.js'
import type { EvidenceWindows } from '../evidence/judge-evidence.js'
import type { Baseline } from '../evidence/baseline.js'
import type { AcceptedEntry } from '../accepted/accepted-file.js'
import type { RunProgress, WaitEnd } from './wait-for-run.js'
import type { CollectedResults } from './collect-results.js'

export interface GateDeps {
  /** A client whose retries stop at `deadline`. */
  makeApi(deadline: Deadline): ServiceApi
  clock: Clock
  /** Aborts on SIGINT/SIGTERM. */
  signal: AbortSignal
  log: Log
  random?: () => number
  /** The retry policy of the trigger's own retries (the client has its own copy). */
  policy?: RetryPolicy
  /** Called as soon as the run exists, so the post step can cancel it. */
  onRunStarted(runId: string): void
  /** Called once the run is seen terminal: nothing is left to cancel. */
  onRunSettled(runId: string): void
  /** Called before each POST /run with what finding its run needs (saved so the post step can). */
  onTriggerIntent?(intent: TriggerIntent): void
  /** Called once a cancel of the run was accepted: no second cancel is to be sent. */
  onCancelRequested?(runId: string): void
  /** Told every status read of the run (a live view). */
  onProgress?: (progress: RunProgress) => void
}

export interface GateArgs {
  modelId: string
  categories: string[]
  minSeverity: Severity
  timeoutMs: number
  /** The baseline, the accepted risks and the policy's choices, all passed on to applyPolicy (left out: gate as with fail_on any and no acceptances). */
  policy?: PolicyChoices & {
    baseline: Baseline | null
    /** The windows of evidence (absent: this run alone). */
    windows?: EvidenceWindows
    accepted: readonly AcceptedEntry[]
    today: string
    /** Evidence of the lineage that could not be read: a pass becomes incomplete. */
    evidenceGaps?: readonly string[]
  }
  /** Confirming presumed weaknesses (absent: none is confirmed, they block). */
  confirm?: { confidence: number; maxRuns: number }
  /** Full runs to assess when the agent may have changed since its evidence (runs_per_change; absent: 1). */
  runsPerChange?: number
}

/** How the run was left: the wait's end, the last status seen (the stop's, when it was stopped). */
export interface RunEnd {
  end: WaitEnd
  run: RunStatusResponse | null
  /** With `unreadable` (or `timeout`): the failure of the last status read. */
  readError: string | undefined
}

/** One run triggered, waited for and read (assess.ts's own steps). */
export type RunOnce = (deadline: Deadline, categories: string[]) => Promise<{ runId: string; ended: RunEnd; results: CollectedResults }>
