/**
 * The REST calls of the sticky comment and the tracking issue: the token's
 * login, an issue's comments, the open issues, and creating and updating
 * both, behind a small interface (`IssuesApi`) so that those are tested
 * against a stand-in server or a fake.
 */
import { GitHubError } from '../util/errors.js'
import { isRecord } from '../util/text.js'
import { PER_PAGE, readPage, type Page } from './pages.js'
import { repoPath, type Call, type FindExisting, type RepoRef } from './transport.js'

export interface GitHubUser {
  login: string
  /** 'User', 'Bot' or 'Organization'. */
  type?: string
}

export interface IssueComment {
  id: number
  body: string
  user: GitHubUser | null
  html_url: string
}

export interface Issue {
  number: number
  title: string
  body: string | null
  state: string
  html_url: string
  user: GitHubUser | null
  /** Present when the "issue" is a pull request. */
  pull_request?: unknown
}

/** The REST calls used for the sticky comment and the tracking issue. */
export interface IssuesApi {
  /** GET /user: the login of the token's user, or null when the token cannot tell (installation tokens get 403). */
  authenticatedLogin(): Promise<string | null>
  /** GET /repos/{owner}/{repo}/issues/{n}/comments, one page of 100 (page from 1). */
  listComments(repo: RepoRef, issueNumber: number, page: number): Promise<Page<IssueComment>>
  createComment(repo: RepoRef, issueNumber: number, body: string, findExisting?: FindExisting<IssueComment>): Promise<IssueComment>
  updateComment(repo: RepoRef, commentId: number, body: string): Promise<IssueComment>
  /** GET /repos/{owner}/{repo}/issues?state=open, one page of 100 (pull requests included, as GitHub returns them). */
  listOpenIssues(repo: RepoRef, page: number): Promise<Page<Issue>>
  createIssue(repo: RepoRef, fields: { title: string; body: string }, findExisting?: FindExisting<Issue>): Promise<Issue>
  updateIssue(
    repo: RepoRef,
    issueNumber: number,
    fields: { title?: string; body?: string; state?: 'open' | 'closed'; state_reason?: 'completed' | 'not_planned' | 'reopened' }
  ): Promise<Issue>
}

function asUser(data: unknown): GitHubUser | null {
  if (!isRecord(data) || typeof data.login !== 'string') return null
  return { login: data.login, type: typeof data.type === 'string' ? data.type : undefined }
}

function asComment(data: unknown, endpoint: string): IssueComment {
  if (!isRecord(data) || typeof data.id !== 'number') {
    throw new GitHubError({ endpoint, message: 'GitHub answered without a comment id', transient: true })
  }
  const user = asUser(data.user)
  return {
    id: data.id,
    body: typeof data.body === 'string' ? data.body : '',
    user,
    html_url: typeof data.html_url === 'string' ? data.html_url : ''
  }
}

function asIssue(data: unknown, endpoint: string): Issue {
  if (!isRecord(data) || typeof data.number !== 'number') {
    throw new GitHubError({ endpoint, message: 'GitHub answered without an issue number', transient: true })
  }
  const user = asUser(data.user)
  const issue: Issue = {
    number: data.number,
    title: typeof data.title === 'string' ? data.title : '',
    body: typeof data.body === 'string' ? data.body : null,
    state: typeof data.state === 'string' ? data.state : 'open',
    html_url: typeof data.html_url === 'string' ? data.html_url : '',
    user
  }
  if (data.pull_request !== undefined && data.pull_request !== null) issue.pull_request = data.pull_request
  return issue
}

/** GET /user, with "the token cannot tell" (401, 403, 404) as null. */
async function authenticatedLogin(call: Call): Promise<string | null> {
  try {
    return await call('GET', '/user', 'GET /user', {}, (res) => {
      const d = res.data
      return isRecord(d) && typeof d.login === 'string' ? d.login : null
    })
  } catch (err) {
    if (err instanceof GitHubError && (err.status === 403 || err.status === 401 || err.status === 404)) return null
    throw err
  }
}

/** The comment calls of an issue or pull request. */
function commentCalls(call: Call): Pick<IssuesApi, 'listComments' | 'createComment' | 'updateComment'> {
  return {
    listComments: (r, issueNumber, page) =>
      call(
        'GET',
        `${repoPath(r)}/issues/${issueNumber}/comments`,
        'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner: r.owner, repo: r.repo, issue_number: issueNumber, per_page: PER_PAGE, page },
        readPage(asComment)
      ),
    createComment: (r, issueNumber, body, findExisting) =>
      call(
        'POST',
        `${repoPath(r)}/issues/${issueNumber}/comments`,
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        { owner: r.owner, repo: r.repo, issue_number: issueNumber, body },
        (res, endpoint) => asComment(res.data, endpoint),
        findExisting
      ),
    updateComment: (r, commentId, body) =>
      call(
        'PATCH',
        `${repoPath(r)}/issues/comments/${commentId}`,
        'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
        { owner: r.owner, repo: r.repo, comment_id: commentId, body },
        (res, endpoint) => asComment(res.data, endpoint)
      )
  }
}

/** The issue calls: the open issues, creating and updating one. */
function issueCalls(call: Call): Pick<IssuesApi, 'listOpenIssues' | 'createIssue' | 'updateIssue'> {
  return {
    listOpenIssues: (r, page) =>
      call(
        'GET',
        `${repoPath(r)}/issues`,
        'GET /repos/{owner}/{repo}/issues',
        { owner: r.owner, repo: r.repo, state: 'open', per_page: PER_PAGE, page },
        readPage(asIssue)
      ),
    createIssue: (r, fields, findExisting) =>
      call(
        'POST',
        `${repoPath(r)}/issues`,
        'POST /repos/{owner}/{repo}/issues',
        { owner: r.owner, repo: r.repo, title: fields.title, body: fields.body },
        (res, endpoint) => asIssue(res.data, endpoint),
        findExisting
      ),
    updateIssue: (r, issueNumber, fields) =>
      call(
        'PATCH',
        `${repoPath(r)}/issues/${issueNumber}`,
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        { owner: r.owner, repo: r.repo, issue_number: issueNumber, ...fields },
        (res, endpoint) => asIssue(res.data, endpoint)
      )
  }
}

/** The IssuesApi over the retrying transport's `call`. */
export function issuesApi(call: Call): IssuesApi {
  return { authenticatedLogin: () => authenticatedLogin(call), ...commentCalls(call), ...issueCalls(call) }
}
