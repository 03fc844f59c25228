/**
 * Where each policy input (inputs/policy-entries.ts) acts. A `Record` over
 * every field of PolicyInputs, so a new entry does not compile until its row
 * says:
 * - `policy`: the field of PolicyChoices (src/decision/apply-policy.ts) that
 *   carries it to applyPolicy, through GateArgs.policy (policyChoices below);
 *   null: applyPolicy does not read it, and `acts` says what does;
 * - `verdict`: the field of VerdictValues (src/decision/carried-result.ts)
 *   that puts it in the assessment's identity, so a result decided under
 *   another value is never carried over; null: it is not in the identity.
 * Pure.
 */
import type { PolicyChoices } from '../decision/apply-policy.js'
import type { VerdictValues } from '../decision/carried-result.js'
import type { PolicyInputs } from './inputs/policy-entries.js'

export interface PolicyInputUse {
  /** What reads it, in a few words. */
  acts: string
  policy: keyof PolicyChoices | null
  verdict: keyof VerdictValues | null
}

export const POLICY_INPUT_USE: Record<keyof PolicyInputs, PolicyInputUse> = {
  minSeverity: {
    acts: 'GateArgs.minSeverity: the verdict asked of the service, decide() and applyPolicy',
    policy: null,
    verdict: 'minSeverity'
  },
  categories: { acts: 'GateArgs.categories: the trigger', policy: null, verdict: 'categories' },
  failOnIncomplete: { acts: "the step's result (gateStepResult)", policy: null, verdict: 'failOnIncomplete' },
  failOn: { acts: 'applyPolicy: known findings are waived', policy: 'failOn', verdict: 'failOn' },
  baselineRunId: { acts: 'the baseline read (stages/load-baseline-and-risks.ts)', policy: null, verdict: 'baselineRunId' },
  evidenceRuns: { acts: 'the window of evidence read', policy: null, verdict: 'evidenceRuns' },
  evidenceMaxAgeDays: { acts: 'the window of evidence read', policy: null, verdict: 'evidenceMaxAgeDays' },
  confidence: { acts: 'GateArgs.confirm', policy: null, verdict: 'confidence' },
  confirmationRunsMax: { acts: 'GateArgs.confirm', policy: null, verdict: 'confirmationRunsMax' },
  runsPerChange: { acts: 'GateArgs.runsPerChange', policy: null, verdict: 'runsPerChange' },
  acceptedRisksFile: { acts: 'the accepted-risks read; its text is in the identity', policy: null, verdict: 'acceptedText' },
  syncDismissals: { acts: 'the record stage (stages/record.ts)', policy: null, verdict: null },
  sarifMinSeverity: { acts: 'the SARIF file (stages/report.ts)', policy: null, verdict: null },
  sarifLocation: { acts: 'where the report files point (report-location.ts)', policy: null, verdict: null }
}

/** The choices applyPolicy reads, from the inputs (each a row above whose `policy` names it). */
export function policyChoices(inputs: PolicyInputs): PolicyChoices {
  return { failOn: inputs.failOn }
}
