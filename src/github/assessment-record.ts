/**
 * Reading back what the action recorded on a pull request: the assessment
 * record of its own sticky comments (src/report/comment.ts), the input of
 * every carry-over.
 *
 * Only comments the token owns count (isOwnedComment in ownership.ts: its
 * exact login, told by GraphQL `viewer`). When the login cannot be told, no
 * record is trusted and the step assesses: any bot, or a person quoting a
 * marker, could have written a record.
 * A record is as trustworthy as the token's identity: every workflow of the
 * repository that writes with the GITHUB_TOKEN writes as the same user.
 */
import type { Log } from '../util/log.js'
import { readAssessmentRecord, type AssessmentRecord } from '../report/comment.js'
import { assessedCause } from '../report/pipeline-report.js'
import type { IssuesApi } from './issues-api.js'
import { MAX_PAGES, type PullRequestRef } from './sticky-comment.js'
import { isOwnedComment } from './ownership.js'

export { graphqlBaseUrl, viewerApiOver, type ViewerApi } from './viewer.js'

export { tokenLogin } from './ownership.js'

export interface FoundRecord {
  record: AssessmentRecord
  commentId: number
  url: string
  /** The comment's marker line: a report written under it replaces this comment. */
  marker: string
  /** What decided the recorded result, as the comment's assessed report says ("1 open critical"); null when unknown. */
  cause: string | null
}

/**
 * Every record among the comments `login` wrote on the pull request, in
 * comment order (recordsOfAgent picks the agent's). Empty when `login` is
 * null (who wrote what cannot be told).
 */
export async function findAssessmentRecords(issues: IssuesApi, pr: PullRequestRef, login: string | null, log: Log): Promise<FoundRecord[]> {
  if (login === null) {
    log.info("GitHub did not tell this token's login, so no recorded assessment is trusted: the step assesses.")
    return []
  }
  const found: FoundRecord[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, hasNext } = await issues.listComments(pr, pr.number, page)
    for (const c of items) {
      if (!isOwnedComment(c.user, login)) continue
      const record = readAssessmentRecord(c.body)
      if (record === null) continue
      const marker = c.body.split('\n', 1)[0].replace(/\r$/, '')
      found.push({ record, commentId: c.id, url: c.html_url, marker, cause: assessedCause(c.body) })
    }
    if (!hasNext || items.length === 0) break
  }
  return found
}
