/** The result of validate mode: the outcomes counted, and whether it fails (src/decision/validation-result.ts). */
import { validationResult } from '../decision/validation-result.js'
import type { Selected } from './candidates.js'
import { safeId } from './outcomes.js'
import type { ValidatedFinding, ValidateModeArgs, ValidateModeResult, ValidationOutcome } from './validate-types.js'

export function summarise(
  findings: ValidatedFinding[],
  selected: Pick<Selected, 'runsScanned' | 'runsListed'>,
  args: ValidateModeArgs
): ValidateModeResult {
  const count = (o: ValidationOutcome): number => findings.filter((f) => f.outcome === o).length
  const counts = {
    total: findings.length,
    resolved: count('resolved'),
    stillBroken: count('still_broken'),
    notEligible: count('not_eligible'),
    notAttempted: count('not_attempted'),
    runsListed: selected.runsListed,
    runsScanned: selected.runsScanned
  }
  const { failed, reason } = validationResult(counts, { model: safeId(args.modelId), failOnIncomplete: args.failOnIncomplete })
  const { resolved, stillBroken, notEligible, notAttempted, runsScanned } = counts
  return { findings, resolved, stillBroken, notEligible, notAttempted, runsScanned, failed, reason }
}
