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
import { plural } from '../util/text.js'
import { clampMaxRuns, selectCandidates } from './candidates.js'
import { safeId } from './outcomes.js'
import { replayAll } from './replay-loop.js'
import { summarise } from './result.js'

export {
  VALIDATION_OUTCOMES,
  type ValidatedFinding,
  type ValidateModeArgs,
  type ValidateModeDeps,
  type ValidateModeResult,
  type ValidationOutcome
} from './validate-types.js'
import type { ValidateModeArgs, ValidateModeDeps, ValidateModeResult } from './validate-types.js'

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
