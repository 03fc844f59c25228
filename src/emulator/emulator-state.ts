/**
 * The emulator's live state, in one object the request handler, the admin
 * controls and the lifecycle share: the store, the limits, the run engine and
 * its timers, the request log, and the switches tests turn at run time (the
 * category duration, the fault injector, exhausted allowances, profile
 * races).
 */
import type { EmulatorOptions, RequestLogEntry } from './emulator.js'
import { FaultInjector } from './faults.js'
import { Limits } from './workspace-limits.js'
import type { ApiContext } from './routes/index.js'
import { RunEngine, Scheduler } from './run-engine.js'
import type { ModelRecord } from './store.js'
import { Store } from './store.js'
import { TargetClient } from './target-calls.js'
import type { WorkspaceName } from './workspaces.js'

export interface EmulatorState {
  readonly log: (line: string) => void
  readonly store: Store
  readonly limits: Limits
  readonly scheduler: Scheduler
  readonly requestLog: RequestLogEntry[]
  readonly allowanceExhausted: Set<WorkspaceName>
  /** By model_id: reads of its profile after which another writer moves the version on (control.raceProfile). */
  readonly profileRaces: Map<string, number>
  /** Time a run spends on each category; read by the engine at every attack. */
  categoryDurationMs: number
  /** null when the fault mode is off. */
  injector: FaultInjector | null
  /** What the API routes get. */
  readonly api: ApiContext
}

/** The target client of a model, made once from its agent config. */
function targetClientFor(model: ModelRecord, allowLoopbackTargets: boolean): TargetClient {
  if (model.target) return model.target
  // callers check the config first (a run or a replay of a model without one is refused)
  if (!model.config) throw new Error(`model '${model.model_id}' has no agent config to send to`)
  model.target = new TargetClient(
    { config: model.config, auth_type: model.auth_type, credential: model.credential, oauth: model.oauth },
    model.trustedLoopback || allowLoopbackTargets
  )
  return model.target
}

/** A fresh, empty state (no models yet: seed.ts adds the demo ones). */
export function createState(opts: EmulatorOptions): EmulatorState {
  const store = new Store()
  const limits = new Limits(opts.limits ?? {})
  const scheduler = new Scheduler()
  const allowanceExhausted = new Set<WorkspaceName>()
  const allowLoopbackTargets = opts.allowLoopbackTargets ?? false
  const targetFor = (model: ModelRecord): TargetClient => targetClientFor(model, allowLoopbackTargets)
  const state: EmulatorState = {
    log: opts.log ?? (() => undefined),
    store,
    limits,
    scheduler,
    requestLog: [],
    allowanceExhausted,
    profileRaces: new Map(),
    categoryDurationMs: opts.categoryDurationMs ?? 2000,
    injector: opts.faults ? new FaultInjector(opts.faults) : null,
    api: {
      store,
      limits,
      engine: new RunEngine(store, scheduler, {
        categoryDurationMs: () => state.categoryDurationMs,
        attacksPerCategory: opts.attacksPerCategory ?? 3,
        targetFor
      }),
      scheduler,
      allowLoopbackTargets,
      validationQuickMs: () => opts.validationQuickMs ?? 1500,
      allowanceExhausted,
      targetFor,
      resolver: opts.resolver
    }
  }
  return state
}
