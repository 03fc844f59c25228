/**
 * The defaults the code applies to an empty input, by name, from the inputs
 * table (table.ts); action.yml shows the same (scripts/input-docs.ts writes
 * it). Inputs that are required, or whose default the runner evaluates
 * (github_token), have none here.
 */
import type { AnyInputSpec } from './spec.js'
import { INPUT_TABLE, type InputName } from './table.js'

export const INPUT_DEFAULTS: Readonly<Partial<Record<InputName, string>>> = Object.fromEntries(
  (INPUT_TABLE as readonly AnyInputSpec[])
    .filter((s) => s.required !== true && s.runnerDefault === undefined)
    .map((s) => [s.name, s.default])
)
