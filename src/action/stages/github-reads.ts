/**
 * The GitHub client of the step's reads around the run: the pull request of a
 * deployed commit, the queued pull requests, the records of earlier
 * assessments, comparisons. Reads only: every write goes through the
 * scrubbing edge (scrubbed-io.ts).
 */
import { createGitHubClient, type GitHubClient } from '../../github/github-client.js'
import { Deadline } from '../../util/clock.js'
import { nonEmpty } from '../../util/text.js'
import type { StepContext } from './stage-context.js'

/** Budget of the reads of one stage: they must not hold the check for long. */
export const GITHUB_READS_BUDGET_MS = 60_000

/** The client, or null when github_token is empty (nothing can be read then). */
export async function githubReads(ctx: StepContext, token: string): Promise<GitHubClient | null> {
  if (token === '') return null
  return createGitHubClient({
    token,
    apiUrl: nonEmpty(ctx.io.env.GITHUB_API_URL) ?? 'https://api.github.com',
    clock: ctx.clock,
    deadline: Deadline.after(ctx.clock, GITHUB_READS_BUDGET_MS),
    signal: ctx.signal,
    log: ctx.io.log,
    random: ctx.random
  })
}
