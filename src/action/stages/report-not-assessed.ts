/**
 * Stage report, when the step ends without a result (a refusal, an
 * unreachable service, a configuration mistake, a cancelled job, a bug): a
 * short "not assessed" report for the job summary and, when there are inputs
 * to publish with and a model to key it on, the sticky comment or tracking
 * issue, replacing the previous result (which it names) so nothing green
 * stays on a red check.
 */
import { commentMarker, previousResult } from '../../report/comment.js'
import { notAssessedTitle, renderNotAssessed, type NotAssessedInput } from '../../report/not-assessed.js'
import type { PullRequestRef } from '../../github/sticky-comment.js'
import { budgetLine } from '../../pipeline/budget.js'
import type { AgentIdentity } from '../../pipeline/identity.js'
import { envInputReader, type ActionInputs } from '../inputs/read-inputs.js'
import { startedRun } from '../saved-state.js'
import type { StepContext } from './stage-context.js'
import { assessedNow, runLinkLabel, runUrl, scrubbedModel, type RenderedReport } from './report.js'
import type { StepFailure } from './conclude.js'

/** What the failed step knew of its event: the commit it was about, the pull request of a deployed commit. */
export interface FailedAt {
  commit: string | null
  pullRequest?: PullRequestRef | null
  /** The agent, once the event was planned: the report names it and its comment is replaced. */
  agent?: AgentIdentity | null
}

export async function reportNotAssessed(
  ctx: StepContext,
  inputs: ActionInputs | null,
  failure: StepFailure,
  at: FailedAt = { commit: null }
): Promise<RenderedReport> {
  const { io } = ctx
  const agent = inputs?.mode === 'validate' ? null : (at.agent ?? null)
  const modelId = agent?.display ?? inputs?.modelId ?? (envInputReader(io.env)('model_id').trim() || 'the model')
  const assessed = await assessedNow(ctx, at.commit)
  // A run this step created was spent, whatever failed after it.
  const runId = startedRun(io)
  const spent = budgetLine(
    runId === null
      ? { kind: 'not_assessed', reason: failure.cause }
      : { kind: 'assessed', runId, sha: assessed.sha, reason: `then ${failure.cause}` }
  )
  const input = scrubbedModel<NotAssessedInput>(ctx, {
    modelId,
    mode: inputs?.mode === 'validate' ? 'validate' : 'gate',
    ...failure,
    commitSha: assessed.sha,
    assessedAt: assessed.at,
    runUrl: runUrl(io.env),
    runLinkLabel: runLinkLabel(io.env),
    budgetLine: inputs?.mode === 'validate' ? null : spent.line
  })
  // A configuration mistake leaves no inputs to publish with; a comment is keyed on the agent, else the model.
  const keyed = inputs !== null && (inputs.modelId !== '' || agent?.targetName != null)
  const marker = commentMarker(agent !== null ? agent.commentKey : inputs?.mode === 'validate' ? `${modelId}#validate` : modelId)
  return {
    outcome: { kind: 'not_assessed', result: 'error', assessmentsSpent: inputs?.mode === 'validate' ? null : spent.spent },
    annotations: [],
    summary: renderNotAssessed(input),
    github: keyed
      ? {
          marker,
          commentBody: (existing) =>
            renderNotAssessed(input, { marker, previous: existing === null ? undefined : previousResult(existing) }),
          issueTitle: notAssessedTitle(input),
          failing: true,
          ...(at.pullRequest ? { pullRequest: at.pullRequest } : {})
        }
      : null,
    log: [],
    whenCancelled: 'summary'
  }
}
