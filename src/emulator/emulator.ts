/**
 * The emulator's public shapes (its options, its request log, the handle
 * startEmulator returns), apart from server.ts so that the admin routes can
 * use the handle without importing the server.
 */
import type { EndpointName, KnownRunStatus } from '../service/contract/index.js'
import type { DemoAgentState } from './demo-agent.js'
import type { FaultConfig, FaultKind } from './faults.js'
import type { FleetOptions } from './fleet.js'
import type { LimitValues } from './workspace-limits.js'
import type { Resolver } from './ssrf.js'
import type { DEV_KEYS, WorkspaceName } from './workspaces.js'

export interface EmulatorOptions {
  /**
   * Default 0 (a free port). The address is always 127.0.0.1, and every route
   * answers only requests whose Host is localhost, 127.0.0.1 or [::1] with
   * this port (421 otherwise: see host-guard.ts).
   */
  port?: number
  /** Default false; the demo models are seeded regardless. */
  allowLoopbackTargets?: boolean
  /** Time a run spends on each category (default 2000). */
  categoryDurationMs?: number
  /** Default 3. */
  attacksPerCategory?: number
  /**
   * Per security category, the demo agent's probability of complying with an
   * attack, in [0, 1] (1: vulnerable, 0: fixed, between: a flaky weakness);
   * categories not named keep the default (DEFAULT_VULNERABLE always, the
   * rest never). See demo-compliance.ts.
   */
  agentComply?: Partial<Record<string, number>>
  /** Seed of the demo agent's flaky categories (default 1): the same seed, the same replies. */
  agentSeed?: number
  /** A validate replay taking longer than this answers verdict 'validating' (default 1500). */
  validationQuickMs?: number
  limits?: Partial<LimitValues>
  faults?: FaultConfig | null
  /** A demo workspace of many agents with histories in the `readonly` workspace (fleet.ts); default none. */
  fleet?: FleetOptions
  log?: (line: string) => void
  /** DNS resolver for the SSRF check (tests). */
  resolver?: Resolver
}

export interface RequestLogEntry {
  at: number
  method: string
  path: string
  query: string
  endpoint: EndpointName | 'demo-agent' | 'admin' | 'unknown'
  status: number | 'reset'
  fault: FaultKind | null
  key: string | null
}

export interface Emulator {
  /** 'http://127.0.0.1:<port>' (service base_url, without /api/v1). */
  url: string
  keys: typeof DEV_KEYS
  demoModelId: string
  demoModels: Record<WorkspaceName, string>
  noConfigModelId: string
  demoAgent: {
    url: string
    setVulnerable(category: string, on: boolean): void
    setAllVulnerable(on: boolean): void
    /** Complies with attacks of `category` with probability p (1: vulnerable, 0: fixed). */
    setComplyProbability(category: string, p: number): void
    /** Restarts the seeded streams of the flaky categories. */
    setSeed(seed: number): void
    setAvailable(up: boolean): void
    setReplyDelayMs(ms: number): void
    credentialsSeen(): string[]
  }
  /** The demo agent's switches (also GET /__emulator/demo-agent). */
  demoAgentState(): DemoAgentState
  control: {
    exhaustAllowance(workspace: WorkspaceName, on?: boolean): void
    setIngestIncomplete(modelId: string, on: boolean): void
    setLimits(l: EmulatorOptions['limits']): void
    setFaults(f: FaultConfig | null): void
    setCategoryDurationMs(ms: number): void
    /** Every run, oldest first; cancel_requested: a cancel was accepted for it (it may still read running). */
    runs(): { run_id: string; model_id: string; status: KnownRunStatus; started_at: string; workspace: string; cancel_requested: boolean }[]
    registeredCredentials(): string[]
    /** Deletes a model's profile (so a later create restarts its version). */
    deleteProfile(modelId: string): void
    /** Another writer: after each of the next `reads` reads of the model's profile, its version moves on (a write built from the read gets 409 stale_version). */
    raceProfile(modelId: string, reads: number): void
    /** A JSON snapshot of the whole store (tests: bad input changes nothing). */
    snapshot(): string
  }
  requestLog: RequestLogEntry[]
  stop(): Promise<void>
}
