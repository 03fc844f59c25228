/**
 * `mode: validate`: re-run the attacks of every finding marked fixed among the
 * model's recent runs (POST /findings/{id}/validate, section 4.10) and report
 * which fixes hold. In order:
 * - the selection (candidates.ts): the fixed findings of the recent terminal
 *   runs, deduplicated, most severe first;
 * - the replay loop (replay-loop.ts): one validation at a time
 *   (validate-finding.ts, following a running one with follow.ts), the rest
 *   not attempted once the deadline or an answer for all ends it;
 * - the result (result.ts): the outcomes counted, and whether they fail the
 *   step (src/decision/validation-result.ts).
 */
import type { FindingStatus, ReplayStatus, Severity } from '../service/contract/index.js'
import type { ServiceCallDeps } from '../service/service-api.js'
import { plural } from '../util/text.js'
import { clampMaxRuns, selectCandidates } from './candidates.js'
import { safeId } from './outcomes.js'
import { replayAll } from './replay-loop.js'
import { summarise } from './result.js'

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

/** The whole of validate mode: select, validate one at a time, sum up. */
export async function runValidateMode(deps: ValidateModeDeps, args: ValidateModeArgs): Promise<ValidateModeResult> {
  const { log } = deps
  log.info(`Looking for findings marked fixed in the ${clampMaxRuns(args.maxRuns)} most recent runs of model ${safeId(args.modelId)}.`)
  const selected = await selectCandidates(deps, args.modelId, args.maxRuns)
  log.info(`Found ${plural(selected.candidates.length, 'finding')} marked fixed across ${plural(selected.runsScanned, 'run')}.`)
  const findings = await replayAll(deps, selected.candidates)
  const result = summarise(findings, selected, args)
  log.info(result.reason)
  return result
}
