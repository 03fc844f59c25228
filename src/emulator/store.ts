/**
 * The emulator's in-memory store: models, runs, findings, replays, profiles.
 * Every lookup is scoped to a workspace: another workspace's id is "not there".
 */
import type {
  AgentConfig,
  AuthType,
  CoverageRow,
  FindingLens,
  KnownFindingStatus,
  KnownReplayStatus,
  KnownRunStatus,
  OAuthConfig,
  ReplayStep,
  Severity
} from '../service/contract/index.js'
import type { TargetClient } from './target-calls.js'
import type { WorkspaceName } from './workspaces.js'
import type { DismissalRecord, ProfileRecord } from './profiles.js'

export interface ModelRecord {
  model_id: string
  workspace: WorkspaceName
  name: string
  model_type: string
  environment: string
  /** null when the model has no (complete) agent config. */
  config: AgentConfig | null
  auth_type: AuthType
  credential: string | null
  oauth: OAuthConfig | null
  created_at: string
  /** Seeded demo models may point at loopback whatever the loopback setting. */
  trustedLoopback: boolean
  ingestIncomplete: boolean
  target: TargetClient | null
}

export interface RunRecord {
  run_id: string
  model_id: string
  workspace: WorkspaceName
  status: KnownRunStatus
  started_at: string
  completed_at: string | null
  categories_planned: string[]
  categories_completed: string[]
  coverage: CoverageRow[]
  finding_ids: string[]
  cancelRequested: boolean
  error_message: string | null
  /** Order of creation (most recent first sorting without clock ties). */
  seq: number
}

export interface AttackRecord {
  attack_id: string
  score: number
  source: { source_type: string; assessment_id: string; attack_index: number; date: string }
  replay_script: ReplayStep[]
  last_replay_status: KnownReplayStatus
  created_at: string
  last_replayed_at: string | null
  /** The message sent and the token whose echo proves the attack got through. */
  message: string
  canary: string
}

export interface FindingRecord {
  finding_id: string
  run_id: string
  model_id: string
  workspace: WorkspaceName
  lens: FindingLens
  category: string
  severity: Severity
  description: string
  expected_behavior: string
  status: KnownFindingStatus
  created_at: string
  attacks: AttackRecord[]
  fix_description: string | null
  dismissal: { reason_code: string; rationale: string } | null
  validating: string | null
}

export interface ReplayRecord {
  replay_run_id: string
  finding_id: string
  workspace: WorkspaceName
  started_at: string
  finished: boolean
  verdict: 'resolved' | 'still_broken' | null
}

export class Store {
  readonly models = new Map<string, ModelRecord>()
  readonly runs = new Map<string, RunRecord>()
  readonly findings = new Map<string, FindingRecord>()
  readonly replays = new Map<string, ReplayRecord>()
  /** By model_id. */
  readonly profiles = new Map<string, ProfileRecord>()
  /** By model_id: dismissals shown in the model's profile. */
  readonly dismissals = new Map<string, DismissalRecord[]>()
  /** Every target credential/secret ever stored. */
  readonly credentials = new Set<string>()
  private seq = 0

  nextSeq(): number {
    return ++this.seq
  }

  model(ws: WorkspaceName, id: string): ModelRecord | undefined {
    const m = this.models.get(id)
    return m?.workspace === ws ? m : undefined
  }
  run(ws: WorkspaceName, id: string): RunRecord | undefined {
    const r = this.runs.get(id)
    return r?.workspace === ws ? r : undefined
  }
  finding(ws: WorkspaceName, id: string): FindingRecord | undefined {
    const f = this.findings.get(id)
    return f?.workspace === ws ? f : undefined
  }
  modelsOf(ws: WorkspaceName): ModelRecord[] {
    return [...this.models.values()].filter((m) => m.workspace === ws)
  }
  runsOfModel(modelId: string): RunRecord[] {
    return [...this.runs.values()].filter((r) => r.model_id === modelId).sort((a, b) => b.seq - a.seq)
  }
  findingsOfRun(run: RunRecord): FindingRecord[] {
    return run.finding_ids.map((id) => this.findings.get(id)).filter((f) => f !== undefined)
  }
  activeRun(modelId: string): RunRecord | undefined {
    return this.runsOfModel(modelId).find((r) => r.status === 'running')
  }

  /**
   * A JSON snapshot of everything observable (tests compare it around a
   * refused request to show bad input changes nothing).
   */
  snapshot(): string {
    return JSON.stringify({
      // the live target client is not state; JSON leaves out a key whose value is undefined
      models: [...this.models.values()].map((m) => ({ ...m, target: undefined })),
      runs: [...this.runs.values()],
      findings: [...this.findings.values()],
      replays: [...this.replays.values()],
      profiles: [...this.profiles.entries()],
      dismissals: [...this.dismissals.entries()],
      credentials: [...this.credentials]
    })
  }
}
