/**
 * The vocabulary of validate mode, a leaf every step of it reads: the outcome
 * of one finding's replay, the finding as validated, the mode's arguments,
 * dependencies and result.
 */
import type { FindingStatus, ReplayStatus, Severity } from '../service/contract/index.js'
import type { ServiceCallDeps } from '../service/service-api.js'

export type ValidationOutcome = 'resolved' | 'still_broken' | 'not_eligible' | 'not_attempted'

export const VALIDATION_OUTCOMES: readonly ValidationOutcome[] = ['resolved', 'still_broken', 'not_eligible', 'not_attempted']

export interface ValidatedFinding {
  finding_id: string
  category: string
  severity: Severity
  /** The run whose findings list holds the finding (used to follow it). */
  run_id: string
  outcome: ValidationOutcome
  /** One line: why, e.g. "proof withheld by the plan", "timed out while validating". May quote service text. */
  detail: string
  /** The finding's status after this step, as last seen; null when unknown. */
  finding_status: FindingStatus | null
  attacks: { attack_id: string; last_replay_status: ReplayStatus }[]
}

export interface ValidateModeResult {
  findings: ValidatedFinding[]
  resolved: number
  stillBroken: number
  notEligible: number
  notAttempted: number
  /** Runs whose findings were read. */
  runsScanned: number
  /** Any still broken, or any not attempted unless failOnIncomplete is false. */
  failed: boolean
  /** One line summing the outcome (may quote the model id). */
  reason: string
}

export type ValidateModeDeps = ServiceCallDeps

export interface ValidateModeArgs {
  modelId: string
  maxRuns: number
  failOnIncomplete: boolean
}
