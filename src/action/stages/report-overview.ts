/**
 * mode: overview, in the action: the workspace read with the same engine as
 * `agent-security-gate overview` (src/overview/: reads only, bounded
 * concurrency, the client's retries wait out a 429), rendered as the job
 * summary and, with `issue: update`, one tracking issue kept up to date, open
 * whatever it says (a dashboard, not an alarm that closes). The overview's
 * JSON is the report file. Never a pull-request comment: it is of the
 * workspace, not of a change.
 */
import { buildOverview } from '../../overview/engine.js'
import { overviewMarkdown } from '../../overview/markdown.js'
import type { OverviewPage } from '../../overview/page-model.js'
import { OVERVIEW_CONCURRENCY, readOverview } from '../../overview/read.js'
import { overviewJson } from '../../overview/text.js'
import { commentMarker } from '../../report/comment.js'
import { Deadline } from '../../util/clock.js'
import type { OverviewInputs } from '../inputs/read-inputs.js'
import type { OverviewOutcome } from '../outcome.js'
import type { StepContext } from './stage-context.js'
import { scrubbedModel, type RenderedReport } from './report.js'

/** The tracking issue's marker: one overview issue per repository, apart from every model's. */
export const OVERVIEW_MARKER = commentMarker('workspace#overview')

/** The page's status as the step's result, in the words every mode's outputs use. */
export const OVERVIEW_RESULT: Record<OverviewPage['verdict']['status'], OverviewOutcome['result']> = {
  clear: 'pass',
  attention: 'fail',
  incomplete: 'incomplete'
}

/** Every model of the workspace and its recent runs, read within timeout_minutes; progress in the log. Only the inventory failing throws. */
export async function readWorkspace(ctx: StepContext, inputs: OverviewInputs): Promise<OverviewPage> {
  const api = ctx.makeApi(inputs, Deadline.after(ctx.clock, inputs.timeoutMs))
  const read = await readOverview({
    api,
    now: ctx.clock.now(),
    maxAgeDays: inputs.evidenceMaxAgeDays,
    minSeverity: inputs.minSeverity,
    concurrency: OVERVIEW_CONCURRENCY,
    signal: ctx.signal,
    progress: (line) => {
      ctx.io.log.info(line)
    }
  })
  return scrubbedModel(ctx, buildOverview(read))
}

/** The page as the job summary, the tracking issue and the JSON report file. */
export async function reportOverview(ctx: StepContext, page: OverviewPage): Promise<RenderedReport> {
  const markdown = overviewMarkdown(page)
  const reportPath = await ctx.io.writeReportFile('overview', 'json', overviewJson(page))
  return {
    outcome: { kind: 'overview', result: OVERVIEW_RESULT[page.verdict.status], reportPath, assessmentsSpent: 0 },
    annotations: [],
    summary: markdown,
    github: {
      marker: OVERVIEW_MARKER,
      commentBody: () => markdown,
      issueTitle: `Agent security overview: ${page.verdict.headline}`.slice(0, 200),
      // Kept open and rewritten on every run, whatever the page says: the overview is read, not resolved.
      failing: true
    },
    log: [],
    whenCancelled: 'summary'
  }
}
