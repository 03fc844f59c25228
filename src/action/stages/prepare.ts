/**
 * Stage prepare: the inputs, read and checked before any request; the model
 * to assess (model_id, or endpoint_url found or registered); its profile
 * synced from profile_file. The model's outputs are set as soon as it is
 * known, so a step that fails later still names it.
 */
import { envInputReader, readInputs, type ActionInputs } from '../inputs.js'
import { prepareTarget, type Prepared } from '../prepare-target.js'
import type { StepContext } from './context.js'

export interface PreparedStep {
  /** The inputs, with the model_id resolved. */
  inputs: ActionInputs
  /** What the report says about the target and the profile sync. */
  report: Prepared['report']
}

/** Every input, read and validated; a mistake is a ConfigError naming the input. */
export function readStepInputs(ctx: StepContext): ActionInputs {
  return readInputs(envInputReader(ctx.io.env))
}

export async function prepare(ctx: StepContext, given: ActionInputs): Promise<PreparedStep> {
  const { io } = ctx
  const prepared = await prepareTarget(
    {
      io,
      clock: ctx.clock,
      signal: ctx.signal,
      random: ctx.random,
      makeApi: (deadline, requestTimeoutMs) => ctx.makeApi(given, deadline, { requestTimeoutMs })
    },
    given
  )
  const inputs = { ...given, modelId: prepared.target.modelId }
  io.setOutput('model_id', inputs.modelId)
  if (prepared.target.outcome !== 'given') io.setOutput('target', prepared.target.outcome)
  const version = prepared.report.profileSync?.version
  if (version != null) io.setOutput('profile_version', String(version))
  return { inputs, report: prepared.report }
}
