/**
 * Stage publish: a rendered report out to every sink, all through the
 * scrubbing edge: the annotations and the job summary,
 * the sticky comment (pull requests) or the tracking issue (other events),
 * then the log lines. Publishing never changes the result: GitHub failures
 * are warnings (see publishToGitHub). Returns the report's outcome with the
 * comment written, for the shell to render.
 */
import type { PublishSettings } from '../../github/publish.js'
import type { EndOutcome } from '../outcome.js'
import type { StepContext } from './stage-context.js'
import type { RenderedReport } from './report.js'

/** `settings` null: the inputs could not be read, so nothing goes to GitHub. */
export async function publish(ctx: StepContext, settings: PublishSettings | null, report: RenderedReport): Promise<EndOutcome> {
  const { io } = ctx
  let outcome = report.outcome
  if (!(ctx.signal.aborted && report.whenCancelled === 'outputs')) {
    for (const a of report.annotations) io.annotate(a.level, a.message, a.title)
    await io.appendSummary(report.summary)
    if (report.github !== null && settings !== null && !(ctx.signal.aborted && report.whenCancelled === 'summary')) {
      const published = await io.publish({ inputs: settings, ...report.github })
      if (published.commentUrl && (outcome.kind === 'assessed' || outcome.kind === 'carried_over'))
        outcome = { ...outcome, commentUrl: published.commentUrl }
    }
  }
  for (const line of report.log) io.log.info(line)
  return outcome
}
