/**
 * The inputs table: every input of the action, once, in action.yml's order.
 * Each entry (spec.ts) is declared in the file of its concern; from this list
 * come INPUT_DEFAULTS (defaults.ts), the command line's options
 * (src/cli/options.ts), and action.yml's inputs and README's table
 * (scripts/input-docs.ts writes both; a test holds them equal). Pure.
 */
import { PIPELINE_INPUTS } from './pipeline.js'
import { BASELINE_INPUTS, GATE_INPUTS } from './policy-entries.js'
import { RUN_INPUTS, SERVICE_INPUTS } from './step.js'
import { REGISTRATION_INPUTS, TARGET_INPUTS } from './target-entries.js'

export const INPUT_TABLE = [
  ...TARGET_INPUTS,
  ...SERVICE_INPUTS,
  ...GATE_INPUTS,
  ...RUN_INPUTS,
  ...REGISTRATION_INPUTS,
  ...BASELINE_INPUTS,
  ...PIPELINE_INPUTS
] as const

/** The name of an input of the action. */
export type InputName = (typeof INPUT_TABLE)[number]['name']
