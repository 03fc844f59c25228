/**
 * Whether validate mode fails, and the line that says why: a fix that does
 * not hold fails it; a finding that could not be validated fails it unless
 * fail_on_incomplete is false.
 */
import { plural } from '../util/text.js'

export interface ValidationCounts {
  /** Findings marked fixed that were up for validation. */
  total: number
  resolved: number
  stillBroken: number
  notEligible: number
  notAttempted: number
  /** Runs listed, and those among them whose findings were read. */
  runsListed: number
  runsScanned: number
}

export function validationResult(
  c: ValidationCounts,
  opts: { model: string; failOnIncomplete: boolean }
): { failed: boolean; reason: string } {
  const failed = c.stillBroken > 0 || (c.notAttempted > 0 && opts.failOnIncomplete)
  const { model } = opts
  if (c.total === 0 && c.runsListed === 0) return { failed, reason: `Model ${model} has no runs yet: nothing to validate.` }
  if (c.total === 0) {
    return {
      failed,
      reason: `No findings marked fixed in the ${plural(c.runsListed, 'most recent run')} of model ${model} (${c.runsScanned} with readable findings): nothing to validate.`
    }
  }
  const parts: string[] = []
  if (c.stillBroken > 0) parts.push(`${c.stillBroken} still broken`)
  if (c.notAttempted > 0) parts.push(`${c.notAttempted} not attempted`)
  if (c.resolved > 0) parts.push(`${c.resolved} resolved`)
  if (c.notEligible > 0) parts.push(`${c.notEligible} not eligible`)
  const head = `${plural(c.total, 'fixed finding')} of model ${model}: ${parts.join(', ')}.`
  if (c.stillBroken > 0) return { failed, reason: `${head} Failing: a fix does not hold.` }
  if (c.notAttempted > 0 && opts.failOnIncomplete)
    return { failed, reason: `${head} Failing: not every finding could be validated (set fail_on_incomplete: false to pass anyway).` }
  if (c.notAttempted > 0)
    return { failed, reason: `${head} Passing: fail_on_incomplete is false, so findings not attempted do not fail the step.` }
  return { failed, reason: `${head} Every fix that could be checked holds.` }
}
