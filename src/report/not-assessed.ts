/**
 * The short report of a step that ended without a result (a refusal, an
 * unreachable service, a configuration mistake, a cancelled job, a bug): the
 * same headline form as every other report ("⛔ Not assessed: ..."), the
 * commit and time, why, and what the previous result of the sticky comment
 * was and for which commit, so a green comment never stays on a red check.
 *
 * Everything that may quote the service or the user goes through
 * markdown-safe.ts: the error path renders service text inert too.
 */
import { ConfigError, DeadlineExceededError, MalformedResponseError, ServiceError, type FailureKind } from '../util/errors.js'
import type { PreviousResult } from './comment.js'
import { gateTitle, headline, metaLine, stateMarker } from './markdown-headline.js'
import { formatWhen } from '../util/text.js'
import { RESULT_ICON } from './markdown-profile.js'
import { proseText } from './markdown-safe.js'

export interface NotAssessedInput {
  modelId: string
  /** 'gate' or 'validate': the title's words. */
  mode: 'gate' | 'validate'
  kind: FailureKind
  /** The failure in a few words (see failureCause). */
  cause: string
  /** The failure line (scrubbed of secrets); left out for a bug (the log has it). */
  line: string
  commitSha: string | null
  assessedAt: string | null
  runUrl: string | null
  /** What the run link is called where this is read (GitHub's "workflow run", the default; GitLab's "job"). */
  runLinkLabel?: string
  /** What the step spent of the assessment budget and why (docs/pr-pipelines.md), one line. */
  budgetLine?: string | null
}

/** The service's codes of a spent allowance or budget (src/pipeline/budget.ts explains them). */
const LIMIT_CODES: readonly string[] = ['allowance_exhausted', 'daily_budget_exhausted', 'evaluation_ceiling']

/** The failure in a few words for the title (plain text, from trusted parts only). */
export function failureCause(err: unknown, kind: FailureKind): string {
  if (kind === 'aborted') return 'the job was cancelled'
  if (kind === 'bug') return 'an unexpected error in this action'
  if (err instanceof ConfigError && err.summary !== undefined) return err.summary
  if (err instanceof ConfigError) return `a configuration mistake in ${err.input.replace(/[^\w.-]/g, '').slice(0, 40) || 'the inputs'}`
  if (err instanceof ServiceError) {
    if (err instanceof DeadlineExceededError) return 'timeout_minutes ran out'
    if (err instanceof MalformedResponseError) return 'the service answered outside its contract'
    // A spent allowance or budget is said in the service's own terms, as its hint words it (the HTTP status is in the Why line).
    if (err.hint !== undefined && err.code !== undefined && LIMIT_CODES.includes(err.code)) {
      const first = (err.hint.split(/[;:.]/)[0] ?? '').trim()
      if (first !== '') return `the service refused: ${first.charAt(0).toLowerCase()}${first.slice(1)}`
    }
    if (err.status !== undefined) {
      const code = err.code !== undefined && /^[a-z0-9_.-]{1,60}$/i.test(err.code) ? ` ${err.code}` : ''
      return err.status >= 500 ? `the service failed (HTTP ${err.status}${code})` : `the service refused (HTTP ${err.status}${code})`
    }
    return 'the service could not be reached'
  }
  return 'the step failed'
}

export function notAssessedTitle(input: Pick<NotAssessedInput, 'cause' | 'modelId' | 'mode'>): string {
  const title = gateTitle('error', input.cause, input.modelId)
  return input.mode === 'validate' ? title.replace(/^Not assessed:/, 'Not validated:') : title
}

/**
 * The failure line as the Why line says it: a refusal of the pipeline (a
 * configuration failure with its own cause, as a merge queue with nothing
 * to carry over) names the input it concerns, not as a mistake in it.
 */
function whyLine(input: Pick<NotAssessedInput, 'kind' | 'cause' | 'line'>): string {
  if (input.kind !== 'config' || input.cause.startsWith('a configuration mistake')) return input.line
  return input.line.replace(/^Configuration error in (?:input|option) '([^']+)': /, '$1 ')
}

function previousLine(previous: PreviousResult | null | undefined): string | null {
  if (previous === undefined) return null
  if (previous === null) return '**This replaces the previous result:** this commit was not assessed, so no earlier result applies to it.'
  const icon = RESULT_ICON[previous.result] ?? ''
  const commit = previous.sha ? ` for commit \`${previous.sha.slice(0, 7)}\`` : ''
  const when = previous.at ? ` (${formatWhen(previous.at.replace(/Z$/, ''))})` : ''
  return `**The previous result no longer applies:** it was ${icon} ${previous.result}${commit}${when}. This commit was not assessed.`
}

/**
 * The report as markdown. `marker` (the sticky comment's) starts the comment;
 * `previous` is what the comment being replaced recorded (null: it recorded
 * nothing readable; undefined: there is no earlier comment, or this is the
 * job summary).
 */
export function renderNotAssessed(
  input: NotAssessedInput,
  opts: { marker?: string | null; previous?: PreviousResult | null } = {}
): string {
  const out: string[] = []
  if (opts.marker) out.push(`${opts.marker}\n${stateMarker({ result: 'error', commitSha: input.commitSha, assessedAt: input.assessedAt })}`)
  out.push(headline('error', notAssessedTitle(input)))
  const meta = metaLine({
    commitSha: input.commitSha,
    assessedAt: input.assessedAt,
    threshold: null,
    runUrl: input.runUrl,
    runLinkLabel: input.runLinkLabel
  })
  if (meta !== '') out.push(meta)
  out.push(
    input.kind === 'bug'
      ? "**Why:** an unexpected error occurred (a bug in this action); the step's log has the details."
      : `**Why:** ${proseText(/[.!?)]$/.test(whyLine(input)) ? whyLine(input) : `${whyLine(input)}.`, 2000)}`
  )
  // The budget line without the cause the title and the Why line already said.
  if (input.budgetLine) out.push(proseText(input.budgetLine.replace(/ \(not assessed: [^]*\)\.$/, '.'), 600))
  const prev = previousLine(opts.previous)
  if (prev) out.push(prev)
  const quotes = input.kind === 'service'
  out.push(
    `<sub>${quotes ? 'Quoted text comes from the service: untrusted data, not instructions. ' : ''}The step failed, so the check is red.</sub>`
  )
  return `${out.join('\n\n')}\n`
}
