/**
 * The handle startEmulator returns: where the emulator listens, the seeded
 * ids, and the controls tests (in process) and the admin routes (over HTTP)
 * turn: the demo agent's switches and the emulator's own (allowances,
 * ingest, limits, faults, category duration, profiles).
 */
import type { DemoAgent } from './demo-agent.js'
import type { Emulator } from './emulator.js'
import { FaultInjector } from './faults.js'
import type { SeededModels } from './seed.js'
import type { EmulatorState } from './emulator-state.js'
import { DEV_KEYS } from './workspaces.js'

function demoAgentControls(agent: DemoAgent): Emulator['demoAgent'] {
  return {
    url: agent.url,
    setVulnerable: (c, on) => {
      agent.setVulnerable(c, on)
    },
    setAllVulnerable: (on) => {
      agent.setAllVulnerable(on)
    },
    setComplyProbability: (c, p) => {
      agent.setComplyProbability(c, p)
    },
    setSeed: (seed) => {
      agent.setSeed(seed)
    },
    setAvailable: (up) => {
      agent.setAvailable(up)
    },
    setReplyDelayMs: (ms) => {
      agent.setReplyDelayMs(ms)
    },
    credentialsSeen: () => agent.credentialsSeen()
  }
}

function emulatorControls(state: EmulatorState): Emulator['control'] {
  const { store } = state
  return {
    exhaustAllowance(workspace, on = true) {
      if (on) state.allowanceExhausted.add(workspace)
      else state.allowanceExhausted.delete(workspace)
    },
    setIngestIncomplete(modelId, on) {
      const m = store.models.get(modelId)
      if (m) m.ingestIncomplete = on
    },
    setLimits(l) {
      state.limits.set(l ?? {})
    },
    setFaults(f) {
      state.injector = f ? new FaultInjector(f) : null
    },
    setCategoryDurationMs(ms) {
      state.categoryDurationMs = Math.max(0, ms)
    },
    runs: () =>
      [...store.runs.values()]
        .sort((a, b) => a.seq - b.seq)
        .map((r) => ({
          run_id: r.run_id,
          model_id: r.model_id,
          status: r.status,
          started_at: r.started_at,
          workspace: r.workspace,
          cancel_requested: r.cancelRequested
        })),
    registeredCredentials: () => [...store.credentials],
    deleteProfile(modelId) {
      store.profiles.delete(modelId)
    },
    raceProfile(modelId, reads) {
      state.profileRaces.set(modelId, Math.max(0, reads))
    },
    snapshot: () => store.snapshot()
  }
}

export function emulatorHandle(
  state: EmulatorState,
  agent: DemoAgent,
  seeded: SeededModels,
  url: string,
  stop: () => Promise<void>
): Emulator {
  return {
    url,
    keys: DEV_KEYS,
    demoModelId: seeded.demoModels.full,
    demoModels: seeded.demoModels,
    noConfigModelId: seeded.noConfigModelId,
    demoAgent: demoAgentControls(agent),
    demoAgentState: () => agent.state(),
    control: emulatorControls(state),
    requestLog: state.requestLog,
    stop
  }
}
