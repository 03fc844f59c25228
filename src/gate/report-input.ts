/**
 * What one assessment read and decided, as the input of buildReport: the
 * report's facts come from the gate's outcome, never from the service again.
 * Pure.
 */
import type { ReportInput } from '../report/report-model.js'
import type { Severity } from '../service/contract/index.js'
import type { GateOutcome } from './assess-run.js'

/**
 * What the assessment read and decided, as the input of buildReport (notes on
 * how the run was reached first); the caller adds the policy it applied.
 */
export function assessmentReportInput(
  outcome: GateOutcome,
  context: Pick<ReportInput, 'target' | 'profileSync'> & {
    modelId: string
    minSeverity: Severity
    runUrl: string | null
    secrets: string[]
  }
): Omit<ReportInput, 'policy'> {
  const { decision, run, results, triggered } = outcome
  return {
    ...context,
    model: results.model,
    result: decision.result,
    reason: decision.reason,
    verdict: decision.verdict,
    verdictComputed: decision.verdictComputed,
    run,
    runListItem: results.runListItem,
    coverage: results.coverage,
    findings: results.findings,
    elapsedMs: outcome.elapsedMs,
    notes: [
      ...(triggered.recovered
        ? ['The answer to the trigger was lost; the run was found in the run list (it appeared after our request).']
        : []),
      ...(triggered.waitedFor.length > 0
        ? [`Waited for run(s) ${triggered.waitedFor.join(', ')} of this model to end before triggering.`]
        : []),
      ...decision.notes,
      ...results.notes
    ]
  }
}
