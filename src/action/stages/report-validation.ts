/**
 * Stage report, validate mode: the result of the replays as report.json, the
 * outputs, the job summary and the comment (marked apart from the gate's, so
 * the two never replace each other).
 */
import { commentMarker } from '../../report/comment.js'
import { renderValidationMarkdown, validationTitle } from '../../report/validation.js'
import type { ValidateModeResult } from '../../validate/validate-mode.js'
import type { ActionInputs } from '../inputs/read-inputs.js'
import type { StepContext } from './stage-context.js'
import { assessedNow, runLinkLabel, runUrl, scrubbedModel, type RenderedReport } from './report.js'

export async function reportValidation(ctx: StepContext, inputs: ActionInputs, validated: ValidateModeResult): Promise<RenderedReport> {
  const { io } = ctx
  const result = scrubbedModel(ctx, validated)
  const assessed = await assessedNow(ctx)
  const markdown = renderValidationMarkdown(result, {
    modelId: inputs.modelId,
    commitSha: assessed.sha,
    assessedAt: assessed.at,
    runUrl: runUrl(io.env),
    runLinkLabel: runLinkLabel(io.env)
  })
  const reportPath = await io.writeReportFile(`validation-${inputs.modelId}`, 'json', JSON.stringify(result, null, 2))
  return {
    outcome: {
      kind: 'validated',
      result: result.failed ? 'fail' : 'pass',
      resolvedCount: result.resolved,
      stillBrokenCount: result.stillBroken,
      notAttemptedCount: result.notAttempted,
      reportPath
    },
    annotations: [],
    summary: markdown,
    github: {
      marker: commentMarker(`${inputs.modelId}#validate`),
      commentBody: () => markdown,
      issueTitle: validationTitle(result, inputs.modelId),
      failing: result.failed
    },
    log: [],
    whenCancelled: 'all'
  }
}
